//go:build linux

package transport

import (
	"encoding/binary"
	"net"
	"net/netip"
	"strconv"
	"sync/atomic"
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
	local   net.Addr
	rc      syscall.RawConn // a socket in Go's poller
	det     *detachedSocket // or one out of it
	v6      bool            // an AF_INET6 socket: IPv4 peers are written as v4-mapped
	pktinfo bool            // the socket says where each datagram came to (see listenPktinfo)
	hdrs    []mmsghdr
	iovs    []unix.Iovec
	sas     []unix.RawSockaddrInet6 // big enough for either family
	ctl     []byte                  // pktinfoSpace bytes of control message a datagram, with pktinfo
}

// pktinfoSpace is the room one control message of either family's packet
// information takes (bytes).
var pktinfoSpace = max(unix.CmsgSpace(unix.SizeofInet6Pktinfo), unix.CmsgSpace(unix.SizeofInet4Pktinfo))

func newMmsgSocket(local net.Addr, v6 bool, size int) *mmsgSocket {
	return &mmsgSocket{
		local: local,
		v6:    v6,
		hdrs:  make([]mmsghdr, size),
		iovs:  make([]unix.Iovec, size),
		sas:   make([]unix.RawSockaddrInet6, size),
	}
}

// withPktinfo makes m read where each datagram came to and write from the
// local addresses it is given: its socket was asked (listenPktinfo).
func (m *mmsgSocket) withPktinfo(on bool) *mmsgSocket {
	if on {
		m.pktinfo = true
		m.ctl = make([]byte, len(m.hdrs)*pktinfoSpace)
	}
	return m
}

// listenPktinfo asks a socket bound to a wildcard address (0.0.0.0, [::])
// to say, with each datagram, the local address it was sent to, so that a
// server answers from the address a client dialled: on a link with two
// addresses the system's own choice of source is the first, and a client
// that dialled the second would take the answer for a stranger's and drop
// it. It reports whether the socket says so; a socket bound to one address
// needs nothing (its answers leave from that address).
func listenPktinfo(conn *net.UDPConn) bool {
	ua, ok := conn.LocalAddr().(*net.UDPAddr)
	if !ok || !ua.IP.IsUnspecified() {
		return false
	}
	rc, err := conn.SyscallConn()
	if err != nil {
		return false
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		v6, err := isV6(int(fd))
		switch {
		case err != nil:
			serr = err
		case v6: // on a dual-stack socket IPv4 datagrams say it v4-mapped
			serr = unix.SetsockoptInt(int(fd), unix.IPPROTO_IPV6, unix.IPV6_RECVPKTINFO, 1)
		default:
			serr = unix.SetsockoptInt(int(fd), unix.IPPROTO_IP, unix.IP_PKTINFO, 1)
		}
	}); err != nil {
		return false
	}
	return serr == nil
}

// hasPktinfo reports whether fd was asked to say where datagrams came to.
func hasPktinfo(fd int, v6 bool) bool {
	var n int
	var err error
	if v6 {
		n, err = unix.GetsockoptInt(fd, unix.IPPROTO_IPV6, unix.IPV6_RECVPKTINFO)
	} else {
		n, err = unix.GetsockoptInt(fd, unix.IPPROTO_IP, unix.IP_PKTINFO)
	}
	return err == nil && n != 0
}

func newBatchSocket(conn *net.UDPConn, size int) (batchSocket, error) {
	rc, err := conn.SyscallConn()
	if err != nil {
		return nil, err
	}
	var v6 bool
	var serr error
	if err := rc.Control(func(fd uintptr) { v6, serr = isV6(int(fd)) }); err != nil {
		return nil, err
	}
	if serr != nil {
		return nil, serr
	}
	var pktinfo bool
	_ = rc.Control(func(fd uintptr) { pktinfo = hasPktinfo(int(fd), v6) })
	m := newMmsgSocket(conn.LocalAddr(), v6, size).withPktinfo(pktinfo)
	m.rc = rc
	return m, nil
}

func isV6(fd int) (bool, error) {
	sa, err := unix.Getsockname(fd)
	_, v6 := sa.(*unix.SockaddrInet6)
	return v6, err
}

