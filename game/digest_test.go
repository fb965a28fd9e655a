package game_test

import (
	"testing"

	"rockstep/game"
)

// TestRulesDigestIsStable: the digest is one nonzero value, call after call.
func TestRulesDigestIsStable(t *testing.T) {
	a, b := game.RulesDigest(), game.RulesDigest()
	if a != b || a == 0 {
		t.Fatalf("RulesDigest: %016x then %016x, want one nonzero value", a, b)
	}
}

func BenchmarkRulesDigest(b *testing.B) {
	for b.Loop() {
		game.RulesDigest()
	}
}
