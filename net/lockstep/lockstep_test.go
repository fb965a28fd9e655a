package lockstep_test

import (
	"fmt"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/bots"
	"rockstep/net/lockstep"
	"rockstep/net/room"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

func impairment(t testing.TB, spec string) transport.Impairment {
	t.Helper()
	imp, err := transport.ParseImpairment(spec)
	if err != nil {
		t.Fatal(err)
	}
	return imp
}

func newLocal(t testing.TB, cfg bots.Config) *bots.Local {
	t.Helper()
	cfg.Fast = true
	l, err := bots.NewLocal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// agree checks that every bot still playing ended the game on the same
// turn with the same hash and results, and saw the same master turns.
func agree(t testing.TB, l *bots.Local) bots.Summary {
	t.Helper()
	s := l.Summary()
	if s.HashGroups != 1 || s.DigestGroups != 1 || s.ResultGroups != 1 || s.Desyncs != 0 {
		t.Fatalf("bots disagree: %s", s)
	}
	for _, b := range l.Bots {
		if !b.Gone && !b.Final.OK {
			t.Fatalf("bot %d never saw the game end: %s", b.Index, s)
		}
	}
	return s
}

// TestBadNetworks plays 8 bots for 10,000 ticks over three networks, from
// none to far worse than any LAN: everyone ends on the same hash, every
// input sent is applied exactly once at the same tick on every engine, and
// nothing deadlocks.
func TestBadNetworks(t *testing.T) {
	tests := []struct {
		name string
		spec string
	}{
		{"no impairment", ""},
		{"wifi", "latency=50ms,jitter=25ms,loss=5%"},
		{"terrible", "latency=250ms,jitter=250ms,loss=25%,dup=25%,reorder=10%"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLocal(t, bots.Config{Bots: 8, Ticks: 10000, Seed: 11, Net: impairment(t, tt.spec)})
			if _, err := l.Run(); err != nil {
				t.Fatal(err)
			}
			s := agree(t, l)
			if s.InputMismatches != 0 {
				t.Errorf("%d own turns were applied with other inputs than sent: %s", s.InputMismatches, s)
			}
			for _, b := range l.Bots {
				if st := b.Session.Stats(); st.Ticks < 10000 && !s.Over {
					t.Errorf("bot %d executed %d ticks of a game that was not over", b.Index, st.Ticks)
				}
			}
			t.Log(s)
		})
	}
}

// TestDesyncDetected corrupts one client's world and expects the room, its
// repairs off, to stop the game at the next reported hash, naming that
// player (with repairs: net/bots/repair_test.go).
func TestDesyncDetected(t *testing.T) {
	l := newLocal(t, bots.Config{Bots: 4, Ticks: 3000, Seed: 3, Net: impairment(t, "latency=20ms,jitter=5ms"), NoRepair: true})
	const corruptTurn = 600
	l.Bots[2].CorruptAfterTurn = corruptTurn
	if _, err := l.Run(); err != nil {
		t.Fatal(err)
	}
	d := l.Room.Desync()
	if d == nil {
		t.Fatal("no desync detected")
	}
	if d.Turn != corruptTurn+1 {
		t.Errorf("desync detected at turn %d, want %d: the first hash after the corruption", d.Turn, corruptTurn+1)
	}
	culprit := l.Bots[2].Session.Slot()
	count := map[uint32]int{}
	for _, e := range d.Entries {
		count[e.HashLow]++
	}
	for _, e := range d.Entries {
		if int(e.Slot) == culprit && count[e.HashLow] != 1 {
			t.Errorf("the report does not single out slot %d: %+v", culprit, d.Entries)
		}
	}
	if st, child := l.Room.State(); st != wire.StateRunning || child != wire.ChildDesynced {
		t.Errorf("room state %d/%d, want running/desynced", st, child)
	}
	// Every client is told, and the game stops.
	l.RunUntil(func() bool { return false }, l.Now()+2*time.Second)
	for _, b := range l.Bots {
		rep := b.Session.Desync()
		if rep == nil || rep.Turn != d.Turn {
			t.Errorf("bot %d was not told of the desync: %+v", b.Index, rep)
		}
		if turn, _ := b.Session.ExecutedTurns(); turn > corruptTurn+20 {
			t.Errorf("bot %d went on to turn %d after the desync", b.Index, turn)
		}
	}
}

// TestReconnect: a player vanishes mid-game, comes back on a new connection
// with its token, catches up from a snapshot and ends on the same hash.
func TestReconnect(t *testing.T) {
	l := newLocal(t, bots.Config{Bots: 4, Ticks: 6000, Seed: 5, Net: impairment(t, "latency=30ms,jitter=10ms,loss=2%")})
	if err := l.RunUntil(func() bool { return l.Bots[0].Session.Stats().Ticks >= 1500 }, time.Minute); err != nil {
		t.Fatal(err)
	}
	l.Vanish(2)
	if err := l.RunUntil(func() bool { return l.Room.Status().Vacant != 0 }, l.Now()+10*time.Second); err != nil {
		t.Fatal(err)
	}
	slot := l.Bots[2].Session.Slot()
	if l.Room.Status().Vacant != 1<<slot {
		t.Fatalf("vacant = %b, want slot %d", l.Room.Status().Vacant, slot)
	}
	// A reconnect with a wrong token is refused.
	impostor := l.Join(lockstep.Config{Name: "impostor", Token: [16]byte{0xde, 0xad}})
	l.RunUntil(func() bool { return impostor.Session.Phase() != lockstep.Joining }, l.Now()+5*time.Second)
	if impostor.Session.Phase() != lockstep.Refused || impostor.Session.Refusal().Reason != wire.RefuseBadToken {
		t.Fatalf("impostor: phase %s refusal %+v, want refused for the token", impostor.Session.Phase(), impostor.Session.Refusal())
	}
	impostor.Gone = true
	// The real player comes back.
	back := l.Return(2)
	if _, err := l.Run(); err != nil {
		t.Fatal(err)
	}
	if back.Session.Slot() != slot {
		t.Errorf("returned to slot %d, want %d", back.Session.Slot(), slot)
	}
	agree(t, l)
	if w := back.Session.World(); !w.Ships[slot].Present {
		t.Error("the returning player's ship is gone")
	}
	if l.Room.Status().Vacant != 0 {
		t.Errorf("vacant = %b after the return", l.Room.Status().Vacant)
	}
}

// TestUnclaimedSlotDropped: a player vanishes for good; after the vacancy
// timeout every engine removes its ship at the same turn.
func TestUnclaimedSlotDropped(t *testing.T) {
	rc := room.LAN()
	rc.VacancyTimeout = 4 * time.Second
	l := newLocal(t, bots.Config{Bots: 3, Ticks: 3000, Seed: 8, Room: rc, Net: impairment(t, "latency=10ms")})
	if err := l.RunUntil(func() bool { return l.Bots[0].Session.Stats().Ticks >= 600 }, time.Minute); err != nil {
		t.Fatal(err)
	}
	slot := l.Bots[1].Session.Slot()
	l.Vanish(1)
	dropTurn := map[int]uint32{}
	if err := l.RunUntil(func() bool {
		for _, b := range l.Bots {
			if b.Gone {
				continue
			}
			for _, e := range b.Session.Events() {
				if e.Kind == lockstep.EvDropped && e.Slot == slot {
					dropTurn[b.Index] = e.Turn
				}
			}
		}
		return l.Finished()
	}, 5*time.Minute); err != nil {
		t.Fatal(err)
	}
	agree(t, l)
	if len(dropTurn) != 2 || dropTurn[0] != dropTurn[2] {
		t.Fatalf("drop seen at turns %v, want the same turn on both remaining players", dropTurn)
	}
	for _, b := range l.Bots {
		if !b.Gone && b.Session.World().Ships[slot].Present {
			t.Errorf("bot %d still has the dropped player's ship", b.Index)
		}
	}
}

// TestSpectatorJoinsLate: a spectator joins at tick 5000, receives a
// snapshot and the master stream, and ends on the same hash.
func TestSpectatorJoinsLate(t *testing.T) {
	l := newLocal(t, bots.Config{Bots: 4, Ticks: 8000, Seed: 9, Net: impairment(t, "latency=40ms,jitter=20ms,loss=3%")})
	if err := l.RunUntil(func() bool { return l.Bots[0].Session.Stats().Ticks >= 5000 }, 5*time.Minute); err != nil {
		t.Fatal(err)
	}
	spec := l.Join(lockstep.Config{Name: "watcher", Spectate: true})
	if _, err := l.Run(); err != nil {
		t.Fatal(err)
	}
	if spec.Session.Slot() != -1 || !spec.Final.OK {
		t.Fatalf("spectator slot %d final %+v", spec.Session.Slot(), spec.Final)
	}
	if first, _ := spec.Session.ExecutedTurns(); first < 2000 {
		t.Errorf("spectator at turn %d: it should have started from a snapshot, not turn 0", first)
	}
	agree(t, l)
}

// TestAdaptiveDelay: with a 200 ms round trip the room raises the input
// delay until stalls stop, and everyone switches at the same tick.
func TestAdaptiveDelay(t *testing.T) {
	l := newLocal(t, bots.Config{Bots: 4, Ticks: 3000, Seed: 4, Net: impairment(t, "latency=100ms")})
	if err := l.RunUntil(func() bool { return l.Bots[0].Session.Stats().Ticks >= 1200 }, 5*time.Minute); err != nil {
		t.Fatal(err)
	}
	var stallBefore []time.Duration
	for _, b := range l.Bots {
		stallBefore = append(stallBefore, b.Session.Stats().Stall)
	}
	if _, err := l.Run(); err != nil {
		t.Fatal(err)
	}
	s := agree(t, l)
	wantMin := int((200*time.Millisecond)/(time.Second/game.TicksPerSecond)) / s.K // turns covering the round trip
	if s.Delay < wantMin {
		t.Errorf("input delay %d turns of %d ticks, want at least %d to cover a 200 ms round trip", s.Delay, s.K, wantMin)
	}
	for i, b := range l.Bots {
		if more := b.Session.Stats().Stall - stallBefore[i]; more > 50*time.Millisecond {
			t.Errorf("bot %d stalled %v more after adapting, want stalls to stop", i, more)
		}
	}
	t.Log(s)
}

// TestTickRateSetsK: a client reports the ticks a second it runs, not its
// frames, and turns lengthen for a machine that cannot run 60 ticks a
// second: one updated 20 times a second that runs its 60 ticks in them
// reports 60 and asks only for the turns its bursts' round trip needs (it
// asked for K 3 when it reported frames; a UI's slow renderer no longer
// reaches the session at all), while one whose ticks fall to 30 a second
// makes the room lengthen turns, announced ahead so all switch at the same
// tick.
func TestTickRateSetsK(t *testing.T) {
	tests := []struct {
		name     string
		fps      int           // bot 3's updates a second
		tickCost time.Duration // bot 3's machine time per tick
		tps      int           // bot 3's reported ticks a second, within 2
		kMin     int           // K at the end, at least
		kMax     int           // K at most, at any time
		dMax     int           // input delay at most, in turns, at any time
	}{
		{name: "quiet", fps: 60, tps: 60, kMin: 1, kMax: 1, dMax: 1},
		// 50 ms between its bursts are a round trip the delay covers.
		{name: "frames slow, ticks 60", fps: 20, tps: 60, kMin: 1, kMax: 2, dMax: 4},
		{name: "ticks 30", fps: 60, tickCost: time.Second / 30, tps: 30, kMin: 2, kMax: 2, dMax: 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := newLocal(t, bots.Config{Bots: 4, Ticks: 1800, Seed: 6})
			l.Bots[3].FPS, l.Bots[3].TickCost = tc.fps, tc.tickCost
			timingTurns := make([]map[uint32]bool, len(l.Bots))
			for i := range timingTurns {
				timingTurns[i] = map[uint32]bool{}
			}
			kLo, kHi, dHi, tps := 255, 0, 0, 0
			if err := l.RunUntil(func() bool {
				for i, b := range l.Bots {
					for _, e := range b.Session.Events() {
						if e.Kind == lockstep.EvTiming {
							timingTurns[i][e.Turn] = true
						}
					}
					if st := b.Session.Stats(); b.Session.Phase() == lockstep.Playing && st.Ticks > 5*game.TicksPerSecond {
						kHi, dHi = max(kHi, st.K), max(dHi, st.Delay)
						if i == 0 {
							kLo = min(kLo, st.K)
						}
						if i == 3 && st.TPS > 0 {
							tps = st.TPS
						}
					}
				}
				return l.Finished()
			}, 10*time.Minute); err != nil {
				t.Fatal(err)
			}
			s := agree(t, l)
			t.Logf("bot 3 ran %d ticks a second; K %d..%d, delay up to %d turns; %s", tps, kLo, kHi, dHi, s)
			if tps < tc.tps-2 || tps > tc.tps+2 {
				t.Errorf("bot 3 reported %d ticks a second, want %d", tps, tc.tps)
			}
			if s.K < tc.kMin || kHi > tc.kMax {
				t.Errorf("K %d at the end, up to %d, want %d..%d", s.K, kHi, tc.kMin, tc.kMax)
			}
			if dHi > tc.dMax {
				t.Errorf("input delay up to %d turns, want at most %d", dHi, tc.dMax)
			}
			for i := range timingTurns {
				if len(timingTurns[i]) != len(timingTurns[0]) {
					t.Errorf("bot %d saw timing changes at %v, bot 0 at %v", i, timingTurns[i], timingTurns[0])
				}
				for turn := range timingTurns[0] {
					if !timingTurns[i][turn] {
						t.Errorf("bot %d missed the timing change at turn %d", i, turn)
					}
				}
			}
		})
	}
}

