package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"rockstep/net/client"
	"rockstep/net/host"
	"rockstep/net/invite"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// roomsTimeout bounds `rockstep -rooms`: the handshakes and every page.
const roomsTimeout = 15 * time.Second

// runRooms prints the rooms the server at target lists publicly, one per
// line: target is an address (host or host:port) or an invite code, whose
// addresses are tried at once and whose host key is pinned.
func runRooms(target string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, roomsTimeout)
	defer cancel()
	cfg := transport.LAN()
	addrs := []string{withDefaultPort(target)}
	code, ok, err := joinCode(target)
	if err != nil {
		fmt.Fprintf(stderr, "rockstep: -rooms %s: %v\n", target, err)
		return 2
	}
	if ok {
		addrs, cfg.HostFingerprint = code.Targets(), code.Fingerprint()
	}
	l, err := client.ListRooms(ctx, addrs, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "rockstep: -rooms %s: %v\n", target, err)
		return 1
	}
	for _, r := range l.Rooms {
		fmt.Fprintln(stdout, roomLine(l.Addr, l.Fingerprint, r))
	}
	switch {
	case l.Truncated:
		fmt.Fprintf(stderr, "rockstep: the server at %s lists more rooms than these %d\n", l.Addr, len(l.Rooms))
	case len(l.Rooms) == 0:
		fmt.Fprintf(stderr, "rockstep: the server at %s lists no rooms\n", l.Addr)
	}
	if l.Referee {
		fmt.Fprintf(stderr, "rockstep: the server referees its games (it runs the engine: its world settles a desync)\n")
	}
	fmt.Fprintf(stderr, "rockstep: host key %s\n", transport.FormatFingerprint(l.Fingerprint))
	return 0
}

// roomLine is one room as -rooms prints it, as -browse prints a LAN game,
// with the invite code that joins it at the address the server answered
// at (the default room's is the server's own code).
func roomLine(addr, fingerprint string, r wire.RoomInfo) string {
	line := fmt.Sprintf("%s room=%d %q host=%q %d/%d %s v%d", addr, r.RoomID, r.Name, r.Host, r.Players, r.Max, r.State, r.Version)
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return line
	}
	code, err := invite.New([]netip.AddrPort{ap}, fingerprint)
	if err != nil {
		return line
	}
	if r.RoomID != host.DefaultRoom {
		code.RoomID = r.RoomID
	}
	return line + " code=" + code.String()
}

// withDefaultPort adds wire.DefaultPort to an address that has no port
// (a name, an IPv4 address, an IPv6 one with or without brackets).
func withDefaultPort(s string) string {
	if _, _, err := net.SplitHostPort(s); err == nil {
		return s
	}
	h := strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	return net.JoinHostPort(h, strconv.Itoa(wire.DefaultPort))
}
