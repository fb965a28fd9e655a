// Package portmap asks the home router to forward a UDP port to this
// machine, so that players on the internet can reach a room hosted behind
// it: PCP (RFC 6887, MAP), then NAT-PMP (RFC 6886), then UPnP IGD
// (WANIPConnection2, WANIPConnection1 and WANPPPConnection1).
//
// The decisions (which protocol next, when to renew, when to give up and
// what to tell the player) are a pure state machine, Machine, fed events
// and times; Mapper runs it on its own goroutine with the sockets and HTTP
// at the edge, so asking never blocks a frame. See docs/ARCHITECTURE.md,
// "Port mapping".
package portmap

import (
	"fmt"
	"net/netip"
)

// Proto is a port mapping protocol.
type Proto uint8

// The protocols, in the order they are tried by default.
const (
	PCP Proto = iota + 1
	NATPMP
	UPnP
)

// String names the protocol as players read it.
func (p Proto) String() string {
	switch p {
	case PCP:
		return "PCP"
	case NATPMP:
		return "NAT-PMP"
	case UPnP:
		return "UPnP"
	}
	return fmt.Sprintf("protocol %d", uint8(p))
}

// Verdict is what came of asking the router.
type Verdict uint8

// The verdicts.
const (
	NotAsked  Verdict = iota // nothing asked (the zero Status)
	Asking                   // still asking
	Opened                   // the router forwards External to our port
	NoAnswer                 // no router answered any protocol
	Refused                  // a router answered but would not map the port
	DoubleNAT                // the router's outside address is itself private: another NAT is in front
	NoRouter                 // no default gateway (no network, or no route out)
	Off                      // port mapping is turned off
)

// Status is the state of the mapping, for the lobby and the logs.
type Status struct {
	Verdict  Verdict
	Proto    Proto          // the protocol that opened the port (Opened), or that said the outside address was private (DoubleNAT)
	External netip.AddrPort // the address players on the internet dial (Opened); the router's outside address, port 0 (DoubleNAT)
	Internal uint16         // our room's UDP port
	Why      string         // the router's reason, when it refused
}

// Done reports whether asking is over (the verdict will change only if a
// mapping is lost and asked again).
func (s Status) Done() bool { return s.Verdict != Asking && s.Verdict != NotAsked }

// String is the verdict in a player's words, one sentence for the lobby.
func (s Status) String() string {
	switch s.Verdict {
	case NotAsked:
		return ""
	case Asking:
		return "Asking your router to open a port for players on the internet…"
	case Opened:
		return fmt.Sprintf("Your router opened port %d by %v: players on the internet can join at %v.", s.External.Port(), s.Proto, s.External)
	case NoAnswer:
		return "Your router did not answer a request to open a port: players on the internet cannot join unless you forward UDP port " + fmt.Sprint(s.Internal) + " to this computer."
	case Refused:
		why := ""
		if s.Why != "" {
			why = " (" + s.Why + ")"
		}
		return "Your router refused to open a port" + why + ": players on the internet cannot join unless you forward UDP port " + fmt.Sprint(s.Internal) + " to this computer."
	case DoubleNAT:
		return "Your router's outside address is itself private (double NAT: a second router or your provider's NAT is in the way): players on the internet cannot join."
	case NoRouter:
		return "No router found (no default route): players on the internet cannot join."
	case Off:
		return "Port mapping is off in Settings: only players on your network can join."
	}
	return "port mapping: unknown state"
}

// IsPrivate reports whether a is not routed on the internet as an outside
// address of a home: private (10/8, 172.16/12, 192.168/16, fc00::/7),
// shared carrier-grade NAT space (100.64/10, RFC 6598), loopback,
// link-local or unspecified. A router that reports such an outside
// address sits behind another NAT.
func IsPrivate(a netip.Addr) bool {
	a = a.Unmap()
	return !a.IsValid() || a.IsPrivate() || a.IsLoopback() || a.IsLinkLocalUnicast() || a.IsUnspecified() ||
		cgnat.Contains(a)
}

var cgnat = netip.MustParsePrefix("100.64.0.0/10")
