package client

import (
	"context"
	"encoding/hex"
	"errors"
	"log"
	"sync"
	"sync/atomic"
	"time"

	"rockstep/net/host"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// Host migration, the client's side. A player with Options.Standby
// listens on a port of its own while it plays, probes the other players'
// ports now and then (the room learns who can reach whom and orders the
// successors), and, when the host goes away while the game runs (the
// connection times out or closes, or the room says it is going), walks the
// successor list in order: the first successor it reaches is where the
// game goes on; if that is itself, it hosts the game on its standby port
// from its own world. Every player walks the same list in the same order,
// so they meet at the same successor; one that reaches an earlier
// successor than another could (a partial network) joins that one.

// Timings of the migration.
const (
	probeEvery    = time.Second            // how often the other players' standby ports are probed
	probeTimeout  = time.Second            // a probe not answered in this time fails
	probeMemory   = 5 * time.Second        // a port that answered this recently counts as reached
	electTimeout  = 700 * time.Millisecond // a successor that does not answer in this time is passed over
	refusalWait   = 150 * time.Millisecond // at least this long, a successor may say it still has the host (refuses)
	handoverLimit = 10 * time.Second       // the successors are tried this long before the game ends
	// hostHeardRecently: a player that heard the host this recently
	// does not leave it for a successor because another player asks.
	hostHeardRecently = time.Second
)

// errHostStillThere ends a client whose connection to the host was lost
// while the host still answers: only this player's link failed, and the
// game does not move (the player can rejoin with its token).
var errHostStillThere = errors.New("the connection to the host was lost, but the host is still there: rejoin the game")

// errNoSuccessor ends a client whose host went away and whose successors
// could not be reached.
var errNoSuccessor = errors.New("the host went away and no other player could carry the game on")

// errNotTakenIn ends a client whose link to the host failed and whose
// successor never took it in: the others still had the host.
var errNotTakenIn = errors.New("the connection to the host was lost, and the game went on without this player")

// errHandover cuts the connection to a host that said it is going.
var errHandover = errors.New("the host handed the game over")

// errTurnedAway cuts the connection to a successor that does not host the
// game: it still plays under a host (the first successor, which this
// player could not reach in time, or the old host).
var errTurnedAway = errors.New("that player does not host the game")

// openStandby opens the standby socket and starts probing.
func (c *Client) openStandby() error {
	cfg := c.opt.Transport
	cfg.HostKey = c.opt.HostKey
	cfg.HostFingerprint = ""
	addr := c.opt.StandbyAddr
	if addr == "" {
		addr = ":0"
	}
	c.newHost.Store(-1)
	sb, err := host.ListenStandby(addr, cfg, c.requestHandover)
	if err != nil {
		return err
	}
	c.standby = sb
	go c.probeLoop()
	return nil
}

// closeStandby closes the standby socket; a game this player hosts is
// handed over to the others (or ends) first. Abandoned clients fall silent.
func (c *Client) closeStandby(ctx context.Context) {
	if c.standby == nil {
		return
	}
	if errors.Is(context.Cause(ctx), transport.ErrAbandoned) {
		c.standby.Abandon()
		return
	}
	c.standby.Close()
}

// requestHandover ends the current connection to the host so that the
// game moves to a successor; called by the standby when another player
// comes to resume here. It returns 0 if this player goes along, else the
// reason the caller is refused.
//
// A player that still hears its host does not follow another that lost it
// (that player's own link failed, or it could not reach the first
// successor in time): RefuseNotHosting. Neither does one on its way to
// another successor's room, or that came there in this handover's time:
// RefuseMoving (the game moved to a successor the caller cannot reach).
// The caller walks the list again.
func (c *Client) requestHandover() wire.RefuseReason {
	c.mu.Lock()
	cut := c.cut
	alive := c.now()-c.heard < hostHeardRecently
	moving := c.s.Migrating()
	moved := c.migratedAt != 0 && c.now()-c.migratedAt < handoverLimit
	c.mu.Unlock()
	switch {
	case moving || alive && moved:
		return wire.RefuseMoving
	case cut == nil || alive:
		return wire.RefuseNotHosting
	}
	cut(errHandover)
	return 0
}

// stepHandover tells the room where this player would host, and moves on
// at once when the room says it is going; c.mu is held.
func (c *Client) stepHandover() {
	if c.standby == nil {
		return
	}
	if c.s.Phase() == lockstep.Playing {
		c.s.SetStandby(wire.Standby{Port: c.standby.Port(), Key: c.standby.Key(), Reach: uint8(c.reach.Load())})
	}
	if c.s.HandoverAsked() && c.cut != nil {
		c.cut(errHandover)
	}
	if c.s.TurnedAway() && c.cut != nil {
		c.cut(errTurnedAway) // that successor still plays under a host: try the list again
	}
	if c.joining != nil && !c.s.Migrating() {
		// The successor's room took us in: the game moved.
		c.handovers.Add(1)
		c.newHost.Store(int32(c.joining.Slot))
		c.hostAddr.Store(c.joining.Addr.String())
		c.joining = nil
	}
	if c.s.Migrating() && c.cut != nil && c.migratedAt != 0 && c.now()-c.migratedAt > handoverLimit {
		// The successor never took us in (it still had the host, which we
		// could not reach): the game cannot go on for this player.
		c.gaveUp = true
		c.cut(errNoSuccessor)
	}
}

// wantsHandover reports whether the game should go on with a successor
// now that the connection to the host has ended.
func (c *Client) wantsHandover() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.standby == nil || c.closing || c.gaveUp || c.s.Phase() != lockstep.Playing {
		return false
	}
	if _, ended := c.s.Ended(); ended {
		return false
	}
	return len(c.s.Successors().List) > 0
}

