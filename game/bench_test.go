package game_test

import (
	"testing"

	"rockstep/game"
)

// BenchmarkStep steps the standard scene (8 ships, 40 rocks, 64 bullets).
// The scene is reset every 60 ticks so that it stays standard.
// Budget (DESIGN.md §6): ≤ 20 µs and 0 allocations per Step.
func BenchmarkStep(b *testing.B) {
	base := *game.StandardScene(1)
	w := base
	in := [game.MaxPlayers]game.Input{game.Up, game.Left, game.Right | game.Fire, game.Fire, 0, game.Down, game.Up | game.Right, game.Fire}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%60 == 0 {
			w = base
		}
		w.Step(in)
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
