package game_test

import (
	"testing"

	"rockstep/game"
)

// benchInputs are the players' inputs while a scene is benchmarked: every
// kind of control in use (slot 4 jumps into hyperspace and comes back).
var benchInputs = [game.MaxPlayers]game.Input{game.Up, game.Left, game.Right | game.Fire, game.Fire, game.Hyperspace, game.Down, game.Up | game.Right, game.Fire}

// benchStep steps a scene, reset every 60 ticks so that it stays what it is.
func benchStep(b *testing.B, base game.World) {
	w := base
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%60 == 0 {
			w = base
		}
		w.Step(benchInputs)
	}
}

// BenchmarkStep steps the standard scene (8 ships, 40 rocks, 64 bullets),
// the standard scene with two saucers, and the worst case (8 ships, 96
// rocks, 128 bullets, 2 saucers). Budget (docs/ARCHITECTURE.md §6, from
// scripts/benchcheck/budgets.txt): ≤ 3 µs for the standard scene, with or
// without saucers, ≤ 8 µs for the worst, 0 allocations.
func BenchmarkStep(b *testing.B) {
	b.Run("standard", func(b *testing.B) { benchStep(b, *game.StandardScene(1)) })
	b.Run("saucers", func(b *testing.B) { benchStep(b, *game.SaucerScene(1)) })
	b.Run("worst", func(b *testing.B) { benchStep(b, *game.WorstScene(1)) })
}

// TestStepAllocatesNothing: a tick of the heaviest world allocates
// nothing, whatever the inputs do (ships fire, die, rocks split).
func TestStepAllocatesNothing(t *testing.T) {
	for name, base := range map[string]game.World{"standard": *game.StandardScene(2), "saucers": *game.SaucerScene(2), "worst": *game.WorstScene(2)} {
		w := base
		n := 0
		if allocs := testing.AllocsPerRun(300, func() {
			if n%60 == 0 {
				w = base
			}
			n++
			w.Step(benchInputs)
		}); allocs != 0 {
			t.Errorf("%s scene: Step allocates %.2f times a tick", name, allocs)
		}
	}
}

// BenchmarkHash hashes the standard scene. Budget: ≤ 5 µs.
func BenchmarkHash(b *testing.B) {
	w := game.StandardScene(1)
	b.ReportAllocs()
	var h uint64
	for b.Loop() {
		h ^= w.Hash()
	}
	_ = h
}

// BenchmarkSnapshotRestore encodes the standard scene into a reused buffer
// and decodes it into another world. Budget: ≤ 5 µs.
func BenchmarkSnapshotRestore(b *testing.B) {
	w := game.StandardScene(1)
	var into game.World
	buf := make([]byte, 0, game.MaxSnapshotSize)
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = w.AppendBinary(buf[:0])
		if err := into.UnmarshalBinary(buf); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCopy is the in-memory snapshot that rollback uses: a value copy.
func BenchmarkCopy(b *testing.B) {
	w := game.StandardScene(1)
	var into game.World
	b.ReportAllocs()
	for b.Loop() {
		into = *w
	}
	_ = into
}