// TestTurnLength: on an unimpaired link a turn is one tick and the delay
// one turn (a key acts at the next tick); once the round trip no longer
// fits in a tick, turns are two ticks or more; and when even the longest
// delay cannot cover the round trip, turns grow instead of the game
// crawling.
func TestTurnLength(t *testing.T) {
	tests := []struct {
		name       string
		spec       string
		kMin, kMax int
		dMax       int
	}{
		{"unimpaired", "", 1, 1, 1},
		{"10 ms round trip", "latency=5ms", 2, 2, 2},
		{"1.2 s round trip", "latency=600ms", 3, 8, 16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLocal(t, bots.Config{Bots: 3, Ticks: 2400, Seed: 12, Net: impairment(t, tt.spec)})
			if _, err := l.Run(); err != nil {
				t.Fatal(err)
			}
			s := agree(t, l)
			if s.K < tt.kMin || s.K > tt.kMax || s.Delay > tt.dMax {
				t.Errorf("k=%d delay=%d, want k in %d..%d and delay at most %d: %s", s.K, s.Delay, tt.kMin, tt.kMax, tt.dMax, s)
			}
			if tt.spec == "" && s.Speed() < 0.99 {
				t.Errorf("speed %.3f at one tick a turn", s.Speed())
			}
		})
	}
}

