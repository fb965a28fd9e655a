package bots_test

import (
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"rockstep/net/bots"
	"rockstep/net/lockstep"
	"rockstep/net/replay"
	"rockstep/net/room"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// repairRun plays cfg to its end on the virtual clock, recording it, and
// returns the summary, the verified replay, and how many times the room
// went lagging waiting for the faulty bot.
func repairRun(t *testing.T, cfg bots.Config, spec string) (bots.Summary, replay.Result, int) {
	t.Helper()
	s, res, lagged, _ := repairRunLocal(t, cfg, spec)
	return s, res, lagged
}

// repairRunLocal is repairRun, and returns the local game too.
func repairRunLocal(t *testing.T, cfg bots.Config, spec string) (bots.Summary, replay.Result, int, *bots.Local) {
	t.Helper()
	imp, err := transport.ParseImpairment(spec)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Net, cfg.Fast = imp, true
	cfg.Record = filepath.Join(t.TempDir(), "repair.rsrp")
	l, err := bots.NewLocal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	lagged, wasLagging := 0, false
	err = l.RunUntil(func() bool {
		st := l.Room.Status()
		slot := l.Bots[cfg.FaultBot].Session.Slot()
		lagging := slot >= 0 && st.Child == wire.ChildLagging && st.Lagging&(1<<slot) != 0
		if lagging && !wasLagging {
			lagged++
		}
		wasLagging = lagging
		return l.Finished()
	}, 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.CloseReplays(); err != nil {
		t.Fatal(err)
	}
	s := l.Summary()
	rp, err := replay.ReadFile(cfg.Record)
	if err != nil {
		t.Fatal(err)
	}
	res, err := replay.Verify(rp)
	if err != nil {
		t.Fatal(err)
	}
	return s, res, lagged, l
}

// TestRepairInPlace: one of four bots' world is corrupted at a random
// tick; the three others outvote it, it is repaired from one of their
// worlds while they play on without waiting for it, and the game ends in
// step with one repair; the replay verifies.
func TestRepairInPlace(t *testing.T) {
	nets := []struct {
		name, spec     string
		predict, share bool
	}{
		{"clean", "", false, false},
		{"50ms", "latency=25ms", false, false},
		{"120ms 10% loss", "latency=60ms,loss=10%", false, false},
		{"120ms 10% loss predicting", "latency=60ms,loss=10%", true, false},
		// The majority shares one simulation and keeps no recent worlds:
		// the world sent is of a later turn than the one that differed.
		{"50ms shared majority", "latency=25ms", false, true},
	}
	rng := rand.New(rand.NewPCG(45, 1))
	for _, n := range nets {
		t.Run(n.name, func(t *testing.T) {
			flip := uint32(300 + rng.IntN(900))
			cfg := bots.Config{Bots: 4, Ticks: 1800, Seed: 45, FaultBot: 2, Fault: lockstep.Fault{FlipAt: flip}, Predict: n.predict, Share: n.share}
			s, res, lagged := repairRun(t, cfg, n.spec)
			t.Logf("flip@%d: %s", flip, s)
			if s.Repairs != 1 || s.HashGroups != 1 || s.ResultGroups != 1 || s.Desyncs != 0 {
				t.Errorf("repairs=%d hash_groups=%d result_groups=%d desyncs=%d, want 1 1 1 0", s.Repairs, s.HashGroups, s.ResultGroups, s.Desyncs)
			}
			if lagged != 0 {
				t.Errorf("the room went lagging %d times waiting for the strayed bot: the others were held back", lagged)
			}
			if !res.OK() || res.Checked == 0 {
				t.Errorf("replay: %d hashes checked, mismatches %+v", res.Checked, res.Mismatches)
			}
		})
	}
}

// TestRewindTwoPlayers: of two players one's world is corrupted; with no
// majority both rewind to the last turn their hashes agreed on, execute
// again, and finish in step.
func TestRewindTwoPlayers(t *testing.T) {
	cfg := bots.Config{Bots: 2, Ticks: 1800, Seed: 46, FaultBot: 1, Fault: lockstep.Fault{FlipAt: 700}}
	s, res, _ := repairRun(t, cfg, "latency=10ms")
	t.Log(s)
	if s.Rewinds != 2 || s.Repairs != 0 || s.HashGroups != 1 || s.ResultGroups != 1 || s.Desyncs != 0 {
		t.Errorf("rewinds=%d repairs=%d hash_groups=%d result_groups=%d desyncs=%d, want 2 0 1 1 0", s.Rewinds, s.Repairs, s.HashGroups, s.ResultGroups, s.Desyncs)
	}
	if !res.OK() {
		t.Errorf("replay: mismatches %+v", res.Mismatches)
	}
}

// TestHashLiarSentAway: a bot that reports a wrong hash every turn (its
// world honest) strays; the world it sends of that turn does not match
// what it reported, a lie, counted; it strays again, lies again, and is
// sent away, long before the repairs the room allows a faulty machine.
// The others finish their game in step.
func TestHashLiarSentAway(t *testing.T) {
	cfg := bots.Config{Bots: 4, Ticks: 1800, Seed: 47, FaultBot: 3, Fault: lockstep.Fault{HashFrom: 400}}
	s, res, _ := repairRun(t, cfg, "latency=20ms")
	t.Log(s)
	if s.Repairs < 1 || s.Repairs > 2 || s.StrayedOut != 1 || s.HashGroups != 1 || s.ResultGroups != 1 || s.Desyncs != 0 {
		t.Errorf("repairs=%d strayed_out=%d hash_groups=%d result_groups=%d desyncs=%d, want 1-2 1 1 1 0", s.Repairs, s.StrayedOut, s.HashGroups, s.ResultGroups, s.Desyncs)
	}
	if !res.OK() {
		t.Errorf("replay: mismatches %+v", res.Mismatches)
	}
}

// TestRewindThenDesyncStops: of two players one reports wrong hashes: both
// rewind, the hashes differ again, and the game stops as desynced, the
// players told that neither world can be shown right (each machine's own
// re-simulation of its turns agrees with itself: no engine is blamed).
func TestRewindThenDesyncStops(t *testing.T) {
	imp, err := transport.ParseImpairment("latency=10ms")
	if err != nil {
		t.Fatal(err)
	}
	l, err := bots.NewLocal(bots.Config{Bots: 2, Ticks: 1800, Seed: 48, Fast: true, Net: imp, FaultBot: 1, Fault: lockstep.Fault{HashFrom: 500}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := l.Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Log(s)
	if l.Room.Desync() == nil || s.Rewinds != 2 {
		t.Fatalf("desync %+v rewinds %d, want a desync after both rewound", l.Room.Desync(), s.Rewinds)
	}
	_ = l.RunUntil(func() bool { return false }, l.Now()+2*time.Second) // the players are told
	for _, b := range l.Bots {
		if !b.Session.Rewound() || b.Session.Desync() == nil || b.Session.StoppedText() != lockstep.UnprovenText {
			t.Errorf("bot %d: rewound %v desync %+v words %q, want both and %q", b.Index, b.Session.Rewound(), b.Session.Desync(), b.Session.StoppedText(), lockstep.UnprovenText)
		}
		if ok, checked := b.Session.SelfCheck(); !ok || checked == 0 {
			t.Errorf("bot %d: its own re-simulation: ok %v over %d turns, want ok over some", b.Index, ok, checked)
		}
	}
}

// TestRepairOfAPlayerBehind: the majority shares one simulation and keeps
// no recent worlds, so the world it sends is of the turn it is at; the
// strayed player, on a slow link, has not completed that turn yet, and
// takes the world in when it does. The game ends in step.
func TestRepairOfAPlayerBehind(t *testing.T) {
	l, err := bots.NewLocal(bots.Config{Bots: 4, Ticks: 1800, Seed: 49, Fast: true, Share: true, FaultBot: 2, Fault: lockstep.Fault{FlipAt: 700}})
	if err != nil {
		t.Fatal(err)
	}
	slow, err := transport.ParseImpairment("latency=80ms")
	if err != nil {
		t.Fatal(err)
	}
	l.Net.SetImpairment(l.Bots[2].Peer, slow, slow)
	s, err := l.Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Log(s)
	if s.Repairs != 1 || s.HashGroups != 1 || s.ResultGroups != 1 || s.Desyncs != 0 {
		t.Errorf("repairs=%d hash_groups=%d result_groups=%d desyncs=%d, want 1 1 1 0", s.Repairs, s.HashGroups, s.ResultGroups, s.Desyncs)
	}
}

// TestNumbersWithoutAWorldDecideNothing: liars that forge only their
// reports (hash numbers and digests; their worlds stay honest) and agree
// with one another. Three of five are a majority of numbers: the two
// honest players are found to stray by them, but no liar's world backs
// its numbers, so that majority decides nothing, every liar is caught
// twice and sent away, and no honest player is. Two of four, and one of
// two, are a tie nobody can settle: the game stops, after a rewind, and
// says so in words that blame no engine.
func TestNumbersWithoutAWorldDecideNothing(t *testing.T) {
	tests := []struct {
		name    string
		bots    int
		liars   []int
		settled bool // the liars are sent away and the game plays on
	}{
		{"three liars of five", 5, []int{0, 1, 2}, true},
		{"two liars of four", 4, []int{0, 1}, false},
		{"one liar of two", 2, []int{1}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			imp, err := transport.ParseImpairment("latency=20ms")
			if err != nil {
				t.Fatal(err)
			}
			l, err := bots.NewLocal(bots.Config{Bots: tc.bots, Ticks: 1800, Seed: 53, Fast: true, Net: imp,
				FaultBot: tc.liars[0], FaultBots: tc.liars[1:], Fault: lockstep.Fault{HashFrom: 400}})
			if err != nil {
				t.Fatal(err)
			}
			s, err := l.Run()
			if err != nil {
				t.Fatal(err)
			}
			t.Log(s)
			_ = l.RunUntil(func() bool { return false }, l.Now()+2*time.Second) // the players are told
			liar := map[int]bool{}
			for _, i := range tc.liars {
				liar[i] = true
			}
			for _, b := range l.Bots {
				left := b.Session.Phase() == lockstep.Left && b.Session.LeaveMessage().Reason == wire.LeaveStrayed
				switch {
				case !liar[b.Index] && left:
					t.Errorf("honest bot %d was sent away: %q", b.Index, b.Session.LeaveMessage().Text)
				case tc.settled && liar[b.Index] && !left:
					t.Errorf("lying bot %d was not sent away (phase %v)", b.Index, b.Session.Phase())
				case !tc.settled && !liar[b.Index]:
					if words := b.Session.StoppedText(); b.Session.Desync() == nil || words != lockstep.UnprovenText && words != lockstep.UnprovenManyText {
						t.Errorf("honest bot %d: desync %+v, words %q, want the game stopped with nobody shown right", b.Index, b.Session.Desync(), words)
					}
				}
			}
			if tc.settled {
				if l.Room.Desync() != nil || s.StrayedOut != len(tc.liars) || s.Desyncs != 0 {
					t.Errorf("desync %+v, sent away %d, want none and %d", l.Room.Desync(), s.StrayedOut, len(tc.liars))
				}
				if st := l.Room.Stats(); st.Lies != 2*uint64(len(tc.liars)) {
					t.Errorf("lies counted %d, want %d (each liar caught twice)", st.Lies, 2*len(tc.liars))
				}
			} else if l.Room.Desync() == nil || s.Rewinds == 0 {
				t.Errorf("desync %+v rewinds %d, want the game stopped after a rewind", l.Room.Desync(), s.Rewinds)
			}
		})
	}
}

// TestRefereeSettlesTies: on a refereed room (the room runs the engine on
// its turns, room.Config.Referee) a tie is no tie: liars that forge their
// numbers, two of four or one of two, are sent away and the honest players
// play on; a two-player game whose one world is corrupted is repaired from
// the room's own world, with no rewind.
func TestRefereeSettlesTies(t *testing.T) {
	tests := []struct {
		name   string
		bots   int
		faulty []int
		fault  lockstep.Fault
		out    int // sent away
	}{
		{"two liars of four", 4, []int{0, 1}, lockstep.Fault{HashFrom: 400}, 2},
		{"one liar of two", 2, []int{1}, lockstep.Fault{HashFrom: 400}, 1},
		{"a corrupted world of two", 2, []int{1}, lockstep.Fault{FlipAt: 700}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rc := room.LAN()
			rc.Referee = true
			s, res, _, l := repairRunLocal(t, bots.Config{Bots: tc.bots, Ticks: 1800, Seed: 54, Room: rc,
				FaultBot: tc.faulty[0], FaultBots: tc.faulty[1:], Fault: tc.fault}, "latency=20ms")
			t.Log(s)
			faulty := map[int]bool{}
			for _, i := range tc.faulty {
				faulty[i] = true
			}
			for _, b := range l.Bots {
				if !faulty[b.Index] && b.Session.Phase() == lockstep.Left {
					t.Errorf("honest bot %d was sent away", b.Index)
				}
			}
			if s.Desyncs != 0 || s.Rewinds != 0 || s.StrayedOut != tc.out || s.HashGroups != 1 || s.ResultGroups != 1 {
				t.Errorf("desyncs %d rewinds %d sent away %d hash_groups %d result_groups %d, want 0, 0, %d, 1, 1", s.Desyncs, s.Rewinds, s.StrayedOut, s.HashGroups, s.ResultGroups, tc.out)
			}
			if tc.out == 0 && s.Repairs != 1 {
				t.Errorf("repairs %d, want 1", s.Repairs)
			}
			if !res.OK() || res.Checked == 0 {
				t.Errorf("replay: %d hashes checked, mismatches %+v", res.Checked, res.Mismatches)
			}
		})
	}
}

// TestRefereeSnapshotForASpectator: a spectator joining a refereed game
// late catches up from the room's own world (no player is asked for its
// world) and ends in step with the players.
func TestRefereeSnapshotForASpectator(t *testing.T) {
	imp, err := transport.ParseImpairment("latency=20ms")
	if err != nil {
		t.Fatal(err)
	}
	rc := room.LAN()
	rc.Referee = true
	l, err := bots.NewLocal(bots.Config{Bots: 3, Ticks: 2400, Seed: 55, Fast: true, Net: imp, Room: rc})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.RunUntil(func() bool { return l.Bots[0].Session.Stats().Ticks >= 1200 }, 5*time.Minute); err != nil {
		t.Fatal(err)
	}
	spec := l.Join(lockstep.Config{Name: "watcher", Spectate: true})
	s, err := l.Run()
	if err != nil {
		t.Fatal(err)
	}
	if first, _ := spec.Session.ExecutedTurns(); first < 500 || !spec.Final.OK {
		t.Fatalf("spectator from turn %d, final %+v: want it caught up from a snapshot and to the end", first, spec.Final)
	}
	if s.HashGroups != 1 || s.ResultGroups != 1 || s.Desyncs != 0 {
		t.Fatalf("bots disagree: %s", s)
	}
}
