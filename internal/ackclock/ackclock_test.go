package ackclock

import (
	"testing"
	"time"
)

const ms = time.Millisecond

func TestNoEstimateIsTheFloor(t *testing.T) {
	var c Clock
	if got := c.Timeout(50 * ms); got != 50*ms {
		t.Fatalf("timeout with no sample = %v, want the floor", got)
	}
	c.Resent()
	if got := c.Timeout(50 * ms); got != 100*ms {
		t.Fatalf("timeout after a resend = %v, want twice the floor", got)
	}
}

func TestSteadyWaitsSetTheTimeout(t *testing.T) {
	var c Clock
	for range 100 {
		c.Sample(120 * ms)
	}
	got := c.Timeout(50 * ms)
	if got < 120*ms || got > 130*ms {
		t.Fatalf("timeout after steady 120 ms waits = %v, want just above 120 ms", got)
	}
	// Fast acknowledgements never take it below the floor.
	for range 100 {
		c.Sample(ms)
	}
	if got := c.Timeout(50 * ms); got != 50*ms {
		t.Fatalf("timeout after 1 ms waits = %v, want the floor", got)
	}
}

func TestJitterWidensTheTimeout(t *testing.T) {
	var steady, jittery Clock
	for i := range 100 {
		steady.Sample(80 * ms)
		jittery.Sample(time.Duration(40+80*(i%2)) * ms) // 40 and 120 ms, 80 on average
	}
	if s, j := steady.Timeout(10*ms), jittery.Timeout(10*ms); j <= s+100*ms {
		t.Fatalf("timeout with ±40 ms jitter = %v, steady %v: want wider by four deviations", j, s)
	}
}

func TestBackoffDoublesUpToMax(t *testing.T) {
	var c Clock
	for range 10 {
		c.Sample(60 * ms)
	}
	base := c.Timeout(50 * ms)
	c.Resent()
	if got := c.Timeout(50 * ms); got != 2*base {
		t.Fatalf("after one resend = %v, want %v", got, 2*base)
	}
	for range 10 {
		c.Resent()
	}
	if got := c.Timeout(50 * ms); got != Max {
		t.Fatalf("after many resends = %v, want Max %v", got, Max)
	}
	c.Sample(60 * ms)
	if got := c.Timeout(50 * ms); got > base {
		t.Fatalf("after a sample = %v, want the doubling gone (%v at most)", got, base)
	}
	// A floor above Max wins.
	if got := c.Timeout(time.Second); got != time.Second {
		t.Fatalf("floor 1 s = %v", got)
	}
}

func TestNegativeWaitIsIgnored(t *testing.T) {
	var c Clock
	c.Sample(-time.Second)
	if got := c.Timeout(50 * ms); got != 50*ms {
		t.Fatalf("timeout after a negative sample = %v, want the floor", got)
	}
}

func TestLongWaitCountsAsMax(t *testing.T) {
	var c Clock
	for range 20 {
		c.Sample(20 * ms)
	}
	c.Sample(time.Hour) // a turn timed from long before
	for range 30 {
		c.Sample(20 * ms)
	}
	if got := c.Timeout(50 * ms); got > 60*ms {
		t.Fatalf("timeout 30 samples of 20 ms after an hour-long one = %v, want back near the floor", got)
	}
}