// A detachedSocket is a server's UDP socket taken out of Go's poller. In
// the poller every datagram that arrives, and every one the server sends
// (loopback and most drivers free a sent datagram at once, and a socket
// with room to write is woken), wakes the runtime's idle thread when
// nobody waits for it: at a thousand players some 8,000 empty wake-ups a
// second while the reader paces itself. Out of the poller the socket wakes
// only a read that waits on it. Its reads block in the system call (the
// runtime lends the processor to other goroutines meanwhile) and its
// writes are plain sendmmsg calls.
type detachedSocket struct {
	fd      int
	local   net.Addr
	v6      bool
	pktinfo bool // see listenPktinfo
	closed  atomic.Bool
}

// listenSocket takes conn's socket out of Go's poller: a copy of its
// descriptor, in blocking mode, outlives conn, whose Close removes it from
// the poller. If that fails, conn stays as it is.
func listenSocket(conn *net.UDPConn) datagramSocket {
	d, err := detach(conn)
	if err != nil {
		return polledSocket{conn}
	}
	return d
}

func detach(conn *net.UDPConn) (*detachedSocket, error) {
	fd, err := dupOut(conn, false)
	if err != nil {
		return nil, err
	}
	d := &detachedSocket{fd: fd, local: conn.LocalAddr()}
	if d.v6, err = isV6(fd); err != nil {
		unix.Close(fd)
		return nil, err
	}
	d.pktinfo = hasPktinfo(fd, d.v6)
	conn.Close()
	return d, nil
}

