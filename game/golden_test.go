package game_test

import (
	"flag"
	"fmt"
	"testing"

	"rockstep/game"
	"rockstep/game/rng"
)

var update = flag.Bool("update", false, "print fresh golden hashes instead of checking them")

// script plays eight players with pseudo-random but human-like input: each
// player holds a combination of keys for a random number of ticks, so
// thrust steps, charged shots and turns all happen. It is deterministic in
// its seed.
type script struct {
	r    rng.Rand
	cur  [game.MaxPlayers]game.Input
	left [game.MaxPlayers]int
}

func newScript(seed uint64) *script { return &script{r: rng.New(seed)} }

func (s *script) next() [game.MaxPlayers]game.Input {
	for i := range s.cur {
		if s.left[i] > 0 {
			s.left[i]--
			continue
		}
		s.cur[i] = game.Input(s.r.Intn(32)) & game.ClientInputMask
		s.left[i] = s.r.Range(1, 40)
	}
	return s.cur
}

// goldenRun plays setup for ticks with the scripted input, dropping slot
// leaveSlot at leaveTick, and returns the hash at each checkpoint.
func goldenRun(t testing.TB, setup game.Setup, ticks int, checkpoints []int, leaveSlot, leaveTick int) []uint64 {
	t.Helper()
	w, err := game.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	s := newScript(setup.Seed ^ 0x5eed)
	var hashes []uint64
	c := 0
	for tick := 1; tick <= ticks; tick++ {
		in := s.next()
		if tick == leaveTick {
			in[leaveSlot] = game.Leave
		}
		w.Step(in)
		if c < len(checkpoints) && tick == checkpoints[c] {
			hashes = append(hashes, w.Hash())
			c++
		}
	}
	return hashes
}

// TestGoldenHash pins the state hash of long scripted games. It must pass
// unchanged on amd64, 386 and arm64; a change to the rules changes these
// numbers on purpose, and they are refreshed with -update.
func TestGoldenHash(t *testing.T) {
	checkpoints := []int{1, 1000, 5000, 10000, 20000}
	tests := []struct {
		name  string
		setup game.Setup
		want  []uint64
	}{
		{
			name:  "versus 8 players friendly fire",
			setup: game.Setup{Seed: 20261121, Players: 0xFF, Mode: game.Versus, Lives: 9, StartWave: 3, FriendlyFire: true},
			want:  []uint64{0xd211706a5a50a3b, 0xf3f11d55f25db6c9, 0xeba6961ef4d68ac1, 0x728a42e16b5ca4ec, 0x8ad6c09c15552fee},
		},
		{
			name:  "co-op 8 players",
			setup: game.Setup{Seed: 7, Players: 0xFF, Mode: game.Coop, Lives: 9, StartWave: 1},
			want:  []uint64{0x463cf1ddfc7ac2be, 0xb642b1e4545af913, 0xabc9c54e9a9247f8, 0xa57ccc7cf4f6bdc4, 0x6d898a9a1d6fbc04},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := goldenRun(t, tt.setup, 20000, checkpoints, 5, 7000)
			if *update {
				fmt.Printf("%s: %#x\n", tt.name, got)
				return
			}
			for i := range checkpoints {
				if got[i] != tt.want[i] {
					t.Errorf("tick %d: hash %#x, want %#x", checkpoints[i], got[i], tt.want[i])
				}
			}
		})
	}
}
