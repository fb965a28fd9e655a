package client

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"sync"

	"rockstep/net/migrate"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// Paths through NATs without a mapping (docs/ARCHITECTURE.md, "Successors
// everyone can reach"). While the game (or its lobby) runs, a player's
// standby socket sends a keep-alive every few seconds to every other
// candidate's standby, at the address the room observes for it and at the
// one its router mapped (keepTargets): a home router's NAT keeps the
// standby's port on the outside and then lets in what comes from those
// addresses. Each probe and each dial of a successor races, beside the
// dials from fresh sockets, one from the standby's own port (a connected
// socket sharing it: transport.DialShared), which leaves through the path
// the keep-alives opened; so a player behind such a NAT, with no port
// mapping, is reached by the others, its reach is confirmed both ways,
// and it may carry the game on. A NAT that gives each destination another
// outside port (`masquerade fully-random`, endpoint-dependent mapping)
// opens no such path: its players stay unreached.

// keepTargets returns the addresses this player's standby keeps open:
// every other candidate's, observed and mapped, while the game or its
// lobby runs (the list names at most game.MaxPlayers). Pure: the view in,
// the addresses out.
//
// probing are the candidates the machine probes besides
// (migrate.Machine.ProbeTargets: while this player hosts, those it passed
// over, or the list from before when its room was deserted), kept open
// too, whatever the game's phase.
func keepTargets(v migrate.View, probing []wire.Successor) []netip.AddrPort {
	var out []netip.AddrPort
	add := func(c wire.Successor) {
		if int(c.Slot) == v.Slot {
			return
		}
		for _, a := range []netip.AddrPort{c.Addr, c.Outside} {
			if a.IsValid() && a.Port() != 0 && !contains(out, a) {
				out = append(out, a)
			}
		}
	}
	if v.Playing || v.Lobby {
		for _, c := range v.List.List {
			add(c)
		}
	}
	for _, c := range probing {
		add(c)
	}
	return out
}

func contains(as []netip.AddrPort, a netip.AddrPort) bool {
	for _, b := range as {
		if a == b {
			return true
		}
	}
	return false
}

// keepAlive gives the standby the addresses to keep open; c.mu is held.
func (c *Client) keepAlive(v migrate.View) {
	if c.standby != nil {
		c.standby.KeepAlive(keepTargets(v, c.m.ProbeTargets(v)))
	}
}

// fromStandby marks an address in a race as dialled from the standby's
// port (candTries).
const fromStandby = " from the standby's port"

// candTries returns what dialCand races for cand: each of its addresses
// from a fresh socket, and from the standby's port where the system lets
// a dial share it (transport.SharesPorts: Linux) and the standby's
// keep-alives have opened the path there (transport.Server.PathOpen: a
// handshake that arrived at the other's router before that player's own
// first keep-alive left would shut it), but not for a client
// that dials from a chosen local address, as load tests do (the shared
// dial would leave from another).
func (c *Client) candTries(cand wire.Successor) []string {
	addrs := candAddrs(cand)
	if c.standby == nil || c.opt.From.IsValid() || !transport.SharesPorts() {
		return addrs
	}
	out := addrs
	for _, a := range addrs {
		if ap, err := netip.ParseAddrPort(a); err == nil && c.standby.PathOpen(ap) {
			out = append(out, a+fromStandby)
		}
	}
	return out
}

// shared holds the addresses a dial from the standby's port is
// handshaking with: two connected sockets to one address on one port
// would take each other's answers, so the second is not made.
type shared struct {
	mu   sync.Mutex
	busy map[string]bool
}

// errSharedBusy: another dial from the standby's port to that address is
// under way (the fresh socket's dial races on).
var errSharedBusy = errors.New("a dial from the standby's port to this address is under way")

// dialTry dials one of candTries' entries.
func (c *Client) dialTry(ctx context.Context, try string, cfg transport.Config) (*transport.Client, error) {
	addr, ok := strings.CutSuffix(try, fromStandby)
	if !ok {
		return c.dial(ctx, addr, cfg)
	}
	if f := unreachable.Load(); f != nil && (*f)(c, addr) {
		<-ctx.Done()
		return nil, fmt.Errorf("dial %s: out of reach: %w", try, ctx.Err())
	}
	c.shared.mu.Lock()
	if c.shared.busy[addr] {
		c.shared.mu.Unlock()
		return nil, fmt.Errorf("dial %s: %w", try, errSharedBusy)
	}
	if c.shared.busy == nil {
		c.shared.busy = map[string]bool{}
	}
	c.shared.busy[addr] = true
	c.shared.mu.Unlock()
	defer func() {
		c.shared.mu.Lock()
		delete(c.shared.busy, addr)
		c.shared.mu.Unlock()
	}()
	return c.standby.DialShared(ctx, addr, cfg)
}
