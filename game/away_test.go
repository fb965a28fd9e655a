package game_test

import (
	"testing"

	"rockstep/game"
)

// TestAwayShipIsOutOfPlay: a ship whose input carries Away is frozen where
// it was, nothing hits it and it fires nothing; its lives, score and
// position are kept, and it is back in play (briefly invulnerable) on the
// first tick without Away.
func TestAwayShipIsOutOfPlay(t *testing.T) {
	tests := []struct {
		name  string
		setup game.Setup
		place func(w *game.World) // puts a threat on ship 1
	}{
		{"co-op: a rock on it", game.Setup{Players: 0b11}, func(w *game.World) { addRock(w, game.Big, at(600, 400)) }},
		{"co-op: a saucer's shot", game.Setup{Players: 0b11}, func(w *game.World) { addSaucerShot(w, at(595, 400), at(1, 0)) }},
		{"co-op: a saucer rammed", game.Setup{Players: 0b11}, func(w *game.World) { addSaucer(w, game.LargeSaucer, at(600, 400)) }},
		{"versus: another's shot", game.Setup{Players: 0b11, Mode: game.Versus}, func(w *game.World) { addBullet(w, 0, at(595, 400), at(1, 0)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, tt.setup)
			addRock(w, game.Big, at(1200, 50))
			w.Ships[0].Pos = at(100, 100)
			w.Ships[1].Pos = at(600, 400)
			w.Ships[1].Score = 70
			w.Step(only(1, game.Away|game.Up|game.Fire))
			if _, ok := eventOf(w, game.PlayerAway); !ok {
				t.Error("no PlayerAway event on the first away tick")
			}
			tt.place(w)
			lives := w.Ships[1].Lives
			for range 30 {
				w.Step(only(1, game.Away|game.Up))
			}
			sh := w.Ships[1]
			if !sh.Away || !sh.Alive || sh.Lives != lives || sh.Score != 70 {
				t.Fatalf("away 30 ticks: away=%v alive=%v lives=%d score=%d, want away, alive, %d lives, score 70", sh.Away, sh.Alive, sh.Lives, sh.Score, lives)
			}
			if sh.Pos != at(600, 400) || sh.Thrust != 0 {
				t.Errorf("away ship moved: pos %v thrust %d, want it frozen at (600,400)", sh.Pos, sh.Thrust)
			}
			for _, b := range w.LiveBullets() {
				if b.Owner == 1 {
					t.Error("an away ship fired")
				}
			}
			w.Step(none)
			if sh := w.Ships[1]; sh.Away || !sh.Alive || sh.Invuln == 0 || sh.Pos != at(600, 400) {
				t.Errorf("back: away=%v alive=%v invuln=%d pos=%v, want in play where it was, invulnerable", sh.Away, sh.Alive, sh.Invuln, sh.Pos)
			}
			if _, ok := eventOf(w, game.PlayerBack); !ok {
				t.Error("no PlayerBack event on the first tick back")
			}
		})
	}
}

// TestAwayCannotWinOrLose: in versus, the last other ship going down does
// not make an away player the winner; it wins once back.
func TestAwayCannotWinOrLose(t *testing.T) {
	w := newWorld(t, game.Setup{Players: 0b11, Mode: game.Versus, Lives: 1})
	addRock(w, game.Big, at(1200, 50))
	w.Ships[0].Pos = at(100, 100)
	w.Ships[1].Pos = at(600, 400)
	w.Step(only(1, game.Away))
	addRock(w, game.Big, at(100, 100))
	away := only(1, game.Away)
	w.Step(away)
	if w.Ships[0].Alive || w.Ships[0].Lives != 0 {
		t.Fatalf("ship 0 alive=%v lives=%d, want destroyed for good", w.Ships[0].Alive, w.Ships[0].Lives)
	}
	for range 10 {
		w.Step(away)
	}
	if w.Over {
		t.Fatalf("game over with winner %d while the last one standing is away, want it to go on", w.Winner)
	}
	w.Step(none)
	if !w.Over || w.Winner != 1 {
		t.Errorf("back: over=%v winner=%d, want over, won by 1", w.Over, w.Winner)
	}
}

// TestAwaySnapshot: a world with an away ship survives its snapshot, and
// one without encodes as before (Away shares the Present byte).
func TestAwaySnapshot(t *testing.T) {
	w := newWorld(t, game.Setup{Players: 0b11})
	before, _ := w.MarshalBinary()
	w.Step(only(1, game.Away))
	b, err := w.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got game.World
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatalf("UnmarshalBinary: %v", err)
	}
	if !got.Ships[1].Away || got.Hash() != w.Hash() {
		t.Errorf("restored: away=%v, hash equal=%v; want away, equal", got.Ships[1].Away, got.Hash() == w.Hash())
	}
	if len(b) != len(before) {
		t.Errorf("snapshot with an away ship is %d bytes, want %d as without", len(b), len(before))
	}
}
