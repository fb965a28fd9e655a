// Package ackclock decides when a message that has not been acknowledged
// is worth sending again, from how long acknowledgements take.
//
// Rockstep's unreliable datagrams are acknowledged by the peer's next
// packet, not at once: a client acknowledges master turns with the client
// packet it sends when it executes a turn, and the room acknowledges a
// client's turns with the next master turn it compiles, which waits for the
// slowest player. The wait is the round trip plus up to a turn (83 ms at
// K = 5) plus whatever a busy machine adds, so a fixed resend period shorter
// than that repeats what the peer already holds. The estimate is TCP's
// (RFC 6298): a smoothed wait and its mean deviation, sampled only from
// messages sent once (Karn's rule, the caller's part); the timeout is their
// sum with four deviations, never under the caller's floor, doubled for
// each resend until the next sample, and never over Max.
package ackclock

import "time"

// Max is the longest timeout: the wait for a resend while something is
// unacknowledged, however slow acknowledgements have been.
const Max = 400 * time.Millisecond

// backoffMax bounds the doubling: 2^3 times the estimate at most.
const backoffMax = 3

// Clock is one peer's estimate. The zero value has none: its timeout is the
// floor.
type Clock struct {
	srtt, rttvar time.Duration
	sampled      bool
	backoff      uint8
}

// Sample adds one wait, from a message's only sending to its
// acknowledgement, and ends the backoff. A negative wait is ignored; one
// longer than Max counts as Max (a message the caller timed from before a
// break, such as a turn a resumed room did not compile itself, must not
// hold the estimate up for long).
func (c *Clock) Sample(d time.Duration) {
	c.backoff = 0
	if d < 0 {
		return
	}
	d = min(d, Max)
	if !c.sampled {
		c.srtt, c.rttvar, c.sampled = d, d/2, true
		return
	}
	diff := c.srtt - d
	if diff < 0 {
		diff = -diff
	}
	c.rttvar += (diff - c.rttvar) / 4
	c.srtt += (d - c.srtt) / 8
}

// Resent doubles the next timeout, up to backoffMax times. The doubling
// stays until a sample: an acknowledgement of something sent more than once
// says nothing of the wait, and a timeout too short to let anything be
// acknowledged before its resend would otherwise never learn (Karn).
func (c *Clock) Resent() { c.backoff = min(c.backoff+1, backoffMax) }

// Timeout returns how long after the last sending an unacknowledged
// message is sent again: at least floor, at most Max (or floor, if larger).
func (c *Clock) Timeout(floor time.Duration) time.Duration {
	t := floor
	if c.sampled {
		t = max(floor, c.srtt+4*c.rttvar)
	}
	for range c.backoff {
		t *= 2
	}
	return min(t, max(floor, Max))
}
