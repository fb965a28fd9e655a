package game_test

import (
	"bytes"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"rockstep/game"
	"rockstep/internal/fuzzseed"
)

var goldenSetup = game.Setup{Seed: 20261121, Players: 0xFF, Mode: game.Versus, Lives: 9, StartWave: 3, FriendlyFire: true, Saucers: true, Hyperspace: true}

// TestSnapshotRestoreContinue takes snapshots at many points of a scripted
// game, restores each into a world that was somewhere else entirely, plays
// on with the same input, and expects the hash of the uninterrupted run.
func TestSnapshotRestoreContinue(t *testing.T) {
	const ticks = 6000
	s := newScript(99)
	inputs := make([][game.MaxPlayers]game.Input, ticks)
	for i := range inputs {
		inputs[i] = s.next()
	}
	ref, err := game.New(goldenSetup)
	if err != nil {
		t.Fatal(err)
	}
	hashes := make([]uint64, ticks)
	snaps := map[int][]byte{}
	for i := 0; i < ticks; i++ {
		if i%397 == 0 || i == 1 {
			b, err := ref.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			snaps[i] = b
		}
		ref.Step(inputs[i])
		hashes[i] = ref.Hash()
	}
	for at, snap := range snaps {
		// A world in some other game and state entirely.
		other, _ := game.New(game.Setup{Seed: uint64(at), Players: 0b101, Mode: game.Coop, Lives: 2, StartWave: 7})
		for i := 0; i < 50; i++ {
			other.Step(only(0, game.Fire|game.Up))
		}
		if err := other.UnmarshalBinary(snap); err != nil {
			t.Fatalf("restore at tick %d: %v", at, err)
		}
		if len(other.LastEvents()) != 0 {
			t.Errorf("restored world at tick %d carries %d events of its old game", at, len(other.LastEvents()))
		}
		for i := at; i < ticks; i++ {
			other.Step(inputs[i])
			if h := other.Hash(); h != hashes[i] {
				t.Fatalf("restored at tick %d: hash at tick %d = %#x, want %#x", at, i+1, h, hashes[i])
			}
		}
	}
}

func TestCopyIsSnapshot(t *testing.T) {
	w := game.StandardScene(3)
	c := *w
	for i := 0; i < 100; i++ {
		w.Step(only(2, game.Fire))
		c.Step(only(2, game.Fire))
	}
	if w.Hash() != c.Hash() {
		t.Fatal("a copied world diverged from its original")
	}
}

func TestHashSeesEveryChange(t *testing.T) {
	w := game.StandardScene(1)
	base := w.Hash()
	changes := []struct {
		name string
		f    func(w *game.World)
	}{
		{"tick", func(w *game.World) { w.Tick++ }},
		{"rng", func(w *game.World) { w.Rand.State++ }},
		{"ship x", func(w *game.World) { w.Ships[7].Pos.X++ }},
		{"ship score", func(w *game.World) { w.Ships[3].Score++ }},
		{"rock spin", func(w *game.World) { w.Rocks[39].Spin++ }},
		{"bullet life", func(w *game.World) { w.Bullets[63].Life++ }},
		{"setup", func(w *game.World) { w.Setup.FriendlyFire = !w.Setup.FriendlyFire }},
	}
	for _, c := range changes {
		v := *w
		c.f(&v)
		if v.Hash() == base {
			t.Errorf("changing %s did not change the hash", c.name)
		}
	}
	v := *w
	v.NumEvents = 3
	if v.Hash() != base {
		t.Error("events changed the hash; they are not state")
	}
}

func TestSnapshotRejectsBadInput(t *testing.T) {
	good, err := game.StandardScene(5).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	mutate := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a Rockstep world snapshot"},
		{"wrong magic", mutate(func(b []byte) []byte { b[0] = 'X'; return b }), "not a Rockstep world snapshot"},
		{"future version", mutate(func(b []byte) []byte { b[3] = 99; return b }), "version 99"},
		{"truncated", good[:len(good)-1], "truncated"},
		{"trailing bytes", append(append([]byte(nil), good...), 0), "after the end"},
		{"bad mode", mutate(func(b []byte) []byte { b[4+8+1] = 7; return b }), "mode"},
		{"bad bool", mutate(func(b []byte) []byte { b[4+8+4] = 2; return b }), "not 0 or 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := game.StandardScene(9)
			before := w.Hash()
			err := w.UnmarshalBinary(tt.data)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want one mentioning %q", err, tt.want)
			}
			if w.Hash() != before {
				t.Error("a failed restore changed the world")
			}
		})
	}
	for n := 0; n < len(good); n++ {
		var w game.World
		if err := w.UnmarshalBinary(good[:n]); err == nil {
			t.Fatalf("a snapshot truncated to %d of %d bytes was accepted", n, len(good))
		}
	}
}

