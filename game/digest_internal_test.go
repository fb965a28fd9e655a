package game

import "testing"

// TestRulesScriptReachesTheRules: the scripted game behind RulesDigest
// meets the rules it is meant to witness, each at least once.
func TestRulesScriptReachesTheRules(t *testing.T) {
	seen := map[EventKind]int{}
	rulesGame(func(w *World) {
		for _, e := range w.LastEvents() {
			seen[e.Kind]++
		}
	})
	for _, k := range []struct {
		name string
		kind EventKind
	}{
		{"shots", ShotFired}, {"rocks broken", RockDestroyed}, {"ships destroyed", ShipDestroyed},
		{"respawns", ShipRespawned}, {"a saucer", SaucerAppeared}, {"hyperspace", HyperspaceOut},
		{"a player away", PlayerAway}, {"back", PlayerBack}, {"a player leaving", PlayerLeft},
	} {
		if seen[k.kind] == 0 {
			t.Errorf("the script never reaches %s (events %v)", k.name, seen)
		}
	}
}
