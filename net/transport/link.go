package transport

import (
	"math"
	"math/rand/v2"
	"time"
)

// Bounds that keep a link's memory and queueing finite whatever is sent.
const (
	MaxPending       = 4096                 // packets in flight per link; more are dropped as DroppedQueue
	MaxQueueDelay    = time.Second          // data waiting for a limited Bandwidth; more is dropped as DroppedQueue
	MaxQueuePackets  = 1024                 // packets waiting for a limited Bandwidth; more are dropped as DroppedQueue
	MinReorderWindow = 5 * time.Millisecond // smallest range of the extra delay given to a reordered packet
)

// LinkStats counts what happened to the packets sent on a link. At any time
// Sent + Duplicated = Delivered + Lost + DroppedQueue + DroppedDisconnected + pending.
type LinkStats struct {
	Sent                int   // packets passed to Send
	Delivered           int   // packets handed out, duplicates included
	Lost                int   // packets dropped by the Loss fraction
	Duplicated          int   // extra copies made by the Dup fraction
	Reordered           int   // packets (or copies) chosen by the Reorder fraction to be held back
	DroppedQueue        int   // packets dropped because a queue was full (MaxPending, MaxQueueDelay, MaxQueuePackets)
	DroppedDisconnected int   // packets dropped because their peer was disconnected (Network only)
	BytesSent           int64 // bytes passed to Send
	BytesDelivered      int64 // bytes handed out, duplicates included
}

// Link is one direction of a simulated path. It decides each packet's fate
// when the packet is sent, in this order:
//
//  1. If MaxPending packets are already in flight, it is dropped (DroppedQueue).
//  2. With a Bandwidth, it waits behind the packets before it and takes
//     size/Bandwidth to leave; if that queue already holds more than
//     MaxQueueDelay of data or MaxQueuePackets packets, it is dropped
//     (DroppedQueue). An empty queue always takes one packet, however large.
//  3. With probability Loss it is lost on the wire (Lost); it still used
//     its share of bandwidth.
//  4. With probability Dup a second copy is made after the bottleneck
//     (Duplicated); each copy then gets its own delay.
//  5. Each copy's delay is Latency plus a uniform jitter in ±Jitter, never
//     below 0. Like a real path the link keeps order: a copy is delivered no
//     earlier than the copy sent before it. With probability Reorder a copy
//     (Reordered) is instead held back by a further uniform delay of 1ms to
//     max(Latency/2+Jitter, MinReorderWindow), outside that rule, so the
//     copies after it may overtake it and it may overtake the ones before.
//
// Equal delivery times are broken by send order. A Link is not safe for
// concurrent use; it needs none, having no goroutine of its own.
type Link struct {
	imp       Impairment
	rng       *rand.Rand
	sched     *schedule // its own, or the schedule of the Network it belongs to
	own       schedule
	pending   int             // packets of this link in sched
	lastDue   time.Duration   // delivery time of the last in-order copy; later ones may not arrive before it
	lastRel   time.Duration   // delivery time of the last reliable packet (SendReliable keeps their order)
	busyUntil time.Duration   // when the bandwidth bottleneck finishes the data given to it so far
	departs   []time.Duration // departure times of the packets in the bottleneck queue from departs[gone] on, ascending
	gone      int
	stats     LinkStats

	// Set when the link belongs to a Network.
	peer    PeerID
	offline bool
}

// NewLink returns a link with the given impairment whose random choices come
// from a PCG generator seeded by seed. Out-of-range fields of imp (negative,
// NaN, above 1 or above the limits) are clamped to the nearest valid value.
func NewLink(imp Impairment, seed uint64) *Link {
	l := &Link{
		imp:     imp.clamped(),
		rng:     rand.New(rand.NewPCG(seed, mix64(seed))),
		lastDue: math.MinInt64,
		lastRel: math.MinInt64,
	}
	l.sched = &l.own
	return l
}

// mix64 is the SplitMix64 finaliser: it spreads nearby seeds (0, 1, 2, …)
// into unrelated ones.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Send puts a copy of pkt on the link at virtual time now; the link decides
// at once whether and when it (and any duplicate) will be delivered.
func (l *Link) Send(now time.Duration, pkt []byte) {
	depart, ok := l.admit(now, pkt)
	if !ok {
		return
	}
	if l.chance(l.imp.Loss) {
		l.stats.Lost++
		return
	}
	dup := l.chance(l.imp.Dup)
	l.schedule(depart, pkt)
	if dup {
		l.stats.Duplicated++
		if l.pending >= MaxPending {
			l.stats.DroppedQueue++
			return
		}
		l.schedule(depart, pkt)
	}
}

