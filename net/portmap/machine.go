package portmap

import (
	"fmt"
	"net/netip"
	"time"
)

// Timing is how long the machine waits and how long it asks for.
type Timing struct {
	Wait  [4]time.Duration // per protocol (indexed by Proto): how long a request may go unanswered before the next protocol is tried
	Lease time.Duration    // the lifetime asked for
	// MinLife is the least lifetime the machine believes: a router that
	// grants less (1 s) is treated as if it had granted MinLife, so it
	// cannot make the machine renew more often than every MinLife/2.
	MinLife time.Duration
	// MaxRenew is the longest the machine goes without asking the router
	// again, whatever the lease (and for a permanent UPnP mapping): a
	// router that rebooted and forgot the mapping without saying so is
	// noticed within it. A mapping is renewed at half its life or at
	// MaxRenew, whichever comes first.
	MaxRenew time.Duration
	// Retry is the wait after the first failed renewal (or a round of
	// every protocol that failed after a mapping was held); it doubles
	// with each failure up to MaxRetry, so a router that went away is
	// asked again within MaxRetry (plus one request's wait) of its return.
	Retry, MaxRetry time.Duration
	// SuspectGap is the least time between two requests that Suspect or a
	// router's announcement of its restart may cause.
	SuspectGap time.Duration
}

// DefaultTiming: PCP and NAT-PMP are one datagram each way to the gateway
// on the LAN (answered in milliseconds, retransmitted once by the edge);
// UPnP needs an SSDP search and two HTTP requests. A router that answers
// nothing gives its verdict after the sum, 2.3 s. The lease is about an
// hour (RFC 6886 recommends 7200 s; shorter frees a dead game's port
// sooner), checked every 5 minutes; a router that went away is asked again
// every 8 s once it has failed a few times, so its return is noticed
// within 10 s.
func DefaultTiming() Timing {
	return Timing{
		Wait:       [4]time.Duration{PCP: 400 * time.Millisecond, NATPMP: 400 * time.Millisecond, UPnP: 1500 * time.Millisecond},
		Lease:      time.Hour,
		MinLife:    120 * time.Second,
		MaxRenew:   5 * time.Minute,
		Retry:      time.Second,
		MaxRetry:   8 * time.Second,
		SuspectGap: 2 * time.Second,
	}
}

// Outcome is what one request to the router came to.
type Outcome uint8

// The outcomes.
const (
	OK          Outcome = iota + 1 // mapped (or unmapped)
	Silent                         // no answer, or a network error: nobody there speaks it
	Unsupported                    // answered that it does not speak this protocol or version (PCP UNSUPP_VERSION; no IGD service): try the next
	Denied                         // answered no (NOT_AUTHORIZED, NO_RESOURCES, a UPnP fault)
	PortTaken                      // the external port asked for is taken: ask for another
	NoPublic                       // answered that it has no public address itself (e.g. NAT-PMP NETWORK_FAILURE)
)

// String names the outcome for the logs.
func (o Outcome) String() string {
	switch o {
	case OK:
		return "ok"
	case Silent:
		return "silent"
	case Unsupported:
		return "unsupported"
	case Denied:
		return "denied"
	case PortTaken:
		return "port taken"
	case NoPublic:
		return "no public address"
	}
	return fmt.Sprintf("outcome %d", uint8(o))
}

// Result is the edge's report of an action.
type Result struct {
	Seq      uint64 // the action's
	Outcome  Outcome
	External netip.AddrPort // the mapped outside address and port (OK)
	Lifetime time.Duration  // granted; 0 with OK means permanent
	Why      string         // the router's words, when it said no
	// Epoch is the router's epoch (seconds since it last lost its
	// mappings: RFC 6887 section 8.5, RFC 6886 section 3.6), when HasEpoch
	// (PCP and NAT-PMP answers carry it; UPnP's do not).
	Epoch    uint32
	HasEpoch bool
}

// ActionKind is what the edge is asked to do.
type ActionKind uint8

// The actions.
const (
	Map   ActionKind = iota + 1 // ask Proto to map Internal to ExtPort for Lifetime
	Unmap                       // ask Proto to delete the mapping of Internal (ExtPort)
)

// Action is a request the edge sends to the router; it reports back a
// Result with the same Seq.
type Action struct {
	Seq      uint64
	Kind     ActionKind
	Proto    Proto
	Internal uint16
	ExtPort  uint16 // the external port wanted (Map) or held (Unmap); never 0
	Lifetime time.Duration
	Wait     time.Duration // how long the machine waits for the result
}

