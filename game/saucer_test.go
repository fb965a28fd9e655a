package game_test

import (
	"math"
	"testing"

	"rockstep/game"
	"rockstep/game/fixed"
)

// addSaucer puts a saucer of the given size at pos, at rest, with its
// timers far off unless the test sets them.
func addSaucer(w *game.World, size uint8, pos fixed.Vec) *game.Saucer {
	w.Setup.Saucers = true
	if w.SaucerIn == 0 {
		w.SaucerIn = 1000
	}
	w.Saucers[w.NumSaucer] = game.Saucer{ID: 3000 + uint32(w.NumSaucer), Pos: pos, Size: size, Life: 1000, FireIn: 200, TurnIn: 200}
	w.NumSaucer++
	return &w.Saucers[w.NumSaucer-1]
}

func addSaucerShot(w *game.World, pos, vel fixed.Vec) {
	addBullet(w, game.SaucerOwner, pos, vel)
}

// eventOf returns the first event of kind k of the last step, if any.
func eventOf(w *game.World, k game.EventKind) (game.Event, bool) {
	for _, e := range w.LastEvents() {
		if e.Kind == k {
			return e, true
		}
	}
	return game.Event{}, false
}

// TestSaucersAppearOnATimer: with saucers on, one comes onto the field at
// its left or right edge within the wave's interval; with them off, none
// ever does.
func TestSaucersAppearOnATimer(t *testing.T) {
	tests := []struct {
		name    string
		saucers bool
		wave    uint8
		within  int // ticks by which the first saucer must be on
	}{
		{"off: none", false, 1, 0},
		{"wave 1: within 25 s", true, 1, game.SaucerInterval * 5 / 4},
		{"wave 5: sooner", true, 5, (game.SaucerInterval - 4*game.SaucerIntervalStep) * 5 / 4},
		{"wave 20: within 9 s", true, 20, game.SaucerIntervalMin * 5 / 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for seed := uint64(1); seed <= 20; seed++ {
				w, err := game.New(game.Setup{Seed: seed, Players: 1, Lives: game.MaxLives, StartWave: tt.wave, Saucers: tt.saucers})
				if err != nil {
					t.Fatal(err)
				}
				w.Ships[0] = game.Ship{Present: true, Lives: 1} // off the field, in the game: nothing hits the rocks
				w.Ships[0].RespawnIn = 60000
				appeared := -1
				limit := max(tt.within, 3000)
				for tick := 1; tick <= limit && appeared < 0; tick++ {
					w.Step(none)
					if e, ok := eventOf(w, game.SaucerAppeared); ok {
						appeared = tick
						if e.Pos.X != 0 && e.Pos.X != game.FieldW-1 {
							t.Fatalf("seed %d: saucer appeared at %v, want at the left or right edge", seed, e.Pos)
						}
						if w.NumSaucer == 0 {
							continue // it flew into a rock at once
						}
						if s := w.Saucers[0]; s.Vel.X == 0 || (s.Pos.X == 0) != (s.Vel.X > 0) {
							t.Fatalf("seed %d: saucer at x=%d moves at %v, want across the field", seed, s.Pos.X.Floor(), s.Vel)
						}
					}
				}
				switch {
				case !tt.saucers && appeared >= 0:
					t.Fatalf("seed %d: a saucer appeared at tick %d with saucers off", seed, appeared)
				case tt.saucers && appeared < 0:
					t.Fatalf("seed %d: no saucer in %d ticks", seed, limit)
				case tt.saucers && appeared < game.SaucerIntervalMin*3/4:
					t.Fatalf("seed %d: a saucer at tick %d, before any interval could end", seed, appeared)
				}
			}
		})
	}
}

