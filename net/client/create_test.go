package client

import (
	"context"
	"errors"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/internal/testwait"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// createPatience bounds every wait of these tests.
const createPatience = 30 * time.Second

// TestCreateRoomHosts: a player who creates a room on a server joins it on
// the same connection and is its host (the roster says so, and its Start
// starts the game), even when another player joined first; a server with
// a room key refuses a creator without it, in words.
func TestCreateRoomHosts(t *testing.T) {
	hcfg := host.LAN()
	hcfg.RoomKeys = []string{"friends"}
	hs := hosttest.Start(t, transport.LAN(), hcfg)
	sess := func(name string, id byte) Options {
		sc := lockstep.LAN()
		sc.Name, sc.PlayerID = name, [16]byte{id}
		return Options{Session: sc}
	}
	ctx, cancel := context.WithTimeout(context.Background(), createPatience)
	defer cancel()

	_, _, err := CreateRoom(ctx, []string{hs.Addr()}, wire.CreateRoom{Name: "no key"}, sess("keyless", 9))
	var refused *RoomRefusedError
	if !errors.As(err, &refused) || refused.Reason != wire.RefuseRoomKey || refused.Text == "" {
		t.Fatalf("CreateRoom without the room key: %v, want a RefuseRoomKey refusal in words", err)
	}

	ask := wire.CreateRoom{Name: "Ada's room", Key: "friends", Setup: game.Setup{Mode: game.Coop, Lives: 3, StartWave: 1}}
	creator, id, err := CreateRoom(ctx, []string{hs.Addr()}, ask, sess("Ada", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer creator.Close()
	if id == 0 || id == host.DefaultRoom {
		t.Fatalf("room id %d: want a new room", id)
	}
	if got, want := creator.HostAddr(), hs.Addr(); got != want {
		t.Errorf("HostAddr %q, want %q", got, want)
	}
	guest, err := Dial(ctx, hs.Addr(), func() Options { o := sess("Bob", 2); o.Session.RoomID = id; return o }())
	if err != nil {
		t.Fatal(err)
	}
	defer guest.Close()
	both := func() bool {
		n := 0
		guest.Do(func(s *lockstep.Session) { n = len(s.SetupState().Players) })
		return n == 2
	}
	if !testwait.Until(createPatience, both) {
		t.Fatal("the guest never saw two players in the room")
	}
	var hostNow bool
	var name string
	creator.Do(func(s *lockstep.Session) { hostNow, name = s.IsHost(), s.SetupState().Name })
	if !hostNow || name != ask.Name {
		t.Fatalf("creator: host %v in room %q, want the host of %q", hostNow, name, ask.Name)
	}
	guest.Do(func(s *lockstep.Session) {
		if s.IsHost() {
			t.Error("the guest is the host")
		}
	})
	for _, c := range []*Client{creator, guest} {
		c.Do(func(s *lockstep.Session) { s.SetReady(true) })
	}
	if !testwait.Until(createPatience, func() bool {
		ph := lockstep.Lobby
		guest.Do(func(s *lockstep.Session) {
			ready := 0
			for _, p := range s.SetupState().Players {
				if p.Ready {
					ready++
				}
			}
			if ready == 2 {
				creator.Do(func(s *lockstep.Session) { s.RequestStart() })
			}
			ph = s.Phase()
		})
		return ph == lockstep.Playing
	}) {
		t.Fatal("the creator's Start did not start the game")
	}
}
