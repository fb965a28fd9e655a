package invite

import (
	"net"
	"net/netip"
)

// MaxHostAddrs is how many addresses HostAddrs puts in a host's code: the
// router's outside address and two of the LAN's. Each IPv4 address makes
// the code 5 to 7 symbols longer, an IPv6 one about 26.
const MaxHostAddrs = 3

// HostAddrs chooses the addresses a host's code carries, best first: the
// router's outside address (external, if valid: its port is the one the
// router opened), then the address the room listens on if it is not
// unspecified, else the machine's interface addresses (ifaceAddrs: IPv4
// first, private networks first; no loopback, link-local or multicast
// address, unless the room listens on loopback, as tests do), each with
// the room's port.
func HostAddrs(listen netip.AddrPort, ifaceAddrs []netip.Addr, external netip.AddrPort) []netip.AddrPort {
	var out []netip.AddrPort
	add := func(a netip.AddrPort) {
		a = netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
		if len(out) < MaxHostAddrs && encodable(a) && !contains(out, a) {
			out = append(out, a)
		}
	}
	if external.IsValid() {
		add(external)
	}
	port := listen.Port()
	if ip := listen.Addr().Unmap(); ip.IsValid() && !ip.IsUnspecified() {
		add(netip.AddrPortFrom(ip, port))
		return out
	}
	// Private IPv4 first (the LAN's), then public IPv4, then IPv6.
	for pass := range 3 {
		for _, ip := range ifaceAddrs {
			ip = ip.Unmap()
			if ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsMulticast() || ip.IsUnspecified() {
				continue
			}
			if (pass == 0 && ip.Is4() && ip.IsPrivate()) || (pass == 1 && ip.Is4() && !ip.IsPrivate()) || (pass == 2 && ip.Is6()) {
				add(netip.AddrPortFrom(ip, port))
			}
		}
	}
	return out
}

func contains(list []netip.AddrPort, a netip.AddrPort) bool {
	for _, b := range list {
		if b == a {
			return true
		}
	}
	return false
}

// InterfaceAddrs returns the addresses of this machine's network
// interfaces that are up (the addresses a LAN advertisement publishes:
// see net/lan/iface.go); none if they cannot be listed.
func InterfaceAddrs() []netip.Addr {
	ifaces, err := net.Interfaces()
	if err != nil {
		return nil
	}
	var out []netip.Addr
	for _, ifi := range ifaces {
		if ifi.Flags&net.FlagUp == 0 {
			continue
		}
		addrs, err := ifi.Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				if ip, ok := netip.AddrFromSlice(n.IP); ok {
					out = append(out, ip.Unmap())
				}
			}
		}
	}
	return out
}
