package lockstep_test

import (
	"testing"

	"rockstep/game"
	"rockstep/net/bots"
	"rockstep/net/room"
)

// TestPredictionKeepsTheConfirmedGame: the same bot game with prediction
// off and on reaches the same confirmed game over, at the same turn, with
// the same hash and results: prediction only changes what is drawn.
func TestPredictionKeepsTheConfirmedGame(t *testing.T) {
	rc := room.LAN()
	rc.FixedTiming = true // the same schedule both ways, so the same inputs land on the same ticks
	var hashes, results []uint64
	for _, predict := range []bool{false, true} {
		setup := game.Setup{Mode: game.Coop, Lives: 2, StartWave: 3}
		l := newLocal(t, bots.Config{Bots: 8, Ticks: 1 << 20, Seed: 17, Room: rc, Setup: setup, Predict: predict, Net: impairment(t, "latency=20ms,jitter=10ms,loss=2%")})
		if _, err := l.Run(); err != nil {
			t.Fatal(err)
		}
		s := agree(t, l)
		if !s.Over {
			t.Fatalf("the game did not reach game over: %s", s)
		}
		hashes, results = append(hashes, s.Hash), append(results, s.Results)
		if predict {
			st := l.Bots[0].Session.Stats()
			if st.Resims == 0 {
				t.Error("a predicting session never re-simulated")
			}
		}
	}
	if hashes[0] != hashes[1] || results[0] != results[1] {
		t.Fatalf("confirmed hash %016x, results %016x without prediction; %016x, %016x with it", hashes[0], results[0], hashes[1], results[1])
	}
}

// responseFrames measures, for a bot that starts turning right at its
// 100th sampled tick, how many of its frames pass between the frame that
// sampled the key and the first frame whose drawn world shows the turn.
func responseFrames(t *testing.T, predict bool) int {
	t.Helper()
	l := newLocal(t, bots.Config{Bots: 2, Ticks: 600, Seed: 23, Predict: predict, Net: impairment(t, "latency=60ms,jitter=20ms")})
	b := l.Bots[0]
	const turnAt = 100
	pressed := -1 // b.Frames when Right was first sampled
	b.Input = func(tick uint32) game.Input {
		if tick < turnAt {
			return 0
		}
		if pressed < 0 {
			pressed = b.Frames // the frame being updated
		}
		return game.Right
	}
	var angle uint16
	lastFrame := -1
	for steps := 0; steps < 1_000_000; steps++ {
		l.Step()
		if b.Frames == lastFrame {
			continue
		}
		lastFrame = b.Frames
		w := b.Session.DisplayWorld()
		if w == nil || b.Session.Slot() < 0 {
			continue
		}
		sh := w.Ships[b.Session.Slot()]
		if pressed < 0 {
			angle = uint16(sh.Angle)
			continue
		}
		if !sh.Alive {
			t.Fatal("the ship died before the test could measure it")
		}
		if uint16(sh.Angle) != angle {
			frames := (b.Frames - 1) - pressed
			t.Logf("predict=%v: Right sampled in frame %d, drawn in frame %d: %d frames", predict, pressed, b.Frames-1, frames)
			return frames
		}
		if b.Frames-pressed > 120 {
			t.Fatal("the turn never showed")
		}
	}
	t.Fatal("the game did not run")
	return 0
}

// TestPredictionShowsOwnInputAtOnce: on a 120 ms round trip the ship turns
// on the frame the key is sampled (or the next), with prediction; without
// it, it takes the input delay and the round trip.
func TestPredictionShowsOwnInputAtOnce(t *testing.T) {
	if got := responseFrames(t, true); got > 1 {
		t.Errorf("with prediction the turn showed %d frames after the key, want 0 or 1", got)
	}
	if got := responseFrames(t, false); got < 4 {
		t.Errorf("without prediction the turn showed after %d frames: the test measures nothing", got)
	}
}

// TestPredictionOnABadNetwork: predicting bots on a 120 ms round trip with
// jitter and loss agree on every confirmed hash.
func TestPredictionOnABadNetwork(t *testing.T) {
	l := newLocal(t, bots.Config{Bots: 4, Ticks: 3000, Seed: 29, Predict: true, Net: impairment(t, "latency=60ms,jitter=20ms,loss=3%")})
	if _, err := l.Run(); err != nil {
		t.Fatal(err)
	}
	s := agree(t, l)
	st := l.Bots[0].Session.Stats()
	t.Logf("%s; bot 0: predicted %d ticks, %d re-simulations, %d mispredicted ticks", s, st.Predicted, st.Resims, st.Mispredicted)
	if st.Mispredicted == 0 {
		t.Error("no misprediction counted with three other players changing input: the counter is not working")
	}
}

// TestPredictionIsTheConfirmedWorldsFuture: the displayed world, kept from
// update to update, is always the confirmed world stepped through the
// inputs it was predicted with, however many confirmed ticks came in
// between and whatever they changed.
func TestPredictionIsTheConfirmedWorldsFuture(t *testing.T) {
	l := newLocal(t, bots.Config{Bots: 3, Ticks: 2400, Seed: 31, Predict: true, Net: impairment(t, "latency=60ms,jitter=20ms,loss=3%")})
	checked := 0
	for steps := 0; !l.Finished() && steps < 2_000_000; steps++ {
		l.Step()
		for _, b := range l.Bots {
			s := b.Session
			conf, disp := s.World(), s.DisplayWorld()
			if conf == nil || disp == nil || disp == conf {
				continue
			}
			w := *conf
			for tick := conf.Tick + 1; tick <= disp.Tick; tick++ {
				in, ok := s.PredictedInputs(tick)
				if !ok {
					t.Fatalf("bot %d: tick %d is displayed but has no predicted inputs", b.Index, tick)
				}
				w.Step(in)
			}
			if w.Hash() != disp.Hash() {
				t.Fatalf("bot %d: the displayed world at tick %d is not the confirmed world (tick %d) stepped through its predicted inputs", b.Index, disp.Tick, conf.Tick)
			}
			checked++
		}
	}
	agree(t, l)
	st := l.Bots[0].Session.Stats()
	if checked < 1000 || st.Mispredicted == 0 || st.Resims >= uint64(st.Ticks) {
		t.Errorf("checked %d displayed worlds; bot 0: %d mispredicted ticks, %d rebuilds in %d ticks: want some mispredictions and far fewer rebuilds than ticks", checked, st.Mispredicted, st.Resims, st.Ticks)
	}
	t.Logf("bot 0: %d ticks, %d mispredicted, %d rebuilds", st.Ticks, st.Mispredicted, st.Resims)
}
