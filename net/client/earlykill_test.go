package client

import (
	"context"
	"fmt"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
)

// TestHostKilledAsTheGameStarts: the host's machine dies in the first
// second of the game (issue 52: "1 of 14 host kills did not migrate; 3.4 s
// into a game the guest was dropped"): at its first turn, and a second in.
// The successors were named in the lobby (the list is the game's from its
// first turn), so the game moves as it does later: to the first
// successor's room, every guest in it, on one hash.
func TestHostKilledAsTheGameStarts(t *testing.T) {
	for _, turns := range []uint32{1, 30} { // turns of two ticks: 1/30 s and 1 s
		t.Run(fmt.Sprintf("after %d turns", turns), func(t *testing.T) {
			m := startGameUntil(t, turns)
			t0 := time.Now()
			m.killHost()
			m.playOnInOneRoom(t0, "the host died")
		})
	}
}

// startGameUntil starts a migrationGame as startMigrationGameWith does, but
// returns as soon as every player executed turn turns: the successors are
// those the lobby named.
func startGameUntil(t *testing.T, turns uint32) *migrationGame {
	t.Helper()
	if testing.Short() {
		t.Skip("a real-socket game of several seconds; not in -short")
	}
	hcfg := host.LAN()
	hcfg.Handover = true
	hcfg.Room.Setup = game.Setup{Mode: game.Coop, Lives: game.MaxLives, StartWave: 1}
	hs := hosttest.Start(t, transport.LAN(), hcfg)
	pipe := transport.NewPipe()
	hs.Host.Attach(pipe)
	sess := func(i int) lockstep.Config {
		sc := lockstep.LAN()
		sc.Name, sc.PlayerID, sc.Predict = fmt.Sprintf("p%d", i), [16]byte{byte(i + 1)}, true
		return sc
	}
	m := &migrationGame{t: t, srv: hs.Transport}
	m.players = []*Client{Attach(pipe, Options{Session: sess(0)})}
	for i := 1; i < 4; i++ {
		dctx, cancel := context.WithTimeout(context.Background(), migrationPatience)
		c, err := Dial(dctx, hs.Addr(), Options{Session: sess(i), Standby: true, StandbyAddr: "127.0.0.1:0"})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		m.players = append(m.players, c)
	}
	m.wait("everyone in the lobby, the three guests listed as its successors", func() bool {
		return all(m.players, func(s *lockstep.Session) bool {
			m.list = s.Successors()
			return len(s.SetupState().Players) == 4 && len(m.list.List) == 3
		})
	})
	for _, p := range m.players {
		p.Do(func(s *lockstep.Session) { s.SetReady(true) })
	}
	m.wait("everyone ready", func() bool {
		return all(m.players, func(s *lockstep.Session) bool {
			for _, pl := range s.SetupState().Players {
				if !pl.Ready {
					return false
				}
			}
			return true
		})
	})
	m.players[0].Do(func(s *lockstep.Session) { s.RequestStart() })
	m.wait(fmt.Sprintf("turn %d everywhere", turns), func() bool {
		return all(m.players, func(s *lockstep.Session) bool {
			turn, _ := s.ExecutedTurns()
			m.list = s.Successors()
			return s.Phase() == lockstep.Playing && turn >= turns && len(m.list.List) == 3
		})
	})
	bySlot := map[int]*Client{}
	for _, p := range m.players {
		p.Do(func(s *lockstep.Session) { bySlot[s.Slot()] = p })
	}
	for _, cand := range m.list.List {
		m.guests = append(m.guests, bySlot[int(cand.Slot)])
	}
	return m
}
