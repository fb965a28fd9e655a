package tokenbucket

import (
	"testing"
	"time"
)

// TestTake: a new bucket is full; it refills at the rate, never above its
// size, and a clock that goes back refills nothing.
func TestTake(t *testing.T) {
	var b Bucket
	takes := func(at time.Duration) (n int) {
		for b.Take(at, 2, 4) {
			n++
		}
		return n
	}
	steps := []struct {
		at   time.Duration
		want int
	}{
		{1, 4},                             // full at first use
		{1 + time.Second, 2},               // 2 a second
		{1 + time.Second/2, 0},             // back in time: nothing
		{1 + time.Hour, 4},                 // never above the size
		{1 + time.Hour + time.Second/4, 0}, // half a token
		{1 + time.Hour + time.Second/2, 1},
	}
	for _, s := range steps {
		if got := takes(s.at); got != s.want {
			t.Errorf("at %v: %d tokens, want %d", s.at, got, s.want)
		}
	}
}