// TestSharedSimulation: bots that share their simulation (as the load test's
// do) play the very game they play alone, over a lossy network, and most of
// their ticks are copied rather than stepped.
func TestSharedSimulation(t *testing.T) {
	run := func(share bool) bots.Summary {
		l := newLocal(t, bots.Config{Bots: 4, Ticks: 2000, Seed: 11, Net: impairment(t, "latency=20ms,jitter=10ms,loss=5%"), Share: share})
		if _, err := l.Run(); err != nil {
			t.Fatal(err)
		}
		return agree(t, l)
	}
	alone, shared := run(false), run(true)
	if alone.Hash != shared.Hash || alone.Turn != shared.Turn || alone.Results != shared.Results {
		t.Fatalf("a shared simulation played another game:\nalone  %s\nshared %s", alone, shared)
	}
	if alone.SharedTicks != 0 {
		t.Fatalf("bots that do not share copied %d ticks", alone.SharedTicks)
	}
	// Four bots: three of every four executions can be copies.
	if want := uint64(shared.Played) * 3 / 2; shared.SharedTicks < want {
		t.Fatalf("%d ticks copied in a game of %d ticks, want at least %d", shared.SharedTicks, shared.Played, want)
	}
}

// TestPingsSparserInPlay: while a game runs, every turn measures the round
// trip, so a player pings the room once a second (PlayPingEvery) rather
// than four times (PingEvery); the delay still follows the network (see
// TestStallsAndSwingsKeepPace).
func TestPingsSparserInPlay(t *testing.T) {
	l := newLocal(t, bots.Config{Bots: 3, Ticks: 100000, Seed: 5})
	if err := l.RunUntil(func() bool { return l.Bots[0].Session.Stats().Ticks >= 120 }, time.Minute); err != nil {
		t.Fatal(err)
	}
	from, at := l.Bots[0].Session.Stats().Pings, l.Now()
	const play = 30 * time.Second
	_ = l.RunUntil(func() bool { return false }, at+play)
	st := l.Bots[0].Session.Stats()
	pings := st.Pings - from
	if want := uint64(play / lockstep.LAN().PlayPingEvery); pings < want-2 || pings > want+1 {
		t.Errorf("%d pings in %v of play, want about %d (one a second)", pings, play, want)
	}
	if st.RTT <= 0 {
		t.Errorf("no round trip measured: %+v", st)
	}
}