// TestSaucerCrossesAndLeaves: a saucer crosses the field once and leaves
// at the far edge; it never wanders off its horizontal course.
func TestSaucerCrossesAndLeaves(t *testing.T) {
	for _, size := range []uint8{game.LargeSaucer, game.SmallSaucer} {
		w, err := game.New(game.Setup{Seed: uint64(size), Players: 1, Lives: 3, StartWave: 1, Saucers: true})
		if err != nil {
			t.Fatal(err)
		}
		w.Ships[0] = game.Ship{Present: true, Lives: 1, RespawnIn: 60000}
		w.NumRocks = 0
		w.SaucerIn = 1
		addRock(w, game.Small, at(5, 5)) // a wave is on
		w.Rocks[0].Vel = fixed.Vec{}
		// Wait for a saucer of the wanted size.
		var s game.Saucer
		for tries := 0; tries < 500; tries++ {
			w.NumSaucer, w.SaucerIn, w.NumBullet = 0, 1, 0
			w.Step(none)
			if w.NumSaucer == 1 && w.Saucers[0].Size == size {
				s = w.Saucers[0]
				break
			}
		}
		if s.Size != size {
			t.Fatalf("no saucer of size %d in 500 tries", size)
		}
		start := s.Pos
		travelled := fixed.Num(0)
		left := false
		for tick := 0; tick < 2000 && !left; tick++ {
			// The one rock keeps the wave on, opposite the saucer; the
			// saucer's shots are not what is tested.
			w.NumBullet = 0
			prev := w.Saucers[0].Pos
			w.Rocks[0].Pos = fixed.Vec{X: (prev.X + game.FieldW/2) % game.FieldW, Y: (prev.Y + game.FieldH/2) % game.FieldH}
			w.Step(none)
			if _, ok := eventOf(w, game.SaucerLeft); ok {
				left = true
				break
			}
			dx := w.Saucers[0].Pos.X - prev.X
			switch {
			case dx > game.FieldW/2:
				dx -= game.FieldW
			case dx < -game.FieldW/2:
				dx += game.FieldW
			}
			travelled += dx.Abs()
		}
		if !left {
			t.Fatalf("size %d: the saucer never left", size)
		}
		if travelled < game.FieldW-fixed.Int(10) || travelled > game.FieldW {
			t.Errorf("size %d: travelled %d units across from x=%d, want one width of the field (%d)", size, travelled.Floor(), start.X.Floor(), game.FieldW.Floor())
		}
		if w.NumSaucer != 0 {
			t.Errorf("size %d: %d saucers after it left", size, w.NumSaucer)
		}
	}
}

// shotAngle returns how far, in degrees, the saucer shot's direction is
// from the direction from 'from' to 'to'.
func shotAngle(b game.Bullet, from, to fixed.Vec) float64 {
	got := math.Atan2(float64(b.Vel.Y), float64(b.Vel.X))
	want := math.Atan2(float64(to.Y-from.Y), float64(to.X-from.X))
	d := math.Abs(got-want) * 180 / math.Pi
	if d > 180 {
		d = 360 - d
	}
	return d
}

// TestSaucerAim: the small saucer aims at the nearest ship, missing by no
// more than the wave's aim error (which shrinks in later waves, and is
// drawn from the world's RNG, so not always zero); the large one fires in
// any direction.
func TestSaucerAim(t *testing.T) {
	tests := []struct {
		name          string
		size          uint8
		wave          uint8
		maxErr        float64 // degrees, at the most
		minSpread     float64 // degrees the largest error reaches at least
		wantAimedNear bool
	}{
		{"small, wave 1", game.SmallSaucer, 1, game.SaucerAimError + 0.5, 10, true},
		{"small, wave 5", game.SmallSaucer, 5, game.SaucerAimError - 8 + 0.5, 5, true},
		{"small, wave 20", game.SmallSaucer, 20, game.SaucerAimErrorMin + 0.5, 1, true},
		{"large fires at random", game.LargeSaucer, 1, 180, 90, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			worst := 0.0
			for seed := uint64(1); seed <= 200; seed++ {
				w := newWorld(t, game.Setup{Seed: seed, Players: 0b11, StartWave: tt.wave})
				addRock(w, game.Big, at(1200, 700))
				from := at(300, 360)
				w.Ships[0].Pos = at(700, 100) // nearest
				w.Ships[1].Pos = at(1000, 600)
				s := addSaucer(w, tt.size, from)
				s.FireIn = 1
				w.Step(none)
				if _, ok := eventOf(w, game.SaucerFired); !ok {
					t.Fatalf("seed %d: no SaucerFired event", seed)
				}
				var shot *game.Bullet
				for i := range w.LiveBullets() {
					if w.Bullets[i].Owner == game.SaucerOwner {
						shot = &w.Bullets[i]
					}
				}
				if shot == nil {
					t.Fatalf("seed %d: the saucer did not fire", seed)
				}
				if v := shot.Vel.Length(); v < fixed.Int(game.SaucerShotSpeed)-fixed.One/8 || v > fixed.Int(game.SaucerShotSpeed)+fixed.One/8 {
					t.Errorf("seed %d: shot speed %v, want %d units a tick", seed, float64(v)/float64(fixed.One), game.SaucerShotSpeed)
				}
				d := shotAngle(*shot, from, w.Ships[0].Pos)
				worst = math.Max(worst, d)
				if d > tt.maxErr {
					t.Fatalf("seed %d: the shot is %.1f° off the nearest ship, want at most %.1f°", seed, d, tt.maxErr)
				}
			}
			if worst < tt.minSpread {
				t.Errorf("largest error %.1f° over 200 shots, want at least %.1f°: the error must be drawn", worst, tt.minSpread)
			}
		})
	}
}

