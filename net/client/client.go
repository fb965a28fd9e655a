// Package client runs a lockstep session over a transport: dialled over
// the network, or attached to an in-process host through a pipe. The UI and
// the bots use it.
//
// The session is driven at the engine's pace: over the network by the
// transport's callbacks (what arrives, and its timer at the session's next
// tick), through a pipe by the client's own loop (runPipe). Either way it
// is touched only under the client's lock; the UI reads and commands it
// through Do, and gives it the local input with SetInput.
package client

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"rockstep/game"
	"rockstep/net/host"
	"rockstep/net/lockstep"
	"rockstep/net/migrate"
	"rockstep/net/portmap"
	"rockstep/net/transport"
)

// Options configure a client.
type Options struct {
	Session   lockstep.Config
	Transport transport.Config // zero: transport.LAN()
	// Input, if set, supplies the local input per tick (bots); otherwise
	// the last value given to SetInput is used (the UI).
	Input lockstep.InputSource
	// From, if valid, is the local IP to dial from (load tests on loopback).
	From netip.Addr
	// Netsim, if not zero, makes this client's own links bad in both
	// directions (`-netsim`), so anyone can feel a bad network.
	Netsim transport.Impairment
	// Seed seeds Netsim's randomness.
	Seed uint64
	// Standby makes this player ready to carry the game on if the host
	// goes away (host migration): it listens on StandbyAddr (":0" if
	// empty) with HostKey (a fresh one if nil), keeps the game's master
	// turns, probes the other players' standby ports, and hosts the game
	// with HostConfig's settings if it is the first live successor.
	Standby     bool
	StandbyAddr string
	HostKey     *transport.HostKey
	HostConfig  host.Config
	// ListAs, if set, is the host name a game this player takes over is
	// listed under on the LAN, when its host listed it: under the same
	// listing id, so LAN lists show the game move to this player.
	ListAs string
	// StandbyMap, if set, asks this player's router to open its standby
	// port to the internet (as the Host button asks for a room's port:
	// the caller's portmap.Start with its settings, or portmap.Disabled),
	// so that players behind other NATs can reach it if it takes the game
	// over; the outside address it gets is announced (reach.go).
	StandbyMap func(port uint16) *portmap.Mapper
}

// Client is a running session.
type Client struct {
	mu    sync.Mutex
	s     *lockstep.Session
	opt   Options
	input atomic.Uint32
	start time.Time
	done  chan struct{}
	err   error
	stop  context.CancelFunc
	// abandon stops the loop as a crash would (no Leave, no goodbye).
	abandon func()
	send    func([]byte) error

	// hostFP is the fingerprint of the host key the host proved in the
	// handshake; "" over an in-process pipe (the host is this program).
	hostFP string
	// leftFP is the fingerprint of the host lost when a move began.
	leftFP string

	leftSent bool       // the loop has flushed the session after Leave
	closing  bool       // Close was called: the loop stops once the Leave is delivered
	leaveBy  time.Time  // ... or at this time at the latest
	queued   func() int // bytes sent to the host and not yet acknowledged

	up, down *transport.Link // the simulated bad network, if any
	due      [][]byte

	// Host migration (handover.go): the machine decides, the client
	// carries its actions out with these.
	m       *migrate.Machine
	standby *host.Standby
	pm      *portmap.Mapper         // the standby port's mapping on the router (reach.go); nil: none
	cut     context.CancelCauseFunc // ends the current connection to the room
	adopted *host.Host              // the room this player's machine runs since a move
	own     *host.Host              // the room this player's machine runs from the start (AttachOwner)
	moved   atomic.Pointer[moved]   // the machine's moves, published (publish)
	shared  shared                  // dials from the standby's port under way (punch.go)
	// serverRoom is the room a community server opened for the game when
	// it moved there (move.go); nil: none yet.
	serverRoom atomic.Pointer[serverRoom]
}

// leaveGrace bounds how long Close waits for the host to acknowledge the
// Leave: on a LAN it takes a round trip, on a broken link it never comes
// and the host sees the silence instead.
const leaveGrace = 500 * time.Millisecond

// ErrClosed is returned by Err after Close.
var ErrClosed = errors.New("client closed")

// updateEvery is the period of the pipe loop (runPipe) when nothing
// arrives; over the network the transport's timer drives the session.
const updateEvery = 4 * time.Millisecond

func newClient(opt Options) *Client {
	if opt.Transport.MTU == 0 {
		opt.Transport = transport.LAN()
	}
	if opt.Standby {
		opt.Session.KeepHistory = true
	}
	// lockstep.New fills the session's zero settings with the LAN defaults.
	c := &Client{s: lockstep.New(opt.Session), opt: opt, start: time.Now(), done: make(chan struct{})}
	if !opt.Netsim.IsZero() {
		c.up = transport.NewLink(opt.Netsim, opt.Seed*2+1)
		c.down = transport.NewLink(opt.Netsim, opt.Seed*2+2)
	}
	return c
}

