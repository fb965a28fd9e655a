package client

import (
	"net/netip"
	"testing"

	"rockstep/net/host"
	"rockstep/net/wire"
)

// TestProbeReachesTheOutsideAddress: a successor whose observed address
// does not answer (behind its NAT, no port there) is reached at the
// address its router mapped (wire.Successor.Outside): probes and dials
// race both and keep the one that proves the listed key.
func TestProbeReachesTheOutsideAddress(t *testing.T) {
	sb, err := host.ListenStandby("127.0.0.1:0", standbySettings(Options{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	live := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), sb.Port())
	dead := netip.MustParseAddrPort(silentAddr(t))
	c := newClient(Options{})
	for _, tc := range []struct {
		name string
		cand wire.Successor
		want bool
	}{
		{"observed address silent, outside address live", wire.Successor{Slot: 1, Addr: dead, Outside: live, Key: sb.Key()}, true},
		{"observed address silent, no outside address", wire.Successor{Slot: 1, Addr: dead, Key: sb.Key()}, false},
		{"outside address live with another key", wire.Successor{Slot: 1, Addr: dead, Outside: live, Key: [16]byte{1}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := c.probe(tc.cand); got != tc.want {
				t.Errorf("probe = %v, want %v", got, tc.want)
			}
		})
	}
}
