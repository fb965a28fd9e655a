package client

import (
	"context"
	"fmt"
	"time"

	"rockstep/net/transport"
	"rockstep/net/wire"
)

// RoomList is what a server lists publicly, as ListRooms reads it.
type RoomList struct {
	Rooms       []wire.RoomInfo
	Truncated   bool   // the server has more rooms than MaxListPages pages hold
	Addr        string // the address that answered
	Fingerprint string // the host key the server proved (transport.FormatFingerprint's input)
	Referee     bool   // the server runs the engine on its rooms' turns (wire.RoomList.Referee)
	Web         string // the base of the server's web face, "" for none (wire.RoomList.Web)
}

// MaxListPages bounds the RoomListRequests one ListRooms sends (of
// wire.MaxListRooms rooms each): a server paces them per connection
// (a burst of 16, then 2 a second), and a Join screen shows no more.
const MaxListPages = 16

// listWait is how long a server has to answer the whole list, once
// connected, when ctx sets no sooner deadline.
const listWait = 10 * time.Second

// ListRooms asks the server at whichever of addrs answers first (with the
// host key cfg.HostFingerprint pins, if set) for the rooms it lists
// publicly, page by page, and hangs up.
func ListRooms(ctx context.Context, addrs []string, cfg transport.Config) (RoomList, error) {
	tc, addr, err := race(ctx, addrs, func(ctx context.Context, a string) (*transport.Client, error) {
		return transport.Dial(ctx, a, cfg)
	})
	if err != nil {
		return RoomList{}, err
	}
	rctx, cancel := context.WithTimeout(ctx, listWait)
	defer cancel()
	l := &lister{tc: tc, done: make(chan struct{})}
	ran := make(chan error, 1)
	go func() { ran <- tc.Run(rctx, l) }()
	defer func() {
		cancel()
		<-ran
	}()
	out := RoomList{Addr: addr, Fingerprint: tc.HostFingerprint()}
	select {
	case <-l.done:
		out.Rooms, out.Truncated, out.Referee, out.Web = l.rooms, l.truncated, l.referee, l.web
		return out, nil
	case err := <-ran:
		ran <- err // for the deferred wait
		return out, fmt.Errorf("room list from %s: connection lost: %w", addr, err)
	case <-rctx.Done():
		return out, fmt.Errorf("room list from %s: no answer: %w", addr, rctx.Err())
	}
}

// lister is the transport handler of one ListRooms: it asks for the first
// page on its first tick and for the next while the server says there are
// more. Its fields are the transport loop's until done is closed.
type lister struct {
	tc        *transport.Client
	asked     int // pages asked for
	rooms     []wire.RoomInfo
	truncated bool
	referee   bool
	web       string
	done      chan struct{}
	finished  bool
}

func (l *lister) ask(after uint32) {
	l.asked++
	f, _ := wire.Append(nil, wire.RoomListRequest{After: after})
	_ = l.tc.Send(f)
}

func (l *lister) Message(f []byte) {
	m, err := wire.Decode(f)
	if err != nil || l.finished {
		return
	}
	page, ok := m.(wire.RoomList)
	if !ok {
		return
	}
	l.rooms = append(l.rooms, page.Rooms...)
	l.referee = l.referee || page.Referee
	if page.Web != "" {
		l.web = page.Web
	}
	switch {
	case page.More && len(page.Rooms) > 0 && l.asked < MaxListPages:
		l.ask(page.Rooms[len(page.Rooms)-1].RoomID)
	default:
		l.truncated = page.More
		l.finished = true
		close(l.done)
	}
}

func (l *lister) Tick(time.Time) {
	if l.asked == 0 {
		l.ask(0)
	}
}