// TestSaucersHitAndAreHit: saucers' shots hit ships whatever the mode and
// break rocks for no one; players' shots and ships destroy saucers for
// 200 or 1,000 points; a saucer flying into a rock is destroyed with it.
func TestSaucersHitAndAreHit(t *testing.T) {
	tests := []struct {
		name        string
		mode        game.Mode
		setup       func(w *game.World)
		wantShip    bool // ship 0 survives
		wantSaucers int
		wantRocks   int // rocks left besides the far one
		wantScore   uint32
	}{
		{"player shot destroys a large saucer", game.Coop, func(w *game.World) {
			addSaucer(w, game.LargeSaucer, at(600, 400))
			addBullet(w, 0, at(590, 400), at(1, 0))
		}, true, 0, 0, 200},
		{"player shot destroys a small saucer", game.Versus, func(w *game.World) {
			addSaucer(w, game.SmallSaucer, at(600, 400))
			addBullet(w, 0, at(595, 400), at(1, 0))
		}, true, 0, 0, 1000},
		{"a shot past a saucer misses it", game.Coop, func(w *game.World) {
			addSaucer(w, game.SmallSaucer, at(600, 400))
			addBullet(w, 0, at(600, 420), at(1, 0))
		}, true, 1, 0, 0},
		{"saucer shot hits a ship in co-op", game.Coop, func(w *game.World) {
			addSaucer(w, game.LargeSaucer, at(900, 600))
			addSaucerShot(w, at(95, 100), at(1, 0))
		}, false, 1, 0, 0},
		{"saucer shot hits a ship in versus", game.Versus, func(w *game.World) {
			addSaucerShot(w, at(95, 100), at(1, 0))
		}, false, 0, 0, 0},
		{"saucer shot breaks a rock for no one", game.Coop, func(w *game.World) {
			addRock(w, game.Medium, at(600, 400))
			addSaucerShot(w, at(590, 400), at(1, 0))
		}, true, 0, 2, 0},
		{"saucer shots pass through saucers", game.Coop, func(w *game.World) {
			addSaucer(w, game.LargeSaucer, at(600, 400))
			addSaucerShot(w, at(595, 400), at(1, 0))
		}, true, 1, 0, 0},
		{"ramming a saucer destroys both and scores", game.Coop, func(w *game.World) {
			addSaucer(w, game.SmallSaucer, at(110, 100))
		}, false, 0, 0, 1000},
		{"a saucer flying into a rock is destroyed with it", game.Coop, func(w *game.World) {
			addRock(w, game.Big, at(600, 400))
			addSaucer(w, game.LargeSaucer, at(650, 400))
		}, true, 0, 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, game.Setup{Players: 0b11, Mode: tt.mode})
			addRock(w, game.Big, at(1200, 700)) // keeps the wave going
			w.Rocks[0].Vel = fixed.Vec{}
			w.Ships[0].Pos = at(100, 100)
			w.Ships[1].Pos = at(1000, 100)
			tt.setup(w)
			w.Step(none)
			if w.Ships[0].Alive != tt.wantShip {
				t.Errorf("ship 0 alive = %v, want %v", w.Ships[0].Alive, tt.wantShip)
			}
			if int(w.NumSaucer) != tt.wantSaucers {
				t.Errorf("saucers = %d, want %d", w.NumSaucer, tt.wantSaucers)
			}
			if got := len(w.LiveRocks()) - 1; got != tt.wantRocks {
				t.Errorf("rocks besides the far one = %d, want %d", got, tt.wantRocks)
			}
			if w.Ships[0].Score != tt.wantScore {
				t.Errorf("score = %d, want %d", w.Ships[0].Score, tt.wantScore)
			}
			if e, ok := eventOf(w, game.SaucerDestroyed); ok != (tt.wantSaucers < countSaucersBefore(tt.setup)) {
				t.Errorf("SaucerDestroyed event = %v, want one exactly when a saucer went", ok)
			} else if ok && e.Value != int32(tt.wantScore) {
				t.Errorf("SaucerDestroyed value = %d, want %d", e.Value, tt.wantScore)
			}
			if !tt.wantShip {
				if e, ok := eventOf(w, game.ShipDestroyed); !ok || e.Other != -1 {
					t.Errorf("ShipDestroyed event %+v (%v), want one with no shooter", e, ok)
				}
			}
		})
	}
}

