package game_test

import (
	"testing"

	"rockstep/game"
	"rockstep/game/fixed"
)

// newWorld returns a world with the given setup, no rocks and every ship
// past its spawn invulnerability unless keepInvuln.
func newWorld(t testing.TB, s game.Setup) *game.World {
	t.Helper()
	if s.Lives == 0 {
		s.Lives = 3
	}
	if s.StartWave == 0 {
		s.StartWave = 1
	}
	w, err := game.New(s)
	if err != nil {
		t.Fatalf("New(%+v): %v", s, err)
	}
	w.NumRocks = 0
	for i := range w.Ships {
		w.Ships[i].Invuln = 0
	}
	return w
}

func at(x, y int) fixed.Vec { return fixed.Vec{X: fixed.Int(x), Y: fixed.Int(y)} }

func addRock(w *game.World, size uint8, pos fixed.Vec) {
	w.Rocks[w.NumRocks] = game.Rock{ID: 1000 + uint32(w.NumRocks), Pos: pos, Size: size}
	w.NumRocks++
}

func addBullet(w *game.World, owner uint8, pos, vel fixed.Vec) {
	w.Bullets[w.NumBullet] = game.Bullet{ID: 2000 + uint32(w.NumBullet), Pos: pos, Vel: vel, Life: 30, Owner: owner, Power: 1}
	w.NumBullet++
}

func only(slot int, in game.Input) [game.MaxPlayers]game.Input {
	var a [game.MaxPlayers]game.Input
	a[slot] = in
	return a
}

var none [game.MaxPlayers]game.Input

func countEvents(w *game.World, k game.EventKind) int {
	n := 0
	for _, e := range w.LastEvents() {
		if e.Kind == k {
			n++
		}
	}
	return n
}

func TestRockSplitsAndScores(t *testing.T) {
	tests := []struct {
		name      string
		size      uint8
		wantRocks int
		wantSize  uint8
		wantScore uint32
	}{
		{"big splits into two medium", game.Big, 2, game.Medium, 20},
		{"medium splits into two small", game.Medium, 2, game.Small, 50},
		{"small is destroyed", game.Small, 0, 0, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, game.Setup{Players: 1})
			w.Ships[0].Pos = at(100, 100)
			addRock(w, tt.size, at(600, 400))
			addBullet(w, 0, at(590, 400), at(1, 0))
			w.Step(none)
			if got := len(w.LiveRocks()); got != tt.wantRocks {
				t.Fatalf("rocks after hit = %d, want %d", got, tt.wantRocks)
			}
			for _, r := range w.LiveRocks() {
				if r.Size != tt.wantSize {
					t.Errorf("fragment size = %d, want %d", r.Size, tt.wantSize)
				}
			}
			if got := w.Ships[0].Score; got != tt.wantScore {
				t.Errorf("score = %d, want %d", got, tt.wantScore)
			}
			if got := len(w.LiveBullets()); got != 0 {
				t.Errorf("bullets after hit = %d, want 0 (spent)", got)
			}
			if got := countEvents(w, game.RockDestroyed); got != 1 {
				t.Errorf("RockDestroyed events = %d, want 1", got)
			}
		})
	}
}

func TestChargeAndRelease(t *testing.T) {
	tests := []struct {
		name      string
		hold      int
		wantPower uint8
	}{
		{"a tap fires a weak shot", 1, 1},
		{"a half charge fires a faster shot", game.MaxCharge / 2, 1},
		{"a full charge fires a piercing shot", game.MaxCharge + 20, 2},
	}
	var speeds []int64
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, game.Setup{Players: 1})
			for i := 0; i < tt.hold; i++ {
				w.Step(only(0, game.Fire))
				if n := len(w.LiveBullets()); n != 0 {
					t.Fatalf("tick %d of holding Fire: %d bullets, want none before release", i, n)
				}
			}
			wantCharge := tt.hold
			if wantCharge > game.MaxCharge {
				wantCharge = game.MaxCharge
			}
			if got := int(w.Ships[0].Charge); got != wantCharge {
				t.Errorf("charge after %d ticks = %d, want %d", tt.hold, got, wantCharge)
			}
			w.Step(none)
			bs := w.LiveBullets()
			if len(bs) != 1 {
				t.Fatalf("bullets after release = %d, want 1", len(bs))
			}
			if bs[0].Power != tt.wantPower {
				t.Errorf("power = %d, want %d", bs[0].Power, tt.wantPower)
			}
			if w.Ships[0].Charge != 0 {
				t.Errorf("charge after release = %d, want 0", w.Ships[0].Charge)
			}
			if countEvents(w, game.ShotFired) != 1 {
				t.Errorf("want one ShotFired event")
			}
			speeds = append(speeds, bs[0].Vel.LenSq())
		})
	}
	for i := 1; i < len(speeds); i++ {
		if speeds[i] <= speeds[i-1] {
			t.Errorf("shot %d is not faster than shot %d: a longer charge must give a stronger shot", i, i-1)
		}
	}
}

