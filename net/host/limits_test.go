package host_test

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"rockstep/net/bots"
	"rockstep/net/client"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
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

// askRoomsFrom sends ask once on a new connection from the loopback
// address from and returns the answer: the room's id, or the refusal.
func askRoomsFrom(t *testing.T, ctx context.Context, from, addr string, tc transport.Config, ask wire.CreateRoom) (uint32, *wire.Refuse) {
	t.Helper()
	c, err := transport.DialFrom(ctx, netip.MustParseAddr(from), addr, tc)
	if err != nil {
		t.Fatalf("dial from %s: %v", from, err)
	}
	frame, _ := wire.Append(nil, ask)
	if err := c.Send(frame); err != nil { // before Run: then only its loop may send
		t.Fatal(err)
	}
	log := &frameLog{}
	rctx, rcancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = c.Run(rctx, log) }()
	t.Cleanup(func() { rcancel(); <-done })
	var id uint32
	var refusal *wire.Refuse
	waitFor(t, "the CreateRoom from "+from+" answered", func() bool {
		log.mu.Lock()
		defer log.mu.Unlock()
		for _, m := range log.msgs {
			switch m := m.(type) {
			case wire.RoomCreated:
				id = m.RoomID
				return true
			case wire.Refuse:
				refusal = &m
				return true
			}
		}
		return false
	})
	return id, refusal
}

// TestRoomLimitsPerAddressThenNetwork: one address holds at most
// MaxRoomsPerAddr open rooms however many connections it asks on, and is
// told it created as many as one player may; a neighbour in its /24 still
// gets rooms, until the network holds MaxRoomsPerNet, and is then told so
// in the network's words, not the player's.
func TestRoomLimitsPerAddressThenNetwork(t *testing.T) {
	cfg := host.LAN()
	cfg.MaxRoomsPerNet = 6
	tc := transport.LAN()
	tc.HandshakeRate, tc.MaxHandshakeRate = 10000, 10000
	hs := hosttest.Start(t, tc, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), gameLimit)
	defer cancel()
	ask := func(from string, n int) (int, *wire.Refuse) {
		t.Helper()
		made := 0
		for i := range n {
			// A connection each, and a name each: a new ask, not one
			// asked again (askedBefore).
			id, refusal := askRoomsFrom(t, ctx, from, hs.Addr(), tc, wire.CreateRoom{Name: fmt.Sprintf("%s #%d", from, i)})
			if refusal != nil {
				return made, refusal
			}
			if id == 0 {
				t.Fatalf("room 0 created")
			}
			made++
		}
		return made, nil
	}
	made, refusal := ask("127.0.0.1", cfg.MaxRoomsPerAddr+2)
	if made != cfg.MaxRoomsPerAddr || refusal == nil || !strings.Contains(refusal.Text, "as many rooms as one player may") {
		t.Fatalf("one address on %d connections: %d rooms, refusal %+v; want %d and the player's limit", cfg.MaxRoomsPerAddr+2, made, refusal, cfg.MaxRoomsPerAddr)
	}
	made, refusal = ask("127.0.0.2", cfg.MaxRoomsPerAddr)
	if want := cfg.MaxRoomsPerNet - cfg.MaxRoomsPerAddr; made != want || refusal == nil {
		t.Fatalf("a neighbour: %d rooms, refusal %+v; want %d, then refused", made, refusal, want)
	}
	if strings.Contains(refusal.Text, "one player") || !strings.Contains(refusal.Text, "network") {
		t.Errorf("the neighbour refused with %q, want the network's words", refusal.Text)
	}
	waitFor(t, "the refusals counted", func() bool { return hs.Host.Stats().RoomsRefused["net_limit"] == 1 })
	if s := hs.Host.Stats(); s.RoomsRefused["limit"] != 1 {
		t.Errorf("refusals %v, want one limit and one net_limit", s.RoomsRefused)
	}
}