// countSaucersBefore returns how many saucers setup puts on the field.
func countSaucersBefore(setup func(w *game.World)) int {
	var w game.World
	setup(&w)
	return int(w.NumSaucer)
}

// TestSaucerShotsAreLimited: the saucers together keep at most
// MaxSaucerShots shots in flight.
func TestSaucerShotsAreLimited(t *testing.T) {
	w := newWorld(t, game.Setup{Players: 1})
	addRock(w, game.Big, at(1200, 700))
	w.Ships[0].Pos = at(640, 600)
	w.Ships[0].Invuln = 60000
	addSaucer(w, game.SmallSaucer, at(100, 100))
	addSaucer(w, game.LargeSaucer, at(100, 300))
	most := 0
	for tick := 0; tick < 600; tick++ {
		w.Saucers[0].Vel, w.Saucers[1].Vel = fixed.Vec{}, fixed.Vec{}
		w.Saucers[0].FireIn, w.Saucers[1].FireIn = 1, 1 // fire every tick
		w.Saucers[0].Life, w.Saucers[1].Life = 1000, 1000
		w.Step(none)
		n := 0
		for _, b := range w.LiveBullets() {
			if b.Owner == game.SaucerOwner {
				n++
			}
		}
		most = max(most, n)
	}
	if most != game.MaxSaucerShots {
		t.Errorf("at most %d saucer shots in flight, want %d", most, game.MaxSaucerShots)
	}
}

// TestSmallSaucersComeMoreInLaterWaves: the share of small saucers grows
// with the wave.
func TestSmallSaucersComeMoreInLaterWaves(t *testing.T) {
	share := func(wave uint8) int {
		small := 0
		for seed := uint64(0); seed < 200; seed++ {
			w := newWorld(t, game.Setup{Seed: seed, Players: 1, StartWave: wave, Saucers: true})
			addRock(w, game.Big, at(1200, 700))
			w.SaucerIn = 1
			w.Step(none)
			if w.NumSaucer != 1 {
				t.Fatalf("wave %d seed %d: %d saucers after the timer ran out, want 1", wave, seed, w.NumSaucer)
			}
			if w.Saucers[0].Size == game.SmallSaucer {
				small++
			}
		}
		return small * 100 / 200
	}
	w1, w4, w12 := share(1), share(4), share(12)
	if !(w1 < 25 && w1 < w4 && w4 < w12 && w12 > 60) {
		t.Errorf("small saucers: %d%% in wave 1, %d%% in wave 4, %d%% in wave 12; want a share that grows from about 10%% to 80%%", w1, w4, w12)
	}
}
