package bots

import (
	"testing"

	"rockstep/game"
	"rockstep/net/lockstep"
)

// TestPollFor: a bot looks at its session often except while its game
// plays itself, and often again near the end, whose time is the game's
// length in the summary.
func TestPollFor(t *testing.T) {
	const ticks = 3000
	at := func(tick uint32) *game.World { return &game.World{Tick: tick} }
	for _, c := range []struct {
		ph   lockstep.Phase
		w    *game.World
		want string
	}{
		{lockstep.Lobby, nil, "often"},
		{lockstep.Playing, nil, "often"},
		{lockstep.Playing, at(0), "seldom"},
		{lockstep.Playing, at(ticks - pollEnding - 1), "seldom"},
		{lockstep.Playing, at(ticks - pollEnding), "often"},
		{lockstep.Playing, at(ticks + 5), "often"},
		{lockstep.Finished, at(ticks), "often"},
	} {
		got := "often"
		if pollFor(c.ph, c.w, ticks) == pollSeldom {
			got = "seldom"
		}
		if got != c.want {
			tick := -1
			if c.w != nil {
				tick = int(c.w.Tick)
			}
			t.Errorf("%v at tick %d (-1: no world): %s, want %s", c.ph, tick, got, c.want)
		}
	}
}
