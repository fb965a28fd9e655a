package host_test

import (
	"context"
	"fmt"
	"net/netip"
	"sync"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/client"
	"rockstep/net/host"
	"rockstep/net/invite"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// stranger is a connection to a server in no room that asks what it likes
// and keeps every answer.
type stranger struct {
	t   *testing.T
	tc  *transport.Client
	log *frameLog

	mu     sync.Mutex
	outbox [][]byte // frames the connection's loop sends at its next tick
}

// Message and Tick make it the connection's handler: only its loop sends.
func (s *stranger) Message(f []byte) { s.log.Message(f) }
func (s *stranger) Tick(time.Time) {
	s.mu.Lock()
	out := s.outbox
	s.outbox = nil
	s.mu.Unlock()
	for _, f := range out {
		_ = s.tc.Send(f)
	}
}

func newStranger(t *testing.T, ctx context.Context, addr string) *stranger {
	t.Helper()
	tc, err := transport.Dial(ctx, addr, transport.LAN())
	if err != nil {
		t.Fatal(err)
	}
	s := &stranger{t: t, tc: tc, log: &frameLog{}}
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = tc.Run(rctx, s) }()
	t.Cleanup(func() { cancel(); <-done })
	return s
}

// send queues m for the connection's loop.
func (s *stranger) send(m wire.Message) {
	s.t.Helper()
	f, err := wire.Append(nil, m)
	if err != nil {
		s.t.Fatal(err)
	}
	s.mu.Lock()
	s.outbox = append(s.outbox, f)
	s.mu.Unlock()
}

// ask sends m and returns the answer it gets.
func (s *stranger) ask(m wire.Message) wire.Message {
	s.t.Helper()
	s.log.mu.Lock()
	n := len(s.log.msgs)
	s.log.mu.Unlock()
	s.send(m)
	var got wire.Message
	waitFor(s.t, fmt.Sprintf("an answer to %+v", m), func() bool {
		s.log.mu.Lock()
		defer s.log.mu.Unlock()
		if len(s.log.msgs) > n {
			got = s.log.msgs[n]
			return true
		}
		return false
	})
	return got
}

