package lan

import (
	"errors"
	"fmt"
	"net"
	"slices"

	"golang.org/x/net/ipv4"
	"golang.org/x/net/ipv6"
)

// mDNS groups and port (RFC 6762).
var (
	group4 = &net.UDPAddr{IP: net.IPv4(224, 0, 0, 251), Port: 5353}
	group6 = &net.UDPAddr{IP: net.ParseIP("ff02::fb"), Port: 5353}
)

const (
	maxInterfaces = 16   // interfaces used at once; more is a misconfiguration
	maxPacket     = 9000 // bytes of an mDNS packet (RFC 6762 §17); longer ones are truncated and rejected
)

// multicastInterfaces returns the interfaces that are up and multicast
// capable, limited to names when given.
func multicastInterfaces(names []string) ([]net.Interface, error) {
	all, err := net.Interfaces()
	if err != nil {
		return nil, fmt.Errorf("list network interfaces: %w", err)
	}
	var ifaces []net.Interface
	for _, ifi := range all {
		if ifi.Flags&net.FlagUp == 0 || ifi.Flags&net.FlagMulticast == 0 {
			continue
		}
		if len(names) > 0 && !slices.Contains(names, ifi.Name) {
			continue
		}
		ifaces = append(ifaces, ifi)
		if len(ifaces) == maxInterfaces {
			break
		}
	}
	if len(ifaces) == 0 {
		if len(names) > 0 {
			return nil, fmt.Errorf("no multicast interface up among %q", names)
		}
		return nil, errors.New("no multicast interface up")
	}
	return ifaces, nil
}

// sender multicasts mDNS packets out of every interface, over IPv4 and IPv6
// where each works, from an ephemeral port; answers to its queries come back
// to that port.
type sender struct {
	ifaces []net.Interface
	c4, c6 *net.UDPConn
	p4     *ipv4.PacketConn
	p6     *ipv6.PacketConn
}

// newSender opens the sockets; it fails only if neither family works.
func newSender(ifaces []net.Interface) (*sender, error) {
	s := &sender{ifaces: ifaces}
	c4, err4 := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4zero})
	if err4 == nil {
		s.c4, s.p4 = c4, ipv4.NewPacketConn(c4)
		_ = s.p4.SetMulticastTTL(255) // RFC 6762 §11
		_ = s.p4.SetMulticastLoopback(true)
	}
	c6, err6 := net.ListenUDP("udp6", &net.UDPAddr{IP: net.IPv6unspecified})
	if err6 == nil {
		s.c6, s.p6 = c6, ipv6.NewPacketConn(c6)
		_ = s.p6.SetMulticastHopLimit(255)
		_ = s.p6.SetMulticastLoopback(true)
	}
	if s.c4 == nil && s.c6 == nil {
		return nil, fmt.Errorf("open mDNS sockets: %w", errors.Join(err4, err6))
	}
	return s, nil
}

// send multicasts packet out of every interface and family; it reports
// whether it went out anywhere. Only one goroutine may send at a time.
func (s *sender) send(packet []byte) bool {
	sent := false
	for i := range s.ifaces {
		ifi := &s.ifaces[i]
		if s.p4 != nil && s.p4.SetMulticastInterface(ifi) == nil {
			if _, err := s.c4.WriteToUDP(packet, group4); err == nil {
				sent = true
			}
		}
		if s.p6 != nil && s.p6.SetMulticastInterface(ifi) == nil {
			if _, err := s.c6.WriteToUDP(packet, group6); err == nil {
				sent = true
			}
		}
	}
	return sent
}

// conns returns the open sockets, to read answers from and to close.
func (s *sender) conns() []*net.UDPConn {
	var cs []*net.UDPConn
	for _, c := range []*net.UDPConn{s.c4, s.c6} {
		if c != nil {
			cs = append(cs, c)
		}
	}
	return cs
}

func (s *sender) close() {
	for _, c := range s.conns() {
		c.Close()
	}
}

// listenGroups opens a socket per family bound to the mDNS group and port and
// joins the group on every interface where it can, to hear announcements and
// goodbyes. It returns the sockets that work, possibly none.
func listenGroups(ifaces []net.Interface) []*net.UDPConn {
	var conns []*net.UDPConn
	for _, fam := range []struct {
		network string
		group   *net.UDPAddr
		join    func(*net.UDPConn, *net.Interface) error
	}{
		{"udp4", group4, func(c *net.UDPConn, ifi *net.Interface) error {
			return ipv4.NewPacketConn(c).JoinGroup(ifi, group4)
		}},
		{"udp6", group6, func(c *net.UDPConn, ifi *net.Interface) error {
			return ipv6.NewPacketConn(c).JoinGroup(ifi, group6)
		}},
	} {
		var c *net.UDPConn
		for i := range ifaces {
			if c == nil {
				// ListenMulticastUDP sets the address reuse that lets
				// other mDNS software share the port.
				c, _ = net.ListenMulticastUDP(fam.network, &ifaces[i], fam.group)
				continue
			}
			_ = fam.join(c, &ifaces[i]) // fails where the family has no address: fine
		}
		if c != nil {
			conns = append(conns, c)
		}
	}
	return conns
}
