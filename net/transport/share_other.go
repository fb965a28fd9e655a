//go:build !linux

package transport

import "syscall"

// canShare is false where sockets do not share a port the way Linux's do
// (Windows lets SO_REUSEADDR take a port from another program; the BSDs
// give a unicast datagram to one of the sharers): no dial leaves from a
// standby's port there, and keep-alives open no path a dial uses.
const canShare = false

func shareControl(string, string, syscall.RawConn) error { return ErrNoSharedPort }

// ttlControl: no TTL is set per keep-alive here.
func ttlControl(datagramSocket) interface{ Control(func(fd uintptr)) error } { return nil }

func setTTL(interface{ Control(func(fd uintptr)) error }, int) {}
