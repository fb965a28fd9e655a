package transport

import (
	"errors"
	"fmt"
	"net/netip"
	"testing"
	"time"
)

// connectOnce sends a Hello and a Connect from from at now and says what
// came of it: a session (0), a refusal (its reason), or nothing (dropped).
func connectOnce(tb testing.TB, o *offlineServer, now time.Time, from netip.AddrPort) (refused byte, dropped bool) {
	tb.Helper()
	hs, err := newClientHandshake("")
	if err != nil {
		tb.Fatal(err)
	}
	o.take()
	o.handlePacket(now, from, hs.pkt)
	out := o.take()
	if len(out) != 1 || out[0].pkt[0] != kindCookie {
		tb.Fatalf("Hello from %v: %d replies, want one Cookie", from, len(out))
	}
	if _, err := hs.receive(out[0].pkt); err != nil {
		tb.Fatal(err)
	}
	o.handlePacket(now, from, hs.pkt)
	out = o.take()
	if len(out) == 0 {
		return 0, true
	}
	est, err := hs.receive(out[0].pkt)
	var re *RefusedError
	switch {
	case errors.As(err, &re):
		return re.Reason, false
	case err != nil || est == nil:
		tb.Fatalf("Connect from %v: %v", from, err)
	}
	return 0, false
}

// TestBusyAddressesLeaveRoomForANewcomer: eight addresses of one /24 that
// open as many sessions as the server lets them do not fill the /24's
// share: a ninth address of it gets a session at once, not when the idle
// ones are closed seconds later (issue 53: 8 × 32 filled the /24's 256).
// The share kept for newcomers holds a couple of sessions an address.
func TestBusyAddressesLeaveRoomForANewcomer(t *testing.T) {
	cfg := LAN()
	cfg.HandshakeRate, cfg.MaxHandshakeRate = 10000, 10000 // the limits at stake are the sessions'
	o := newOffline(t, cfg)
	port := uint16(1000)
	open := func(ip string) (n int) {
		t.Helper()
		for range cfg.MaxPerIP + 1 {
			port++
			refused, dropped := connectOnce(t, o, t0, netip.AddrPortFrom(netip.MustParseAddr(ip), port))
			if dropped {
				t.Fatalf("%s: a Connect dropped", ip)
			}
			if refused != 0 {
				return n
			}
			n++
		}
		t.Fatalf("%s: %d sessions, over MaxPerIP %d", ip, n, cfg.MaxPerIP)
		return n
	}
	held := 0
	for i := 1; i <= 8; i++ {
		held += open(fmt.Sprintf("10.9.9.%d", i))
	}
	if held > cfg.MaxPerSubnet-cfg.MaxPerSubnet/subnetReserve+8*newcomerSessions {
		t.Errorf("eight addresses hold %d sessions of the /24's %d", held, cfg.MaxPerSubnet)
	}
	if n := open("10.9.9.9"); n < newcomerSessions {
		t.Fatalf("a ninth address of the /24 got %d sessions, want at least %d (the eight hold %d)", n, newcomerSessions, held)
	}
	// Newcomers share the rest until the /24 is full; then none.
	total := held + newcomerSessions
	for i := 10; i < 250 && total < cfg.MaxPerSubnet; i++ {
		total += open(fmt.Sprintf("10.9.9.%d", i))
	}
	if total != cfg.MaxPerSubnet {
		t.Errorf("the /24 holds %d sessions, want its %d", total, cfg.MaxPerSubnet)
	}
	port++
	if refused, _ := connectOnce(t, o, t0, netip.AddrPortFrom(netip.MustParseAddr("10.9.9.251"), port)); refused != RefusePerIP {
		t.Errorf("a newcomer to a full /24: refused %d, want %d", refused, RefusePerIP)
	}
}

// TestBusyAddressesLeaveConnectsForANewcomer: addresses of a /24 that
// spend its Connect rate in an instant leave a newcomer of it a rate of
// its own; and an address at its limit is refused before it spends any.
func TestBusyAddressesLeaveConnectsForANewcomer(t *testing.T) {
	cfg := LAN() // 50 Connects a second a /24
	o := newOffline(t, cfg)
	port := uint16(1000)
	connect := func(ip string) (byte, bool) {
		port++
		return connectOnce(t, o, t0, netip.AddrPortFrom(netip.MustParseAddr(ip), port))
	}
	// Two busy addresses spend the /24's Connects.
	spent := 0
	for i := range 200 {
		if _, dropped := connect(fmt.Sprintf("10.8.8.%d", 1+i%2)); dropped {
			break
		}
		spent++
	}
	if spent != cfg.HandshakeRate {
		t.Fatalf("%d Connects before the first rate drop, want the /24's %d", spent, cfg.HandshakeRate)
	}
	if refused, dropped := connect("10.8.8.3"); refused != 0 || dropped {
		t.Errorf("a newcomer once its /24's rate is spent: refused %d, dropped %v; want a session", refused, dropped)
	}
	if _, dropped := connect("10.8.8.1"); !dropped {
		t.Errorf("a busy address got a newcomer's Connect")
	}
}
