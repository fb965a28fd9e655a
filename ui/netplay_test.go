package ui

import (
	"strings"
	"testing"
)

func TestSpectatorsSeeNoInputDelay(t *testing.T) {
	if got := netLine(3, 33); !strings.Contains(got, "input delay 33 ms") {
		t.Errorf("a player's line %q, want the input delay", got)
	}
	if got := netLine(3, -1); strings.Contains(got, "delay") || !strings.Contains(got, "ping 3 ms") {
		t.Errorf("a spectator's line %q, want the ping and no input delay", got)
	}
}
