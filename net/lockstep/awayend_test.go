package lockstep_test

import (
	"testing"
	"time"

	"rockstep/net/bots"
	"rockstep/net/lockstep"
	"rockstep/net/wire"
)

// TestRejoinAfterTheEndShowsTheResults: a player's machine crashes, the
// host ends the game while it is away, and it comes back with its token
// while the results show. It lands in the lobby with the game's results,
// read from the world the room kept (the players' agreed world at the
// final turn): the same table, digest for digest, as the others show, and
// that world at the game's last tick (docs/ARCHITECTURE.md, "One host").
func TestRejoinAfterTheEndShowsTheResults(t *testing.T) {
	l, err := bots.NewLocal(bots.Config{Bots: 3, Ticks: 100000, Seed: 47, Fast: true})
	if err != nil {
		t.Fatal(err)
	}
	err = l.RunUntil(func() bool { turn, _ := l.Bots[0].Session.ExecutedTurns(); return turn >= 200 }, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	const away = 2
	if l.Bots[away].Session.IsHost() {
		t.Fatalf("bot %d hosts: the test wants a guest away", away)
	}
	l.KillBot(away)
	err = l.RunUntil(func() bool { return l.Room.Status().Vacant != 0 }, l.Now()+time.Minute)
	if err != nil {
		t.Fatalf("the crashed player's slot never went vacant: %v", err)
	}
	for _, b := range l.Bots {
		if !b.Gone && b.Session.IsHost() {
			b.Session.EndGame()
		}
	}
	err = l.RunUntil(func() bool {
		st, _ := l.Room.State()
		_, ok0 := l.Bots[0].Session.Results()
		_, ok1 := l.Bots[1].Session.Results()
		return st == wire.StateFinished && ok0 && ok1
	}, l.Now()+time.Minute)
	if err != nil {
		t.Fatalf("the game did not end: %v", err)
	}
	want, _ := l.Bots[0].Session.Results()
	endTick := l.Bots[0].Session.World().Tick
	back := l.Return(away)
	err = l.RunUntil(func() bool { _, _, ok := back.Session.AwayResults(); return ok }, l.Now()+10*time.Second)
	if err != nil {
		t.Fatalf("the player back after the end got no results: %v (phase %v)", err, back.Session.Phase())
	}
	got, w, _ := back.Session.AwayResults()
	if back.Session.Phase() != lockstep.Lobby {
		t.Errorf("phase %v, want the lobby", back.Session.Phase())
	}
	if got.Digest() != want.Digest() {
		t.Errorf("the returned player's results %+v, want the others' %+v", got.Table(), want.Table())
	}
	if w.Tick != endTick {
		t.Errorf("the returned player's world is at tick %d, want the game's last, %d", w.Tick, endTick)
	}
	if _, ok := back.Session.Results(); ok {
		t.Error("Results reports a game this session played; the results are AwayResults'")
	}
}
