package ui

import (
	"os"
	"testing"
)

// TestListingHostName: the LAN list's HOST column shows the hosting
// player's name, not the machine's; the machine's only when there is no
// name.
func TestListingHostName(t *testing.T) {
	machine, _ := os.Hostname()
	tests := []struct {
		name, player, want string
	}{
		{"player's name", "Ada", "Ada"},
		{"no name", "", machine},
		{"blank name", "  ", machine},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := listingHostName(tc.player); got != tc.want {
				t.Errorf("listingHostName(%q) = %q, want %q", tc.player, got, tc.want)
			}
		})
	}
}
