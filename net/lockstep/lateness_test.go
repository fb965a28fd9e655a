package lockstep_test

import (
	"testing"
	"time"

	"rockstep/net/lockstep"
)

// TestLatenessQuantile: a quantile is the bound of the bucket that holds
// it, and the buckets tell one and two turns of two ticks apart.
func TestLatenessQuantile(t *testing.T) {
	var h [len(lockstep.LatenessBuckets) + 1]uint64
	if got := lockstep.LatenessQuantile(h, 0.99); got != 0 {
		t.Fatalf("empty histogram: %v, want 0", got)
	}
	bucket := func(d time.Duration) int {
		for i, b := range lockstep.LatenessBuckets {
			if d <= b {
				return i
			}
		}
		return len(lockstep.LatenessBuckets)
	}
	h[bucket(time.Millisecond)] = 980
	h[bucket(60*time.Millisecond)] = 15 // within two turns of two ticks
	h[bucket(2*time.Second)] = 5        // later than every bound
	turn := 2 * (time.Second / 60)      // a turn of two ticks
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{
		{0.5, time.Millisecond},
		{0.99, 2 * turn},
		{0.999, 2 * lockstep.LatenessBuckets[len(lockstep.LatenessBuckets)-1]}, // the last bucket: twice its lower bound
	} {
		want := c.want
		if got := lockstep.LatenessQuantile(h, c.q); got != want {
			t.Errorf("quantile %.3f = %v, want %v", c.q, got, want)
		}
	}
}