func TestFireCooldownAndLimit(t *testing.T) {
	w := newWorld(t, game.Setup{Players: 1})
	for shot := 0; shot < 20; shot++ {
		w.Step(only(0, game.Fire))
		w.Step(none)
	}
	// Each tap is two ticks apart, inside the cooldown: only some fire.
	if n := len(w.LiveBullets()); n == 0 || n > game.MaxShipBullets {
		t.Errorf("bullets = %d, want between 1 and %d", n, game.MaxShipBullets)
	}
}

func TestThrustLevels(t *testing.T) {
	w := newWorld(t, game.Setup{Players: 1})
	sh := &w.Ships[0]
	w.Step(only(0, game.Up))
	if sh.Thrust != 1 {
		t.Fatalf("thrust after pressing Up = %d, want 1", sh.Thrust)
	}
	for i := 0; i < game.ThrustRepeat; i++ {
		w.Step(only(0, game.Up))
	}
	if sh.Thrust != 2 {
		t.Fatalf("thrust after holding Up %d more ticks = %d, want 2", game.ThrustRepeat, sh.Thrust)
	}
	for i := 0; i < 200; i++ {
		w.Step(only(0, game.Up))
	}
	if sh.Thrust != game.MaxThrust {
		t.Fatalf("thrust after holding Up long = %d, want max %d", sh.Thrust, game.MaxThrust)
	}
	w.Step(none)
	w.Step(only(0, game.Down))
	if sh.Thrust != game.MaxThrust-1 {
		t.Fatalf("thrust after pressing Down = %d, want %d", sh.Thrust, game.MaxThrust-1)
	}
	if sh.Vel.LenSq() == 0 {
		t.Fatal("ship with thrust is not moving")
	}
	for i := 0; i < 300; i++ {
		w.Step(only(0, game.Down))
	}
	if sh.Thrust != 0 {
		t.Fatalf("thrust after holding Down = %d, want 0", sh.Thrust)
	}
	for i := 0; i < 600; i++ {
		w.Step(none)
	}
	if sh.Vel != (fixed.Vec{}) {
		t.Errorf("velocity with no thrust after 10 s = %+v, want drag to stop the ship", sh.Vel)
	}
}

func TestRotation(t *testing.T) {
	w := newWorld(t, game.Setup{Players: 1})
	a0 := w.Ships[0].Angle
	w.Step(only(0, game.Right))
	if got := w.Ships[0].Angle - a0; got != game.RotateSpeed {
		t.Errorf("Right turned by %d, want %d", got, game.RotateSpeed)
	}
	w.Step(only(0, game.Left))
	w.Step(only(0, game.Left))
	if got := a0 - w.Ships[0].Angle; got != game.RotateSpeed {
		t.Errorf("net Left turn = %d, want %d", got, game.RotateSpeed)
	}
}

func TestWrapAround(t *testing.T) {
	w := newWorld(t, game.Setup{Players: 1})
	sh := &w.Ships[0]
	sh.Pos = fixed.Vec{X: game.FieldW - fixed.Int(1), Y: fixed.Int(5)}
	sh.Vel = fixed.Vec{X: fixed.Int(3), Y: -fixed.Int(8)}
	w.Step(none)
	if sh.Pos.X < 0 || sh.Pos.X >= fixed.Int(3) {
		t.Errorf("x after crossing the right edge = %d, want just past the left edge", sh.Pos.X.Floor())
	}
	if sh.Pos.Y < game.FieldH-fixed.Int(4) || sh.Pos.Y >= game.FieldH {
		t.Errorf("y after crossing the top edge = %d, want just above the bottom edge", sh.Pos.Y.Floor())
	}

	// Collisions are measured across the edge too.
	w = newWorld(t, game.Setup{Players: 1})
	w.Ships[0].Pos = at(2, 300)
	addRock(w, game.Big, at(1270, 300))
	w.Step(none)
	if w.Ships[0].Alive {
		t.Error("ship touching a rock across the left/right edge survived")
	}
}

