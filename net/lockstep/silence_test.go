package lockstep_test

import (
	"testing"
	"time"

	"rockstep/net/bots"
	"rockstep/net/lockstep"
	"rockstep/net/wire"
)

// TestRoomSilenceIsNews: while the turns flow no screen hears of silence;
// a player cut off from the room knows within SilentAfter (and a frame)
// that the room is silent, while the others, whom the room tells it waits
// for that player, do not; back on the network it hears the room again;
// and a paused game is not a silent one.
func TestRoomSilenceIsNews(t *testing.T) {
	l := newLocal(t, bots.Config{Bots: 3, Ticks: 100000, Seed: 21, Net: impairment(t, "latency=10ms,jitter=5ms")})
	if err := l.RunUntil(func() bool { return l.Bots[0].Session.Stats().Ticks >= 300 }, time.Minute); err != nil {
		t.Fatal(err)
	}
	silent := func(b *bots.Bot) bool { return b.Session.RoomSilence() >= lockstep.SilentAfter }
	// quiet runs for d and fails if any bot but except hears silence.
	quiet := func(name string, d time.Duration, except *bots.Bot) {
		t.Helper()
		_ = l.RunUntil(func() bool {
			for _, b := range l.Bots {
				if b != except && silent(b) {
					t.Fatalf("%s: bot %d says the room is silent (%v) at %v", name, b.Index, b.Session.RoomSilence(), l.Now())
				}
			}
			return false
		}, l.Now()+d)
	}
	quiet("turns flowing", 10*time.Second, nil)

	cut := l.Bots[1]
	at := l.Now()
	l.Net.Disconnect(cut.Peer)
	frame := time.Second / 60
	if err := l.RunUntil(func() bool { return silent(cut) }, at+lockstep.SilentAfter+2*frame); err != nil {
		t.Fatalf("cut off at %v: no silence by %v (%v)", at, l.Now(), cut.Session.RoomSilence())
	}
	quiet("the others while one is cut off", time.Second, cut)

	l.Net.Reconnect(cut.Peer)
	if err := l.RunUntil(func() bool { return !silent(cut) }, l.Now()+2*time.Second); err != nil {
		t.Fatalf("back on the network: still silent: %v", err)
	}
	quiet("back on the network", 5*time.Second, nil)

	l.Bots[0].Session.Pause(true)
	if err := l.RunUntil(func() bool { return l.Bots[2].Session.RoomStatus().Child == wire.ChildPaused }, l.Now()+2*time.Second); err != nil {
		t.Fatal(err)
	}
	quiet("paused", 5*time.Second, nil)
}
