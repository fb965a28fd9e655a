// Package testwait waits, in a test, for a condition that another
// goroutine or process brings about. It polls, and gives up only after a
// limit the caller makes generous enough for a loaded machine: a test
// asserts what happens, never how fast (that is for benchmarks).
package testwait

import "time"

// maxPause is the longest Until sleeps between two looks.
const maxPause = 20 * time.Millisecond

// Until calls cond until it returns true, and returns true; if cond has
// not held by limit, it returns false. It looks at once, again after a
// millisecond, and then less often, at least every 20 ms, so that a
// quick condition is seen quickly and a slow one costs little.
func Until(limit time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(limit)
	pause := time.Millisecond
	for !cond() {
		if !time.Now().Before(deadline) {
			return false
		}
		time.Sleep(pause)
		pause = min(2*pause, maxPause)
	}
	return true
}