func TestLivesRespawnAndInvulnerability(t *testing.T) {
	w := newWorld(t, game.Setup{Players: 1, Lives: 2})
	sh := &w.Ships[0]
	sh.Pos = at(300, 300)
	addRock(w, game.Small, at(305, 300))
	addRock(w, game.Big, at(1000, 100)) // keeps the wave going
	w.Step(none)
	if sh.Alive || sh.Lives != 1 || sh.RespawnIn != game.RespawnDelay {
		t.Fatalf("after a crash: alive=%v lives=%d respawnIn=%d, want dead, 1 life, %d", sh.Alive, sh.Lives, sh.RespawnIn, game.RespawnDelay)
	}
	if countEvents(w, game.ShipDestroyed) != 1 {
		t.Error("want one ShipDestroyed event")
	}
	for i := 0; i < game.RespawnDelay-1; i++ {
		w.Step(none)
	}
	if sh.Alive {
		t.Fatal("ship back before the respawn delay")
	}
	w.Step(none)
	if !sh.Alive || sh.Invuln != game.SpawnInvuln {
		t.Fatalf("after the delay: alive=%v invuln=%d, want alive with %d ticks of invulnerability", sh.Alive, sh.Invuln, game.SpawnInvuln)
	}
	if countEvents(w, game.ShipRespawned) != 1 {
		t.Error("want one ShipRespawned event")
	}
	// Invulnerable: a rock on top of the ship does not destroy it.
	w.Rocks[0] = game.Rock{ID: 77, Pos: sh.Pos, Size: game.Medium}
	w.Step(none)
	if !sh.Alive {
		t.Fatal("invulnerable ship destroyed by a rock")
	}
	// Once it wears off, the last life goes and the game is over.
	for sh.Invuln > 0 {
		w.Rocks[0].Pos = sh.Pos
		w.Step(none)
	}
	for i := 0; i < 3 && sh.Alive; i++ {
		w.Rocks[0].Pos = sh.Pos
		w.Step(none)
	}
	if sh.Alive || sh.Lives != 0 {
		t.Fatalf("after the last crash: alive=%v lives=%d", sh.Alive, sh.Lives)
	}
	if !w.Over || countEvents(w, game.GameOver) != 1 {
		t.Fatalf("game over = %v, want the game to end when the only player is out", w.Over)
	}
	for i := 0; i < game.RespawnDelay*2; i++ {
		w.Step(none)
	}
	if sh.Alive {
		t.Error("a ship with no lives came back")
	}
}

func TestRespawnAvoidsRocks(t *testing.T) {
	w := newWorld(t, game.Setup{Players: 1})
	sh := &w.Ships[0]
	sh.Alive, sh.RespawnIn = false, 1
	home := sh.Pos
	addRock(w, game.Big, home) // the home spot is taken
	w.Step(none)
	if !sh.Alive {
		t.Fatal("ship did not respawn")
	}
	if d := sh.Pos.Sub(w.Rocks[0].Pos).Length(); d < game.RockRadius(game.Big)+game.ShipRadius {
		t.Errorf("respawned %d units from a big rock's centre, inside it", d.Floor())
	}
}

func TestFriendlyFire(t *testing.T) {
	tests := []struct {
		name     string
		mode     game.Mode
		ff       bool
		wantDead bool
	}{
		{"co-op without friendly fire: bullets pass through", game.Coop, false, false},
		{"co-op with friendly fire: bullets hit", game.Coop, true, true},
		{"versus: bullets hit", game.Versus, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, game.Setup{Players: 0b11, Mode: tt.mode, FriendlyFire: tt.ff})
			addRock(w, game.Big, at(1200, 50))
			w.Ships[0].Pos = at(100, 100)
			w.Ships[1].Pos = at(600, 400)
			addBullet(w, 0, at(595, 400), at(1, 0))
			w.Step(none)
			if dead := !w.Ships[1].Alive; dead != tt.wantDead {
				t.Errorf("ship 1 dead = %v, want %v", dead, tt.wantDead)
			}
			wantScore := uint32(0)
			if tt.wantDead && tt.mode == game.Versus {
				wantScore = game.KillScore
			}
			if w.Ships[0].Score != wantScore {
				t.Errorf("shooter score = %d, want %d", w.Ships[0].Score, wantScore)
			}
		})
	}
	// Own bullets never hit their ship.
	w := newWorld(t, game.Setup{Players: 1, Mode: game.Versus})
	addRock(w, game.Big, at(1200, 50))
	w.Ships[0].Pos = at(600, 400)
	addBullet(w, 0, at(595, 400), at(1, 0))
	w.Step(none)
	if !w.Ships[0].Alive {
		t.Error("a ship was destroyed by its own bullet")
	}
}

