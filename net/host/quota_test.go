package host_test

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"sync"
	"testing"

	"rockstep/net/client"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
)

// held runs transport clients that say nothing but heartbeats until the
// test ends, and records how each ended.
type held struct {
	mu     sync.Mutex
	ended  []error
	wg     sync.WaitGroup
	cancel context.CancelFunc
	ctx    context.Context
}

func newHeld(t *testing.T) *held {
	h := &held{}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	t.Cleanup(func() { h.cancel(); h.wg.Wait() })
	return h
}

func (h *held) run(c *transport.Client) {
	h.wg.Go(func() {
		err := c.Run(h.ctx, &frameLog{})
		h.mu.Lock()
		h.ended = append(h.ended, err)
		h.mu.Unlock()
	})
}

func (h *held) endings() []error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]error(nil), h.ended...)
}

// TestEightAddressesLeaveRoomForANinth: eight addresses of one /24 each
// open and hold as many sessions as the server lets them (heartbeats
// only), and a ninth address of the same /24 still joins a game at once,
// not when the idle sessions are closed (joinGrace). (With 64 sessions an
// address, four filled their /24's 256; with 32, eight did, issue 53.)
func TestEightAddressesLeaveRoomForANinth(t *testing.T) {
	tc := transport.LAN()
	// Handshakes fast, so that the test does not wait on their rate: the
	// limits at stake are the sessions'.
	tc.HandshakeRate, tc.MaxHandshakeRate = 10000, 10000
	hs := hosttest.Start(t, tc, host.LAN())
	addr := hs.Addr()
	ctx, cancel := context.WithTimeout(context.Background(), gameLimit)
	defer cancel()
	hold := newHeld(t)
	for i := 1; i <= 8; i++ {
		from := netip.MustParseAddr(fmt.Sprintf("127.0.0.%d", i))
		n := 0
		for ; n < 300; n++ {
			c, err := transport.DialFrom(ctx, from, addr, tc)
			if errors.Is(err, transport.ErrRefused) {
				break
			}
			if err != nil {
				t.Fatalf("dial from %v: %v", from, err)
			}
			hold.run(c)
		}
		t.Logf("%v holds %d sessions", from, n)
	}
	sc := lockstep.LAN()
	sc.Name = "ninth"
	c, err := client.Dial(ctx, addr, client.Options{Session: sc, Transport: tc, From: netip.MustParseAddr("127.0.0.9")})
	if err != nil {
		t.Fatalf("a ninth address of the /24: %v", err)
	}
	defer c.Close()
	waitFor(t, "the ninth address in the lobby", func() bool {
		ok := false
		c.Do(func(s *lockstep.Session) { ok = s.Phase() == lockstep.Lobby })
		return ok
	})
}

// TestConnectionsThatJoinNothingAreClosed: a connection that joins no
// room is closed by the host within a few seconds (joinGrace), and told
// so; one that joined stays.
func TestConnectionsThatJoinNothingAreClosed(t *testing.T) {
	tc := transport.LAN()
	hs := hosttest.Start(t, tc, host.LAN())
	ctx, cancel := context.WithTimeout(context.Background(), gameLimit)
	defer cancel()
	hold := newHeld(t)
	idle, err := transport.Dial(ctx, hs.Addr(), tc)
	if err != nil {
		t.Fatal(err)
	}
	hold.run(idle)
	sc := lockstep.LAN()
	sc.Name = "player"
	player, err := client.Dial(ctx, hs.Addr(), client.Options{Session: sc, Transport: tc})
	if err != nil {
		t.Fatal(err)
	}
	defer player.Close()
	inLobby := func() bool {
		ok := false
		player.Do(func(s *lockstep.Session) { ok = s.Phase() == lockstep.Lobby })
		return ok
	}
	waitFor(t, "the player in the lobby", inLobby)
	waitFor(t, "the idle connection closed", func() bool { return len(hold.endings()) == 1 })
	var ce *transport.CloseError
	if err := hold.endings()[0]; !errors.As(err, &ce) || !ce.ByPeer {
		t.Errorf("the idle connection ended with %v, want closed by the host", err)
	}
	waitFor(t, "the close counted", func() bool { return hs.Host.Stats().Dropped["host_no_join"] >= 1 })
	if n := hs.Host.Stats().Dropped["host_no_join"]; n != 1 {
		t.Errorf("%d host_no_join, want 1", n)
	}
	if err := player.Err(); err != nil {
		t.Errorf("the player in the lobby: %v", err)
	}
	if !inLobby() {
		t.Errorf("the player left the lobby")
	}
}
