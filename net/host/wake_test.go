package host_test

import (
	"testing"
	"time"

	"rockstep/internal/testwait"
	"rockstep/net/client"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
)

// TestPipeFramesWaitForNoTick: a host serving over the network takes its
// in-process player's frames as they come (transport.PipeWaker), not at its
// next tick: with the loop's period at 2 s, the Host button's
// player is in the lobby long before the first tick. (They used to wait up
// to one period, 10 ms on a LAN, each way: the host's own ping read 4–12 ms
// and a game started at two ticks a turn from it.)
func TestPipeFramesWaitForNoTick(t *testing.T) {
	tc := transport.LAN()
	tc.Interval = 2 * time.Second
	s := hosttest.Start(t, tc, host.LAN())
	p := transport.NewPipe()
	start := time.Now()
	s.Host.Attach(p)
	local := client.Attach(p, client.Options{Session: lockstep.Config{Name: "host player"}})
	defer local.Close()
	inLobby := func() bool {
		in := false
		local.Do(func(s *lockstep.Session) { in = s.Phase() == lockstep.Lobby })
		return in
	}
	if !testwait.Until(1500*time.Millisecond, inLobby) {
		t.Fatalf("the in-process player was not in the lobby %v after attaching, before the host's first tick (%v)", time.Since(start), tc.Interval)
	}
	t.Logf("in the lobby %v after attaching", time.Since(start))
}
