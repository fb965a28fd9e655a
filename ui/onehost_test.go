package ui

import (
	"net/netip"
	"strings"
	"testing"
)

// TestLobbyShowsTheRoomTakenOver: once this player's machine took the
// game over (host migration), the lobby shows where its room listens and
// its host key, not the dead host's address and key; a room this player
// opened keeps its own.
func TestLobbyShowsTheRoomTakenOver(t *testing.T) {
	const fp = "00112233445566778899aabbccddeeff"
	ifaces := []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("192.168.1.20")}
	tests := []struct {
		name      string
		g         *netGame
		port      uint16
		wantWhere string
		wantKey   string
	}{
		{"took the game over", &netGame{addr: "192.168.1.7:7777"}, 40001, "join 192.168.1.20:40001", fp},
		{"no standby", &netGame{addr: "192.168.1.7:7777"}, 0, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.g.tookOver(tc.port, fp)
			if tc.port == 0 {
				if tc.g.addr != "192.168.1.7:7777" || tc.g.hostFP != "" {
					t.Errorf("without a standby the lobby changed to %q key %q", tc.g.addr, tc.g.hostFP)
				}
				return
			}
			if got := hostWhere(tc.g.addr, ifaces); !strings.Contains(got, tc.wantWhere) {
				t.Errorf("the lobby says %q, want it to say %q", got, tc.wantWhere)
			}
			if got := tc.g.hostFingerprint(); got != tc.wantKey {
				t.Errorf("host key %q, want %q", got, tc.wantKey)
			}
		})
	}
}