// manual drives the lobby and the games of a Manual bots.Local.
type manual struct {
	t *testing.T
	l *bots.Local
}

// until runs until cond holds for every bot still there, or fails after a
// minute of game time.
func (m manual) until(what string, cond func(s *lockstep.Session) bool) {
	m.t.Helper()
	all := func() bool {
		for _, b := range m.l.Bots {
			if !b.Gone && !cond(b.Session) {
				return false
			}
		}
		return true
	}
	if err := m.l.RunUntil(all, m.l.Now()+time.Minute); err != nil {
		m.t.Fatalf("%s: %v", what, err)
	}
}

func playing(s *lockstep.Session) bool { return s.Phase() == lockstep.Playing }

// play readies players and has bot 0, the host, start the room's game
// number game, of n players; spectators are not in the roster and wait for
// the start.
func (m manual) play(game uint32, n int, players ...*bots.Bot) {
	m.t.Helper()
	for _, b := range players {
		b.Session.SetReady(true)
	}
	m.until("everyone ready", func(s *lockstep.Session) bool {
		st := s.SetupState()
		ready := 0
		for _, p := range st.Players {
			if p.Ready {
				ready++
			}
		}
		return s.Slot() < 0 || s.Phase() == lockstep.Lobby && st.Game == game && ready == n && len(st.Players) == n
	})
	m.l.Bots[0].Session.RequestStart()
	m.until("the game runs", playing)
}