// TestUnlistedRoomIsPrivate: a room created unlisted is not in the room
// list, leaves no gap in its ids, and answers every Join that does not
// carry its secret (a new player, a spectator, a returning player with a
// token; with no secret or a wrong one; at every id from 1 to 64 and at
// the room's own id) exactly as a room that does not exist; its invite
// code (format 2) carries the secret, and a player with the code joins.
// Over real sockets on loopback (issue 53: a stranger joined ids 1–5 and
// saw the unlisted rooms' rosters).
func TestUnlistedRoomIsPrivate(t *testing.T) {
	hs := serve(t, host.LAN())
	addr := hs.Addr()
	ctx, cancel := context.WithTimeout(context.Background(), gameLimit)
	defer cancel()

	// Ada opens an unlisted room and waits in it; Bo a listed one.
	sc := lockstep.LAN()
	sc.Name = "Ada"
	ada, secretID, err := client.CreateRoom(ctx, []string{addr}, wire.CreateRoom{Name: "secret", Unlisted: true}, client.Options{Session: sc})
	if err != nil {
		t.Fatal(err)
	}
	defer ada.Close()
	secret := ada.RoomSecret()
	if secret == 0 || secretID != wire.SecretRoom(secret) {
		t.Fatalf("unlisted room %d, secret %#x: want the id of a secret", secretID, secret)
	}
	sc.Name = "Bo"
	bo, openID, err := client.CreateRoom(ctx, []string{addr}, wire.CreateRoom{Name: "open"}, client.Options{Session: sc})
	if err != nil {
		t.Fatal(err)
	}
	defer bo.Close()
	if bo.RoomSecret() != 0 {
		t.Errorf("a listed room has a secret: %#x", bo.RoomSecret())
	}
	inLobby := func(c *client.Client) func() bool {
		return func() bool {
			ok := false
			c.Do(func(s *lockstep.Session) { ok = s.Phase() == lockstep.Lobby })
			return ok
		}
	}
	waitFor(t, "Ada in her room", inLobby(ada))
	waitFor(t, "Bo in his", inLobby(bo))

	// The list: the default room and Bo's, 1 and 2, nothing of Ada's.
	l, err := client.ListRooms(ctx, []string{addr}, transport.LAN())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Rooms) != 2 || l.Rooms[0].RoomID != host.DefaultRoom || l.Rooms[1].RoomID != openID || openID != host.DefaultRoom+1 {
		t.Fatalf("the list: %+v; want the default room and room %d, as %d and %d", l.Rooms, openID, host.DefaultRoom, host.DefaultRoom+1)
	}

	// A stranger guesses.
	s := newStranger(t, ctx, addr)
	missing := s.ask(wire.Join{RoomID: 1000, Name: "Eve", Rules: game.RulesDigest()})
	if r, ok := missing.(wire.Refuse); !ok || r.Reason != wire.RefuseNoRoom {
		t.Fatalf("a Join for a room that does not exist: %+v, want RefuseNoRoom", missing)
	}
	guesses := []wire.Join{
		{RoomID: secretID, Name: "Eve"},
		{RoomID: secretID, Name: "Eve", Secret: secret ^ 1},
		{RoomID: secretID, Name: "Eve", Secret: secret ^ 1<<63},
		{RoomID: secretID, Name: "Eve", Spectate: true},
		{RoomID: secretID, Name: "Ada", Token: [16]byte{1, 2, 3}},
		{RoomID: wire.SecretRoom(secret ^ 1<<32), Name: "Eve", Secret: secret ^ 1<<32},
	}
	for id := uint32(1); id <= 64; id++ {
		if id != host.DefaultRoom && id != openID {
			guesses = append(guesses, wire.Join{RoomID: id, Name: "Eve"}, wire.Join{RoomID: id | wire.UnlistedRooms, Name: "Eve", Spectate: true})
		}
	}
	for i, g := range guesses {
		if i%12 == 11 {
			s = newStranger(t, ctx, addr) // within the pace of one connection's Joins
		}
		g.Rules = game.RulesDigest() // a real client's Join, but for the secret
		if got := s.ask(g); got != missing {
			t.Errorf("Join %+v: answered %+v; a room that does not exist: %+v", g, got, missing)
		}
	}

	// With the code, a player joins.
	code, err := invite.New([]netip.AddrPort{netip.MustParseAddrPort(addr)}, ada.HostFingerprint())
	if err != nil {
		t.Fatal(err)
	}
	code.Secret = secret
	read, err := invite.Decode(code.String())
	if err != nil || read.RoomID != secretID || read.Secret != secret {
		t.Fatalf("the room's code %s reads %+v, %v; want room %d and its secret", code, read, err, secretID)
	}
	sc = lockstep.LAN()
	sc.Name, sc.RoomID, sc.RoomSecret = "Cy", read.RoomID, read.Secret
	cy, err := client.Dial(ctx, addr, client.Options{Session: sc})
	if err != nil {
		t.Fatal(err)
	}
	defer cy.Close()
	waitFor(t, "Cy in Ada's room by its code", func() bool {
		n := 0
		ada.Do(func(s *lockstep.Session) { n = len(s.SetupState().Players) })
		return n == 2 && inLobby(cy)()
	})
}

// TestJoinsInNoRoomArePaced: a connection in no room that sends Joins as
// fast as it can (guessing secrets) is answered at a person's pace, the
// rest dropped unanswered and counted (host_join_rate).
func TestJoinsInNoRoomArePaced(t *testing.T) {
	hs := serve(t, host.LAN())
	ctx, cancel := context.WithTimeout(context.Background(), stepLimit)
	defer cancel()
	s := newStranger(t, ctx, hs.Addr())
	const n = 200
	for i := range n {
		s.send(wire.Join{RoomID: wire.SecretRoom(uint64(i) << 32), Name: "Eve", Secret: uint64(i)<<32 | 1})
	}
	dropped := func() int { return int(hs.Host.Stats().Dropped["host_join_rate"]) }
	waitFor(t, "every Join answered or dropped", func() bool {
		s.log.mu.Lock()
		defer s.log.mu.Unlock()
		return len(s.log.msgs)+dropped() >= n
	})
	s.log.mu.Lock()
	answered := len(s.log.msgs)
	s.log.mu.Unlock()
	if answered > n/4 || dropped() < n*3/4 {
		t.Errorf("%d Joins at once: %d answered, %d dropped; want most dropped", n, answered, dropped())
	}
}
