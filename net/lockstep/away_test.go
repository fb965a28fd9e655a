package lockstep_test

import (
	"path/filepath"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/bots"
	"rockstep/net/replay"
	"rockstep/net/room"
)

// TestVacantShipLosesNoLife: a player's connection dies mid-game and its
// slot is held vacant for 40 s of game time, longer than a saucer (one
// every 15 s or so at wave 5) or the drifting rocks need to find a ship
// left still. On every machine its ship is out of play the whole time and
// loses no life; it is back in play where it was when its player returns;
// everyone ends on one hash, and the recorded replay verifies.
func TestVacantShipLosesNoLife(t *testing.T) {
	rc := room.LAN()
	rc.VacancyTimeout = 2 * time.Minute
	const away = 40 * game.TicksPerSecond // ticks the player is gone
	setup := game.Setup{Mode: game.Coop, Lives: 3, StartWave: 5, Saucers: true, Hyperspace: true}
	rec := filepath.Join(t.TempDir(), "vacant.rsrp")
	l := newLocal(t, bots.Config{Bots: 3, Ticks: 4200, Seed: 12, Setup: setup, Room: rc, Record: rec, Net: impairment(t, "latency=10ms")})
	// The ship is on the field and vulnerable when its player vanishes.
	slot := -1
	exposed := func() bool {
		s := l.Bots[2].Session
		if slot = s.Slot(); slot < 0 || s.World() == nil || s.Stats().Ticks < 300 {
			return false
		}
		sh := s.World().Ships[slot]
		return sh.Alive && sh.Invuln == 0 && sh.Jump == 0
	}
	if err := l.RunUntil(exposed, time.Minute); err != nil {
		t.Fatal(err)
	}
	l.Vanish(2)
	// The room holds the slot; the others' engines take the ship out of play.
	others := []*bots.Bot{l.Bots[0], l.Bots[1]}
	outOfPlay := func() bool {
		for _, b := range others {
			if w := b.Session.World(); w == nil || !w.Ships[slot].Away {
				return false
			}
		}
		return true
	}
	if err := l.RunUntil(outOfPlay, l.Now()+10*time.Second); err != nil {
		t.Fatal(err)
	}
	want := make([]game.Ship, len(others))
	for i, b := range others {
		want[i] = b.Session.World().Ships[slot]
	}
	from := l.Bots[0].Session.Stats().Ticks
	var bad string
	check := func() bool {
		for i, b := range others {
			sh := b.Session.World().Ships[slot]
			if sh.Lives != want[i].Lives || sh.Pos != want[i].Pos || sh.Deaths != want[i].Deaths || !sh.Away {
				bad = "bot " + string(rune('0'+b.Index)) + ": the vacant ship lost a life or moved"
				t.Errorf("%s at tick %d: lives %d deaths %d away %v, want lives %d deaths %d away", bad, b.Session.World().Tick,
					sh.Lives, sh.Deaths, sh.Away, want[i].Lives, want[i].Deaths)
				return true
			}
		}
		return l.Bots[0].Session.Stats().Ticks >= from+away
	}
	if err := l.RunUntil(check, l.Now()+2*time.Minute); err != nil {
		t.Fatal(err)
	}
	if bad != "" {
		t.FailNow()
	}
	if !want[0].Alive {
		t.Fatalf("the ship was off the field when its player left: %+v", want[0])
	}
	if want[0] != want[1] {
		t.Errorf("the vacant ship differs between machines: %+v and %+v", want[0], want[1])
	}
	t.Logf("vacant ship %+v from tick %d to %d", want[0], from, l.Bots[0].Session.Stats().Ticks)
	back := l.Return(2)
	inPlay := func() bool {
		w := back.Session.World()
		return w != nil && !w.Ships[slot].Away && !l.Bots[0].Session.World().Ships[slot].Away
	}
	if err := l.RunUntil(inPlay, l.Now()+20*time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Run(); err != nil {
		t.Fatal(err)
	}
	sum := agree(t, l)
	t.Logf("%s", sum)
	rp, err := replay.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	res, err := replay.Verify(rp)
	if err != nil || !res.OK() {
		t.Fatalf("replay of the game with a vacancy: %v, mismatches %v", err, res.Mismatches)
	}
}
