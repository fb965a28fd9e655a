package lockstep

import (
	"testing"

	"rockstep/game"
)

// TestSharedSimCopiesOnlyTheSameStep: a session copies a tick's result
// only when it holds the world the tick was stepped from and the same
// inputs; otherwise it steps its own world.
func TestSharedSimCopiesOnlyTheSameStep(t *testing.T) {
	setup := game.Setup{Seed: 7, Players: 3, Mode: game.Coop, Lives: game.MaxLives, StartWave: 3}
	other := setup
	other.Seed = 8
	var in, in2 [game.MaxPlayers]game.Input
	in[0], in2[0] = game.Up|game.Left, game.Right

	world := func(s game.Setup) *game.World {
		w, err := game.New(s)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	sh := NewSharedSim()
	a, b, c, d := world(setup), world(setup), world(other), world(setup)
	ref, refOther, ref2 := world(setup), world(other), world(setup)
	for range 100 {
		sh.step(a, in)
		sh.step(b, in)  // the same world and inputs: copied
		sh.step(c, in)  // another world: stepped
		sh.step(d, in2) // other inputs: stepped
		ref.Step(in)
		refOther.Step(in)
		ref2.Step(in2)
	}
	if *a != *ref || *b != *ref {
		t.Fatal("the shared worlds differ from the world stepped alone")
	}
	if *c != *refOther {
		t.Fatal("a different world copied another's tick")
	}
	if *d != *ref2 {
		t.Fatal("different inputs copied another's tick")
	}
	if got := sh.Hits(); got != 100 {
		t.Fatalf("%d ticks copied, want 100 (b's)", got)
	}
	if h := sh.hash(b); h != ref.Hash() {
		t.Fatalf("shared hash %x, want %x", h, ref.Hash())
	}
	if h := sh.hash(c); h != refOther.Hash() {
		t.Fatalf("hash of a world that is not the shared one: %x, want %x", h, refOther.Hash())
	}
}