func TestDepartedSlot(t *testing.T) {
	w := newWorld(t, game.Setup{Players: 0b111, Mode: game.Versus})
	addRock(w, game.Big, at(1200, 50))
	w.Ships[1].Score = 70
	w.Step(only(1, game.Leave))
	sh := w.Ships[1]
	if sh.Present || sh.Alive || sh.Lives != 0 {
		t.Fatalf("after Leave: present=%v alive=%v lives=%d, want the slot empty", sh.Present, sh.Alive, sh.Lives)
	}
	if sh.Score != 70 {
		t.Errorf("score after Leave = %d, want it kept (70) for the results", sh.Score)
	}
	if countEvents(w, game.PlayerLeft) != 1 {
		t.Error("want one PlayerLeft event")
	}
	if got := w.Players(); got != 2 {
		t.Errorf("players = %d, want 2", got)
	}
	before := w.Hash()
	probe := *w
	probe.Step(only(1, game.Fire|game.Up))
	w.Step(none)
	if probe.Hash() != w.Hash() || before == w.Hash() {
		t.Error("input for a departed slot changed the world")
	}
	// Versus with one of two left standing: the other wins.
	w = newWorld(t, game.Setup{Players: 0b11, Mode: game.Versus})
	addRock(w, game.Big, at(1200, 50))
	w.Step(only(0, game.Leave))
	if !w.Over || w.Winner != 1 {
		t.Errorf("versus after one of two left: over=%v winner=%d, want over with winner 1", w.Over, w.Winner)
	}
}

func TestWavesGrow(t *testing.T) {
	w := newWorld(t, game.Setup{Players: 1})
	w.Ships[0].Pos = at(640, 360)
	w.Step(none)
	if w.WaveIn != game.WaveDelay {
		t.Fatalf("WaveIn after clearing = %d, want %d", w.WaveIn, game.WaveDelay)
	}
	started := false
	for i := 0; i < game.WaveDelay+1 && !started; i++ {
		w.Step(none)
		started = countEvents(w, game.WaveStarted) == 1
	}
	if !started || w.Wave != 2 {
		t.Fatalf("wave = %d (started %v), want wave 2 after the delay", w.Wave, started)
	}
	first := len(w.LiveRocks())
	w.NumRocks = 0
	for i := 0; i < game.WaveDelay+2; i++ {
		w.Step(none)
	}
	if w.Wave != 3 || len(w.LiveRocks()) <= first {
		t.Errorf("wave %d has %d rocks, wave 2 had %d: waves must grow", w.Wave, len(w.LiveRocks()), first)
	}
	for _, r := range w.LiveRocks() {
		if d := r.Pos.Sub(w.Ships[0].Pos).Length(); d < fixed.Int(150) {
			t.Errorf("a new rock spawned %d units from the ship", d.Floor())
		}
	}
}

func TestSetupValidate(t *testing.T) {
	bad := []game.Setup{
		{Players: 0, Lives: 3, StartWave: 1},
		{Players: 1, Lives: 0, StartWave: 1},
		{Players: 1, Lives: game.MaxLives + 1, StartWave: 1},
		{Players: 1, Lives: 3, StartWave: 0},
		{Players: 1, Lives: 3, StartWave: 1, Mode: 9},
	}
	for _, s := range bad {
		if _, err := game.New(s); err == nil {
			t.Errorf("New(%+v) accepted an invalid setup", s)
		}
	}
	if _, err := game.New(game.DefaultSetup()); err != nil {
		t.Errorf("DefaultSetup rejected: %v", err)
	}
}

