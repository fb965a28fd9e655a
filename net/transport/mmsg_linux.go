//go:build linux

package transport

import (
	"encoding/binary"
	"net"
	"net/netip"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// On Linux a socket reads and writes datagrams in batches, with one
// recvmmsg or sendmmsg system call for up to a batch's worth.

// mmsghdr is struct mmsghdr.
type mmsghdr struct {
	hdr unix.Msghdr
	n   uint32
}

// mmsgSocket holds the system call's arguments, reused from call to call.
type mmsgSocket struct {
	conn *net.UDPConn
	rc   syscall.RawConn
	v6   bool // an AF_INET6 socket: IPv4 peers are written as v4-mapped
	hdrs []mmsghdr
	iovs []unix.Iovec
	sas  []unix.RawSockaddrInet6 // big enough for either family
}

func newBatchSocket(conn *net.UDPConn, size int) (batchSocket, error) {
	rc, err := conn.SyscallConn()
	if err != nil {
		return nil, err
	}
	m := &mmsgSocket{
		conn: conn,
		rc:   rc,
		hdrs: make([]mmsghdr, size),
		iovs: make([]unix.Iovec, size),
		sas:  make([]unix.RawSockaddrInet6, size),
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		var sa unix.Sockaddr
		sa, serr = unix.Getsockname(int(fd))
		_, m.v6 = sa.(*unix.SockaddrInet6)
	}); err != nil {
		return nil, err
	}
	if serr != nil {
		return nil, serr
	}
	return m, nil
}

func (m *mmsgSocket) prepare(bufs [][]byte) int {
	n := min(len(bufs), len(m.hdrs))
	for i := range n {
		m.iovs[i].Base = &bufs[i][0]
		m.iovs[i].SetLen(len(bufs[i]))
		h := &m.hdrs[i].hdr
		*h = unix.Msghdr{}
		h.Name = (*byte)(unsafe.Pointer(&m.sas[i]))
		h.Namelen = uint32(unsafe.Sizeof(m.sas[i]))
		h.Iov = &m.iovs[i]
		h.SetIovlen(1)
		m.hdrs[i].n = 0
	}
	return n
}

// recv reads up to the n datagrams prepared: ok is false if the socket had
// none (EAGAIN, or a signal), and errno is the error that failed the read.
func (m *mmsgSocket) recv(fd uintptr, n int, ns []int, from []netip.AddrPort) (got int, errno syscall.Errno, ok bool) {
	r, _, e := unix.Syscall6(unix.SYS_RECVMMSG, fd, uintptr(unsafe.Pointer(&m.hdrs[0])), uintptr(n), 0, 0, 0)
	switch {
	case e == unix.EAGAIN || e == unix.EINTR:
		return 0, 0, false
	case e != 0:
		return 0, e, true
	}
	got = int(r)
	for i := range got {
		ns[i] = int(m.hdrs[i].n)
		from[i] = sockaddrAddrPort(&m.sas[i])
	}
	return got, 0, true
}

func (m *mmsgSocket) readBatch(bufs [][]byte, ns []int, from []netip.AddrPort) (int, error) {
	n := m.prepare(bufs)
	var got int
	var errno syscall.Errno
	err := m.rc.Read(func(fd uintptr) bool {
		var ok bool
		got, errno, ok = m.recv(fd, n, ns, from)
		return ok // else wait until the socket is readable
	})
	if err != nil {
		return 0, err
	}
	if errno != 0 {
		return 0, m.readError(errno)
	}
	return got, nil
}

func (m *mmsgSocket) readError(errno syscall.Errno) error {
	return &net.OpError{Op: "read", Net: "udp", Source: m.conn.LocalAddr(), Err: errno}
}

// readEach stays in one poller read: after a read that did not fill the
// batch it waits for the socket's next wake-up instead of asking again and
// hearing EAGAIN, which halves the system calls of a client that receives a
// datagram at a time. The poller is edge-triggered and every datagram that
// arrives is an edge, so one that arrives after a read wakes the next wait.
func (m *mmsgSocket) readEach(bufs [][]byte, ns []int, from []netip.AddrPort, handle func(int)) error {
	var errno syscall.Errno
	err := m.rc.Read(func(fd uintptr) bool {
		for {
			n := m.prepare(bufs)
			got, e, ok := m.recv(fd, n, ns, from)
			switch {
			case !ok:
				return false // wait until the socket is readable
			case e != 0:
				errno = e
				return true
			}
			handle(got)
			if got < n {
				return false
			}
		}
	})
	if err != nil {
		return err
	}
	return m.readError(errno)
}

func (m *mmsgSocket) writeBatch(bufs [][]byte, to []netip.AddrPort) (int, error) {
	n := m.prepare(bufs)
	for i := range n {
		m.hdrs[i].hdr.Namelen = putSockaddr(&m.sas[i], to[i], m.v6)
	}
	var sent int
	var errno syscall.Errno
	err := m.rc.Write(func(fd uintptr) bool {
		r, _, e := unix.Syscall6(unix.SYS_SENDMMSG, fd, uintptr(unsafe.Pointer(&m.hdrs[0])), uintptr(n), 0, 0, 0)
		if e == unix.EAGAIN || e == unix.EINTR {
			return false // wait until the socket is writable
		}
		sent, errno = int(r), e
		return true
	})
	if err != nil {
		return 0, err
	}
	if errno != 0 {
		return 0, &net.OpError{Op: "write", Net: "udp", Source: m.conn.LocalAddr(), Err: errno}
	}
	return sent, nil
}

// sockaddrAddrPort reads a sockaddr_in or sockaddr_in6 the kernel wrote.
func sockaddrAddrPort(sa *unix.RawSockaddrInet6) netip.AddrPort {
	raw := (*[unix.SizeofSockaddrInet6]byte)(unsafe.Pointer(sa))
	port := binary.BigEndian.Uint16(raw[2:4])
	switch sa.Family {
	case unix.AF_INET:
		return netip.AddrPortFrom(netip.AddrFrom4([4]byte(raw[4:8])), port)
	case unix.AF_INET6:
		return netip.AddrPortFrom(netip.AddrFrom16(sa.Addr).Unmap(), port)
	}
	return netip.AddrPort{}
}

// putSockaddr writes to as the socket's family expects and returns its
// length: on an AF_INET6 socket an IPv4 peer is v4-mapped.
func putSockaddr(sa *unix.RawSockaddrInet6, to netip.AddrPort, v6 bool) uint32 {
	*sa = unix.RawSockaddrInet6{}
	raw := (*[unix.SizeofSockaddrInet6]byte)(unsafe.Pointer(sa))
	if !v6 && to.Addr().Unmap().Is4() {
		sa.Family = unix.AF_INET
		binary.BigEndian.PutUint16(raw[2:4], to.Port())
		a := to.Addr().Unmap().As4()
		copy(raw[4:8], a[:])
		return unix.SizeofSockaddrInet4
	}
	sa.Family = unix.AF_INET6
	binary.BigEndian.PutUint16(raw[2:4], to.Port())
	sa.Addr = to.Addr().As16()
	return unix.SizeofSockaddrInet6
}
