package client

import (
	"context"
	"sync"
	"testing"
	"time"

	"rockstep/internal/testwait"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
)

// TestGuestsSilentAskTheRouterAgain: a host whose guests all fall silent at
// once (a restarted router forgot the port mapping, or they crashed) calls
// Config.OnGuestsSilent once, which the Host button and `-server -portmap`
// turn into portmap.Mapper.Suspect; a guest that keeps talking never
// makes it.
func TestGuestsSilentAskTheRouterAgain(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	hcfg := host.LAN()
	hcfg.OnGuestsSilent = func() {
		mu.Lock()
		calls++
		mu.Unlock()
	}
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return calls
	}
	hs := hosttest.Start(t, transport.LAN(), hcfg)
	dial := func(name string) *Client {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		sc := lockstep.LAN()
		sc.Name, sc.PlayerID = name, [16]byte{byte(len(name))}
		c, err := Dial(ctx, hs.Addr(), Options{Session: sc})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	}
	seated := func(c *Client) bool {
		ok := false
		c.Do(func(s *lockstep.Session) { ok = s.Phase() == lockstep.Lobby })
		return ok
	}
	ada := dial("Ada")
	if !testwait.Until(time.Minute, func() bool { return seated(ada) }) {
		t.Fatal("not within a minute: Ada seated")
	}
	// Ada has just been heard: no suspicion yet.
	if n := count(); n != 0 {
		t.Fatalf("OnGuestsSilent called %d times while the guest talks", n)
	}
	ada.Abandon()
	if !testwait.Until(time.Minute, func() bool { return count() >= 1 }) {
		t.Fatal("not within a minute: the host suspects its router")
	}
	// Once, not at every sweep while the silence lasts.
	bob := dial("Bob")
	if !testwait.Until(time.Minute, func() bool { return seated(bob) }) {
		t.Fatal("not within a minute: Bob seated")
	}
	if n := count(); n != 1 {
		t.Errorf("OnGuestsSilent called %d times for one silence, want 1", n)
	}
}