// TestSetupOptions: the host's choices, without what the room fills in.
func TestSetupOptions(t *testing.T) {
	s := game.Setup{Seed: 7, Players: 0b101, Mode: game.Versus, Lives: 5, StartWave: 4, FriendlyFire: true, Hyperspace: true}
	want := game.Setup{Mode: game.Versus, Lives: 5, StartWave: 4, FriendlyFire: true, Hyperspace: true}
	if got := s.Options(); got != want {
		t.Errorf("Options() = %+v, want %+v", got, want)
	}
}

// TestHyperspace: a press of Hyperspace (with the setup's hyperspace on)
// takes the ship off the field for HyperspaceDelay ticks and brings it back
// somewhere else; a held key jumps once; the cooldown must pass before the
// next jump.
func TestHyperspace(t *testing.T) {
	tests := []struct {
		name     string
		on       bool
		inputs   []game.Input // one a tick, from the first
		wantOut  int          // HyperspaceOut events over the inputs and HyperspaceDelay ticks after
		wantGone bool         // the ship is off the field after the first tick
	}{
		{"off in the setup: nothing", false, []game.Input{game.Hyperspace}, 0, false},
		{"a press jumps", true, []game.Input{game.Hyperspace}, 1, true},
		{"held: one jump", true, repeat(game.Hyperspace, game.HyperspaceDelay+20), 1, true},
		{"a second press within the cooldown: one jump", true,
			append(append([]game.Input{game.Hyperspace}, repeat(0, game.HyperspaceDelay+5)...), game.Hyperspace), 1, true},
		{"a second press after the cooldown: two jumps", true,
			append(append([]game.Input{game.Hyperspace}, repeat(0, game.HyperspaceCooldown)...), game.Hyperspace), 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, game.Setup{Seed: 3, Players: 1, Hyperspace: tt.on})
			addRock(w, game.Big, at(1200, 700))
			w.Rocks[0].Vel = fixed.Vec{}
			sh := &w.Ships[0]
			from := sh.Pos
			outs, ins := 0, 0
			var outAt, inAt uint32
			for k, in := range append(tt.inputs, repeat(0, game.HyperspaceDelay+1)...) {
				w.Step(only(0, in))
				if k == 0 && !sh.Alive != tt.wantGone {
					t.Fatalf("after the first tick: alive = %v, want %v", sh.Alive, !tt.wantGone)
				}
				if e, ok := eventOf(w, game.HyperspaceOut); ok {
					outs++
					outAt = w.Tick
					if e.Slot != 0 || (outs == 1 && e.Pos != from) {
						t.Errorf("HyperspaceOut %+v, want slot 0 from %v", e, from)
					}
				}
				if e, ok := eventOf(w, game.HyperspaceIn); ok {
					ins++
					inAt = w.Tick
					if e.Pos == from {
						t.Errorf("came out of hyperspace where it went in")
					}
				}
			}
			if outs != tt.wantOut || ins != tt.wantOut {
				t.Fatalf("%d jumps out and %d back, want %d", outs, ins, tt.wantOut)
			}
			if outs > 0 && inAt-outAt != game.HyperspaceDelay {
				t.Errorf("back %d ticks after the jump, want %d", inAt-outAt, game.HyperspaceDelay)
			}
		})
	}
}

func repeat(in game.Input, n int) []game.Input {
	s := make([]game.Input, n)
	for i := range s {
		s[i] = in
	}
	return s
}

// TestHyperspaceIsOffTheField: a ship in hyperspace cannot be hit, and the
// game is not over while the last ship is in hyperspace.
func TestHyperspaceIsOffTheField(t *testing.T) {
	w := newWorld(t, game.Setup{Seed: 5, Players: 1, Lives: 1, Hyperspace: true})
	sh := &w.Ships[0]
	sh.Pos = at(300, 300)
	addRock(w, game.Big, at(1000, 600))
	w.Rocks[0].Vel = fixed.Vec{}
	w.Step(only(0, game.Hyperspace))
	for i := 0; i < game.HyperspaceDelay-1; i++ {
		addBullet(w, game.SaucerOwner, at(298, 300), at(1, 0))
		w.Rocks[0].Pos = at(300, 300)
		w.Step(none)
		if sh.Alive || w.Over || sh.Lives != 1 {
			t.Fatalf("tick %d in hyperspace: alive=%v over=%v lives=%d, want gone, the game on, 1 life", i, sh.Alive, w.Over, sh.Lives)
		}
	}
}