// receive hands a frame from the room to the session, through the
// simulated network if there is one; c.mu is held.
func (c *Client) receive(now time.Duration, f []byte) {
	if c.down != nil {
		c.down.Send(now, f)
		return
	}
	c.s.Receive(now, f)
}

// out sends a frame to the room, through the simulated network if there is
// one; on the loop's goroutine with c.mu held.
func (c *Client) out(now time.Duration, f []byte) {
	if c.up != nil {
		c.up.Send(now, f)
		return
	}
	_ = c.send(f)
}

// simulate delivers what the simulated network has let through by now.
func (c *Client) simulate(now time.Duration) {
	if c.up == nil {
		return
	}
	c.due = c.down.Deliver(now, c.due[:0])
	for _, f := range c.due {
		c.s.Receive(now, f)
	}
	c.due = c.up.Deliver(now, c.due[:0])
	for _, f := range c.due {
		_ = c.send(f)
	}
}

func (c *Client) now() time.Duration { return time.Since(c.start) }

func (c *Client) sample(tick uint32) game.Input {
	if c.opt.Input != nil {
		return c.opt.Input(tick)
	}
	return game.Input(c.input.Load())
}

// Dial connects to a host at addr and starts the session, which joins the
// room given in opt.Session.
func Dial(ctx context.Context, addr string, opt Options) (*Client, error) {
	c := newClient(opt)
	tc, err := c.dial(ctx, addr, opt.Transport)
	if err != nil {
		return nil, err
	}
	return c.begin(tc, addr)
}

// begin runs the session over tc, connected to the host at addr.
func (c *Client) begin(tc *transport.Client, addr string) (*Client, error) {
	opt := c.opt
	c.m = migrate.New(c.now(), addr, opt.Standby)
	c.publish()
	if opt.Standby {
		if err := c.openStandby(); err != nil {
			tc.Close()
			return nil, err
		}
	}
	runCtx, cancel := context.WithCancelCause(context.Background())
	c.stop = func() { cancel(nil) }
	c.abandon = func() { cancel(transport.ErrAbandoned) }
	go c.run(runCtx, func(ctx context.Context) error { return c.runNet(ctx, tc) })
	return c, nil
}

// unreachable, set only by tests, makes this client's dials to some
// addresses fail as a host out of reach would: after their timeout.
var unreachable atomic.Pointer[func(c *Client, addr string) bool]

// dial opens a transport connection to addr, from opt.From if it is set.
func (c *Client) dial(ctx context.Context, addr string, cfg transport.Config) (*transport.Client, error) {
	if f := unreachable.Load(); f != nil && (*f)(c, addr) {
		<-ctx.Done()
		return nil, fmt.Errorf("dial %s: out of reach: %w", addr, ctx.Err())
	}
	if c.opt.From.IsValid() {
		return transport.DialFrom(ctx, c.opt.From, addr, cfg)
	}
	return transport.Dial(ctx, addr, cfg)
}

// HostFingerprint returns the fingerprint of the host key the host proved
// when this client connected (see transport.Fingerprint), for players to
// compare; "" for a client attached to its own host in-process.
func (c *Client) HostFingerprint() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hostFP
}

// Attach starts a session over an in-process pipe whose other end the host
// holds (see host.Host.Attach).
func Attach(p *transport.Pipe, opt Options) *Client {
	return attach(p, opt, nil)
}

// AttachOwner is Attach for the player whose own machine runs h, the
// game's room (the Host button's player): cut off from its players while
// they moved the game to a successor, it finds their room, gives its own
// up to it and rejoins there (migrate.NewOwner), rather than play on as a
// second game once their countdown ends.
func AttachOwner(h *host.Host, p *transport.Pipe, opt Options) *Client {
	return attach(p, opt, h)
}

func attach(p *transport.Pipe, opt Options, own *host.Host) *Client {
	c := newClient(opt)
	c.m = migrate.New(c.now(), "", false)
	if own != nil {
		c.m, c.own = migrate.NewOwner(c.now()), own
		go c.probeLoop()
	}
	c.publish()
	runCtx, cancel := context.WithCancelCause(context.Background())
	c.stop = func() { cancel(nil) }
	c.abandon = func() { cancel(transport.ErrAbandoned) }
	go c.run(runCtx, func(ctx context.Context) error { return c.runPipe(ctx, p) })
	return c
}

// run drives the session over one transport after another: the first,
// then, if the host goes away while a game runs, a successor's (host
// migration), until the player closes the client or no successor is left.
func (c *Client) run(ctx context.Context, r func(context.Context) error) {
	for {
		err := r(ctx)
		if ctx.Err() == nil {
			var next func(context.Context) error
			if next, err = c.handover(ctx, err); next != nil {
				r = next
				continue
			}
		}
		c.closeStandby(ctx)
		c.finish(err)
		return
	}
}

// runNet runs the session over a network connection until it ends: the
// player closes the client, the connection is lost, or the host hands the
// game over.
func (c *Client) runNet(ctx context.Context, tc *transport.Client) error {
	return c.runNetWith(ctx, tc, (*netHandler)(c))
}