// end has the host end the game, and waits until it has ended everywhere.
func (m manual) end() {
	m.t.Helper()
	m.l.Bots[0].Session.EndGame()
	m.until("the game ends everywhere", func(s *lockstep.Session) bool { return s.Phase() == lockstep.Finished })
}

// ticks is a condition: the game has run n ticks.
func ticks(n uint32) func(s *lockstep.Session) bool {
	return func(s *lockstep.Session) bool { return s.Stats().Ticks >= n }
}

// agreeOnEnd checks that every bot still there ended the game at one turn
// with one hash and one results table, and that slot names it.
func agreeOnEnd(t *testing.T, l *bots.Local, slot int, name string) {
	t.Helper()
	var want struct {
		turn          uint32
		hash, results uint64
	}
	first := true
	for i, b := range l.Bots {
		if b.Gone {
			continue
		}
		s := b.Session
		turn, ok := s.Ended()
		r, rok := s.Results()
		if !ok || !rok || s.World() == nil {
			t.Fatalf("bot %d: no end", i)
		}
		if got := s.Names()[slot]; got != name {
			t.Errorf("bot %d names slot %d %q, want %q", i, slot, got, name)
		}
		if first {
			want.turn, want.hash, want.results = turn, s.World().Hash(), r.Digest()
			first = false
			continue
		}
		if turn != want.turn || s.World().Hash() != want.hash || r.Digest() != want.results {
			t.Errorf("bot %d ended at turn %d hash %016x results %016x; the first at %d %016x %016x",
				i, turn, s.World().Hash(), r.Digest(), want.turn, want.hash, want.results)
		}
	}
}