// dupOut returns a copy of conn's descriptor for use out of Go's poller,
// blocking or not; conn is left as it is, for the caller to close once it
// keeps the copy.
func dupOut(conn *net.UDPConn, nonblock bool) (int, error) {
	rc, err := conn.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd := -1
	var derr error
	if err := rc.Control(func(f uintptr) { fd, derr = unix.FcntlInt(f, unix.F_DUPFD_CLOEXEC, 0) }); err != nil {
		return -1, err
	}
	if derr != nil {
		return -1, derr
	}
	if err := unix.SetNonblock(fd, nonblock); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

func (d *detachedSocket) batches(size int) batchSocket {
	m := newMmsgSocket(d.local, d.v6, size).withPktinfo(d.pktinfo)
	m.det = d
	return m
}

// interrupt ends the socket's use as a close would: a shutdown wakes a
// read blocked on it (and makes reads return at once from then on, writes
// fail), and the flag tells the reader why.
func (d *detachedSocket) interrupt() {
	if !d.closed.Swap(true) {
		_ = unix.Shutdown(d.fd, unix.SHUT_RDWR) // ENOTCONN on a UDP socket that is not connected, and done all the same
	}
}

func (d *detachedSocket) release() { unix.Close(d.fd) }

func (d *detachedSocket) localAddr() net.Addr { return d.local }

func (d *detachedSocket) kernelDrops() (uint32, bool) {
	if d.closed.Load() {
		return 0, false
	}
	return fdDrops(d.fd)
}

// connDrops reads the receive-buffer drops of a socket in Go's poller.
func connDrops(conn *net.UDPConn) (n uint32, ok bool) {
	rc, err := conn.SyscallConn()
	if err != nil {
		return 0, false
	}
	if rc.Control(func(fd uintptr) { n, ok = fdDrops(int(fd)) }) != nil {
		return 0, false
	}
	return n, ok
}

// fdDrops reads SO_MEMINFO's count of the datagrams the kernel dropped
// because the socket's receive buffer was full (Linux 3.9 and later).
func fdDrops(fd int) (uint32, bool) {
	var info [unix.SK_MEMINFO_VARS]uint32
	size := uint32(unsafe.Sizeof(info))
	_, _, errno := unix.Syscall6(unix.SYS_GETSOCKOPT, uintptr(fd), unix.SOL_SOCKET, unix.SO_MEMINFO,
		uintptr(unsafe.Pointer(&info[0])), uintptr(unsafe.Pointer(&size)), 0)
	if errno != 0 || size < 4*(unix.SK_MEMINFO_DROPS+1) {
		return 0, false
	}
	return info[unix.SK_MEMINFO_DROPS], true
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

// prepareControl gives each of the n datagrams prepared room for its
// packet information, for a read.
func (m *mmsgSocket) prepareControl(n int) {
	if !m.pktinfo {
		return
	}
	for i := range n {
		h := &m.hdrs[i].hdr
		h.Control = &m.ctl[i*pktinfoSpace]
		h.SetControllen(pktinfoSpace)
	}
}

// putSource writes datagram i's control message that it leave from src,
// for a write; nothing if src is the zero Addr, or a link-local IPv6
// address (which would need its interface: the system's choice serves).
func (m *mmsgSocket) putSource(i int, src netip.Addr) {
	if !m.pktinfo || !src.IsValid() || src.Is6() && !src.Is4In6() && src.IsLinkLocalUnicast() {
		return
	}
	c := m.ctl[i*pktinfoSpace : (i+1)*pktinfoSpace]
	clear(c)
	cm := (*unix.Cmsghdr)(unsafe.Pointer(&c[0]))
	data := c[unix.CmsgLen(0):]
	if m.v6 {
		cm.Level, cm.Type = unix.IPPROTO_IPV6, unix.IPV6_PKTINFO
		cm.SetLen(unix.CmsgLen(unix.SizeofInet6Pktinfo))
		pi := (*unix.Inet6Pktinfo)(unsafe.Pointer(&data[0]))
		pi.Addr = src.As16() // an IPv4 address v4-mapped, as the kernel expects on a dual-stack socket
	} else {
		if !src.Unmap().Is4() {
			return
		}
		cm.Level, cm.Type = unix.IPPROTO_IP, unix.IP_PKTINFO
		cm.SetLen(unix.CmsgLen(unix.SizeofInet4Pktinfo))
		pi := (*unix.Inet4Pktinfo)(unsafe.Pointer(&data[0]))
		pi.Spec_dst = src.Unmap().As4()
	}
	h := &m.hdrs[i].hdr
	h.Control = &c[0]
	h.SetControllen(int(cm.Len))
}

// readDst reads, from the control messages of datagram i, the local
// address it was sent to (unmapped), or the zero Addr.
func (m *mmsgSocket) readDst(i int) netip.Addr {
	h := &m.hdrs[i].hdr
	if !m.pktinfo || h.Controllen == 0 {
		return netip.Addr{}
	}
	c := m.ctl[i*pktinfoSpace : i*pktinfoSpace+min(int(h.Controllen), pktinfoSpace)]
	hl := unix.CmsgLen(0)
	for len(c) >= hl {
		cm := (*unix.Cmsghdr)(unsafe.Pointer(&c[0]))
		l := int(cm.Len)
		if l < hl || l > len(c) {
			return netip.Addr{}
		}
		data := c[hl:l]
		switch {
		case cm.Level == unix.IPPROTO_IPV6 && cm.Type == unix.IPV6_PKTINFO && len(data) >= unix.SizeofInet6Pktinfo:
			pi := (*unix.Inet6Pktinfo)(unsafe.Pointer(&data[0]))
			return netip.AddrFrom16(pi.Addr).Unmap()
		case cm.Level == unix.IPPROTO_IP && cm.Type == unix.IP_PKTINFO && len(data) >= unix.SizeofInet4Pktinfo:
			pi := (*unix.Inet4Pktinfo)(unsafe.Pointer(&data[0]))
			return netip.AddrFrom4(pi.Addr)
		}
		next := unix.CmsgSpace(l - hl)
		if next > len(c) {
			break
		}
		c = c[next:]
	}
	return netip.Addr{}
}

// recv reads up to the n datagrams prepared, with recvmmsg's flags: ok is
// false if the socket had none (EAGAIN, or a signal), and errno is the
// error that failed the read.
func (m *mmsgSocket) recv(fd uintptr, n, flags int, ns []int, from []netip.AddrPort, dst []netip.Addr) (got int, errno syscall.Errno, ok bool) {
	m.prepareControl(n)
	r, _, e := unix.Syscall6(unix.SYS_RECVMMSG, fd, uintptr(unsafe.Pointer(&m.hdrs[0])), uintptr(n), uintptr(flags), 0, 0)
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
		if dst != nil {
			dst[i] = m.readDst(i)
		}
	}
	return got, 0, true
}

// send writes the n datagrams prepared with sendmmsg's flags.
func (m *mmsgSocket) send(fd uintptr, n, flags int) (int, syscall.Errno) {
	r, _, e := unix.Syscall6(unix.SYS_SENDMMSG, fd, uintptr(unsafe.Pointer(&m.hdrs[0])), uintptr(n), uintptr(flags), 0, 0)
	return int(r), e
}

func (m *mmsgSocket) readBatch(bufs [][]byte, ns []int, from []netip.AddrPort, dst []netip.Addr) (int, error) {
	n := m.prepare(bufs)
	if m.det != nil {
		return m.readBlocking(n, ns, from, dst)
	}
	var got int
	var errno syscall.Errno
	err := m.rc.Read(func(fd uintptr) bool {
		var ok bool
		got, errno, ok = m.recv(fd, n, 0, ns, from, dst)
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

// readBlocking reads a detached socket: it waits in recvmmsg for one
// datagram and takes those already there with it.
func (m *mmsgSocket) readBlocking(n int, ns []int, from []netip.AddrPort, dst []netip.Addr) (int, error) {
	for tries := 0; ; tries++ {
		if m.det.closed.Load() {
			return 0, net.ErrClosed
		}
		got, errno, ok := m.recv(uintptr(m.det.fd), n, unix.MSG_WAITFORONE, ns, from, dst)
		switch {
		case m.det.closed.Load():
			return 0, net.ErrClosed // the wake-up of a shutdown
		case !ok && tries < 1000:
			continue // a signal
		case !ok:
			return 0, m.readError(unix.EINTR)
		case errno != 0:
			return 0, m.readError(errno)
		}
		return got, nil
	}
}

func (m *mmsgSocket) readError(errno syscall.Errno) error {
	return &net.OpError{Op: "read", Net: "udp", Source: m.local, Err: errno}
}

// readEach stays in one poller read: after a read that did not fill the
// batch it waits for the socket's next wake-up instead of asking again and
// hearing EAGAIN, which halves the system calls of a client that receives a
// datagram at a time. The poller is edge-triggered and every datagram that
// arrives is an edge, so one that arrives after a read wakes the next wait.
func (m *mmsgSocket) readEach(bufs [][]byte, ns []int, from []netip.AddrPort, dst []netip.Addr, handle func(int)) error {
	if m.det != nil {
		return eachBatch(m, bufs, ns, from, dst, handle)
	}
	var errno syscall.Errno
	err := m.rc.Read(func(fd uintptr) bool {
		for {
			n := m.prepare(bufs)
			got, e, ok := m.recv(fd, n, 0, ns, from, dst)
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

func (m *mmsgSocket) writeBatch(bufs [][]byte, src []netip.Addr, to []netip.AddrPort) (int, error) {
	n := m.prepare(bufs)
	for i := range n {
		m.hdrs[i].hdr.Namelen = putSockaddr(&m.sas[i], to[i], m.v6)
		if src != nil {
			m.putSource(i, src[i])
		}
	}
	var sent int
	var errno syscall.Errno
	if m.det != nil {
		// A blocking socket: a full send buffer waits in the call.
		for tries := 0; tries == 0 || errno == unix.EINTR && tries < 1000; tries++ {
			sent, errno = m.send(uintptr(m.det.fd), n, unix.MSG_NOSIGNAL)
		}
	} else if err := m.rc.Write(func(fd uintptr) bool {
		sent, errno = m.send(fd, n, 0)
		return errno != unix.EAGAIN && errno != unix.EINTR // else wait until the socket is writable
	}); err != nil {
		return 0, err
	}
	if errno != 0 {
		return 0, &net.OpError{Op: "write", Net: "udp", Source: m.local, Err: errno}
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
	if z := to.Addr().Zone(); z != "" {
		sa.Scope_id = zoneIndex(z)
	}
	return unix.SizeofSockaddrInet6
}

// zoneIndex is the interface a scoped IPv6 address (link-local) names, by
// name or by number; 0 if there is none.
func zoneIndex(zone string) uint32 {
	if n, err := strconv.ParseUint(zone, 10, 32); err == nil {
		return uint32(n)
	}
	if ifi, err := net.InterfaceByName(zone); err == nil {
		return uint32(ifi.Index)
	}
	return 0
}
