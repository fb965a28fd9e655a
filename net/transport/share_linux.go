package transport

import "syscall"

// canShare: DialShared works here.
const canShare = true

// shareControl lets a socket share its port with this process's other
// sockets that set it too (SO_REUSEADDR: for UDP on Linux, the kernel
// gives a datagram to the socket that matches it closest, a connected one
// before a listening one).
func shareControl(network, address string, c syscall.RawConn) error {
	var serr error
	err := c.Control(func(fd uintptr) {
		serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1)
	})
	if err != nil {
		return err
	}
	return serr
}

// setTTL sets the TTL (IPv4) and hop limit (IPv6) of the datagrams the
// socket sends from now on; -1: the system's default again. Best effort:
// a socket that refuses keeps its own.
func setTTL(rc interface {
	Control(func(fd uintptr)) error
}, ttl int) {
	if rc == nil {
		return
	}
	_ = rc.Control(func(fd uintptr) {
		_ = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_IP, syscall.IP_TTL, ttl)
		_ = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_IPV6, syscall.IPV6_UNICAST_HOPS, ttl)
	})
}

// fdControl runs functions on a bare descriptor (a detached socket's).
type fdControl int

func (f fdControl) Control(fn func(fd uintptr)) error { fn(uintptr(f)); return nil }

// ttlControl returns what setTTL sets the TTL of sock through (nil: it
// cannot).
func ttlControl(sock datagramSocket) interface{ Control(func(fd uintptr)) error } {
	switch s := sock.(type) {
	case *detachedSocket:
		return fdControl(s.fd)
	case polledSocket:
		if rc, err := s.conn.SyscallConn(); err == nil {
			return rc
		}
	}
	return nil
}
