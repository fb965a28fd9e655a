package host_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"rockstep/net/bots"
	"rockstep/net/client"
	"rockstep/net/host"
	"rockstep/net/lockstep"
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

// askRooms sends ask n times on a new connection to addr and returns what
// the connection receives, until the test ends.
func askRooms(t *testing.T, ctx context.Context, addr string, ask wire.CreateRoom, n int) *frameLog {
	t.Helper()
	tc, err := transport.Dial(ctx, addr, transport.LAN())
	if err != nil {
		t.Fatal(err)
	}
	frame, _ := wire.Append(nil, ask)
	for range n {
		if err := tc.Send(frame); err != nil {
			t.Fatal(err)
		}
	}
	log := &frameLog{}
	rctx, rcancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = tc.Run(rctx, log) }()
	t.Cleanup(func() { rcancel(); <-done })
	return log
}

// TestRoomExhaustion: one connection asking for 300 rooms at once gets at
// most MaxRoomsPerConn of them; the asks beyond a person's pace are
// dropped unanswered and counted (host_create_rate), the others within it
// refused; rooms left empty expire; bots that need rooms then still get
// them.
func TestRoomExhaustion(t *testing.T) {
	cfg := host.LAN()
	cfg.Linger = 2 * time.Second
	hs := serve(t, cfg)
	h, addr := hs.Host, hs.Addr()
	ctx, cancel := context.WithTimeout(context.Background(), gameLimit)
	defer cancel()
	log := askRooms(t, ctx, addr, wire.CreateRoom{Name: "mine"}, 300)
	dropped := func() int { return int(h.Stats().Dropped["host_create_rate"]) }
	waitFor(t, "every CreateRoom answered or dropped", func() bool {
		c, r := log.count()
		return c+r+dropped() == 300
	})
	if c, r := log.count(); c != cfg.MaxRoomsPerConn || r+c > 300/2 || dropped() < 300/2 {
		t.Errorf("300 CreateRoom at once: %d created, %d refused, %d dropped; want %d created and most of the rest dropped", c, r, dropped(), cfg.MaxRoomsPerConn)
	}
	waitFor(t, "the rooms are open", func() bool { return h.Stats().Rooms == 1+cfg.MaxRoomsPerConn })
	waitFor(t, "the empty rooms expire", func() bool { return h.Stats().Rooms == 1 })
	s, err := bots.RunRemote(ctx, bots.RemoteConfig{Addr: addr, Bots: 2, PerRoom: 2, Ticks: 60, Seed: 3})
	if err != nil || s.HashGroups != 1 {
		t.Fatalf("bots in a created room: %v: %s", err, s)
	}
}

// TestBotsReadTheRefusal: bots whose room the server will not create
// stop with the server's refusal, not at their own timeout.
func TestBotsReadTheRefusal(t *testing.T) {
	cfg := host.LAN()
	cfg.MaxRooms = 1 // the default room only
	addr := serve(t, cfg).Addr()
	ctx, cancel := context.WithTimeout(context.Background(), gameLimit)
	defer cancel()
	s, err := bots.RunRemote(ctx, bots.RemoteConfig{Addr: addr, Bots: 2, PerRoom: 2, Ticks: 60, Seed: 3})
	if err == nil || !strings.Contains(err.Error(), "refused") || s.RoomsFailed != 1 {
		t.Fatalf("bots without a room: %v, %d rooms failed; want the refusal, one room failed", err, s.RoomsFailed)
	}
}

// TestCreateRoomAskedAgain: a creator whose connection was lost before
// the answer asks again on a new connection and gets the room it asked
// for, not a second one; once someone is in that room, or for another
// name, the same machine gets a new room.
func TestCreateRoomAskedAgain(t *testing.T) {
	hs := serve(t, host.LAN())
	h, addr := hs.Host, hs.Addr()
	ctx, cancel := context.WithTimeout(context.Background(), gameLimit)
	defer cancel()
	ask := func(name string) uint32 {
		t.Helper()
		log := askRooms(t, ctx, addr, wire.CreateRoom{Name: name}, 1)
		var id uint32
		waitFor(t, "the CreateRoom answered", func() bool {
			log.mu.Lock()
			defer log.mu.Unlock()
			for _, m := range log.msgs {
				if rc, ok := m.(wire.RoomCreated); ok {
					id = rc.RoomID
					return true
				}
			}
			return false
		})
		return id
	}
	first := ask("again")
	if again := ask("again"); again != first {
		t.Errorf("asked again on a new connection: room %d, want %d", again, first)
	}
	other := ask("another")
	if other == first {
		t.Errorf("another name got the same room %d", first)
	}
	waitFor(t, "two rooms and the default", func() bool { return h.Stats().Rooms == 3 })

	sc := lockstep.LAN()
	sc.RoomID = first
	c, err := client.Dial(ctx, addr, client.Options{Session: sc})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	waitFor(t, "a player in the room", func() bool {
		ok := false
		c.Do(func(s *lockstep.Session) { ok = s.Phase() == lockstep.Lobby })
		return ok
	})
	if later := ask("again"); later == first {
		t.Errorf("asked again once a player was in room %d: got that room, want a new one", first)
	}
}
