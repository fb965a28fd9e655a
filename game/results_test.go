package game_test

import (
	"testing"

	"rockstep/game"
)

func TestResultsOrderAndWinner(t *testing.T) {
	names := [game.MaxPlayers]string{"Ada", "Bo", "Cy", "Di"}
	tests := []struct {
		name      string
		mode      game.Mode
		scores    [4]uint32
		over      bool
		winner    int8
		left      int // slot that left, or -1
		wantOrder []int8
		wantWin   int8
	}{
		{name: "co-op by score, ties by slot", mode: game.Coop, scores: [4]uint32{50, 120, 50, 10}, over: true, winner: -1, left: -1, wantOrder: []int8{1, 0, 2, 3}, wantWin: -1},
		{name: "versus winner first whatever the score", mode: game.Versus, scores: [4]uint32{500, 120, 50, 10}, over: true, winner: 2, left: -1, wantOrder: []int8{2, 0, 1, 3}, wantWin: 2},
		{name: "versus ended early: no winner", mode: game.Versus, scores: [4]uint32{5, 6, 7, 8}, over: false, winner: 2, left: -1, wantOrder: []int8{3, 2, 1, 0}, wantWin: -1},
		{name: "a player who left keeps a line", mode: game.Coop, scores: [4]uint32{0, 0, 30, 0}, over: true, winner: -1, left: 1, wantOrder: []int8{2, 0, 1, 3}, wantWin: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, game.Setup{Players: 0b1111, Mode: tt.mode})
			for i, s := range tt.scores {
				w.Ships[i].Score = s
			}
			w.Over, w.Winner = tt.over, tt.winner
			if tt.left >= 0 {
				w.Ships[tt.left].Present = false
			}
			r := w.Results(names)
			if r.N != 4 || len(r.Table()) != 4 {
				t.Fatalf("%d lines, want 4", r.N)
			}
			for i, l := range r.Table() {
				if l.Slot != tt.wantOrder[i] {
					t.Fatalf("line %d is slot %d, want order %v", i, l.Slot, tt.wantOrder)
				}
				if l.Name != names[l.Slot] || l.Score != tt.scores[l.Slot] {
					t.Errorf("line %d = %+v, want name %q score %d", i, l, names[l.Slot], tt.scores[l.Slot])
				}
				if l.Winner != (l.Slot == tt.wantWin) {
					t.Errorf("line %d winner = %v, want winner slot %d", i, l.Winner, tt.wantWin)
				}
				if l.Left != (int(l.Slot) == tt.left) {
					t.Errorf("line %d left = %v", i, l.Left)
				}
			}
			if r.Winner != tt.wantWin || r.Over != tt.over || r.Mode != tt.mode {
				t.Errorf("results = winner %d over %v mode %v", r.Winner, r.Over, r.Mode)
			}
		})
	}
}

func TestResultsDigest(t *testing.T) {
	w := newWorld(t, game.Setup{Players: 0b11, Mode: game.Versus})
	names := [game.MaxPlayers]string{"Ada", "Bo"}
	base := w.Results(names)
	if again := w.Results(names); again.Digest() != base.Digest() {
		t.Fatal("the same world gives two digests")
	}
	changes := map[string]func(w *game.World, n *[game.MaxPlayers]string){
		"score":  func(w *game.World, _ *[game.MaxPlayers]string) { w.Ships[1].Score++ },
		"lives":  func(w *game.World, _ *[game.MaxPlayers]string) { w.Ships[0].Lives-- },
		"kills":  func(w *game.World, _ *[game.MaxPlayers]string) { w.Ships[0].Kills++ },
		"deaths": func(w *game.World, _ *[game.MaxPlayers]string) { w.Ships[1].Deaths++ },
		"left":   func(w *game.World, _ *[game.MaxPlayers]string) { w.Ships[1].Present = false },
		"tick":   func(w *game.World, _ *[game.MaxPlayers]string) { w.Tick++ },
		"over":   func(w *game.World, _ *[game.MaxPlayers]string) { w.Over, w.Winner = true, 1 },
		"name":   func(_ *game.World, n *[game.MaxPlayers]string) { n[1] = "Bob" },
	}
	for what, change := range changes {
		c, n := *w, names
		change(&c, &n)
		if r := c.Results(n); r.Digest() == base.Digest() {
			t.Errorf("changing the %s leaves the digest as it was", what)
		}
	}
}

func TestResultsAllocateNothing(t *testing.T) {
	w := newWorld(t, game.Setup{Players: 0xFF, Mode: game.Coop})
	names := [game.MaxPlayers]string{"a", "b", "c", "d", "e", "f", "g", "h"}
	if n := testing.AllocsPerRun(100, func() {
		r := w.Results(names)
		_ = r.Digest()
	}); n != 0 {
		t.Errorf("Results and Digest allocate %.1f times", n)
	}
}
