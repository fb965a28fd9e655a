// Package ackclock decides when a message that has not been acknowledged
// is worth sending again, from how long acknowledgements take.
//
// Rockstep's unreliable datagrams are acknowledged by the peer's next
// packet, not at once: a client acknowledges master turns with the client
// packet it sends when it executes a turn, and the room acknowledges a
// client's turns with the next master turn it compiles, which waits for the
// slowest player. The wait is the round trip plus up to a turn (83 ms at
// K = 5) plus whatever a busy machine adds, so a fixed resend period shorter
// than that repeats what the peer already holds: at 1,000 connections the
// room sent a third of its master frames twice.
//
// A Clock keeps a smoothed wait (TCP's, RFC 6298: an eighth of each new
// sample) and resends once that usual wait and a quarter more have passed,
// never sooner than the caller's floor nor later than Max. Not TCP's
// retransmission timeout
// (the smoothed wait plus four deviations, doubled for each resend): a
// resend here is one small datagram, while a late one stalls every player,
// and at 20 % loss TCP's timeout slowed a game by up to a tenth.
//
// Waits are sampled from messages sent once (Karn's rule); a message sent
// again is sampled too, from its first sending but counted as resentCap at
// most, while there is no estimate yet or after blindMax acknowledgements in
// a row gave none: an estimate too short for anything to be acknowledged
// before its resend would otherwise never learn.
package ackclock

import "time"

// Max is the longest timeout: the wait for a resend while something is
// unacknowledged, however slow acknowledgements have been.
const Max = 400 * time.Millisecond

// blindMax is how many acknowledgements in a row of messages sent more
// than once make the next one a sample all the same.
const blindMax = 8

// resentCap bounds a wait sampled from a message sent more than once: it
// may have waited for a loss to be repaired, so it only says that the wait
// is long, not how long; the clean samples that follow say that.
const resentCap = 100 * time.Millisecond

// Clock is one peer's estimate. The zero value has none: its timeout is the
// floor.
type Clock struct {
	srtt    time.Duration
	sampled bool
	blind   uint8 // acknowledgements in a row of messages sent again
}

// Sample adds one wait, from a message's only sending to its
// acknowledgement. A negative wait is ignored; one longer than Max counts
// as Max (a message the caller timed from before a break, such as a turn a
// resumed room did not compile itself, must not hold the estimate up).
func (c *Clock) Sample(d time.Duration) {
	c.blind = 0
	if d < 0 {
		return
	}
	d = min(d, Max)
	if !c.sampled {
		c.srtt, c.sampled = d, true
		return
	}
	c.srtt += (d - c.srtt) / 8
}

// Acked takes the acknowledgement of a message, d after its first
// sending: a Sample if it was sent only once, else AckedResent.
func (c *Clock) Acked(d time.Duration, sentOnce bool) {
	if sentOnce {
		c.Sample(d)
	} else {
		c.AckedResent(d)
	}
}

// AckedResent takes the acknowledgement of a message sent more than once,
// d after its first sending: it counts as a sample (of resentCap at most)
// only while there is no estimate or after blindMax such acknowledgements
// in a row; otherwise it says nothing of the wait, as the first sending may
// have been lost.
func (c *Clock) AckedResent(d time.Duration) {
	if !c.sampled || c.blind >= blindMax {
		c.Sample(min(d, resentCap))
		return
	}
	c.blind++
}

// Timeout returns how long after the last sending an unacknowledged
// message is sent again: the usual wait and a quarter, at least floor, at
// most Max (or floor, if larger).
func (c *Clock) Timeout(floor time.Duration) time.Duration {
	t := floor
	if c.sampled {
		t = max(floor, c.srtt+c.srtt/4)
	}
	return min(t, max(floor, Max))
}