// handover walks the successor list and returns how the session runs
// next: over a connection to the first successor reached, or over a pipe
// to the game this player now hosts.
func (c *Client) handover(ctx context.Context) (func(context.Context) error, error) {
	c.mu.Lock()
	list := c.s.Successors()
	slot := c.s.Slot()
	asked := c.s.HandoverAsked()
	moving := c.s.Migrating() // turned away by the successor it went to
	since := c.now() - c.migratedAt
	hostFP := c.hostFP
	c.mu.Unlock()
	if !asked && !moving && c.hostAnswers(ctx, c.HostAddr(), hostFP) {
		// The host did not say it is going and still answers: this
		// player's link failed, not the host. Moving the game would split
		// it; the player rejoins instead.
		return nil, errHostStillThere
	}
	deadline := time.Now().Add(handoverLimit)
	if moving {
		// The walk goes on from the first move: it ends when that one
		// would have given up.
		deadline = time.Now().Add(handoverLimit - since)
		pause(ctx, retryWalk)
	}
	cutOff := false // a later successor said it still has the host
	for time.Now().Before(deadline) && ctx.Err() == nil {
		var tc *transport.Client
		i := lockstep.Elect(list.List, slot, func(cand wire.Successor) bool {
			var err error
			tc, err = c.dialSuccessor(ctx, cand)
			return err == nil
		})
		switch {
		case i >= 0 && int(list.List[i].Slot) == slot:
			if !asked && c.othersHaveHost(ctx, list.List[i+1:]) {
				// Only our link to the host failed: the others play on
				// with it, and a game taken here would be ours alone.
				cutOff = true
				break
			}
			return c.takeOver(list, i)
		case i >= 0:
			cand := list.List[i]
			c.mu.Lock()
			ok := c.s.Migrate()
			if !moving {
				c.migratedAt = c.now()
			}
			c.joining = &cand // counted once its room takes us in (stepHandover)
			c.mu.Unlock()
			if !ok {
				tc.Close()
				return nil, errNoSuccessor
			}
			return func(ctx context.Context) error { return c.runNet(ctx, tc) }, nil
		}
		pause(ctx, retryWalk)
	}
	if moving || cutOff {
		return nil, errNotTakenIn // the client ends with it: nothing else to mark
	}
	return nil, errNoSuccessor
}

