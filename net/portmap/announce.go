package portmap

import (
	"encoding/binary"
	"net"
	"net/netip"
)

// A router that restarts tells its LAN so (RFC 6887 section 14.1.3: an
// unsolicited PCP ANNOUNCE; RFC 6886 section 3.2.1: NAT-PMP's outside
// address notice), multicast from its port 5351 to the all-hosts group
// 224.0.0.1 on port 5350, with its epoch. The Mapper listens there, and
// the machine asks again when the epoch says the router lost its
// mappings.
var announceGroup = netip.MustParseAddrPort("224.0.0.1:5350")

// parseAnnouncement reads the epoch of a router's announcement: a PCP
// ANNOUNCE answer (version 2, opcode 0 with the R bit, success) or a
// NAT-PMP address answer (version 0, opcode 128, success).
func parseAnnouncement(b []byte) (epoch uint32, ok bool) {
	switch {
	case len(b) >= 24 && b[0] == pcpVersion && b[1] == pcpResponseOp && b[3] == pcpSuccess:
		return binary.BigEndian.Uint32(b[8:12]), true
	case len(b) >= natpmpAddressLen && b[0] == natpmpVersion && b[1] == natpmpAnswerOp+natpmpOpAddress &&
		binary.BigEndian.Uint16(b[2:4]) == natpmpSuccess:
		return binary.BigEndian.Uint32(b[4:8]), true
	}
	return 0, false
}

// listenAnnouncements listens for gw's announcements and sends each epoch
// heard on out until the socket is closed (the returned conn; nil when it
// cannot listen: the Mapper then relies on renewals and Suspect). Only
// datagrams from gw's port 5351 count: anyone on the LAN can multicast.
// A gateway on loopback (a test's stand-in) cannot multicast to us:
// nothing is listened for.
func listenAnnouncements(gw netip.Addr, out chan<- uint32) *net.UDPConn {
	if gw.IsLoopback() {
		return nil
	}
	conn, err := net.ListenMulticastUDP("udp4", nil, net.UDPAddrFromAddrPort(announceGroup))
	if err != nil {
		return nil
	}
	go func() {
		buf := make([]byte, 1100) // bytes: PCP's largest message
		for {
			n, from, err := conn.ReadFromUDPAddrPort(buf)
			if err != nil {
				return // closed
			}
			if from.Addr().Unmap() != gw || from.Port() != pcpPort {
				continue
			}
			if epoch, ok := parseAnnouncement(buf[:n]); ok {
				select {
				case out <- epoch:
				default: // one waiting is enough
				}
			}
		}
	}()
	return conn
}
