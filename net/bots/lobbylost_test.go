package bots

import (
	"context"
	"testing"
	"time"

	"rockstep/internal/testwait"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
)

// TestBotLostInTheLobbyJoinsAgain: a bot whose program freezes in the
// lobby past the room's patience loses its slot (a lobby holds none); the
// host hangs up on its connection, the room refuses its token, and the bot
// joins again as a new player: the game still starts with everyone and
// ends on one hash. Before, the bot gave up and its room waited for it
// until the run's time limit.
func TestBotLostInTheLobbyJoinsAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game in real time over loopback")
	}
	tc := lanForTest()
	hc := host.LAN() // the room gives up after its usual 3 s
	hs := hosttest.Start(t, tc, hc)
	defer hs.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	cfg := RemoteConfig{Addr: hs.Addr(), Ticks: 120, Transport: tc}
	bots := make([]*remoteBot, 3)
	errs := make(chan error, len(bots))
	start := func(i int) {
		bots[i] = &remoteBot{i: i, pilot: NewPilot(uint64(i)), want: len(bots)}
		go func() { errs <- bots[i].play(ctx, cfg) }()
	}
	inLobby := func(b *remoteBot) bool {
		b.mu.Lock()
		c := b.c
		b.mu.Unlock()
		ok := false
		if c != nil {
			c.Do(func(s *lockstep.Session) { ok = s.Phase() == lockstep.Lobby && s.Token() != [16]byte{} })
		}
		return ok
	}
	start(0)
	start(1)
	if !testwait.Until(30*time.Second, func() bool { return inLobby(bots[0]) && inLobby(bots[1]) }) {
		t.Fatal("the first two bots never reached the lobby")
	}
	// Bot 1's program freezes past the room's patience, then runs on.
	bots[1].mu.Lock()
	frozen := bots[1].c
	bots[1].mu.Unlock()
	frozen.Do(func(*lockstep.Session) { time.Sleep(hc.Room.SilenceTimeout + 1500*time.Millisecond) })
	select {
	case <-frozen.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the frozen bot's connection was never hung up on")
	}
	start(2)
	for range bots {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if bots[1].rejoins < 1 {
		t.Errorf("bot 1 came back %d times, want at least once", bots[1].rejoins)
	}
	first := bots[0].final
	for i, b := range bots {
		if !b.final.OK || b.missed || b.final.Hash != first.Hash || b.final.Turn != first.Turn {
			t.Errorf("bot %d: final %+v missed %v, want bot 0's %+v", i, b.final, b.missed, first)
		}
	}
}

// lanForTest is the LAN transport with a timeout the tests never reach:
// only the room gives up on a frozen bot.
func lanForTest() transport.Config {
	tc := transport.LAN()
	tc.Interval = botInterval
	tc.Timeout = time.Minute
	return tc
}
