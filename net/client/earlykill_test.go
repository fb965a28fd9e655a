package client

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// TestHostKilledAsTheGameStarts: the host's machine dies in the first
// second of the game (issue 52: "1 of 14 host kills did not migrate; 3.4 s
// into a game the guest was dropped"): at its first turn, and a second in.
// The successors were named in the lobby (the list is the game's from its
// first turn), so the game moves as it does later: to the first
// successor's room, every guest in it, with the room's setup and the
// host's lobby line still in every chat. The old host's program starts
// again and Rejoins the game there (issue 52's acceptance: "the old host
// Rejoins it"); the four end on one hash.
func TestHostKilledAsTheGameStarts(t *testing.T) {
	for _, turns := range []uint32{1, 30} { // turns of two ticks: 1/30 s and 1 s
		t.Run(fmt.Sprintf("after %d turns", turns), func(t *testing.T) {
			m := startGameUntil(t, turns)
			var token [16]byte
			m.players[0].Do(func(s *lockstep.Session) { token = s.Token() })
			t0 := time.Now()
			m.killHost()
			m.inOneRoom(t0, "the host died")
			for i, g := range m.guests {
				g.Do(func(s *lockstep.Session) {
					if st := s.SetupState(); st.Setup.Options() != earlySetup.Options() {
						t.Errorf("guest %d: setup %+v at the successor, want %+v", i, st.Setup.Options(), earlySetup.Options())
					}
					if !slices.ContainsFunc(s.Chat(), func(c wire.Chat) bool { return c.Text == earlyLine }) {
						t.Errorf("guest %d: the host's lobby line is gone from the chat after the move", i)
					}
				})
			}
			m.rejoinOldHost(token)
			m.endTogether()
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
	hcfg.Room.Setup = earlySetup
	hs := hosttest.Start(t, transport.LAN(), hcfg)
	pipe := transport.NewPipe()
	hs.Host.Attach(pipe)
	m := &migrationGame{t: t, srv: hs.Transport}
	m.players = []*Client{Attach(pipe, Options{Session: migrationSession(0)})}
	for i := 1; i < 4; i++ {
		dctx, cancel := context.WithTimeout(context.Background(), migrationPatience)
		c, err := Dial(dctx, hs.Addr(), Options{Session: migrationSession(i), Standby: true, StandbyAddr: "127.0.0.1:0"})
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
	m.readyAll()
	m.players[0].Do(func(s *lockstep.Session) { s.Say(earlyLine) })
	m.wait("the host's line in every chat", func() bool {
		return all(m.players, func(s *lockstep.Session) bool {
			return slices.ContainsFunc(s.Chat(), func(c wire.Chat) bool { return c.Text == earlyLine })
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

// The early-kill game's setup and the line its host says in the lobby:
// both are the room's, carried on by the successor.
var earlySetup = game.Setup{Mode: game.Coop, Lives: game.MaxLives, StartWave: 2}

const earlyLine = "glhf, all of you"

// rejoinOldHost: the crashed host's program starts again and presses
// Rejoin: its token, to the first successor's standby port, trusting the
// key the list named. It waits until the old host plays in that room
// (caught up, a guest now), and counts it among the guests from then on.
func (m *migrationGame) rejoinOldHost(token [16]byte) {
	m.t.Helper()
	succ := m.list.List[0]
	sc := lockstep.LAN()
	sc.Name, sc.PlayerID, sc.Token, sc.Predict = "p0", [16]byte{1}, token, true
	o := Options{Session: sc, Transport: transport.LAN()}
	o.Transport.HostFingerprint = fmt.Sprintf("%x", succ.Key[:])
	ctx, cancel := context.WithTimeout(context.Background(), migrationPatience)
	back, err := Dial(ctx, succ.Addr.String(), o)
	cancel()
	if err != nil {
		m.t.Fatalf("the old host's Rejoin at the successor %v: %v", succ.Addr, err)
	}
	m.t.Cleanup(back.Close)
	m.players = append(m.players, back)
	m.wait("the old host back in the game at the successor, a guest", func() bool {
		ok := false
		back.Do(func(s *lockstep.Session) {
			ok = s.Phase() == lockstep.Playing && !s.CatchingUp() && !s.IsHost() && s.Token() == token
		})
		return ok
	})
	m.guests = append(m.guests, back)
}
