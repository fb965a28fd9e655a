package ackclock

import (
	"testing"
	"time"
)

const ms = time.Millisecond

// TestNoEstimateIsTheFloor: with no sample, or only a negative one (which
// is ignored), the timeout is the floor.
func TestNoEstimateIsTheFloor(t *testing.T) {
	var c Clock
	if got := c.Timeout(50 * ms); got != 50*ms {
		t.Fatalf("timeout with no sample = %v, want the floor", got)
	}
	c.Sample(-time.Second)
	if got := c.Timeout(50 * ms); got != 50*ms {
		t.Fatalf("timeout after a negative sample = %v, want the floor", got)
	}
}

func TestSteadyWaitsSetTheTimeout(t *testing.T) {
	var c Clock
	for range 100 {
		c.Sample(120 * ms)
	}
	if got := c.Timeout(50 * ms); got < 145*ms || got > 155*ms {
		t.Fatalf("timeout after steady 120 ms waits = %v, want about 150 ms (a quarter more)", got)
	}
	// Fast acknowledgements never take it below the floor.
	for range 100 {
		c.Sample(ms)
	}
	if got := c.Timeout(50 * ms); got != 50*ms {
		t.Fatalf("timeout after 1 ms waits = %v, want the floor", got)
	}
}

// TestJitterDoesNotDelayRepair: waits of 40 and 120 ms in turn time out a
// quarter after their usual 80 ms, not at TCP's smoothed wait plus four
// deviations (some 240 ms): a datagram lost on a jittery link is sent again
// soon.
func TestJitterDoesNotDelayRepair(t *testing.T) {
	var c Clock
	for i := range 100 {
		c.Sample(time.Duration(40+80*(i%2)) * ms)
	}
	if got := c.Timeout(10 * ms); got < 90*ms || got > 110*ms {
		t.Fatalf("timeout with waits of 40 and 120 ms = %v, want about 100 ms", got)
	}
}

func TestTimeoutIsCapped(t *testing.T) {
	var c Clock
	for range 10 {
		c.Sample(time.Second)
	}
	if got := c.Timeout(50 * ms); got != Max {
		t.Fatalf("timeout after 1 s waits = %v, want Max %v", got, Max)
	}
	// A floor above Max wins.
	if got := c.Timeout(time.Second + ms); got != time.Second+ms {
		t.Fatalf("floor above Max: timeout %v", got)
	}
}

// TestResentWaitsTeachOnlyWhenNothingElseDoes: the acknowledgement of a
// message sent twice says nothing of the wait (Karn), unless there is no
// estimate yet or every recent acknowledgement was of a resent message, the
// sign of an estimate too short for anything to arrive before its resend.
func TestResentWaitsTeachOnlyWhenNothingElseDoes(t *testing.T) {
	var c Clock
	c.AckedResent(200 * ms) // no estimate yet: taken, as resentCap
	if got, want := c.Timeout(40*ms), resentCap+resentCap/4; got != want {
		t.Fatalf("timeout after a first, resent, 200 ms wait = %v, want %v (resentCap and a quarter)", got, want)
	}

	var d Clock
	for range 50 {
		d.Sample(30 * ms)
	}
	base := d.Timeout(40 * ms)
	for range blindMax {
		d.AckedResent(300 * ms) // a lost first sending, repaired by a resend
	}
	if got := d.Timeout(40 * ms); got != base {
		t.Fatalf("after %d resent acknowledgements = %v, want the estimate unchanged (%v)", blindMax, got, base)
	}
	// Acknowledgements keep coming only for resent messages: the waits are
	// longer than the estimate thinks, and it learns.
	for range 5 * blindMax {
		d.AckedResent(300 * ms)
	}
	if got := d.Timeout(40 * ms); got < 50*ms {
		t.Fatalf("after many resent acknowledgements of 300 ms = %v, want the estimate grown", got)
	}
	// One clean sample resets the count.
	var e Clock
	for range 50 {
		e.Sample(30 * ms)
	}
	base = e.Timeout(40 * ms)
	for range 10 {
		for range blindMax - 1 {
			e.AckedResent(300 * ms)
		}
		e.Sample(30 * ms)
	}
	if got := e.Timeout(40 * ms); got != base {
		t.Fatalf("resent acknowledgements between clean samples moved the timeout to %v, want %v", got, base)
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