// othersHaveHost reports whether one of the successors after this player
// in the list still plays under the host: its standby, asked to resume the
// game there, refuses with RefuseNotHosting because it heard the host just
// now. A successor that lost the host too goes along (it says nothing, and
// comes to the first successor, this player) or went to an earlier
// successor this player passed over (RefuseMoving): then this player takes
// the game, and gives it to that one when it can reach it (watchEarlier).
// The successors are asked together; each has a few round trips to answer
// (see refuses), so a host's crash moves the game a moment later than it
// would without asking.
func (c *Client) othersHaveHost(ctx context.Context, later []wire.Successor) bool {
	var refused atomic.Bool
	var wg sync.WaitGroup
	for _, cand := range later {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if c.refuses(ctx, cand) {
				refused.Store(true)
			}
		}()
	}
	wg.Wait()
	return refused.Load()
}

// refuses reports whether cand's standby refuses a resuming Join from this
// player with RefuseNotHosting. The answer is waited for five times as
// long as the handshake took, between refusalWait and electTimeout: a
// refusal is one round trip after it (the connection is closed then).
func (c *Client) refuses(ctx context.Context, cand wire.Successor) bool {
	start := time.Now()
	tc, err := c.dialSuccessor(ctx, cand)
	if err != nil {
		return false
	}
	wait := min(max(5*time.Since(start), refusalWait), electTimeout)
	j := wire.Join{PlayerID: c.opt.Session.PlayerID, Name: c.opt.Session.Name, Resuming: true}
	b, err := wire.Append(nil, j)
	if err != nil || tc.Send(b) != nil {
		tc.Close()
		return false
	}
	rctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	w := &refusalWatch{cancel: cancel}
	_ = tc.Run(rctx, w) // closes the connection when rctx ends
	return w.refused.Load()
}

// refusalWatch is the handler of refuses' connection: it waits for a
// RefuseNotHosting.
type refusalWatch struct {
	cancel  context.CancelFunc
	refused atomic.Bool // set on the connection's goroutine
}

func (w *refusalWatch) Message(frame []byte) {
	if m, err := wire.Decode(frame); err == nil {
		if r, ok := m.(wire.Refuse); ok && r.Reason == wire.RefuseNotHosting {
			w.refused.Store(true)
			w.cancel()
		}
	}
}

func (w *refusalWatch) Tick(time.Time) {}

// retryWalk is the pause between two walks of the successor list.
const retryWalk = 200 * time.Millisecond

// pause waits for d, or until ctx ends.
func pause(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// hostAnswers reports whether the host at addr, proving the host key
// with fingerprint fp, still completes a handshake (in electTimeout).
func (c *Client) hostAnswers(ctx context.Context, addr, fp string) bool {
	return addr != "" && fp != "" && c.answers(ctx, addr, fp, electTimeout)
}

// dialSuccessor connects to a successor's standby port, which must prove
// the host key the room announced for it.
func (c *Client) dialSuccessor(ctx context.Context, cand wire.Successor) (*transport.Client, error) {
	return c.dialKeyed(ctx, cand.Addr.String(), hex.EncodeToString(cand.Key[:]), electTimeout)
}

// dialKeyed connects to addr, which must prove the host key with
// fingerprint fp, within timeout.
func (c *Client) dialKeyed(ctx context.Context, addr, fp string, timeout time.Duration) (*transport.Client, error) {
	cfg := c.opt.Transport
	cfg.HostKey = nil
	cfg.HostFingerprint = fp
	dctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return c.dial(dctx, addr, cfg)
}

// answers reports whether addr completes a handshake proving the host key
// with fingerprint fp within timeout (the connection is closed at once).
func (c *Client) answers(ctx context.Context, addr, fp string, timeout time.Duration) bool {
	tc, err := c.dialKeyed(ctx, addr, fp, timeout)
	if err != nil {
		return false
	}
	tc.Close()
	return true
}

// takeOver hosts the game from this player's world on its standby port:
// the players after it in the list are expected (those before it did not
// answer), and the session joins its own room over a pipe.
func (c *Client) takeOver(list wire.Successors, at int) (func(context.Context) error, error) {
	c.mu.Lock()
	st, ok := c.s.State()
	c.mu.Unlock()
	if !ok {
		return nil, errNoSuccessor
	}
	var expected uint8
	for _, cand := range list.List[at:] {
		expected |= 1 << cand.Slot
	}
	hcfg := c.opt.HostConfig
	if hcfg.Room.MaxPlayers == 0 {
		hcfg = host.LAN()
	}
	hcfg.Handover = true
	h := host.NewResumed(hcfg, host.HandoverOf(st, expected))
	c.standby.Adopt(h)
	if name := c.opt.ListAs; name != "" && st.Successors.Listing != ([8]byte{}) {
		if err := c.standby.AdvertiseLAN(name); err != nil {
			log.Printf("rockstep: the game goes on here, but cannot be listed on the LAN: %v", err)
		}
	}
	p := transport.NewPipe()
	h.Attach(p)
	c.mu.Lock()
	c.s.Migrate()
	c.hosting = h
	c.mu.Unlock()
	c.handovers.Add(1)
	c.newHost.Store(int32(st.Slot))
	c.hostAddr.Store("")
	if at > 0 {
		// The successors before this player did not answer; if one of
		// them leads the game too, it wins.
		go c.watchEarlier(h, append([]wire.Successor(nil), list.List[:at]...))
	}
	return func(ctx context.Context) error { return c.runPipe(ctx, p) }, nil
}

// watchEarlier probes, while this player hosts the game, the successors
// it passed over when it took the game: one that answers leads the game
// too (it was not gone, only out of reach: every live successor hosts the
// game when it finds no earlier one), and as it comes earlier in the list,
// this player's room gives it the game (room.Room.Yield): its players,
// this one among them, go there and catch up from its snapshot. Every
// player walks the list in the same order, so two rooms never both give
// way.
func (c *Client) watchEarlier(h *host.Host, earlier []wire.Successor) {
	c.everyProbe(func() bool {
		c.mu.Lock()
		still := c.hosting == h
		c.mu.Unlock()
		if !still {
			return false
		}
		for _, cand := range earlier {
			if !c.probe(cand) {
				continue
			}
			if h.Yield(cand) { // else the game was over
				c.standby.Release()
				c.mu.Lock()
				c.hosting = nil
				c.mu.Unlock()
			}
			return false
		}
		return true
	})
}

// everyProbe calls f every probeEvery while the client runs, until f
// reports false.
func (c *Client) everyProbe(f func() bool) {
	t := time.NewTicker(probeEvery)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-t.C:
		}
		if !f() {
			return
		}
	}
}