// TestSpectatorPlaysTheRematch: two watch a game from its middle, with
// prediction on. After it, one asks to play (its ready) and plays the
// rematch in the free slot under its own name; the other stays a spectator
// and watches the rematch from turn 0; a third comes to watch the rematch
// from its middle. All five end the rematch on one turn, one hash and one
// results table.
func TestSpectatorPlaysTheRematch(t *testing.T) {
	l := newLocal(t, bots.Config{Bots: 2, Ticks: 1 << 30, Seed: 9, Predict: true, Manual: true, Net: impairment(t, "latency=30ms,jitter=10ms")})
	m := manual{t, l}
	m.until("both in the lobby", func(s *lockstep.Session) bool { return len(s.SetupState().Players) == 2 })
	m.play(1, 2, l.Bots...)
	m.until("a while of game", ticks(600))
	cy := l.Join(lockstep.Config{Name: "Cy", PlayerID: [16]byte{0xc}, Spectate: true})
	dee := l.Join(lockstep.Config{Name: "Dee", PlayerID: [16]byte{0xd}, Spectate: true})
	m.until("the spectators watch", playing)
	m.end()

	m.play(2, 3, l.Bots[0], l.Bots[1], cy) // Cy: Back to lobby, to play
	if cy.Session.Slot() != 2 || cy.Session.Token() == ([16]byte{}) {
		t.Fatalf("Cy has slot %d and token %x, want slot 2 and a token", cy.Session.Slot(), cy.Session.Token())
	}
	if dee.Session.Slot() != -1 {
		t.Fatalf("Dee has slot %d, want to stay a spectator", dee.Session.Slot())
	}
	if first, _ := dee.Session.ExecutedTurns(); first != 0 {
		t.Errorf("Dee watches the rematch from turn %d, want 0", first)
	}
	// Eve comes to watch a little further into the rematch than the others
	// came into the first game: the snapshot the room took of that game
	// would fit the master turns it keeps, but is of another world.
	m.until("the rematch passes the first game's snapshot", ticks(700))
	l.Join(lockstep.Config{Name: "Eve", PlayerID: [16]byte{0xe}, Spectate: true})
	m.until("Eve watches", playing)
	m.until("a while of the rematch", ticks(900))
	m.end()
	agreeOnEnd(t, l, 2, "Cy")
}

// TestRejoinInRematch: a player's game crashes in the first game and again
// in the rematch, later in it than the first time; each time it comes back
// with its token and is caught up from a snapshot of the game it is in, so
// everyone ends the rematch alike.
func TestRejoinInRematch(t *testing.T) {
	l := newLocal(t, bots.Config{Bots: 3, Ticks: 1 << 30, Seed: 11, Predict: true, Manual: true, Net: impairment(t, "latency=30ms,jitter=10ms")})
	m := manual{t, l}
	crash := func(at uint32) {
		t.Helper()
		m.until("a while of game", ticks(at))
		l.Vanish(2)
		m.until("the slot is held", func(*lockstep.Session) bool { return l.Room.Status().Vacant != 0 })
		l.Return(2)
		m.until("the player plays again", func(s *lockstep.Session) bool {
			return playing(s) && s.World() != nil && l.Room.Status().Vacant == 0
		})
	}
	m.until("all in the lobby", func(s *lockstep.Session) bool { return len(s.SetupState().Players) == 3 })
	m.play(1, 3, l.Bots...)
	crash(600)
	m.end()
	m.play(2, 3, l.Bots...)
	crash(700)
	m.until("a while after", ticks(1200))
	m.end()
	agreeOnEnd(t, l, 2, "bot2")
}

