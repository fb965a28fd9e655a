package room_test

import (
	"testing"

	"rockstep/game"
	"rockstep/net/wire"
)

// TestSaucersAndHyperspaceInTheSetup: a room starts with both on; the host
// turns them off or on, every player sees it, and the game starts with
// what the host chose.
func TestSaucersAndHyperspaceInTheSetup(t *testing.T) {
	tests := []struct {
		name                string
		saucers, hyperspace bool
	}{
		{"both off", false, false},
		{"saucers only", true, false},
		{"hyperspace only", false, true},
		{"both on", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBench(t, nil)
			b.join(1, "Ann")
			b.join(2, "Bob")
			if s := b.r.Setup(); !s.Saucers || !s.Hyperspace {
				t.Fatalf("a new room's setup %+v, want saucers and hyperspace on", s)
			}
			s := game.DefaultSetup()
			s.Lives = 4 // a change, whatever the two flags
			s.Saucers, s.Hyperspace = tt.saucers, tt.hyperspace
			b.send(1, wire.SetupChange{Setup: s})
			st, ok := last[wire.SetupState](b.peer(2))
			if !ok || st.Setup.Saucers != tt.saucers || st.Setup.Hyperspace != tt.hyperspace {
				t.Fatalf("player 2 sees %+v, want saucers %v, hyperspace %v", st.Setup, tt.saucers, tt.hyperspace)
			}
			b.send(1, wire.Ready{Ready: true})
			b.send(2, wire.Ready{Ready: true})
			b.send(1, wire.StartGame{Game: b.r.Game()})
			start, ok := last[wire.Start](b.peer(2))
			if !ok || start.Setup.Saucers != tt.saucers || start.Setup.Hyperspace != tt.hyperspace {
				t.Fatalf("Start %+v, want saucers %v, hyperspace %v", start.Setup, tt.saucers, tt.hyperspace)
			}
		})
	}
}
