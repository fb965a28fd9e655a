package room

import (
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// BenchmarkReferee is a refereed room's own engine (referee.go) for one
// master turn of two ticks (K=2: 30 turns a second) on the standard scene
// (8 ships, 40 rocks, 64 bullets): the Steps and the hash of the turn's
// end. core-%-250-rooms is what 250 such rooms (a full server: 1,000
// players) cost a core for every second of game.
func BenchmarkReferee(b *testing.B) {
	r := New(LAN())
	r.cfg.Referee = true
	scene := *game.StandardScene(1)
	r.ref = referee{on: true, world: scene}
	mt := wire.MasterTurn{Count: 2, Players: 0xFF}
	for i := range mt.Inputs {
		mt.Inputs[i] = [wire.MaxK]game.Input{game.Up | game.Fire, game.Left}
	}
	b.ReportAllocs()
	start := time.Now()
	n := 0
	for b.Loop() {
		mt.Turn = r.ref.turn
		r.ref.world = scene // the standard scene every turn (a copy: 0.07 µs)
		r.refereeTurn(&mt)
		n++
	}
	perTurn := float64(time.Since(start).Nanoseconds()) / float64(n)
	b.ReportMetric(perTurn*30*250/1e9*100, "core-%-250-rooms")
}
