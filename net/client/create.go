package client

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"time"

	"rockstep/net/lockstep"
	"rockstep/net/migrate"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// ErrRoomRefused matches CreateRoom's error when the server answered the
// ask with a refusal (a room key it wants, no room for another room); the
// error is a *RoomRefusedError.
var ErrRoomRefused = errors.New("the server refused to open a room")

// RoomRefusedError is the server's refusal of a CreateRoom.
type RoomRefusedError struct {
	Reason wire.RefuseReason
	Text   string // the server's words
}

func (e *RoomRefusedError) Error() string {
	if e.Text == "" {
		return ErrRoomRefused.Error()
	}
	return ErrRoomRefused.Error() + ": " + e.Text
}

// Is makes errors.Is(err, ErrRoomRefused) true.
func (e *RoomRefusedError) Is(target error) bool { return target == ErrRoomRefused }

// createWait is how long the server has to answer a CreateRoom once
// connected, when ctx sets no sooner deadline.
const createWait = 10 * time.Second

// CreateRoom connects to the server at whichever of addrs answers first
// (with the host key opt.Transport.HostFingerprint pins, if set), asks it
// for a new room, and joins that room as its player, on the same
// connection: a server makes the connection that asked for a room its host
// (it starts, kicks, ends and sets the room up; net/room Config.Hosts),
// whatever slot it gets. opt.Session.RoomID is ignored: the room is the
// one the server opens. It returns the running session and the room's id
// (an unlisted room's secret, which its invite code must carry, is then
// the client's RoomSecret), or why there is none (a refusal matches ErrRoomRefused). A CreateRoom
// is sent once: the stream is reliable; a connection lost before the
// answer is an error, and the caller may ask again (the server answers the
// same ask from the same address with the same room while nobody joined).
func CreateRoom(ctx context.Context, addrs []string, ask wire.CreateRoom, opt Options) (*Client, uint32, error) {
	frame, err := wire.Append(nil, ask)
	if err != nil {
		return nil, 0, fmt.Errorf("create room: %w", err)
	}
	return askRoom(ctx, addrs, frame, "create room", opt)
}

// askRoom connects to whichever of addrs answers first, sends frame (an
// ask the server answers with a room: CreateRoom, or a MoveGame that
// finds one), and joins the room of the answer as its player on the same
// connection; what names the ask in errors.
func askRoom(ctx context.Context, addrs []string, frame []byte, what string, opt Options) (*Client, uint32, error) {
	c := newClient(opt)
	tc, addr, err := race(ctx, addrs, func(ctx context.Context, a string) (*transport.Client, error) {
		return c.dial(ctx, a, c.opt.Transport)
	})
	if err != nil {
		return nil, 0, err
	}
	if ra := tc.RemoteAddr(); ra.IsValid() {
		// The address, not a name: an invite code carries it.
		addr = netip.AddrPortFrom(ra.Addr().Unmap(), ra.Port()).String()
	}
	c.m = migrate.New(c.now(), addr, c.opt.Standby)
	c.publish()
	if c.opt.Standby {
		if err := c.openStandby(); err != nil {
			tc.Close()
			return nil, 0, err
		}
	}
	h := &creating{c: c, frame: frame, answer: make(chan roomAnswer, 1)}
	runCtx, cancel := context.WithCancelCause(context.Background())
	c.stop = func() { cancel(nil) }
	c.abandon = func() { cancel(transport.ErrAbandoned) }
	go c.run(runCtx, func(ctx context.Context) error { return c.runNetWith(ctx, tc, h) })
	wait := time.NewTimer(createWait)
	defer wait.Stop()
	fail := func(err error) (*Client, uint32, error) {
		c.stop()
		<-c.done
		return nil, 0, err
	}
	select {
	case a := <-h.answer:
		if a.err != nil {
			return fail(a.err)
		}
		return c, a.id, nil
	case <-c.done:
		err := c.Err()
		return nil, 0, fmt.Errorf("%s at %s: connection lost: %w", what, addr, err)
	case <-wait.C:
		return fail(fmt.Errorf("%s at %s: no answer in %v", what, addr, createWait))
	case <-ctx.Done():
		return fail(fmt.Errorf("%s at %s: %w", what, addr, ctx.Err()))
	}
}

type roomAnswer struct {
	id  uint32
	err error
}

// RoomSecret returns the secret of the unlisted room on a server this
// client plays in (wire.RoomCreated.Secret, or the one it was given in
// Options.Session.RoomSecret): what an invite code to the room must carry
// (invite.Code.Secret). 0: none (a listed room, or not on a server).
func (c *Client) RoomSecret() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.opt.Session.RoomSecret
}

// runNetWith runs the connection tc with handler h (the session's own,
// netHandler, or CreateRoom's until the server has answered).
func (c *Client) runNetWith(ctx context.Context, tc *transport.Client, h transport.ClientHandler) error {
	inner, cut := context.WithCancelCause(ctx)
	defer cut(nil)
	c.mu.Lock()
	c.hostFP = tc.HostFingerprint()
	c.send = func(f []byte) error {
		if wire.Unreliable(f) && tc.SendDatagram(f) == nil {
			return nil
		}
		return tc.Send(f)
	}
	c.queued = tc.Queued
	c.cut = cut
	c.mu.Unlock()
	return tc.Run(inner, h)
}

// creating is the transport handler of a CreateRoom's connection: it sends
// the ask on its first tick and, once the server answers with the room,
// starts the session in that room and hands every frame and tick to it.
// Before the answer the session is not touched (nobody else holds the
// client yet). Its fields are the transport loop's.
type creating struct {
	c       *Client
	frame   []byte
	sent    bool
	created bool // the session runs: pass everything on
	refused bool
	answer  chan roomAnswer
}

func (h *creating) Message(f []byte) {
	if h.created {
		(*netHandler)(h.c).Message(f)
		return
	}
	if h.refused {
		return
	}
	m, err := wire.Decode(f)
	if err != nil {
		return
	}
	switch m := m.(type) {
	case wire.RoomCreated:
		c := h.c
		c.mu.Lock()
		sc := c.opt.Session
		sc.RoomID, sc.RoomSecret = m.RoomID, m.Secret
		c.s = lockstep.New(sc) // the same settings newClient gave it, in the room made for us
		c.opt.Session = sc
		c.mu.Unlock()
		h.created = true
		h.answer <- roomAnswer{id: m.RoomID}
		(*netHandler)(c).Tick(time.Now()) // send the Join now, not at the next tick
	case wire.Refuse:
		h.refused = true
		h.answer <- roomAnswer{err: &RoomRefusedError{Reason: m.Reason, Text: m.Text}}
	}
}

func (h *creating) Tick(now time.Time) {
	if h.created {
		(*netHandler)(h.c).Tick(now)
		return
	}
	if !h.sent {
		h.sent = true
		_ = h.c.send(h.frame)
	}
}

// Wake is the session's once it runs; before, the transport's ticks do.
func (h *creating) Wake() time.Time {
	if !h.created {
		return time.Time{}
	}
	return (*netHandler)(h.c).Wake()
}
