package portmap

import (
	"net/netip"
	"time"
)

// Timing is how long the machine waits and how long it asks for.
type Timing struct {
	Wait  [4]time.Duration // per protocol (indexed by Proto): how long a request may go unanswered before the next protocol is tried
	Lease time.Duration    // the lifetime asked for; renewed at half what the router grants
	Retry time.Duration    // after a failed renewal, how long until the next try
	// PermanentRenew is when a mapping the router granted with no expiry
	// (UPnP lease 0) is asked again anyway, in case the router forgot it.
	PermanentRenew time.Duration
}

// DefaultTiming: PCP and NAT-PMP are one datagram each way to the gateway
// on the LAN (answered in milliseconds, retransmitted once by the edge);
// UPnP needs an SSDP search and two HTTP requests. A router that answers
// nothing gives its verdict after the sum, 2.3 s. The lease is about an
// hour (RFC 6886 recommends 7200 s; shorter frees a dead game's port
// sooner).
func DefaultTiming() Timing {
	return Timing{
		Wait:           [4]time.Duration{PCP: 400 * time.Millisecond, NATPMP: 400 * time.Millisecond, UPnP: 1500 * time.Millisecond},
		Lease:          time.Hour,
		Retry:          time.Minute,
		PermanentRenew: 30 * time.Minute,
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

// Result is the edge's report of an action.
type Result struct {
	Seq      uint64 // the action's
	Outcome  Outcome
	External netip.AddrPort // the mapped outside address and port (OK)
	Lifetime time.Duration  // granted; 0 with OK means permanent
	Why      string         // the router's words, when it said no
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
	trying                // a Map of protocol order[next-1] is out
	holding               // mapped; renewing at renewAt
	renewing              // a renewal Map is out
	finished              // a final verdict, nothing held
	closed                // Close was called
)

// Machine decides what to ask the router and what to tell the player. It
// is pure: every method takes the time, returns the actions to carry out,
// and the machine never looks at a clock or a socket.
type Machine struct {
	timing   Timing
	order    []Proto
	internal uint16

	st       state
	next     int // index into order of the next protocol to try
	seq      uint64
	out      Action    // the request awaited (trying, renewing)
	deadline time.Time // when out counts as unanswered
	renewAt  time.Time // holding: when to renew
	expires  time.Time // holding: when the mapping lapses (zero: never)
	held     Action    // the mapping held (its Proto, ExtPort)
	taken    int       // PortTaken answers to the current protocol
	refusal  string    // the first refusal's words, if any protocol refused
	refused  bool
	noPublic Proto // a protocol that said the router has no public address
	status   Status
}

// maxPortTries bounds the external ports asked of one protocol when the
// wanted one is taken.
const maxPortTries = 4

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
	case holding:
		return m.renewAt
	}
	return time.Time{}
}

// Tick lets time pass: an unanswered request times out, a mapping falls
// due for renewal.
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
	}
	return nil
}

// Report feeds the result of an action in. Results of actions the machine
// no longer waits for (timed out, superseded) are ignored.
func (m *Machine) Report(now time.Time, r Result) []Action {
	if (m.st != trying && m.st != renewing) || r.Seq != m.out.Seq {
		return nil
	}
	if m.st == renewing {
		if r.Outcome == OK {
			return m.hold(now, r)
		}
		return m.renewFailed(now)
	}
	switch r.Outcome {
	case OK:
		if !r.External.Addr().IsValid() || r.External.Port() == 0 {
			return m.tryNext(now) // a router that maps to nowhere has not mapped
		}
		if IsPrivate(r.External.Addr()) {
			m.st = finished
			m.status = Status{Verdict: DoubleNAT, Proto: m.out.Proto, External: netip.AddrPortFrom(r.External.Addr(), 0), Internal: m.internal}
			// A mapping on the inner router is no use to anyone outside.
			return []Action{m.unmapAction(m.out.Proto, r.External.Port())}
		}
		return m.hold(now, r)
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

// tryNext asks the next protocol, or gives the verdict when none is left.
func (m *Machine) tryNext(now time.Time) []Action {
	m.taken = 0
	if m.next >= len(m.order) {
		m.st = finished
		switch {
		case m.noPublic != 0:
			m.status = Status{Verdict: DoubleNAT, Proto: m.noPublic, Internal: m.internal}
		case m.refused:
			m.status = Status{Verdict: Refused, Why: m.refusal, Internal: m.internal}
		default:
			m.status = Status{Verdict: NoAnswer, Internal: m.internal}
		}
		return nil
	}
	p := m.order[m.next]
	m.next++
	return m.request(now, Map, p, m.internal, trying)
}

func (m *Machine) request(now time.Time, kind ActionKind, p Proto, ext uint16, then state) []Action {
	m.seq++
	wait := m.timing.Wait[p]
	m.out = Action{Seq: m.seq, Kind: kind, Proto: p, Internal: m.internal, ExtPort: ext, Lifetime: m.timing.Lease, Wait: wait}
	m.deadline = now.Add(wait)
	m.st = then
	return []Action{m.out}
}

func (m *Machine) unmapAction(p Proto, ext uint16) Action {
	m.seq++
	return Action{Seq: m.seq, Kind: Unmap, Proto: p, Internal: m.internal, ExtPort: ext, Wait: m.timing.Wait[p]}
}

// hold takes a granted mapping and schedules its renewal at half its life.
func (m *Machine) hold(now time.Time, r Result) []Action {
	m.st = holding
	m.held = m.out
	m.held.ExtPort = r.External.Port()
	if r.Lifetime > 0 {
		m.expires = now.Add(r.Lifetime)
		m.renewAt = now.Add(r.Lifetime / 2)
	} else {
		m.expires = time.Time{}
		m.renewAt = now.Add(m.timing.PermanentRenew)
	}
	m.status = Status{Verdict: Opened, Proto: m.held.Proto, External: r.External, Internal: m.internal}
	return nil
}

// renewFailed keeps the mapping while it lasts and tries again; once it
// has lapsed, asking starts over from the first protocol.
func (m *Machine) renewFailed(now time.Time) []Action {
	retry := now.Add(m.timing.Retry)
	if !m.expires.IsZero() && !retry.Before(m.expires) {
		if now.Before(m.expires) {
			retry = now.Add(m.expires.Sub(now) / 2)
		} else {
			m.next, m.refused, m.refusal, m.noPublic = 0, false, "", 0
			m.status = Status{Verdict: Asking, Internal: m.internal}
			return m.tryNext(now)
		}
	}
	m.st = holding
	m.renewAt = retry
	return nil
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
