//go:build linux

package natlab

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"golang.org/x/sys/unix"
)

// ipctnlMsgCtDelete is ctnetlink's delete message (linux/netfilter/
// nfnetlink_conntrack.h: IPCTNL_MSG_CT_DELETE); with no attributes it
// deletes every entry of the family.
const ipctnlMsgCtDelete = 2

// flushConntrack empties the connection tracking table of namespace ns,
// as `conntrack -F` does (without needing that tool): a ctnetlink
// IPCTNL_MSG_CT_DELETE with no attributes, for IPv4 and IPv6, sent from a
// netlink socket made inside ns.
func flushConntrack(ns string) error {
	fd, err := netlinkIn(ns)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	for seq, family := range []uint8{unix.AF_INET, unix.AF_INET6} {
		// nlmsghdr (16 bytes) and nfgenmsg (4 bytes).
		msg := make([]byte, 20)
		binary.NativeEndian.PutUint32(msg[0:4], 20)
		binary.NativeEndian.PutUint16(msg[4:6], unix.NFNL_SUBSYS_CTNETLINK<<8|ipctnlMsgCtDelete)
		binary.NativeEndian.PutUint16(msg[6:8], unix.NLM_F_REQUEST|unix.NLM_F_ACK)
		binary.NativeEndian.PutUint32(msg[8:12], uint32(seq+1))
		msg[16] = family // nfgen_family; version 0, res_id 0
		if err := unix.Sendto(fd, msg, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
			return fmt.Errorf("natlab: conntrack flush in %s: send: %w", ns, err)
		}
		buf := make([]byte, 4096)
		n, _, err := unix.Recvfrom(fd, buf, 0)
		if err != nil {
			return fmt.Errorf("natlab: conntrack flush in %s: %w", ns, err)
		}
		// The ack: an NLMSG_ERROR whose error is 0 (or ENOENT: nothing
		// tracked for that family).
		if n < 20 || binary.NativeEndian.Uint16(buf[4:6]) != unix.NLMSG_ERROR {
			return fmt.Errorf("natlab: conntrack flush in %s: unexpected answer of %d bytes", ns, n)
		}
		if e := -int32(binary.NativeEndian.Uint32(buf[16:20])); e != 0 && unix.Errno(e) != unix.ENOENT {
			return fmt.Errorf("natlab: conntrack flush in %s: %w", ns, unix.Errno(e))
		}
	}
	return nil
}

// netlinkIn returns a netfilter netlink socket made inside namespace ns
// (a socket stays in the namespace it was made in). The thread that
// enters ns is locked to its goroutine and never unlocked, so it ends with
// it and no other goroutine runs in ns.
func netlinkIn(ns string) (int, error) {
	type result struct {
		fd  int
		err error
	}
	done := make(chan result, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread dies with the goroutine
		nsf, err := os.Open(filepath.Join("/var/run/netns", ns))
		if err != nil {
			done <- result{-1, fmt.Errorf("natlab: namespace %s: %w", ns, err)}
			return
		}
		defer nsf.Close()
		if err := unix.Setns(int(nsf.Fd()), unix.CLONE_NEWNET); err != nil {
			done <- result{-1, fmt.Errorf("natlab: enter namespace %s: %w", ns, err)}
			return
		}
		fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_NETFILTER)
		if err != nil {
			done <- result{-1, fmt.Errorf("natlab: netlink socket in %s: %w", ns, err)}
			return
		}
		tv := unix.Timeval{Sec: 10}
		_ = unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv)
		done <- result{fd, nil}
	}()
	r := <-done
	return r.fd, r.err
}
