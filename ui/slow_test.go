package ui

import (
	"testing"

	"rockstep/net/wire"
)

// TestSlowLine: the strip over the field says whose machine the room finds
// too slow, in other words to the player whose machine it is, and nothing
// once the room no longer says so.
func TestSlowLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		slot int
		slow uint8
		want string
	}{
		{"nobody slow", 0, 0, ""},
		{"another player", 0, 1 << 1, "Bob cannot keep up with the game: it runs slower for everyone"},
		{"this player", 1, 1 << 1, "Your computer cannot keep up with the game: close other programs, or it will be sent away"},
		{"a spectator sees who", -1, 1 << 0, "Ada cannot keep up with the game: it runs slower for everyone"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &App{}
			a.nv.slot = tc.slot
			a.nv.setup.Players = []wire.Player{{Slot: 0, Name: "Ada"}, {Slot: 1, Name: "Bob"}}
			a.nv.status = wire.RoomStatus{State: wire.StateRunning, Slow: tc.slow}
			s := &netPlayScreen{a: a}
			if got := s.stripLine(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			a.nv.status.Slow = 0
			if got := s.stripLine(); got != "" {
				t.Errorf("once nobody is slow: %q", got)
			}
		})
	}
}
