package game

import "rockstep/game/rng"

// rulesTicks is the length of the scripted game RulesDigest plays: long
// enough for shots, rocks splitting, ships dying and respawning, a saucer,
// hyperspace, a player away and one leaving.
const rulesTicks = 480 // ticks (8 s of game)

// RulesDigest returns a digest of the engine's rules: the hash of the world
// after a fixed scripted game of rulesTicks ticks, four players in versus
// with friendly fire, saucers and hyperspace, inputs drawn from a fixed
// seed. Two builds whose rules differ in anything the script reaches (and
// it reaches most of them) give different digests, so a room can refuse a
// build that would desync on the first turn (docs/ARCHITECTURE.md). It is
// pure; callers compute it once (its cost: BENCHMARKS.md).
func RulesDigest() uint64 { return rulesGame(nil) }

// rulesGame plays RulesDigest's script and returns the final hash; see, if
// not nil, is shown the world after every tick (for tests).
func rulesGame(see func(w *World)) uint64 {
	w, err := New(Setup{Seed: 0x5275_6c65_7331, Players: 0b1111, Mode: Versus, Lives: 3, StartWave: 6,
		FriendlyFire: true, Saucers: true, Hyperspace: true})
	if err != nil {
		return 0 // unreachable: the setup is valid
	}
	w.SaucerIn = 60 // a saucer early, so the script meets one
	r := rng.New(0x6469_6765_7374)
	var in [MaxPlayers]Input
	for t := 0; t < rulesTicks; t++ {
		if t%6 == 0 { // a new held input every 6 ticks, as a player's would last
			for i := 0; i < 4; i++ {
				in[i] = Input(r.Uint32()) & ClientInputMask
			}
		}
		step := in
		if t >= 120 && t < 240 {
			step[2] = Away // slot 2's player away for 2 s
		}
		if t == 360 {
			step[3] = Leave
		}
		w.Step(step)
		if see != nil {
			see(w)
		}
	}
	return w.Hash()
}
