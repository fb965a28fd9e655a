package lockstep

import (
	"testing"

	"rockstep/game"
	"rockstep/net/wire"
)

// BenchmarkDigest is a player's cost per turn the room checks (digest.go):
// the world of the standard scene (8 ships, 40 rocks, 64 bullets; a
// worst-case scene in "worst") as snapshot bytes, their checksum
// (game.Sum64) and their digest (wire.WorldSum, SHA-256 truncated to 128
// bits). The room pays the last two again for a world it checks. A turn
// is checked only when the room asks (a repair, a snapshot, the final
// world), not every turn.
func BenchmarkDigest(b *testing.B) {
	for _, sc := range []struct {
		name string
		w    *game.World
	}{{"standard", game.StandardScene(1)}, {"worst", game.WorstScene(1)}} {
		b.Run(sc.name, func(b *testing.B) {
			s := New(Config{KeepWorlds: -1})
			if _, _, ok := s.worldDigest(sc.w); !ok {
				b.Fatal("no digest")
			}
			b.ReportAllocs()
			b.ResetTimer()
			var h uint64
			var sum wire.Sum
			for i := 0; i < b.N; i++ {
				h, sum, _ = s.worldDigest(sc.w)
			}
			if h == 0 || sum == (wire.Sum{}) {
				b.Fatal("an empty digest")
			}
			b.SetBytes(int64(len(s.digest.buf)))
		})
	}
}
