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