// TestSnapshotRejectsImpossibleWorlds: a snapshot of a world the rules
// cannot reach is refused, with what is wrong.
func TestSnapshotRejectsImpossibleWorlds(t *testing.T) {
	tests := []struct {
		name   string
		change func(w *game.World)
		want   string
	}{
		{"saucer timer with saucers off", func(w *game.World) { w.Setup.Saucers = false }, "saucers off"},
		{"saucers on the field with saucers off", func(w *game.World) { w.Setup.Saucers, w.SaucerIn = false, 0 }, "saucers on the field with saucers off"},
		{"saucer timer out of range", func(w *game.World) { w.SaucerIn = game.SaucerInterval * 2 }, "saucer timer"},
		{"saucer size", func(w *game.World) { w.Saucers[1].Size = 3 }, "saucer 1: size"},
		{"saucer off the field", func(w *game.World) { w.Saucers[0].Pos.X = -1 }, "saucer 0: position"},
		{"saucer past its crossing", func(w *game.World) { w.Saucers[0].Life = 0 }, "saucer 0: no life"},
		{"saucer timer at 0", func(w *game.World) { w.Saucers[0].FireIn = 0 }, "saucer 0: timer"},
		{"bullet owner beyond the saucers'", func(w *game.World) { w.Bullets[0].Owner = game.SaucerOwner + 1 }, "owner"},
		{"jump too long", func(w *game.World) { w.Ships[2].Alive, w.Ships[2].Jump = false, game.HyperspaceDelay+1 }, "ship 2: jump above"},
		{"in hyperspace and on the field", func(w *game.World) { w.Ships[2].Jump = 3 }, "ship 2: in hyperspace"},
		{"jump cooldown too long", func(w *game.World) { w.Ships[4].JumpCool = game.HyperspaceCooldown + 1 }, "ship 4: jump cooldown"},
		{"unknown input bit", func(w *game.World) { w.Ships[0].Prev = 1 << 6 }, "ship 0: unknown input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := game.SaucerScene(4)
			tt.change(w)
			data, _ := w.MarshalBinary()
			var into game.World
			if err := into.UnmarshalBinary(data); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want one mentioning %q", err, tt.want)
			}
		})
	}
	// The saucer count is the byte before the saucers, which end the
	// snapshot.
	data := mustMarshal(t, game.SaucerScene(4))
	saucerBytes := len(data) - len(mustMarshal(t, withoutSaucers(game.SaucerScene(4))))
	data[len(data)-saucerBytes-1] = game.MaxSaucers + 1
	var over game.World
	if err := over.UnmarshalBinary(data); err == nil || !strings.Contains(err.Error(), "saucer count 3 above 2") {
		t.Errorf("error = %v, want one about the saucer count", err)
	}

	// The same scene as it is decodes, and a ship in hyperspace is fine.
	w := game.SaucerScene(4)
	w.Step(only(3, game.Hyperspace))
	if !(w.Ships[3].Jump > 0) {
		t.Fatal("slot 3 did not jump")
	}
	data = mustMarshal(t, w)
	var into game.World
	if err := into.UnmarshalBinary(data); err != nil {
		t.Fatalf("a world with saucers and a ship in hyperspace: %v", err)
	}
	if into.Hash() != w.Hash() || into.NumSaucer != game.MaxSaucers {
		t.Errorf("restored: %d saucers, hash %#x, want %d and %#x", into.NumSaucer, into.Hash(), game.MaxSaucers, w.Hash())
	}
}

// FuzzUnmarshal decodes arbitrary bytes: it must never panic, and whatever
// decodes must re-encode to exactly the same bytes and be safe to step.
func FuzzUnmarshal(f *testing.F) {
	for _, seed := range []uint64{1, 2} {
		w := game.StandardScene(seed)
		b, _ := w.MarshalBinary()
		f.Add(b)
		for i := 0; i < 500; i++ {
			w.Step(only(int(seed), game.Fire))
		}
		b, _ = w.MarshalBinary()
		f.Add(b)
	}
	for _, b := range corpus() {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var w game.World
		if err := w.UnmarshalBinary(data); err != nil {
			return
		}
		again, err := w.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again, data) {
			t.Fatalf("re-encoding differs:\n got %x\nwant %x", again, data)
		}
		for i := 0; i < 3; i++ {
			w.Step([game.MaxPlayers]game.Input{game.Fire, game.Up, game.Left, game.Hyperspace})
		}
		_ = w.Hash()
	})
}

func mustMarshal(t testing.TB, w *game.World) []byte {
	t.Helper()
	b, err := w.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func withoutSaucers(w *game.World) *game.World {
	w.NumSaucer = 0
	return w
}

var updateCorpus = flag.Bool("update-corpus", false, "rewrite the fuzz seed corpus in testdata/fuzz from corpus()")

// corpus returns the seeds of FuzzUnmarshal by name: snapshots of real
// worlds, and of no world.
func corpus() map[string][]byte {
	snap := func(w *game.World) []byte {
		b, _ := w.MarshalBinary()
		return b
	}
	def, _ := game.New(game.DefaultSetup())
	played := game.StandardScene(1)
	for i := 0; i < 300; i++ {
		played.Step(only(i%8, game.Fire|game.Hyperspace))
	}
	future := snap(def)
	future[3] = game.SnapshotVersion + 1
	return map[string][]byte{
		"new-default-game":         snap(def),
		"standard-scene":           snap(game.StandardScene(1)),
		"standard-scene-300-ticks": snap(played),
		"saucer-scene":             snap(game.SaucerScene(1)),
		"worst-scene":              snap(game.WorstScene(1)),
		"future-version":           future,
		"truncated-header":         snap(def)[:10],
	}
}

// TestSeedCorpus keeps the checked-in seed corpus of FuzzUnmarshal in step
// with the snapshot format: run with -update-corpus after changing it.
func TestSeedCorpus(t *testing.T) {
	seeds := map[string][]byte{}
	for name, b := range corpus() {
		seeds[name] = fuzzseed.File(b)
	}
	fuzzseed.Check(t, filepath.Join("testdata", "fuzz", "FuzzUnmarshal"), seeds, *updateCorpus)
}