// runPipe runs the session over an in-process pipe to a host until the
// player closes the client, or the migration machine cuts it (the room
// gave the game away).
func (c *Client) runPipe(ctx context.Context, p *transport.Pipe) error {
	inner, cut := context.WithCancelCause(ctx)
	defer cut(nil)
	c.mu.Lock()
	c.send = p.SendToHost
	c.queued = nil
	c.hostFP = ""
	c.cut = cut
	c.mu.Unlock()
	t := time.NewTicker(updateEvery)
	defer t.Stop()
	defer p.Close()
	wake := time.NewTimer(time.Hour)
	defer wake.Stop()
	for {
		c.mu.Lock()
		next := c.start.Add(c.s.NextTick())
		c.mu.Unlock()
		if d := time.Until(next); d > 0 && d < updateEvery {
			wake.Reset(d) // the next tick, sent as it completes
		}
		select {
		case <-wake.C:
		case <-inner.Done():
			if ctx.Err() == nil {
				return context.Cause(inner) // cut: the room gave the game away (a yield, or the host's handover)
			}
			if !errors.Is(context.Cause(ctx), transport.ErrAbandoned) {
				c.leave()
			}
			return nil
		case <-p.ClientWake():
		case <-t.C:
		}
		c.mu.Lock()
		now := c.now()
		p.DrainClient(func(f []byte) { c.receive(now, f) })
		c.step(now)
		c.mu.Unlock()
	}
}

// step updates the session and sends what it queued; c.mu is held and
// this is the loop's goroutine, the only one that may send.
func (c *Client) step(now time.Duration) {
	c.simulate(now)
	c.s.Update(now, c.sample)
	c.s.Flush(func(f []byte) { c.out(now, f) })
	if c.s.Phase() == lockstep.Left {
		c.leftSent = true
	}
	c.stepHandover(now)
	if c.closing && c.leftSent && (c.delivered() || time.Now().After(c.leaveBy)) {
		c.stop() // the Leave is with the host (or the grace is over): hang up
	}
}

// delivered reports whether everything sent reliably, the Leave among it,
// has been acknowledged by the host.
func (c *Client) delivered() bool {
	return c.queued == nil || (c.queued() == 0 && (c.up == nil || c.up.Pending() == 0))
}

// leave tells the room the player quits; on the loop's goroutine only.
func (c *Client) leave() {
	c.mu.Lock()
	c.s.Leave()
	c.s.Flush(func(f []byte) { _ = c.send(f) })
	c.leftSent = true
	c.mu.Unlock()
}

func (c *Client) finish(err error) {
	c.mu.Lock()
	if c.err == nil {
		c.err = err
		if err == nil {
			c.err = ErrClosed
		}
	}
	c.mu.Unlock()
	close(c.done)
}

// netHandler is the transport's view of a Client.
type netHandler Client

func (h *netHandler) Message(frame []byte) {
	c := (*Client)(h)
	c.mu.Lock()
	now := c.now()
	c.m.Heard(now)
	c.receive(now, frame)
	c.step(now) // a master turn may be due at once
	c.mu.Unlock()
}

func (h *netHandler) Tick(time.Time) {
	c := (*Client)(h)
	c.mu.Lock()
	c.step(c.now())
	c.mu.Unlock()
}

// Wake tells the transport when the session next has a tick due, so that
// it runs then and sends the turn that tick completes at once.
func (h *netHandler) Wake() time.Time {
	c := (*Client)(h)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.start.Add(c.s.NextTick())
}

// Do runs f with the session, on the caller's goroutine, while the session
// loop waits. f must not keep the session or its world.
func (c *Client) Do(f func(s *lockstep.Session)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f(c.s)
}

// SetInput sets the local player's input for the ticks to come.
func (c *Client) SetInput(in game.Input) { c.input.Store(uint32(in & game.ClientInputMask)) }

// Done is closed when the session loop has stopped.
func (c *Client) Done() <-chan struct{} { return c.done }

// Err returns why the loop stopped (valid after Done).
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close leaves the room and stops the loop. The Leave is queued here and
// sent by the loop, the only goroutine that may use the transport; the loop
// hangs up once the host has acknowledged it (or after leaveGrace), so a
// player who leaves is seen to leave, not to crash. Close waits for that
// up to leaveGrace and a quarter of a second; a loop that has not stopped
// by then is stopped, and waited for a second more.
func (c *Client) Close() {
	c.mu.Lock()
	if !c.closing {
		c.closing = true
		c.leaveBy = time.Now().Add(leaveGrace)
		c.s.Leave()
	}
	c.mu.Unlock()
	select {
	case <-c.done:
		return
	case <-time.After(leaveGrace + 250*time.Millisecond):
	}
	c.stop() // the loop did not get to it: stop it anyway
	select {
	case <-c.done:
	case <-time.After(time.Second):
	}
}

// Abandon stops the session without a word, as a crash would: no Leave,
// and the connection just falls silent (tests of what a crash does).
func (c *Client) Abandon() {
	c.mu.Lock()
	c.closing = false
	c.mu.Unlock()
	c.abandon()
	select {
	case <-c.done:
	case <-time.After(time.Second):
	}
}