// state is where the machine stands.
type state uint8

const (
	idle     state = iota // not started
	trying                // a Map of protocol order[next-1] is out (a round of the protocols)
	holding               // mapped; renewing at renewAt
	renewing              // a renewal Map is out
	waiting               // a mapping was held and lost, and a round failed: a new round at renewAt
	finished              // a final verdict, nothing held
	closed                // Close was called
)

// Machine decides what to ask the router and what to tell the player. It
// is pure: every method takes the time, returns the actions to carry out,
// and the machine never looks at a clock or a socket.
//
// Every answer is judged the same way, the first and each renewal: an
// outside address that no one on the internet can reach (Unreachable) or
// port 0 is that protocol failing, a private one is double NAT, and a
// lifetime under Timing.MinLife counts as MinLife.
type Machine struct {
	timing   Timing
	order    []Proto
	internal uint16

	st       state
	next     int // index into order of the next protocol to try
	seq      uint64
	out      Action    // the request awaited (trying, renewing)
	sentAt   time.Time // when out was sent
	deadline time.Time // when out counts as unanswered
	renewAt  time.Time // holding: when to renew; waiting: when to start a round
	expires  time.Time // holding: when the mapping lapses (zero: never)
	held     Action    // the mapping held (its Proto, ExtPort)
	everHeld bool      // a mapping was held once: a failed round is retried, not final
	failures int       // failed renewals or rounds in a row (the backoff's exponent)
	taken    int       // PortTaken answers to the current protocol
	refusal  string    // the first refusal's words, if any protocol refused
	refused  bool
	noPublic Proto // a protocol that said the router has no public address

	// The router's epoch as last heard (RFC 6887 section 8.5).
	epochKnown bool
	epoch      uint32
	epochAt    time.Time
	restarts   int // times the router was seen to have restarted
	grants     int // answers that granted the mapping (the first, and every renewal)

	status Status
}

// maxPortTries bounds the external ports asked of one protocol when the
// wanted one is taken.
const maxPortTries = 4

// unreachableWhy is the refusal's words for an answer that named an
// outside address no one can reach, or port 0. The address itself is never
// repeated to the player: it is not theirs to give out.
const unreachableWhy = "it named an outside address no one can reach"

// NewMachine returns a machine that will map UDP port internal (never 0)
// by the protocols in order (nil: PCP, NAT-PMP, UPnP).
func NewMachine(internal uint16, order []Proto, timing Timing) *Machine {
	if order == nil {
		order = []Proto{PCP, NATPMP, UPnP}
	}
	return &Machine{timing: timing, order: order, internal: internal, status: Status{Verdict: Asking, Internal: internal}}
}

// Status returns what the machine would tell the player now.
func (m *Machine) Status() Status { return m.status }

// Restarts returns how many times the router was seen to have restarted
// (its epoch went backwards or lagged the clock) since Start.
func (m *Machine) Restarts() int { return m.restarts }

// Grants returns how many answers granted the mapping since Start: the
// first, and each renewal (a renewal after a router's restart re-makes
// the mapping it forgot).
func (m *Machine) Grants() int { return m.grants }

// Failures returns how many renewals or rounds failed in a row (0 while
// the mapping is renewed as it should be).
func (m *Machine) Failures() int { return m.failures }

// Start begins asking at now.
func (m *Machine) Start(now time.Time) []Action {
	if m.st != idle {
		return nil
	}
	if m.internal == 0 {
		m.st = finished
		m.status = Status{Verdict: Refused, Why: "no port to map"}
		return nil
	}
	return m.tryNext(now)
}

// NoGateway ends asking: there is no router to ask.
func (m *Machine) NoGateway() {
	if m.st == closed {
		return
	}
	m.st = finished
	m.status = Status{Verdict: NoRouter, Internal: m.internal}
}

// Deadline returns when the machine next needs Tick (the zero time: not
// until another event).
func (m *Machine) Deadline() time.Time {
	switch m.st {
	case trying, renewing:
		return m.deadline
	case holding, waiting:
		return m.renewAt
	}
	return time.Time{}
}

// Tick lets time pass: an unanswered request times out, a mapping falls
// due for renewal, a lost one for another round.
func (m *Machine) Tick(now time.Time) []Action {
	switch m.st {
	case trying:
		if !now.Before(m.deadline) {
			return m.tryNext(now)
		}
	case renewing:
		if !now.Before(m.deadline) {
			return m.renewFailed(now)
		}
	case holding:
		if !now.Before(m.renewAt) {
			return m.request(now, Map, m.held.Proto, m.held.ExtPort, renewing)
		}
	case waiting:
		if !now.Before(m.renewAt) {
			return m.round(now)
		}
	}
	return nil
}

