package lockstep_test

import (
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/bots"
	"rockstep/net/room"
)

// TestSilentPlayerDoesNotStopTheOthers: a predicting player goes silent
// without a word (a frozen machine); the room waits, the others' turn round
// trips grow while it does, the room raises the delay, then holds the slot
// and goes on. The others must play on at full pace from there, whatever the
// delay does afterwards.
func TestSilentPlayerDoesNotStopTheOthers(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3, 4} {
		l := newLocal(t, bots.Config{Bots: 3, Ticks: 100000, Seed: seed, Predict: true})
		if err := l.RunUntil(func() bool { return l.Bots[0].Session.Stats().Ticks >= 600 }, time.Minute); err != nil {
			t.Fatal(err)
		}
		l.Bots[2].Gone = true // no more frames, and no goodbye
		if err := l.RunUntil(func() bool { return l.Room.Status().Vacant != 0 }, l.Now()+30*time.Second); err != nil {
			t.Fatalf("seed %d: the silent player's slot is never held: %v", seed, err)
		}
		from, at := l.Bots[0].Session.Stats().Ticks, l.Now()
		const play = 20 * time.Second
		_ = l.RunUntil(func() bool { return false }, at+play)
		ran := l.Bots[0].Session.Stats().Ticks - from
		if want := uint32(play / time.Second * game.TicksPerSecond * 9 / 10); ran < want {
			st := l.Bots[0].Session.Stats()
			t.Fatalf("seed %d: in %v after the vacancy the host ran %d ticks, want at least %d (room %+v; host K %d D %d)",
				seed, play, ran, want, l.Room.Status(), st.K, st.Delay)
		}
	}
}

// TestStallsAndSwingsKeepPace: players (predicting or not) whose round trips swing
// (a link going from a LAN to 400 ms and back) and whose machines freeze
// for a second and a half now and then (a starved UI): the room raises and
// lowers K and the delay, and the game goes on at full pace between the
// upsets, every player in sync.
func TestStallsAndSwingsKeepPace(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ { // odd seeds predict; seed 5 froze the room before the fix
		l := newLocal(t, bots.Config{Bots: 3, Ticks: 100000, Seed: seed, Predict: seed%2 == 1})
		if err := l.RunUntil(func() bool { return l.Bots[0].Session.Stats().Ticks >= 600 }, time.Minute); err != nil {
			t.Fatal(err)
		}
		slow := impairment(t, "latency=200ms,jitter=50ms")
		for round := range 6 {
			who := l.Bots[round%3]
			switch round % 2 {
			case 0: // a frozen machine
				who.Gone = true
				_ = l.RunUntil(func() bool { return false }, l.Now()+1500*time.Millisecond)
				who.Gone = false
			case 1: // a link that slows down, then recovers
				l.Net.SetImpairment(who.Peer, slow, slow)
				_ = l.RunUntil(func() bool { return false }, l.Now()+8*time.Second)
				l.Net.SetImpairment(who.Peer, impairment(t, ""), impairment(t, ""))
			}
			from, at := l.Bots[0].Session.Stats().Ticks, l.Now()
			const play = 20 * time.Second
			_ = l.RunUntil(func() bool { return false }, at+play)
			ran := l.Bots[0].Session.Stats().Ticks - from
			st := l.Bots[0].Session.Stats()
			if want := uint32(play / time.Second * game.TicksPerSecond * 9 / 10); ran < want {
				t.Fatalf("seed %d round %d: in %v the host ran %d ticks, want at least %d (room %+v; K %d D %d)",
					seed, round, play, ran, want, l.Room.Status(), st.K, st.Delay)
			}
		}
		for _, b := range l.Bots {
			if d := b.Session.Desync(); d != nil {
				t.Fatalf("seed %d: bot %d desynced at turn %d", seed, b.Index, d.Turn)
			}
		}
		if n := l.Room.Stats().Dropped[room.DropBadCount]; n != 0 {
			t.Fatalf("seed %d: the room refused %d turns for their tick count (a timing change among turns already sent)", seed, n)
		}
	}
}