// TestSetupChangeAsksForReadyAgain: a player ready for one setup is not
// ready for another. When the host changes the setup, the other player's
// Ready is cleared and stays cleared (the session does not repeat a Ready
// given for the old setup); the host stays ready; the game of the new setup
// starts once the player confirms it.
func TestSetupChangeAsksForReadyAgain(t *testing.T) {
	l := newLocal(t, bots.Config{Bots: 2, Ticks: 1 << 30, Seed: 5, Manual: true, Net: impairment(t, "latency=30ms,jitter=10ms")})
	m := manual{t, l}
	m.until("both in the lobby", func(s *lockstep.Session) bool { return len(s.SetupState().Players) == 2 })
	host, guest := l.Bots[0].Session, l.Bots[1].Session
	if guest.IsHost() {
		host, guest = guest, host
	}
	readyOf := func(s, of *lockstep.Session) bool {
		for _, p := range s.SetupState().Players {
			if int(p.Slot) == of.Slot() {
				return p.Ready
			}
		}
		return false
	}
	host.SetReady(true)
	guest.SetReady(true)
	m.until("both ready", func(s *lockstep.Session) bool { return readyOf(s, host) && readyOf(s, guest) })

	versus := game.DefaultSetup()
	versus.Mode, versus.Lives = game.Versus, 1
	host.ChangeSetup(versus)
	m.until("versus everywhere", func(s *lockstep.Session) bool { return s.SetupState().Setup.Mode == game.Versus })
	// Long enough for any repeated request to have reached the room.
	settle := l.Now() + 2*time.Second
	if err := l.RunUntil(func() bool { return l.Now() >= settle }, settle+time.Second); err != nil {
		t.Fatal(err)
	}
	for i, b := range l.Bots {
		if s := b.Session; !readyOf(s, host) || readyOf(s, guest) {
			t.Errorf("bot %d sees the host ready %v, the guest ready %v after the change; want true, false", i, readyOf(s, host), readyOf(s, guest))
		}
	}
	host.RequestStart()
	if err := l.RunUntil(func() bool { return playing(host) }, l.Now()+2*time.Second); err == nil {
		t.Fatal("the game started with the guest not ready for its setup")
	}
	// Nor does it start by itself once the guest is ready: the host starts it.
	guest.SetReady(true)
	if err := l.RunUntil(func() bool { return playing(host) }, l.Now()+2*time.Second); err == nil {
		t.Fatal("the refused Start started the game by itself once the guest was ready")
	}
	host.RequestStart()
	m.until("the game runs", playing)
	if got := guest.World().Setup.Mode; got != game.Versus {
		t.Errorf("the game's mode is %v, want versus", got)
	}
}

// TestQuickRematchReachesTheEnd: the host asks for a rematch the moment
// its own game has ended, before a guest 60 ms away has run the last turns
// or heard that the room finished: the room holds the rematch until the
// guest has the last turns, and the guest's game still ends, on the same
// turn, hash and results as the host's (it used to stay "playing" on a
// room back in setup, in the NAT lab of issue 44 too).
func TestQuickRematchReachesTheEnd(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			l := newLocal(t, bots.Config{Bots: 2, Ticks: 1 << 30, Seed: seed, Predict: true, Manual: true, Net: impairment(t, "latency=30ms,jitter=10ms")})
			m := manual{t, l}
			m.until("both in the lobby", func(s *lockstep.Session) bool { return len(s.SetupState().Players) == 2 })
			// The host is the first player the room took: by the seed's
			// jitter, either bot.
			for _, b := range l.Bots {
				b.Session.SetReady(true)
			}
			m.until("both ready", func(s *lockstep.Session) bool {
				st := s.SetupState()
				return len(st.Players) == 2 && st.Players[0].Ready && st.Players[1].Ready
			})
			hostBot, guestBot := l.Bots[0], l.Bots[1]
			if !hostBot.Session.IsHost() {
				hostBot, guestBot = guestBot, hostBot
			}
			hostBot.Session.RequestStart()
			m.until("the game runs", playing)
			m.until("a while of game", ticks(300))
			// The guest's downlink slows to 250 ms and loses a third of its
			// datagrams: it runs the last turns and hears the room finish
			// well after the host.
			l.Net.SetImpairment(guestBot.Peer, impairment(t, "latency=30ms"), impairment(t, "latency=250ms,loss=33%"))
			m.until("a while on the slow link", ticks(500))
			host := hostBot.Session
			host.EndGame()
			if err := l.RunUntil(func() bool { return host.Phase() == lockstep.Finished }, l.Now()+time.Minute); err != nil {
				t.Fatalf("the host's game never ended: %v", err)
			}
			if g := guestBot.Session; g.Phase() == lockstep.Finished {
				t.Fatal("the guest finished with the host: the test asks for a rematch before it does")
			}
			host.SetReady(true) // "Back to lobby" at once
			m.until("the game ends everywhere", func(s *lockstep.Session) bool { return s.Phase() != lockstep.Playing })
			agreeOnEnd(t, l, host.Slot(), host.Names()[host.Slot()])
		})
	}
}
