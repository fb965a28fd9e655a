package host_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"rockstep/net/bots"
	"rockstep/net/host"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// frameLog is a transport.ClientHandler that keeps the messages it gets.
type frameLog struct {
	mu   sync.Mutex
	msgs []wire.Message
}

func (l *frameLog) Message(f []byte) {
	if m, err := wire.Decode(f); err == nil {
		l.mu.Lock()
		l.msgs = append(l.msgs, m)
		l.mu.Unlock()
	}
}
func (l *frameLog) Tick(time.Time) {}

func (l *frameLog) count() (created, refused int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, m := range l.msgs {
		switch m.(type) {
		case wire.RoomCreated:
			created++
		case wire.Refuse:
			refused++
		}
	}
	return created, refused
}

// TestRoomExhaustion: one connection asking for 300 rooms gets at most
// MaxRoomsPerConn of them and a refusal for each of the rest; rooms left
// empty expire; bots that need rooms then still get them.
func TestRoomExhaustion(t *testing.T) {
	cfg := host.Defaults()
	cfg.Linger = 2 * time.Second
	h, addr, _, _ := serve(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), gameLimit)
	defer cancel()
	tc, err := transport.Dial(ctx, addr.String(), transport.LAN())
	if err != nil {
		t.Fatal(err)
	}
	frame, _ := wire.Append(nil, wire.CreateRoom{Name: "mine"})
	for range 300 {
		if err := tc.Send(frame); err != nil {
			t.Fatal(err)
		}
	}
	log := &frameLog{}
	rctx, rcancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = tc.Run(rctx, log) }()
	defer func() { rcancel(); <-done }()
	waitFor(t, "every CreateRoom answered", func() bool {
		c, r := log.count()
		return c+r == 300
	})
	if c, r := log.count(); c != cfg.MaxRoomsPerConn || r != 300-cfg.MaxRoomsPerConn {
		t.Errorf("300 CreateRoom: %d created, %d refused; want %d and the rest refused", c, r, cfg.MaxRoomsPerConn)
	}
	waitFor(t, "the rooms are open", func() bool { return h.Stats().Rooms == 1+cfg.MaxRoomsPerConn })
	waitFor(t, "the empty rooms expire", func() bool { return h.Stats().Rooms == 1 })
	s, err := bots.RunRemote(ctx, bots.RemoteConfig{Addr: addr.String(), Bots: 2, PerRoom: 2, Ticks: 60, Seed: 3})
	if err != nil || s.HashGroups != 1 {
		t.Fatalf("bots in a created room: %v: %s", err, s)
	}
}

// TestBotsReadTheRefusal: bots whose room the server will not create
// stop with the server's refusal, not at their own timeout.
func TestBotsReadTheRefusal(t *testing.T) {
	cfg := host.Defaults()
	cfg.MaxRooms = 1 // the default room only
	_, addr, _, _ := serve(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), gameLimit)
	defer cancel()
	s, err := bots.RunRemote(ctx, bots.RemoteConfig{Addr: addr.String(), Bots: 2, PerRoom: 2, Ticks: 60, Seed: 3})
	if err == nil || !strings.Contains(err.Error(), "refused") || s.RoomsFailed != 1 {
		t.Fatalf("bots without a room: %v, %d rooms failed; want the refusal, one room failed", err, s.RoomsFailed)
	}
}
