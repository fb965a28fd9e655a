package lockstep_test

import (
	"strings"
	"testing"

	"rockstep/game"
	"rockstep/game/rng"
	"rockstep/net/bots"
	"rockstep/net/lockstep"
)

func scripted(seed uint64) func(int) [game.MaxPlayers]game.Input {
	r := rng.New(seed)
	var cur [game.MaxPlayers]game.Input
	var left [game.MaxPlayers]int
	return func(int) [game.MaxPlayers]game.Input {
		for i := range cur {
			if left[i] > 0 {
				left[i]--
				continue
			}
			cur[i] = game.Input(r.Intn(32)) & game.ClientInputMask
			left[i] = r.Range(1, 30)
		}
		return cur
	}
}

// TestSyncTestEngine: 20,000 ticks of eight scripted players, rolled back
// and re-simulated eight ticks after every tick: the engine passes.
func TestSyncTestEngine(t *testing.T) {
	// Co-op with nine lives: the game lasts past 18,000 ticks (the golden test's setup).
	w, err := game.New(game.Setup{Seed: 7, Players: 0xFF, Mode: game.Coop, Lives: 9, StartWave: 1})
	if err != nil {
		t.Fatal(err)
	}
	ticks := 20000
	if testing.Short() {
		ticks = 3000
	}
	if err := lockstep.SyncTest(lockstep.WorldSim{W: w}, scripted(5), ticks, 8); err != nil {
		t.Fatal(err)
	}
	if w.Over && int(w.Tick) < ticks*3/4 {
		t.Errorf("the game ended at tick %d: too little of it was tested", w.Tick)
	}
}

// leaky is a deliberately broken simulation: part of its state lives
// outside its snapshot, as a global would.
type leaky struct {
	lockstep.WorldSim
	hidden *int
}

func (l leaky) Step(in [game.MaxPlayers]game.Input) {
	*l.hidden++
	l.W.Step(in)
	if *l.hidden%7 == 0 {
		l.W.Ships[0].Score++ // depends on how many times Step ran, not on the state
	}
}

func TestSyncTestCatchesHiddenState(t *testing.T) {
	w, _ := game.New(game.Setup{Seed: 1, Players: 3, Mode: game.Coop, Lives: 3, StartWave: 1})
	hidden := 0
	err := lockstep.SyncTest(leaky{lockstep.WorldSim{W: w}, &hidden}, scripted(2), 200, 4)
	if err == nil || !strings.Contains(err.Error(), "re-simulated after a rollback") {
		t.Fatalf("the sync test passed a simulation with hidden state: %v", err)
	}
}

// TestSessionSyncTestMode: bots whose sessions sync-test every confirmed
// tick (the -synctest debug mode) find nothing wrong with the engine.
func TestSessionSyncTestMode(t *testing.T) {
	l := newLocal(t, bots.Config{Bots: 2, Ticks: 1200, Seed: 3, SyncTest: 4})
	if _, err := l.Run(); err != nil {
		t.Fatal(err)
	}
	agree(t, l)
	for _, b := range l.Bots {
		if st := b.Session.Stats(); st.SyncErrors != 0 {
			t.Errorf("bot %d: %d sync errors", b.Index, st.SyncErrors)
		}
	}
}
