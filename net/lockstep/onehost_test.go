package lockstep_test

import (
	"testing"
	"time"

	"rockstep/net/bots"
	"rockstep/net/lockstep"
	"rockstep/net/room"
	"rockstep/net/wire"
)

// TestCrashedHostRejoinsAsAGuest: the host's machine crashes, the game
// moves to a successor's room, and the crashed host's player rejoins there
// (its Rejoin). Exactly one session has host powers, the one whose machine
// runs the room; every roster names that player; the returned player's
// Pause and EndGame are refused by the room and counted, and the game
// goes on (docs/ARCHITECTURE.md, "One host").
func TestCrashedHostRejoinsAsAGuest(t *testing.T) {
	l, err := bots.NewLocal(bots.Config{Bots: 3, Ticks: 3000, Seed: 31, Fast: true, Predict: true, Handover: true})
	if err != nil {
		t.Fatal(err)
	}
	old := l.HostBot()
	err = l.RunUntil(func() bool {
		turn, _ := l.Bots[old].Session.ExecutedTurns()
		return turn >= 200 && len(l.Room.Successors().List) == 2
	}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	l.KillHost()
	err = l.RunUntil(func() bool { hs := l.Handovers(); return len(hs) == 1 && hs[0].Resumed != 0 }, l.Now()+time.Minute)
	if err != nil {
		t.Fatalf("no handover: %v", err)
	}
	back := l.Return(old)
	err = l.RunUntil(func() bool {
		turn, _ := back.Session.ExecutedTurns()
		return back.Session.Phase() == lockstep.Playing && turn > l.Handovers()[0].Turn+10 && l.Room.Status().Vacant == 0
	}, l.Now()+time.Minute)
	if err != nil {
		t.Fatalf("the old host's player never played again: %v", err)
	}
	succ := l.HostBot()
	if succ == old {
		t.Fatalf("the host bot is still %d after the move", old)
	}
	want := l.Bots[succ].Session.Slot()
	// Let a roster reach everyone after the return.
	if err := l.RunUntil(func() bool { return false }, l.Now()+2*room.LAN().StatusEvery); err == nil || l.Finished() {
		t.Fatalf("the game ended before the checks: %v", err)
	}
	hosts := 0
	for _, b := range l.Bots {
		if b.Gone {
			continue
		}
		if b.Session.IsHost() {
			hosts++
			if b.Index != succ {
				t.Errorf("bot %d (slot %d) has host powers; the room runs on bot %d's machine (slot %d)", b.Index, b.Session.Slot(), succ, want)
			}
		}
		for _, p := range b.Session.SetupState().Players {
			if p.Host && int(p.Slot) != want {
				t.Errorf("bot %d's roster names slot %d host, want %d", b.Index, p.Slot, want)
			}
		}
	}
	if hosts != 1 {
		t.Errorf("%d sessions have host powers, want exactly 1", hosts)
	}
	for _, tc := range []struct {
		name string
		do   func()
	}{
		{"pause", func() { back.Session.Pause(true) }},
		{"end", func() { back.Session.EndGame() }},
	} {
		spoof := l.Room.Stats().Dropped[room.DropSpoof]
		tc.do()
		err := l.RunUntil(func() bool { return l.Room.Stats().Dropped[room.DropSpoof] > spoof }, l.Now()+time.Second)
		if err != nil {
			t.Errorf("the old host's %s: not refused and counted by the room: %v", tc.name, err)
		}
	}
	if st, child := l.Room.State(); st != wire.StateRunning || child == wire.ChildPaused {
		t.Errorf("room state %d child %d after the old host's pause and end, want running, not paused", st, child)
	}
}
