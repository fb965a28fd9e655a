// Package bots runs headless Rockstep players: the load tester behind
// `rockstep -bots`, and the harness the lockstep tests drive.
package bots

import (
	"rockstep/game"
	"rockstep/game/rng"
)

// Pilot produces a bot's input, one tick at a time: it holds a random
// combination of keys for a random while, the way a player does, so the
// bot turns, changes thrust and fires charged shots, and one combination
// in sixteen jumps into hyperspace. Its output depends only
// on its seed and how many ticks it has been asked for.
type Pilot struct {
	r    rng.Rand
	cur  game.Input
	left int
}

// NewPilot returns a pilot seeded with seed.
func NewPilot(seed uint64) *Pilot { return &Pilot{r: rng.New(seed)} }

// Next returns the input for the next tick.
func (p *Pilot) Next() game.Input {
	if p.left > 0 {
		p.left--
		return p.cur
	}
	p.cur = game.Input(p.r.Intn(32))
	if p.r.Intn(16) == 0 {
		p.cur |= game.Hyperspace
	}
	p.left = p.r.Range(1, 40)
	return p.cur
}