// SendReliable puts pkt on the link as a reliable stream over the same
// path (the KCP stream that carries everything but turns and pings) would
// deliver it: never lost nor duplicated, in order with the link's other
// reliable packets; every time the path loses it, it arrives one
// retransmission timeout later. Retransmissions are not counted as sent.
func (l *Link) SendReliable(now time.Duration, pkt []byte) {
	depart, ok := l.admit(now, pkt)
	if !ok {
		return
	}
	rto := 2*(l.imp.Latency+l.imp.Jitter) + reliableRTO
	for tries := 0; tries < maxRetransmits && l.chance(l.imp.Loss); tries++ {
		l.stats.Lost++
		depart += rto
	}
	delay := l.imp.Latency
	if j := int64(l.imp.Jitter); j > 0 {
		delay = max(delay+time.Duration(l.rng.Int64N(2*j+1)-j), 0)
	}
	due := max(depart+delay, l.lastRel)
	l.lastRel = due
	l.pending++
	l.sched.push(inFlight{due: due, data: append([]byte(nil), pkt...), link: l})
}

// admit counts pkt as sent and passes it through the bandwidth bottleneck:
// when it leaves it, or false if it is dropped (a disconnected peer, a full
// queue).
func (l *Link) admit(now time.Duration, pkt []byte) (time.Duration, bool) {
	l.stats.Sent++
	l.stats.BytesSent += int64(len(pkt))
	if l.offline {
		l.stats.DroppedDisconnected++
		return 0, false
	}
	if l.pending >= MaxPending {
		l.stats.DroppedQueue++
		return 0, false
	}
	depart, ok := l.serialise(now, len(pkt))
	if !ok {
		l.stats.DroppedQueue++
	}
	return depart, ok
}

// Retransmission, as SendReliable models it.
const (
	reliableRTO    = 30 * time.Millisecond // added to the round trip before a lost packet is sent again
	maxRetransmits = 16                    // losses of one packet at most (a stream gives up after this)
)

func (l *Link) chance(p float64) bool { return p > 0 && l.rng.Float64() < p }

// serialise passes a packet of size bytes through the bandwidth bottleneck
// and returns when it has left, or false if the queue is full.
func (l *Link) serialise(now time.Duration, size int) (time.Duration, bool) {
	bw := int64(l.imp.Bandwidth)
	if bw <= 0 {
		return now, true
	}
	// Forget the packets that have left; compact once the dead prefix is long.
	for l.gone < len(l.departs) && l.departs[l.gone] <= now {
		l.gone++
	}
	if l.gone > len(l.departs)/2 {
		l.departs = l.departs[:copy(l.departs, l.departs[l.gone:])]
		l.gone = 0
	}

	tx := time.Duration((int64(size)*int64(time.Second) + bw - 1) / bw) // ceil, so even tiny packets take time
	backlog := max(l.busyUntil-now, 0)
	if queued := len(l.departs) - l.gone; queued > 0 && (queued >= MaxQueuePackets || backlog+tx > MaxQueueDelay) {
		return 0, false
	}
	depart := max(now, l.busyUntil) + tx
	l.busyUntil = depart
	l.departs = append(l.departs, depart)
	return depart, true
}

// schedule gives one copy of pkt, leaving the bottleneck at depart, its
// delivery time and puts it in flight.
func (l *Link) schedule(depart time.Duration, pkt []byte) {
	delay := l.imp.Latency
	if j := int64(l.imp.Jitter); j > 0 {
		delay = max(delay+time.Duration(l.rng.Int64N(2*j+1)-j), 0)
	}
	due := depart + delay
	if l.chance(l.imp.Reorder) {
		l.stats.Reordered++
		window := max(l.imp.Latency/2+l.imp.Jitter, MinReorderWindow)
		due += time.Millisecond + time.Duration(l.rng.Int64N(int64(window-time.Millisecond)+1))
	} else {
		due = max(due, l.lastDue)
		l.lastDue = due
	}
	l.pending++
	l.sched.push(inFlight{due: due, data: append([]byte(nil), pkt...), link: l})
}

// Deliver appends to into every packet due at or before now, in delivery
// order, forgets them and returns the extended slice. The packets belong to
// the caller.
func (l *Link) Deliver(now time.Duration, into [][]byte) [][]byte {
	for {
		p, ok := l.sched.peek()
		if !ok || p.due > now {
			return into
		}
		l.sched.pop()
		l.pending--
		l.countDelivered(p.data)
		into = append(into, p.data)
	}
}

func (l *Link) countDelivered(pkt []byte) {
	l.stats.Delivered++
	l.stats.BytesDelivered += int64(len(pkt))
}

// NextDue returns the earliest delivery time of the packets in flight, for a
// virtual-clock scheduler; false if none is.
func (l *Link) NextDue() (time.Duration, bool) {
	p, ok := l.sched.peek()
	return p.due, ok
}

// Pending returns the number of packets in flight.
func (l *Link) Pending() int { return l.pending }

// Stats returns the counts so far.
func (l *Link) Stats() LinkStats { return l.stats }
