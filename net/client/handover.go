package client

import (
	"context"
	"encoding/hex"
	"errors"
	"log"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"

	"rockstep/game"
	"rockstep/net/host"
	"rockstep/net/lockstep"
	"rockstep/net/migrate"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// Host migration, the client's side. A player with Options.Standby
// listens on a port of its own while it plays, probes the other players'
// ports now and then (the room learns who can reach whom and orders the
// successors), and, when the host goes away while the game runs (the room
// falls silent in a flowing game, the connection times out or closes, or
// the room says it is going), walks the successor list in order: the
// first successor it reaches is where the game goes on; if that is
// itself, it hosts the game on its standby port from its own world. Every
// player walks the same list in the same order, so they meet at the same
// successor; one that reaches an earlier successor than another could (a
// partial network) joins that one.
//
// Every decision is net/migrate's Machine (c.m), as pure as the session:
// this file carries its actions out (cuts, dials, probes, the room this
// player serves) and tells it what came of them. The client keeps only
// the means: the function that cuts the connection, the standby socket
// and the room it adopted.

// standbySettings are the standby socket's own transport settings: the
// link this player plays over, the preset's server limits, and the
// player's host key (its identity as a successor). They are built here,
// not made by changing the client's own settings.
func standbySettings(opt Options) transport.Config {
	srv := opt.Transport.ServerConfig
	srv.HostKey = opt.HostKey
	return transport.Config{LinkConfig: opt.Transport.LinkConfig, ServerConfig: srv, Log: opt.Transport.Log}
}

// successorSettings are the settings of a dial to another player's
// standby port (or to the old host, probed): the client's, trusting only
// the host key with fingerprint fp.
func successorSettings(opt Options, fp string) transport.Config {
	cl := opt.Transport.ClientConfig
	cl.HostFingerprint = fp
	return transport.Config{LinkConfig: opt.Transport.LinkConfig, ClientConfig: cl, Log: opt.Transport.Log}
}

// openStandby opens the standby socket and starts probing.
func (c *Client) openStandby() error {
	addr := c.opt.StandbyAddr
	if addr == "" {
		addr = ":0"
	}
	sb, err := host.ListenStandby(addr, standbySettings(c.opt), c.requestHandover)
	if err != nil {
		return err
	}
	c.standby = sb
	c.mapStandby()
	go c.probeLoop()
	return nil
}

// closeStandby closes the standby socket; a game this player hosts is
// handed over to the others (or ends) first. Abandoned clients fall silent.
func (c *Client) closeStandby(ctx context.Context) {
	if c.standby == nil {
		return
	}
	defer c.unmapStandby()
	if errors.Is(context.Cause(ctx), transport.ErrAbandoned) {
		c.standby.Abandon()
		return
	}
	c.standby.Close()
}

// requestHandover is called by the standby (on its transport's goroutine)
// when another player comes to resume the game here: the machine says
// whether this player goes along (its connection to the host is cut) or
// why the caller is refused (migrate.Machine.Called).
func (c *Client) requestHandover() wire.RefuseReason {
	c.mu.Lock()
	defer c.mu.Unlock()
	reason, acts := c.m.Called(c.now())
	c.perform(acts)
	return reason
}

// view reads the session for the machine; c.mu is held.
func (c *Client) view() migrate.View {
	_, ended := c.s.Ended()
	turn, _ := c.s.ExecutedTurns()
	absent, apart := c.s.Apart()
	members := 0
	for _, p := range c.s.SetupState().Players {
		if p.Slot < game.MaxPlayers {
			members++
		}
	}
	lobby := c.s.Phase() == lockstep.Lobby && c.s.Slot() >= 0
	silence := c.s.RoomSilence()
	if lobby {
		silence = c.s.LobbySilence()
	}
	return migrate.View{
		Vacancy:    c.s.RoomStatus().Vacant != 0,
		Deserted:   apart && 2*bits.OnesCount8(absent) > members,
		Playing:    c.s.Phase() == lockstep.Playing && !ended,
		Catching:   c.s.CatchingUp(),
		Lobby:      lobby,
		Asked:      c.s.HandoverAsked(),
		Migrating:  c.s.Migrating(),
		TurnedAway: c.s.TurnedAway(),
		Silence:    silence,
		List:       c.s.Successors(),
		Slot:       c.s.Slot(),
		Turn:       turn,
		Apart:      apart,
	}
}

// stepHandover tells the room where this player would host, and lets the
// machine read the session; c.mu is held.
func (c *Client) stepHandover(now time.Duration) {
	v := c.view()
	if ph := c.s.Phase(); c.standby != nil && (ph == lockstep.Playing || ph == lockstep.Lobby) {
		c.s.SetStandby(wire.Standby{Port: c.standby.Port(), Key: c.standby.Key(), Reach: c.m.Reach(now, v), Probed: c.m.Tried(now, v), Outside: c.standbyOutside()})
	}
	c.keepAlive(v)
	c.perform(c.m.Step(now, v))
	c.publish()
}

// moved is what the machine says of the moves so far, for readers that
// must not wait for the client's lock (the UI's frame, a test inside Do).
type moved struct {
	n, host int
	rejoins int // the machine's rejoins of the host it lost (migrate.Machine.Rejoins)
	addr    string
	hosting bool
	server  string // the community server the game moved to ("": none)
}

// publish copies the machine's moves out for Handovers, HostAddr and
// Hosting; c.mu is held. The moves are those the machine announces: a move
// to this player's own room counts once a majority played in it.
func (c *Client) publish() {
	n, host := c.m.Announced()
	now := moved{n: n, host: host, rejoins: c.m.Rejoins(), addr: c.m.HostAddr(), hosting: c.m.Hosting()}
	if srv, ok := c.m.Server(); ok {
		now.server = srv.Label()
	}
	if old := c.moved.Load(); old == nil || *old != now {
		c.moved.Store(&now)
	}
}

// perform carries out what the machine asks while a connection runs: a
// cut, or a probe of the old host (its answer comes back on a goroutine
// of its own); c.mu is held.
func (c *Client) perform(acts []migrate.Action) {
	for _, a := range acts {
		switch a.Kind {
		case migrate.Cut:
			if c.cut != nil {
				c.cut(a.Err)
			}
		case migrate.ProbeHost:
			addr, fp := c.m.HostAddr(), c.hostFP
			go func() {
				ok := c.hostAnswers(context.Background(), addr, fp, a.Timeout)
				c.mu.Lock()
				defer c.mu.Unlock()
				c.perform(c.m.HostAnswered(c.now(), a.Probe, ok))
			}()
		}
	}
}

// handover is called when the connection to the room ended by itself
// (err); it carries the machine's walk out and returns how the session
// runs next: over a connection to the successor reached, or over a pipe
// to the game this player now hosts; or nil and why the client ends.
func (c *Client) handover(ctx context.Context, err error) (func(context.Context) error, error) {
	c.mu.Lock()
	if c.standby == nil && c.own == nil || c.closing {
		c.mu.Unlock()
		return nil, err
	}
	if c.m.Phase() == migrate.Following {
		c.leftFP = c.hostFP // the host lost: probed again while a room opened here has no majority
	}
	acts := c.m.Lost(c.now(), c.view())
	c.mu.Unlock()
	feed := func(f func(now time.Duration) []migrate.Action) []migrate.Action {
		c.mu.Lock()
		defer c.mu.Unlock()
		defer c.publish()
		return f(c.now())
	}
	var tc *transport.Client // the last successor dialled
	viaServer := false       // ... which is a community server's room (Move)
	failed := func(k migrate.Kind) []migrate.Action {
		return feed(func(now time.Duration) []migrate.Action { return c.m.Failed(now, k) })
	}
	for ctx.Err() == nil {
		if len(acts) == 0 {
			acts = failed(0) // the machine always says what comes next here
			continue
		}
		switch a := acts[0]; a.Kind {
		case migrate.GiveUp:
			if a.Err != nil {
				return nil, a.Err
			}
			return nil, err
		case migrate.ProbeHost:
			c.mu.Lock()
			addr, fp := c.m.HostAddr(), c.hostFP
			c.mu.Unlock()
			ok := c.hostAnswers(ctx, addr, fp, a.Timeout)
			acts = feed(func(now time.Duration) []migrate.Action { return c.m.HostAnswered(now, a.Probe, ok) })
		case migrate.Dial, migrate.Move, migrate.Redial:
			var derr error
			tc, viaServer, derr = c.dialFor(ctx, a)
			acts = feed(func(now time.Duration) []migrate.Action { return c.m.Dialled(now, derr == nil) })
		case migrate.Join, migrate.Rejoin:
			if next := c.joinOver(tc, viaServer, a.Kind); next != nil {
				return next, nil
			}
			acts = failed(a.Kind)
		case migrate.Ask:
			refused := c.ask(ctx, a.Cands)
			acts = nil // the last answer says what comes next
			for _, r := range refused {
				if next := feed(func(now time.Duration) []migrate.Action { return c.m.Answered(now, r) }); next != nil {
					acts = next
				}
			}
		case migrate.Serve:
			if next := c.takeOver(a.Expected); next != nil {
				return next, nil
			}
			acts = failed(migrate.Serve)
		case migrate.Wait:
			pause(ctx, a.At-c.now())
			acts = feed(func(now time.Duration) []migrate.Action {
				if next := c.m.Tick(now); next != nil {
					return next
				}
				if _, waiting := c.m.Wake(); waiting {
					return []migrate.Action{a} // woke early: wait on
				}
				return nil
			})
		default:
			acts = failed(a.Kind)
		}
	}
	return nil, err
}

// dialFor carries out a Dial (a successor's standby port), a Move (a
// community server's room: viaServer) or a Redial (the host this player
// lost, which must prove the key it proved before: rejoin.go in
// net/migrate).
func (c *Client) dialFor(ctx context.Context, a migrate.Action) (tc *transport.Client, viaServer bool, err error) {
	switch a.Kind {
	case migrate.Move:
		tc, err = c.moveToServer(ctx, a)
		return tc, err == nil, err
	case migrate.Redial:
		c.mu.Lock()
		addr, fp := c.m.HostAddr(), c.hostFP
		c.mu.Unlock()
		if addr == "" || fp == "" {
			return nil, false, errNoHostToRejoin
		}
		tc, err = c.dialKeyed(ctx, addr, fp, a.Timeout)
		return tc, false, err
	}
	tc, err = c.dialSuccessor(ctx, a.Cand)
	return tc, false, err
}

// errNoHostToRejoin: a Redial with no host address or key known (an
// in-process room has none).
var errNoHostToRejoin = errors.New("no host to rejoin")

// joinOver moves the session over tc, the connection the last dial
// opened: to a successor's room (Join: lockstep.Session.Migrate), or back
// to the room it lost (Rejoin: lockstep.Session.Rejoin). nil: there is no
// game here to carry on, or no connection (the machine is told: Failed).
func (c *Client) joinOver(tc *transport.Client, viaServer bool, k migrate.Kind) func(context.Context) error {
	c.mu.Lock()
	var ok bool
	if k == migrate.Rejoin {
		_, secret := c.ServerRoom() // a room the game moved to on a server: unlisted, its secret asked
		ok = c.s.Rejoin(secret)
	} else {
		ok = c.s.Migrate()
	}
	c.mu.Unlock()
	if !ok || tc == nil {
		if tc != nil {
			tc.Close()
		}
		return nil
	}
	if viaServer {
		return func(ctx context.Context) error { return c.runNetWith(ctx, tc, onServer{(*netHandler)(c)}) }
	}
	return func(ctx context.Context) error { return c.runNet(ctx, tc) }
}

// ask sends a resuming Join to each of the later successors at once and
// returns, for each, whether it refused with RefuseNotHosting (it still
// plays under the host). Each has a few round trips to answer (see
// refuses), so a host's crash moves the game a moment later than it would
// without asking.
func (c *Client) ask(ctx context.Context, later []wire.Successor) []bool {
	refused := make([]bool, len(later))
	var wg sync.WaitGroup
	for i, cand := range later {
		wg.Add(1)
		go func() {
			defer wg.Done()
			refused[i] = c.refuses(ctx, cand)
		}()
	}
	wg.Wait()
	return refused
}

// refuses reports whether cand's standby refuses a resuming Join from this
// player with RefuseNotHosting. The answer is waited for as long as the
// machine says for the handshake's time (migrate.AnswerWait): a refusal
// is one round trip after it (the connection is closed then).
func (c *Client) refuses(ctx context.Context, cand wire.Successor) bool {
	start := c.now()
	tc, err := c.dialSuccessor(ctx, cand)
	if err != nil {
		return false
	}
	wait := migrate.AnswerWait(c.now() - start)
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

// pause waits for d, or until ctx ends.
func pause(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// hostAnswers reports whether the host at addr, proving the host key
// with fingerprint fp, still completes a handshake within timeout.
func (c *Client) hostAnswers(ctx context.Context, addr, fp string, timeout time.Duration) bool {
	return addr != "" && fp != "" && c.answers(ctx, addr, fp, timeout)
}

// dialSuccessor connects to a successor's standby port, which must prove
// the host key the room announced for it.
func (c *Client) dialSuccessor(ctx context.Context, cand wire.Successor) (*transport.Client, error) {
	return c.dialCand(ctx, cand, migrate.ElectTimeout)
}

// dialKeyed connects to addr, which must prove the host key with
// fingerprint fp, within timeout.
func (c *Client) dialKeyed(ctx context.Context, addr, fp string, timeout time.Duration) (*transport.Client, error) {
	dctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return c.dial(dctx, addr, successorSettings(c.opt, fp))
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
// the players in expected are awaited, and the session joins its own
// room over a pipe. nil: there is no game here to host (the machine is
// told: Failed).
func (c *Client) takeOver(expected uint8) func(context.Context) error {
	c.mu.Lock()
	st, ok := c.s.State()
	lst, inLobby := c.s.LobbyState()
	c.mu.Unlock()
	if !ok && inLobby {
		return c.takeOverLobby(lst)
	}
	if !ok {
		return nil
	}
	hcfg := c.successorHostConfig()
	h := host.NewResumed(hcfg, host.HandoverOf(st, expected))
	return c.serveAdopted(h, st.Successors.Listing, st.Next)
}

// successorHostConfig is the settings of the room this player opens when
// it carries the game (or its lobby) on: HostConfig's, or a window's.
func (c *Client) successorHostConfig() host.Config {
	hcfg := c.opt.HostConfig
	if hcfg.Room.MaxPlayers == 0 {
		hcfg = host.LAN()
		// A player hosts here, not a server: when it closes, its guests
		// read that it left (as a window's Host button says), not that a
		// server is shutting down.
		hcfg.Goodbye = "the host left"
		if name := c.opt.Session.Name; name != "" {
			hcfg.Goodbye = name + " left"
		}
	}
	hcfg.Handover = true
	return hcfg
}

// serveAdopted serves h on the standby socket, lists it on the LAN under
// the game's listing id, and joins this player's session to it over a
// pipe; next is the turn its room opened at (the machine's Served).
func (c *Client) serveAdopted(h *host.Host, listing [8]byte, next uint32) func(context.Context) error {
	c.standby.Adopt(h)
	if name := c.opt.ListAs; name != "" && listing != ([8]byte{}) {
		if err := c.standby.AdvertiseLAN(name); err != nil {
			log.Printf("rockstep: the game goes on here, but cannot be listed on the LAN: %v", err)
		}
	}
	p := transport.NewPipe()
	h.Attach(p)
	c.mu.Lock()
	c.s.Migrate()
	c.m.Served(next)
	c.adopted = h
	c.mu.Unlock()
	return func(ctx context.Context) error { return c.runPipe(ctx, p) }
}

// everyProbe calls f every migrate.ProbeEvery while the client runs.
func (c *Client) everyProbe(f func()) {
	t := time.NewTicker(migrate.ProbeEvery)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-t.C:
		}
		f()
	}
}

// probeLoop probes the standby ports the machine names, while the client
// runs: the other candidates, so that the room can tell which successors
// everyone can reach, and, while this player hosts since a move, the
// successors it passed over. One of those that answers leads the game too
// (it was not gone, only out of reach: every live successor hosts the
// game when it finds no earlier one), and as it comes earlier in the
// list, this player's room gives it the game (room.Room.Yield): its
// players, this one among them, go there and catch up from its snapshot.
func (c *Client) probeLoop() {
	c.everyProbe(func() {
		c.mu.Lock()
		v := c.view()
		targets := c.m.ProbeTargets(v)
		old, probeOld := c.m.OldHost(v)
		fp := c.leftFP
		c.mu.Unlock()
		if probeOld {
			// A room opened here without a majority: if the host we lost
			// answers again, only our link had failed (migrate.Machine.OldAnswered).
			ok := c.hostAnswers(context.Background(), old, fp, migrate.ElectTimeout)
			c.mu.Lock()
			c.perform(c.m.OldAnswered(c.now(), ok))
			c.publish()
			c.mu.Unlock()
		}
		for _, cand := range targets {
			ok := c.probe(cand)
			c.mu.Lock()
			acts := c.m.Probed(c.now(), cand, ok)
			h := c.adopted
			if h == nil {
				h = c.own
			}
			c.mu.Unlock()
			for _, a := range acts {
				if a.Kind == migrate.Yield {
					c.yield(h, a.Cand)
				}
			}
		}
	})
}

// yield gives the game h hosts to cand and, if its players were told,
// makes the standby a plain standby again.
func (c *Client) yield(h *host.Host, cand wire.Successor) {
	ok := h != nil && h.Yield(cand) // else the game was over
	if ok && h == c.adopted {
		c.standby.Release()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m.Yielded(c.now(), ok)
	if ok {
		c.adopted = nil
	}
	c.publish()
}

// Handovers returns how many times the game moved to a successor under
// this client, and the slot of the player hosting it since the last move
// (-1 if it never moved).
func (c *Client) Handovers() (n int, hostSlot int) {
	m := c.moved.Load()
	return m.n, m.host
}

// Rejoins returns how many times this client came back by itself into
// the room whose connection it lost while the host still answered (no
// move: net/migrate, rejoin.go).
func (c *Client) Rejoins() int { return c.moved.Load().rejoins }

// HostAddr returns the address of the host this client plays with: the
// one it dialled, or since a handover the successor's ("" when this player
// hosts, or it joined through a pipe).
func (c *Client) HostAddr() string { return c.moved.Load().addr }

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
func (c *Client) Hosting() bool { return c.moved.Load().hosting }

// probe reports whether a successor's standby port answers a handshake
// with the host key announced for it.
func (c *Client) probe(cand wire.Successor) bool {
	tc, err := c.dialCand(context.Background(), cand, migrate.ProbeTimeout)
	if err != nil {
		return false
	}
	tc.Close()
	return true
}

// What the migration set up, for the ui's lobby and the end-to-end test
// after a host migration (docs/ARCHITECTURE.md, "One host"). These read
// and decide nothing.

// StandbyKey returns the fingerprint of the host key this player's standby
// socket proves (transport.Fingerprint): the key of the room it runs once
// it took the game over, the one a Rejoin and the lobby's "Host key" name.
// "" without a standby.
func (c *Client) StandbyKey() string {
	if c.standby == nil {
		return ""
	}
	k := c.standby.Key()
	if k == ([16]byte{}) {
		return ""
	}
	return hex.EncodeToString(k[:])
}

// HostedStats returns the counters of the host this player runs since it
// took the game over (ok false if it does not): what its room refused,
// by reason, among them.
func (c *Client) HostedStats() (st host.Stats, ok bool) {
	c.mu.Lock()
	h := c.adopted
	c.mu.Unlock()
	if h == nil {
		return host.Stats{}, false
	}
	return h.Stats(), true
}
