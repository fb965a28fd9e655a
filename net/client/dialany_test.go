package client

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"rockstep/internal/testwait"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/invite"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
)

// codePatience bounds every wait of these tests: generous, not a budget.
const codePatience = 30 * time.Second

// codeHost serves a room on a loopback port with key.
func codeHost(t *testing.T, key *transport.HostKey) *hosttest.Server {
	t.Helper()
	tc := transport.LAN()
	tc.HostKey = key
	return hosttest.Start(t, tc, host.LAN())
}

// silentAddr is a loopback UDP port that takes datagrams and never
// answers: a host that is gone, or an address not reachable from here.
func silentAddr(t *testing.T) string {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c.LocalAddr().String()
}

func newKey(t *testing.T) *transport.HostKey {
	t.Helper()
	k, err := transport.NewHostKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// joinCode goes the way a player's code goes: encoded, decoded, its
// addresses dialled at once with its pin.
func joinCode(t *testing.T, fingerprint string, addrs ...string) (*Client, error) {
	t.Helper()
	var list []netip.AddrPort
	for _, a := range addrs {
		list = append(list, netip.MustParseAddrPort(a))
	}
	code, err := invite.New(list, fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	got, err := invite.Decode(code.String())
	if err != nil {
		t.Fatalf("Decode(%s): %v", code, err)
	}
	o := Options{Session: lockstep.Config{Name: "guest"}, Transport: transport.LAN()}
	o.Transport.HostFingerprint = got.Fingerprint()
	o.Transport.HandshakeTimeout = 2 * time.Second // the silent addresses' wait
	ctx, cancel := context.WithTimeout(context.Background(), codePatience)
	defer cancel()
	c, err := DialAny(ctx, got.Targets(), o)
	if c != nil {
		t.Cleanup(c.Close)
	}
	return c, err
}

// inLobby waits until c is in the room's lobby.
func inLobby(t *testing.T, c *Client) {
	t.Helper()
	if !testwait.Until(codePatience, func() bool {
		var p lockstep.Phase
		c.Do(func(s *lockstep.Session) { p = s.Phase() })
		return p == lockstep.Lobby
	}) {
		t.Fatal("the guest never reached the lobby")
	}
}

// TestJoinCodeWrongKey: a code whose pin is another key's is refused at
// the handshake with a host key error, and no session starts.
func TestJoinCodeWrongKey(t *testing.T) {
	a, b := newKey(t), newKey(t)
	h := codeHost(t, a)
	c, err := joinCode(t, b.Fingerprint(), h.Addr())
	if c != nil || !errors.Is(err, transport.ErrHostKey) {
		t.Fatalf("join with key B's code at host A: %v, %v; want no client and ErrHostKey", c, err)
	}
	var hk *transport.HostKeyError
	if !errors.As(err, &hk) || hk.Got != a.Fingerprint() || hk.Want != b.Fingerprint()[:transport.MinPinLen] {
		t.Errorf("error %v: want it to name A's key and B's pin", err)
	}
	if n := h.Host.Stats().RoomPlayers; n != 0 {
		t.Errorf("the room holds %d players, want 0", n)
	}
}

// TestJoinCodeSecondAddress: a code with two addresses of which only the
// second answers joins the room at the second.
func TestJoinCodeSecondAddress(t *testing.T) {
	a := newKey(t)
	h := codeHost(t, a)
	c, err := joinCode(t, a.Fingerprint(), silentAddr(t), h.Addr())
	if err != nil {
		t.Fatalf("join: %v", err)
	}
	if got := c.HostAddr(); got != h.Addr() {
		t.Errorf("HostAddr() = %s, want %s", got, h.Addr())
	}
	inLobby(t, c)
	if got := c.HostFingerprint(); got != a.Fingerprint() {
		t.Errorf("HostFingerprint() = %s, want %s", got, a.Fingerprint())
	}
}

// TestJoinCodeOnlyThePinnedKey: of two hosts that both answer, the code
// joins the one with its key, whichever comes first in it.
func TestJoinCodeOnlyThePinnedKey(t *testing.T) {
	a, b := newKey(t), newKey(t)
	ha, hb := codeHost(t, a), codeHost(t, b)
	c, err := joinCode(t, a.Fingerprint(), hb.Addr(), ha.Addr())
	if err != nil {
		t.Fatalf("join: %v", err)
	}
	if got := c.HostAddr(); got != ha.Addr() {
		t.Errorf("HostAddr() = %s, want A's %s", got, ha.Addr())
	}
	inLobby(t, c)
	if n := hb.Host.Stats().RoomPlayers; n != 0 {
		t.Errorf("B's room holds %d players, want 0", n)
	}
}

// TestJoinCodeResolve: the bots' way, Resolve finds the address that
// answers with the pinned key and hangs up.
func TestJoinCodeResolve(t *testing.T) {
	a := newKey(t)
	h := codeHost(t, a)
	cfg := transport.LAN()
	cfg.HostFingerprint = a.Fingerprint()[:transport.MinPinLen]
	cfg.HandshakeTimeout = 2 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), codePatience)
	defer cancel()
	got, err := Resolve(ctx, []string{silentAddr(t), h.Addr()}, cfg)
	if err != nil || got != h.Addr() {
		t.Fatalf("Resolve = %q, %v; want %s", got, err, h.Addr())
	}
	cfg.HostFingerprint = newKey(t).Fingerprint()[:transport.MinPinLen]
	if got, err := Resolve(ctx, []string{h.Addr()}, cfg); !errors.Is(err, transport.ErrHostKey) {
		t.Fatalf("Resolve with another key's pin = %q, %v; want ErrHostKey", got, err)
	}
}

// TestJoinCodeGone: a code none of whose addresses answers says the host
// did not answer, naming what it tried.
func TestJoinCodeGone(t *testing.T) {
	x, y := silentAddr(t), silentAddr(t)
	c, err := joinCode(t, newKey(t).Fingerprint(), x, y)
	if c != nil || !errors.Is(err, ErrNoAnswer) {
		t.Fatalf("join a gone game: %v, %v; want ErrNoAnswer", c, err)
	}
	if !strings.Contains(err.Error(), x) || !strings.Contains(err.Error(), y) {
		t.Errorf("error %q: want it to name %s and %s", err, x, y)
	}
}

// TestJoinCodeBadPin: a pin too short to pin anything is our mistake, and
// is said so, not taken for a host that did not answer.
func TestJoinCodeBadPin(t *testing.T) {
	o := Options{Session: lockstep.Config{Name: "guest"}, Transport: transport.LAN()}
	o.Transport.HostFingerprint = "0123"
	ctx, cancel := context.WithTimeout(context.Background(), codePatience)
	defer cancel()
	c, err := DialAny(ctx, []string{silentAddr(t), silentAddr(t)}, o)
	if c != nil || !errors.Is(err, transport.ErrBadConfig) || errors.Is(err, ErrNoAnswer) {
		t.Fatalf("DialAny with a 16-bit pin: %v, %v; want ErrBadConfig", c, err)
	}
}
