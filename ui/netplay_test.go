package ui

import (
	"strings"
	"testing"
	"time"

	"rockstep/net/lockstep"
	"rockstep/net/wire"
)

func TestSpectatorsSeeNoInputDelay(t *testing.T) {
	if got := netLine(3, 33); !strings.Contains(got, "input delay 33 ms") {
		t.Errorf("a player's line %q, want the input delay", got)
	}
	if got := netLine(3, -1); strings.Contains(got, "delay") || !strings.Contains(got, "ping 3 ms") {
		t.Errorf("a spectator's line %q, want the ping and no input delay", got)
	}
}

// TestSilentRoomIsSaid: once the session reports the room silent for
// lockstep.SilentAfter during a flowing game, the overlay says so; less
// than that is not news.
func TestSilentRoomIsSaid(t *testing.T) {
	tests := []struct {
		name      string
		silence   time.Duration
		wantTitle string
	}{
		{"turns flowing", 0, ""},
		{"just under half a second", lockstep.SilentAfter - time.Millisecond, ""},
		{"half a second", lockstep.SilentAfter, "WAITING"},
		{"three seconds", 3 * time.Second, "WAITING"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &netPlayScreen{a: &App{}}
			s.a.nv.status = wire.RoomStatus{State: wire.StateRunning, Child: wire.ChildIterating}
			s.a.nv.silence = tt.silence
			title, sub, _ := s.overlay()
			if title != tt.wantTitle {
				t.Fatalf("title %q, want %q", title, tt.wantTitle)
			}
			if title != "" && !strings.Contains(sub, "waiting for the host…") {
				t.Errorf("line %q, want it to say it waits for the host", sub)
			}
		})
	}
}