// Suspect tells the machine the mapping may be gone (the host's guests all
// fell silent at once, as when the router restarted): it asks the router
// again now, or SuspectGap after its last request, and from then on as a
// renewal does (a silent router is asked again with the backoff). It does
// nothing unless a mapping is held or was held and lost.
func (m *Machine) Suspect(now time.Time) []Action {
	switch m.st {
	case holding, waiting:
		at := m.sentAt.Add(m.timing.SuspectGap)
		if at.Before(now) {
			at = now
		}
		if at.Before(m.renewAt) {
			m.renewAt = at
		}
		return m.Tick(now)
	}
	return nil
}

// Announce feeds in a router's unsolicited announcement (a PCP ANNOUNCE
// or a NAT-PMP address notice, RFC 6887 section 14.1.3, RFC 6886 section
// 3.2.1) carrying its epoch: if the epoch says the router lost its
// mappings, or no epoch was heard before to tell (a mapping held by UPnP,
// whose answers carry none), the mapping is asked again as Suspect does.
func (m *Machine) Announce(now time.Time, epoch uint32) []Action {
	known := m.epochKnown
	if !m.restarted(now, epoch) && known {
		return nil
	}
	return m.Suspect(now)
}

// restarted takes the router's epoch heard at now and reports whether it
// shows the router lost its state since the last one heard (RFC 6887
// section 8.5: the epoch went back by more than a second, or the two
// clocks drifted apart by more than 2 s and a sixteenth).
func (m *Machine) restarted(now time.Time, epoch uint32) bool {
	known, prev, prevAt := m.epochKnown, m.epoch, m.epochAt
	m.epochKnown, m.epoch, m.epochAt = true, epoch, now
	if !known {
		return false
	}
	lost := false
	if epoch+1 < prev {
		lost = true
	} else {
		client := int64(now.Sub(prevAt) / time.Second)
		server := int64(epoch) - int64(prev)
		lost = client+2 < server-server/16 || server+2 < client-client/16
	}
	if lost {
		m.restarts++
	}
	return lost
}

// Report feeds the result of an action in. Results of actions the machine
// no longer waits for (timed out, superseded) are ignored.
func (m *Machine) Report(now time.Time, r Result) []Action {
	if (m.st != trying && m.st != renewing) || r.Seq != m.out.Seq {
		return nil
	}
	if r.HasEpoch {
		m.restarted(now, r.Epoch) // the answer's own request re-made the mapping if it was lost
	}
	if r.Outcome == OK {
		switch {
		case !r.External.Addr().IsValid() || r.External.Port() == 0 || Unreachable(r.External.Addr()):
			// A router that maps to nowhere has not mapped: that protocol
			// failed. Whatever it made is deleted.
			var acts []Action
			if r.External.Port() != 0 {
				acts = append(acts, m.unmapAction(m.out.Proto, r.External.Port()))
			}
			m.deny(unreachableWhy)
			if m.st == renewing {
				return append(acts, m.startOver(now)...)
			}
			return append(acts, m.tryNext(now)...)
		case IsPrivate(r.External.Addr()):
			m.st = finished
			m.status = Status{Verdict: DoubleNAT, Proto: m.out.Proto, External: netip.AddrPortFrom(r.External.Addr(), 0), Internal: m.internal}
			// A mapping on the inner router is no use to anyone outside.
			return []Action{m.unmapAction(m.out.Proto, r.External.Port())}
		}
		return m.hold(now, r)
	}
	if m.st == renewing {
		return m.renewFailed(now)
	}
	switch r.Outcome {
	case PortTaken:
		m.taken++
		if m.taken < maxPortTries {
			return m.request(now, Map, m.out.Proto, otherPort(m.internal, m.taken), trying)
		}
		m.deny("every port asked for is taken")
		return m.tryNext(now)
	case Denied:
		m.deny(r.Why)
		return m.tryNext(now)
	case NoPublic:
		if m.noPublic == 0 {
			m.noPublic = m.out.Proto
		}
		return m.tryNext(now)
	}
	return m.tryNext(now) // Silent, Unsupported
}

// Close ends the machine: the mapping held, if any, is to be deleted.
func (m *Machine) Close() []Action {
	var acts []Action
	switch m.st {
	case holding, renewing:
		acts = []Action{m.unmapAction(m.held.Proto, m.held.ExtPort)}
	}
	m.st = closed
	return acts
}

