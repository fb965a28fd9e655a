package client

import (
	"context"
	"encoding/hex"
	"net/netip"
	"time"

	"rockstep/net/portmap"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// Successors everyone can reach (docs/ARCHITECTURE.md, "Successors
// everyone can reach"): a player asks its own router to open its standby
// port (Options.StandbyMap, the same port mapping as the Host button's)
// and announces the outside address it got (wire.Standby.Outside); the
// room lists it beside the address it observes (wire.Successor.Outside),
// and probes and dials try both at once: the first that proves the
// successor's host key is the one used.

// mapStandby asks the router for the standby port, if the options say so.
func (c *Client) mapStandby() {
	if c.opt.StandbyMap == nil || c.standby == nil {
		return
	}
	c.pm = c.opt.StandbyMap(c.standby.Port())
}

// unmapStandby deletes the standby port's mapping (a second at most: a
// router that has gone away lets it lapse with its lease).
func (c *Client) unmapStandby() {
	if c.pm != nil {
		c.pm.Close()
	}
}

// standbyOutside returns the outside address the router opened for the
// standby port (zero: none, or not yet).
func (c *Client) standbyOutside() netip.AddrPort {
	if c.pm == nil {
		return netip.AddrPort{}
	}
	if st := c.pm.Status(); st.Verdict == portmap.Opened && st.External.IsValid() && st.External.Port() != 0 {
		return netip.AddrPortFrom(st.External.Addr().Unmap(), st.External.Port())
	}
	return netip.AddrPort{}
}

// StandbyMapping returns what came of asking the router to open the
// standby port (ok false: it was not asked), for the lobby and the logs.
func (c *Client) StandbyMapping() (st portmap.Status, ok bool) {
	if c.pm == nil {
		return portmap.Status{}, false
	}
	return c.pm.Status(), true
}

// candAddrs returns the addresses cand's standby may be reached at: the
// one the room observes, and the one its router mapped, if another.
func candAddrs(cand wire.Successor) []string {
	addrs := []string{cand.Addr.String()}
	if cand.Outside.IsValid() && cand.Outside != cand.Addr {
		addrs = append(addrs, cand.Outside.String())
	}
	return addrs
}

// dialCand connects to cand's standby at whichever of its addresses
// proves the host key announced for it first, within timeout, from a
// fresh socket or from the standby's port (candTries: punch.go).
func (c *Client) dialCand(ctx context.Context, cand wire.Successor, timeout time.Duration) (*transport.Client, error) {
	dctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	set := successorSettings(c.opt, hex.EncodeToString(cand.Key[:]))
	tc, _, err := race(dctx, c.candTries(cand), func(ctx context.Context, a string) (*transport.Client, error) {
		return c.dialTry(ctx, a, set)
	})
	return tc, err
}
