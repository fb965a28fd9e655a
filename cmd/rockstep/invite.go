package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/netip"
	"time"

	"rockstep/net/client"
	"rockstep/net/invite"
	"rockstep/net/transport"
)

// resolveTimeout bounds the bots' search for the address of an invite
// code's host: its handshakes, all at once.
const resolveTimeout = 10 * time.Second

// joinCode reads a -join value as an invite code: a value that looks like
// one (invite.Looks) is one, and an error if it does not decode; anything
// else is an address, as before codes.
func joinCode(join string) (c invite.Code, ok bool, err error) {
	if !invite.Looks(join) {
		return c, false, nil
	}
	c, err = invite.Decode(join)
	return c, err == nil, err
}

// resolveCode finds which of a code's addresses its host answers at, with
// the key it pins, for the bots, which dial one address many times.
func resolveCode(ctx context.Context, code invite.Code) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, resolveTimeout)
	defer cancel()
	cfg := transport.LAN()
	cfg.HostFingerprint = code.Fingerprint()
	addr, err := client.Resolve(ctx, code.Targets(), cfg)
	if err != nil {
		return "", fmt.Errorf("invite code %s: %w", code, err)
	}
	return addr, nil
}

// logServerCode logs the server's invite code: the addresses it knows (its
// listen address if it is not unspecified, else its interfaces'), after
// external, the router's outside address, when -portmap opened one (the
// code is logged again then, with it first).
func logServerCode(log *slog.Logger, srv *transport.Server, external netip.AddrPort) {
	listen, err := netip.ParseAddrPort(srv.Addr().String())
	if err != nil {
		log.Warn("no invite code", "err", err)
		return
	}
	addrs := invite.HostAddrs(listen, invite.InterfaceAddrs(), external)
	code, err := invite.New(addrs, srv.HostKey().Fingerprint())
	if err != nil {
		log.Warn("no invite code", "err", err)
		return
	}
	log.Info("invite code", "code", code.String(), "addrs", fmt.Sprint(code.Addrs))
}
