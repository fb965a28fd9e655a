package host

import (
	"net/netip"
	"testing"
)

// TestConnectionFollowsItsMove: once the transport moved a connection to
// its peer's new address, the host names that address (the rooms' standby
// entries are checked against it).
func TestConnectionFollowsItsMove(t *testing.T) {
	h := New(LAN())
	from := netip.MustParseAddrPort("192.0.2.1:4000")
	to := netip.MustParseAddrPort("198.51.100.7:5000")
	h.Connected(7, from)
	id := h.byNet[7]
	if got := h.addrOf(id); got != from.Addr() {
		t.Fatalf("before the move: %v, want %v", got, from.Addr())
	}
	h.AddrChanged(7, to)
	if got := h.addrOf(id); got != to.Addr() {
		t.Errorf("after the move: %v, want %v", got, to.Addr())
	}
	h.AddrChanged(8, from) // a connection the host does not know: nothing happens
	if got := h.addrOf(id); got != to.Addr() {
		t.Errorf("another connection's move changed this one: %v", got)
	}
}
