package client

import (
	"context"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
)

// TestOwnLinkLostRejoinsTheHost: in a game of three (the host playing
// in-process, two guests with standby ports), one guest's connection to
// the host is cut both ways for good (its flow through its NAT), longer
// than the transport's silence timeout (3 s), while the host and the
// other guest play on; fresh handshakes from that guest still reach the
// host. Only its own link failed: it dials the same host again by itself
// and rejoins the same room with its token (net/migrate, rejoin.go),
// catching up from the room's snapshot. No move, no second game: every
// player still has the first host, and the three end on one hash. Before,
// the game ended for that guest ("… the host is still there: rejoin the
// game").
func TestOwnLinkLostRejoinsTheHost(t *testing.T) {
	if testing.Short() {
		t.Skip("a real-socket game of several seconds; not in -short")
	}
	hcfg := host.LAN()
	hcfg.Handover = true
	hcfg.Room.Setup = game.Setup{Mode: game.Coop, Lives: game.MaxLives, StartWave: 1}
	hs := hosttest.Start(t, transport.LAN(), hcfg)
	pipe := transport.NewPipe()
	hs.Host.Attach(pipe)
	r := startRelay(t, hs.Addr())
	m := &migrationGame{t: t, srv: hs.Transport}
	m.players = []*Client{Attach(pipe, Options{Session: migrationSession(0)})}
	for i, addr := range []string{hs.Addr(), r.addr()} { // the second guest behind the relay
		dctx, cancel := context.WithTimeout(context.Background(), migrationPatience)
		c, err := Dial(dctx, addr, Options{Session: migrationSession(i + 1), Standby: true, StandbyAddr: "127.0.0.1:0"})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		m.players = append(m.players, c)
	}
	host, other, guest := m.players[0], m.players[1], m.players[2]
	startThree(m)
	var slot int
	guest.Do(func(s *lockstep.Session) { slot = s.Slot() })

	r.cutFirst()
	t0 := time.Now()
	m.wait("the guest back in the game over a new connection, the host waiting for nobody", func() bool {
		select {
		case <-guest.Done():
			t.Fatalf("the guest's game ended: %v", guest.Err())
		default:
		}
		back := false
		guest.Do(func(s *lockstep.Session) { back = s.Phase() == lockstep.Playing && !s.Migrating() })
		waits := false
		host.Do(func(s *lockstep.Session) { waits = s.RoomStatus().Vacant != 0 })
		return back && !waits && r.busiestOther() > 100
	})
	t.Logf("the guest is back in the game %v after its link was cut", time.Since(t0).Round(time.Millisecond))
	m.guests = []*Client{other, guest}
	m.playOnTogether("the three to play on together", host, 30)

	for i, p := range m.players {
		if n, hostSlot := p.Handovers(); n != 0 || p.Hosting() {
			t.Errorf("player %d: %d moves (to slot %d), hosting %v: want no move", i, n, hostSlot, p.Hosting())
		}
	}
	if a := guest.HostAddr(); a != r.addr() {
		t.Errorf("the guest plays with %q, want the host it lost (%s)", a, r.addr())
	}
	guest.Do(func(s *lockstep.Session) {
		if s.Slot() != slot {
			t.Errorf("the guest is back in slot %d, was %d", s.Slot(), slot)
		}
	})
	m.endOnOneHash(m.players)
}

// startThree readies the players of m (all in the lobby), starts the game
// at the host player (players[0]) and waits until it runs with the two
// guests listed as successors.
func startThree(m *migrationGame) {
	m.t.Helper()
	m.wait("everyone in the lobby", func() bool {
		return all(m.players, func(s *lockstep.Session) bool { return len(s.SetupState().Players) == 3 })
	})
	m.readyAll()
	m.players[0].Do(func(s *lockstep.Session) { s.RequestStart() })
	m.wait("the game running and the two guests listed as successors", func() bool {
		return all(m.players, func(s *lockstep.Session) bool {
			turn, _ := s.ExecutedTurns()
			m.list = s.Successors()
			return s.Phase() == lockstep.Playing && turn > 60 && len(m.list.List) == 2
		})
	})
}
