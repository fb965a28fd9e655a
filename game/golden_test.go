package game_test

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"rockstep/game"
	"rockstep/game/rng"
)

var update = flag.Bool("update", false, "rewrite the golden hashes in "+goldenFile+" instead of checking them")

// script plays eight players with pseudo-random but human-like input: each
// player holds a combination of keys for a random number of ticks, so
// thrust steps, charged shots and turns all happen, and one combination in
// sixteen jumps into hyperspace. It is deterministic in its seed.
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
		s.cur[i] = game.Input(s.r.Intn(32))
		if s.r.Intn(16) == 0 {
			s.cur[i] |= game.Hyperspace
		}
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

// goldenFile holds the golden hashes of TestGoldenHash, one line per game
// and checkpoint. It is written by -update, never by hand.
const goldenFile = "testdata/golden-hashes.txt"

// goldenHeader opens goldenFile and says how it is made.
const goldenHeader = `# The state hash of TestGoldenHash's scripted games at each checkpoint tick:
# "game, tick N: hash". Identical on every architecture. Written by
# go test ./game/ -run TestGoldenHash -update
# after a change to the rules; never edit by hand.
`

// readGolden reads goldenFile: the hashes by game name and tick.
func readGolden(t testing.TB) (map[string]map[int]uint64, error) {
	t.Helper()
	golden := map[string]map[int]uint64{}
	data, err := os.ReadFile(goldenFile)
	if err != nil {
		return golden, err
	}
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		head, hex, ok1 := strings.Cut(line, ": ")
		name, tick, ok2 := strings.Cut(head, ", tick ")
		n, err1 := strconv.Atoi(tick)
		h, err2 := strconv.ParseUint(strings.TrimPrefix(hex, "0x"), 16, 64)
		if !ok1 || !ok2 || err1 != nil || err2 != nil {
			t.Fatalf("%s:%d: %q is not \"game, tick N: 0xHASH\"", goldenFile, i+1, line)
		}
		if golden[name] == nil {
			golden[name] = map[int]uint64{}
		}
		golden[name][n] = h
	}
	return golden, nil
}

// writeGolden writes goldenFile: games in order, their hashes by tick.
func writeGolden(t testing.TB, games []string, golden map[string]map[int]uint64) {
	t.Helper()
	b := []byte(goldenHeader)
	for _, name := range games {
		for _, tick := range slices.Sorted(maps.Keys(golden[name])) {
			b = fmt.Appendf(b, "%s, tick %d: 0x%016x\n", name, tick, golden[name][tick])
		}
	}
	if err := os.WriteFile(goldenFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGoldenHash pins the state hash of long scripted games. It must pass
// unchanged on amd64, 386 and arm64; a change to the rules changes these
// numbers on purpose, and -update writes the new ones to goldenFile.
func TestGoldenHash(t *testing.T) {
	checkpoints := []int{1, 1000, 5000, 10000, 20000}
	tests := []struct {
		name  string
		setup game.Setup
	}{
		{"versus 8 players friendly fire", game.Setup{Seed: 20261121, Players: 0xFF, Mode: game.Versus, Lives: 9, StartWave: 3, FriendlyFire: true, Saucers: true, Hyperspace: true}},
		{"co-op 8 players", game.Setup{Seed: 7, Players: 0xFF, Mode: game.Coop, Lives: 9, StartWave: 1, Saucers: true, Hyperspace: true}},
		{"co-op 2 players, no saucers, no hyperspace", game.Setup{Seed: 11, Players: 0b101, Mode: game.Coop, Lives: 5, StartWave: 2}},
	}
	// With -update, the games a -run pattern leaves out keep their hashes.
	golden, err := readGolden(t)
	if err != nil && !*update {
		t.Fatalf("golden hashes: %v (run go test ./game/ -run TestGoldenHash -update)", err)
	}
	var games []string
	for _, tt := range tests {
		games = append(games, tt.name)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := goldenRun(t, tt.setup, 20000, checkpoints, 5, 7000)
			if *update {
				golden[tt.name] = map[int]uint64{}
				for i, tick := range checkpoints {
					golden[tt.name][tick] = got[i]
				}
				return
			}
			want, ok := golden[tt.name]
			if !ok || len(want) != len(checkpoints) {
				t.Fatalf("%s has %d hashes for this game, want %d (run -update)", goldenFile, len(want), len(checkpoints))
			}
			for i, tick := range checkpoints {
				if w, ok := want[tick]; !ok || got[i] != w {
					t.Errorf("tick %d: hash %#x, want %#x", tick, got[i], w)
				}
			}
		})
	}
	if *update && !t.Failed() {
		writeGolden(t, games, golden)
	}
}
