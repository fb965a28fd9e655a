package bots_test

import (
	"testing"
	"time"

	"rockstep/net/bots"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// TestBackAfterTheEnd: a bot vanishes near its game's end and comes back
// with its token, sooner or later. Whenever it comes back, the run ends:
// in time, it catches up and ends on the others' hash; too late, it finds
// the room's results (or, once the others left, a seat in the room's lobby:
// a late Rejoin is seated there while the room keeps its place) and stops,
// counted as a missed end, without starting a rematch nobody asked for.
func TestBackAfterTheEnd(t *testing.T) {
	const ticks = 900
	imp, err := transport.ParseImpairment("latency=30ms,jitter=10ms")
	if err != nil {
		t.Fatal(err)
	}
	outcomes := map[string]int{}
	for _, back := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 3 * time.Second, 3500 * time.Millisecond, 4 * time.Second, 5 * time.Second, 8 * time.Second, -1} {
		l, err := bots.NewLocal(bots.Config{Bots: 4, Ticks: ticks, Seed: 3, Fast: true, Predict: true, Net: imp})
		if err != nil {
			t.Fatal(err)
		}
		if err := l.RunUntil(func() bool { return l.Bots[0].Session.Stats().Ticks >= ticks-60 }, time.Minute); err != nil {
			t.Fatal(err)
		}
		l.Vanish(2)
		if back > 0 {
			if err := l.RunUntil(func() bool { return false }, l.Now()+back); err == nil {
				t.Fatal("RunUntil(never) returned")
			}
		} else {
			// Everyone else sees the end and leaves: the room forgets them.
			if err := l.RunUntil(l.Finished, l.Now()+time.Minute); err != nil {
				t.Fatal(err)
			}
			for i := range l.Bots {
				if i != 2 {
					l.Leave(i)
				}
			}
			_ = l.RunUntil(func() bool { return false }, l.Now()+time.Second)
		}
		b := l.Return(2)
		if err := l.RunUntil(l.Finished, l.Now()+time.Minute); err != nil {
			t.Fatalf("back after %v: %v", back, err)
		}
		s := l.Summary()
		switch {
		case b.Final.OK && !b.Missed:
			outcomes["caught up"]++
			if s.HashGroups != 1 || s.ResultGroups != 1 || s.MissedEnds != 0 {
				t.Errorf("back after %v, caught up: %s", back, s)
			}
		case b.Missed && !b.Final.OK:
			outcomes["missed "+b.Session.Phase().String()]++
			if s.MissedEnds != 1 || s.HashGroups != 1 || s.ResultGroups != 1 {
				t.Errorf("back after %v, missed the end: %s", back, s)
			}
			if state, _ := l.Room.State(); back > 0 && state != wire.StateFinished {
				t.Errorf("back after %v: the room is in %v, want the results kept (no rematch nobody asked for)", back, state)
			}
			if back < 0 && b.Session.Phase() != lockstep.Lobby {
				t.Errorf("back after the others left: phase %v, refusal %+v; want a seat in the room's lobby", b.Session.Phase(), b.Session.Refusal())
			}
		default:
			t.Errorf("back after %v: final %+v missed %v", back, b.Final, b.Missed)
		}
	}
	t.Logf("outcomes: %v", outcomes)
	if outcomes["caught up"] == 0 || len(outcomes) < 2 {
		t.Errorf("outcomes %v: want some bots caught up and some too late", outcomes)
	}
}

// TestLateFirstStartAfterASnapshot: a player that came back into its game
// from a snapshot is then handed the game's first Start (a copy the room
// sent late): it plays on from where it is, and everyone ends on one hash.
// Before, it started over at turn 0 and waited for turns the room no
// longer had, while the room waited for its inputs.
func TestLateFirstStartAfterASnapshot(t *testing.T) {
	l, err := bots.NewLocal(bots.Config{Bots: 3, Ticks: 1200, Seed: 4, Fast: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.RunUntil(func() bool { return l.Bots[0].Session.Stats().Ticks >= 300 }, time.Minute); err != nil {
		t.Fatal(err)
	}
	l.Vanish(1)
	_ = l.RunUntil(func() bool { return false }, l.Now()+time.Second)
	back := l.Return(1)
	if err := l.RunUntil(func() bool { return back.Session.Phase() == lockstep.Playing }, l.Now()+time.Minute); err != nil {
		t.Fatal(err)
	}
	from, _ := back.Session.ExecutedTurns()
	if from == 0 {
		t.Fatal("the returning bot did not come back from a snapshot")
	}
	w := back.Session.World()
	f, err := wire.Append(nil, wire.Start{Setup: w.Setup, Names: back.Session.Names(), K: 2, Delay: 1})
	if err != nil {
		t.Fatal(err)
	}
	back.Session.Receive(l.Now(), f)
	if turn, _ := back.Session.ExecutedTurns(); turn < from {
		t.Fatalf("after the late Start the bot is at turn %d, was at %d", turn, from)
	}
	if _, err := l.Run(); err != nil {
		t.Fatal(err)
	}
	if s := l.Summary(); s.HashGroups != 1 || s.ResultGroups != 1 || !back.Final.OK {
		t.Fatalf("want everyone on one hash, the returned bot among them: %s", s)
	}
}