// probeLoop probes the other candidates' standby ports while the client
// runs, so that the room can tell which successors everyone can reach.
func (c *Client) probeLoop() {
	var answered [8]time.Time // when each slot's standby last answered
	c.everyProbe(func() bool {
		c.mu.Lock()
		list, slot, playing := c.s.Successors(), c.s.Slot(), c.s.Phase() == lockstep.Playing
		c.mu.Unlock()
		if !playing {
			return true
		}
		// A port counts as reached if it answered in the last few
		// rounds: one probe lost on a busy machine does not reorder the
		// successors.
		var reach uint32
		for _, cand := range list.List {
			if int(cand.Slot) == slot || int(cand.Slot) >= len(answered) {
				continue
			}
			if c.probe(cand) {
				answered[cand.Slot] = time.Now()
			}
			if time.Since(answered[cand.Slot]) < probeMemory {
				reach |= 1 << cand.Slot
			}
		}
		c.reach.Store(reach)
		return true
	})
}

// Handovers returns how many times the game moved to a successor under
// this client, and the slot of the player hosting it since the last move
// (-1 if it never moved).
func (c *Client) Handovers() (n int, hostSlot int) {
	return int(c.handovers.Load()), int(c.newHost.Load())
}

// HostAddr returns the address of the host this client plays with: the
// one it dialled, or since a handover the successor's ("" when this player
// hosts, or it joined through a pipe).
func (c *Client) HostAddr() string {
	if a, ok := c.hostAddr.Load().(string); ok {
		return a
	}
	return ""
}

// StandbyPort returns the UDP port of this player's standby socket, where
// it hosts the game if it takes it over (0: no standby). A player that
// took the game over asks its router to open this port.
func (c *Client) StandbyPort() uint16 {
	if c.standby == nil {
		return 0
	}
	return c.standby.Port()
}

// Hosting reports whether this player hosts the game since a handover.
func (c *Client) Hosting() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hosting != nil
}

// probe reports whether a successor's standby port answers a handshake
// with the host key announced for it.
func (c *Client) probe(cand wire.Successor) bool {
	return c.answers(context.Background(), cand.Addr.String(), hex.EncodeToString(cand.Key[:]), probeTimeout)
}