func (m *Machine) deny(why string) {
	if !m.refused {
		m.refused, m.refusal = true, why
	}
}

// tryNext asks the next protocol of the round, or gives the verdict when
// none is left: final, unless a mapping was held before (then another
// round follows after the backoff).
func (m *Machine) tryNext(now time.Time) []Action {
	m.taken = 0
	if m.next >= len(m.order) {
		switch {
		case m.noPublic != 0:
			m.status = Status{Verdict: DoubleNAT, Proto: m.noPublic, Internal: m.internal}
			m.st = finished
			return nil
		case m.refused:
			m.status = Status{Verdict: Refused, Why: m.refusal, Internal: m.internal}
		default:
			m.status = Status{Verdict: NoAnswer, Internal: m.internal}
		}
		m.st = finished
		if m.everHeld {
			m.st = waiting
			m.renewAt = now.Add(m.backoff())
		}
		return nil
	}
	p := m.order[m.next]
	m.next++
	return m.request(now, Map, p, m.internal, trying)
}

// round starts a new round of every protocol, forgetting the last one's
// refusals; the status stays what the last round said until this one
// gives its own.
func (m *Machine) round(now time.Time) []Action {
	m.next, m.refused, m.refusal, m.noPublic = 0, false, "", 0
	return m.tryNext(now)
}

// startOver drops the mapping held (lapsed, or its router now names an
// address no one can reach) and asks every protocol again: the player is
// told it is being asked, no longer that it is open.
func (m *Machine) startOver(now time.Time) []Action {
	refused, refusal := m.refused, m.refusal
	acts := m.round(now)
	if m.st == trying {
		m.status = Status{Verdict: Asking, Internal: m.internal}
	}
	if refused && !m.refused {
		m.refused, m.refusal = refused, refusal
	}
	return acts
}

func (m *Machine) request(now time.Time, kind ActionKind, p Proto, ext uint16, then state) []Action {
	m.seq++
	wait := m.timing.Wait[p]
	m.out = Action{Seq: m.seq, Kind: kind, Proto: p, Internal: m.internal, ExtPort: ext, Lifetime: m.timing.Lease, Wait: wait}
	m.sentAt = now
	m.deadline = now.Add(wait)
	m.st = then
	return []Action{m.out}
}

func (m *Machine) unmapAction(p Proto, ext uint16) Action {
	m.seq++
	return Action{Seq: m.seq, Kind: Unmap, Proto: p, Internal: m.internal, ExtPort: ext, Wait: m.timing.Wait[p]}
}

// hold takes a granted mapping and schedules its renewal at half its life
// (a life under MinLife counts as MinLife), and at most MaxRenew away.
func (m *Machine) hold(now time.Time, r Result) []Action {
	m.st = holding
	m.held = m.out
	m.held.ExtPort = r.External.Port()
	m.everHeld = true
	m.failures = 0
	m.grants++
	renew := m.timing.MaxRenew
	if r.Lifetime > 0 {
		life := max(r.Lifetime, m.timing.MinLife)
		m.expires = now.Add(life)
		renew = min(renew, life/2)
	} else {
		m.expires = time.Time{}
	}
	m.renewAt = now.Add(renew)
	m.status = Status{Verdict: Opened, Proto: m.held.Proto, External: r.External, Internal: m.internal}
	return nil
}

// renewFailed keeps the mapping while it lasts and asks again after the
// backoff; once it has lapsed, a round of every protocol starts over.
func (m *Machine) renewFailed(now time.Time) []Action {
	if !m.expires.IsZero() && !now.Before(m.expires) {
		return m.startOver(now)
	}
	m.st = holding
	m.renewAt = now.Add(m.backoff())
	return nil
}

// backoff counts a failure and returns the wait before asking again:
// Retry, doubling with each failure in a row, at most MaxRetry.
func (m *Machine) backoff() time.Duration {
	d := m.timing.Retry
	for i := 0; i < m.failures && d < m.timing.MaxRetry; i++ {
		d *= 2
	}
	m.failures++
	return min(d, m.timing.MaxRetry)
}

// otherPort is the nth alternative to the external port p when it is
// taken: above it, wrapping within 1024..65535 (never 0, never a
// privileged port).
func otherPort(p uint16, n int) uint16 {
	const lo, span = 1024, 65536 - 1024
	base := int(p)
	if base < lo {
		base = lo
	}
	return uint16(lo + (base-lo+n*97)%span)
}