// TestHyperspaceRisk: a jump now and then ends in an explosion on arrival,
// as in the original: more than never, far less than usually.
func TestHyperspaceRisk(t *testing.T) {
	const jumps = 2000
	lost := 0
	for seed := uint64(0); seed < jumps; seed++ {
		w := newWorld(t, game.Setup{Seed: seed, Players: 1, Hyperspace: true})
		addRock(w, game.Big, at(1200, 700))
		w.Rocks[0].Vel = fixed.Vec{}
		w.Rocks[0].Size = game.Small // nothing to arrive inside
		w.Step(only(0, game.Hyperspace))
		for i := 0; i < game.HyperspaceDelay; i++ {
			w.Step(none)
		}
		if e, ok := eventOf(w, game.ShipDestroyed); ok {
			lost++
			if e.Slot != 0 || w.Ships[0].Lives != 2 {
				t.Fatalf("seed %d: explosion %+v, lives %d: want slot 0's, a life lost", seed, e, w.Ships[0].Lives)
			}
		}
	}
	// On a field of one rock: HyperspaceRisk in 64 (3.1 %).
	if pct := lost * 1000 / jumps; pct < 15 || pct > 50 {
		t.Errorf("%d of %d jumps exploded (%d.%d %%), want about %.1f %%", lost, jumps, pct/10, pct%10, 100*float64(game.HyperspaceRisk)/64)
	}
}

// TestExtraLife: every ExtraLifeScore points a player still in the game
// earns a life, up to MaxLives.
func TestExtraLife(t *testing.T) {
	tests := []struct {
		name      string
		score     uint32
		lives     uint8
		alive     bool
		wantLives uint8
	}{
		{"passing 10,000", game.ExtraLifeScore - 50, 3, true, 4},
		{"passing 20,000", 2*game.ExtraLifeScore - 1, 3, true, 4},
		{"below 10,000", game.ExtraLifeScore - 101, 3, true, 3},
		{"already past 10,000", game.ExtraLifeScore, 3, true, 3},
		{"at MaxLives", game.ExtraLifeScore - 50, game.MaxLives, true, game.MaxLives},
		{"waiting to respawn", game.ExtraLifeScore - 50, 2, false, 3},
		{"out of the game: no life", game.ExtraLifeScore - 50, 0, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, game.Setup{Players: 0b11, Lives: game.MaxLives})
			addRock(w, game.Big, at(1200, 50))
			sh := &w.Ships[0]
			sh.Pos, sh.Score, sh.Lives, sh.Alive = at(100, 100), tt.score, tt.lives, tt.alive
			if !tt.alive && tt.lives > 0 {
				sh.RespawnIn = 50
			}
			addRock(w, game.Small, at(600, 400))
			addBullet(w, 0, at(590, 400), at(1, 0))
			w.Step(none)
			if sh.Score != tt.score+100 {
				t.Fatalf("score = %d, want %d", sh.Score, tt.score+100)
			}
			if sh.Lives != tt.wantLives {
				t.Errorf("lives = %d, want %d", sh.Lives, tt.wantLives)
			}
			e, ok := eventOf(w, game.ExtraLife)
			if want := tt.wantLives > tt.lives; ok != want {
				t.Errorf("ExtraLife event = %v, want %v", ok, want)
			} else if ok && (e.Slot != 0 || e.Value != int32(tt.wantLives)) {
				t.Errorf("ExtraLife event %+v, want slot 0 with %d lives", e, tt.wantLives)
			}
		})
	}
}

// TestStartingSpot: a ship alone starts at the centre of the field; with
// others, on a ring around it.
func TestStartingSpot(t *testing.T) {
	centre := fixed.Vec{X: game.FieldW / 2, Y: game.FieldH / 2}
	tests := []struct {
		name    string
		players uint8
		slot    int
		centre  bool
	}{
		{"alone in slot 0", 0b1, 0, true},
		{"alone in slot 3", 0b1000, 3, true},
		{"two players", 0b11, 0, false},
		{"eight players", 0xFF, 5, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := game.New(game.Setup{Players: tt.players, Lives: 3, StartWave: 1})
			if err != nil {
				t.Fatal(err)
			}
			if at := w.Ships[tt.slot].Pos == centre; at != tt.centre {
				t.Errorf("slot %d starts at %v, at the centre = %v, want %v", tt.slot, w.Ships[tt.slot].Pos, at, tt.centre)
			}
		})
	}
}
