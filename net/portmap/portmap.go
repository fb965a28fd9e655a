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

// IsPrivate reports whether a is a unicast address that is not routed on
// the internet but is a fine outside address for a router behind another
// NAT: private (10/8, 172.16/12, 192.168/16, fc00::/7) or shared
// carrier-grade NAT space (100.64/10, RFC 6598). A router that reports
// such an outside address sits behind another NAT. (An address no one can
// reach at all is Unreachable, not private.)
func IsPrivate(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsValid() && (a.IsPrivate() || cgnat.Contains(a))
}

// Unreachable reports whether a cannot be anyone's outside address: not
// an address, unspecified, "this network" (0/8), loopback (127/8, ::1),
// link-local (169.254/16, fe80::/10), multicast (224/4, ff00::/8), or
// reserved (240/4, which holds the broadcast 255.255.255.255). A router
// that names one has not mapped anything a player could dial.
func Unreachable(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.IsUnspecified() || a.IsLoopback() || a.IsMulticast() ||
		a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast() {
		return true
	}
	return a.Is4() && (thisNetwork.Contains(a) || reserved4.Contains(a))
}

var (
	cgnat       = netip.MustParsePrefix("100.64.0.0/10")
	thisNetwork = netip.MustParsePrefix("0.0.0.0/8")   // RFC 791: "this host on this network"
	reserved4   = netip.MustParsePrefix("240.0.0.0/4") // RFC 1112 class E, and the limited broadcast
)
