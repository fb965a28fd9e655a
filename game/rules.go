package game

import (
	"math/bits"

	"rockstep/game/fixed"
)

// Rule constants. Units: ticks (1/60 s), world units, angle units (65536 a
// turn), Q16.16 where a value is a fixed.Num.
const (
	RotateSpeed   fixed.Angle = 910  // angle units per tick while Left/Right is held (5°)
	MaxThrust                 = 5    // thrust levels above zero
	ThrustRepeat              = 12   // ticks Up/Down must be held to step the level again
	AccelPerLevel fixed.Num   = 1433 // units per tick² per thrust level (7/320)
	DragShift                 = 6    // each tick velocity loses 1/2^DragShift of itself
	MaxCharge                 = 60   // ticks of charge that make a full-power shot
	FireCooldown              = 10   // ticks between shots
	BulletSpeedLo             = 6    // units per tick of an uncharged shot
	BulletSpeedHi             = 12   // units per tick of a full-power shot
	BulletLifeLo              = 40   // ticks an uncharged shot flies
	BulletLifeHi              = 70   // ticks a full-power shot flies
	SpawnInvuln               = 120  // ticks of invulnerability after (re)spawning
	RespawnDelay              = 90   // ticks between losing a ship and the next
	WaveDelay                 = 120  // ticks between clearing a wave and the next
	MaxWaveRocks              = 12   // big rocks in the largest wave
	KillScore                 = 250  // points for destroying another ship in versus

	// Extra lives.
	ExtraLifeScore = 10000 // points for each extra life (up to MaxLives)

	// Hyperspace: the ship leaves the field and comes back at a random
	// spot; out of 64 arrivals, 2 end in an explosion, plus 1 for every 8
	// rocks on the field (as in the original, a crowded field is riskier).
	HyperspaceDelay    = 40  // ticks a ship is gone
	HyperspaceCooldown = 180 // ticks from one jump to the next
	HyperspaceRisk     = 2   // explosions in 64 arrivals on an empty field

	// Saucers: one comes onto the field every SaucerInterval ticks or so
	// while a wave is on, sooner in later waves, crosses it and leaves. The
	// large one fires at random, the small one aims at the nearest ship,
	// missing by less in later waves.
	SaucerInterval     = 1200 // ticks between saucers in wave 1, on average (20 s)
	SaucerIntervalStep = 75   // ticks fewer per wave
	SaucerIntervalMin  = 420  // ticks between saucers at the least, on average (7 s)
	SaucerTurnLo       = 40   // ticks a saucer keeps its course, at the least
	SaucerTurnHi       = 120  // ticks a saucer keeps its course, at the most
	SaucerFirstShot    = 30   // ticks from a saucer's arrival to its first shot
	SaucerShotSpeed    = 5    // units per tick of a saucer's shot
	SaucerShotLife     = 60   // ticks a saucer's shot flies
	MaxSaucerShots     = 4    // saucer shots in flight at once, all saucers together
	SaucerAimError     = 24   // degrees a small saucer may miss by in wave 1
	SaucerAimErrorMin  = 4    // degrees it may miss by in late waves

	LargeSaucerSpeed fixed.Num = 3 << fixed.Shift / 2 // units per tick (1.5)
	SmallSaucerSpeed fixed.Num = 9 << fixed.Shift / 4 // units per tick (2.25)
)

// SaucerScore returns the points for destroying a saucer of the given size.
func SaucerScore(size uint8) uint32 {
	if size == SmallSaucer {
		return 1000
	}
	return 200
}

// RockScore returns the points for destroying a rock of the given size.
func RockScore(size uint8) uint32 {
	switch size {
	case Big:
		return 20
	case Medium:
		return 50
	}
	return 100
}

// clearance of a safe spawn: the distance a respawning ship wants between
// itself and the nearest rock's edge.
const safeClearance fixed.Num = 150 << fixed.Shift // units

// Step advances the world by one tick. in[i] is the input of slot i; inputs
// of empty slots are ignored. Slots are processed in index order, which is
// how every conflict between players is resolved.
func (w *World) Step(in [MaxPlayers]Input) {
	w.NumEvents = 0
	w.Tick++
	for i := range w.Ships {
		w.control(i, in[i])
	}
	w.moveShips()
	w.moveBullets()
	w.moveRocks()
	w.moveSaucers()
	if w.Over {
		return
	}
	w.runSaucers()
	w.collide()
	w.advanceWaves()
	w.checkOver()
}

func (w *World) control(i int, in Input) {
	sh := &w.Ships[i]
	if !sh.Present {
		return
	}
	if in&Leave != 0 {
		// The score and tallies stay for the results; the ship goes.
		pos := sh.Pos
		*sh = Ship{Score: sh.Score, Kills: sh.Kills, Deaths: sh.Deaths}
		w.emit(Event{Kind: PlayerLeft, Slot: int8(i), Other: -1, Pos: pos})
		return
	}
	if w.away(i, in&Away != 0) {
		return
	}
	in &= ClientInputMask
	if sh.JumpCool > 0 {
		sh.JumpCool--
	}
	switch {
	case sh.Alive:
		w.steer(i, in)
	case sh.Jump > 0:
		sh.Jump--
		if sh.Jump == 0 {
			w.arrive(i)
		}
	case sh.Lives > 0 && sh.RespawnIn > 0:
		sh.RespawnIn--
		if sh.RespawnIn == 0 {
			w.respawn(i)
		}
	}
	sh.Prev = in
}

// away keeps slot i's ship out of play while its player is away (vacant:
// true on every tick the room holds the slot) and reports whether it is.
// An away ship is frozen where it was, with its lives, score and timers
// (respawn, hyperspace) stopped: nothing hits it, it hits nothing, and a
// saucer does not aim at it. It comes back where it was, at rest, with
// the invulnerability of a respawn so that a rock drifted onto it while
// it was away does not take a life at once.
func (w *World) away(i int, vacant bool) bool {
	sh := &w.Ships[i]
	switch {
	case vacant && !sh.Away:
		sh.Away = true
		sh.Vel, sh.Thrust, sh.Hold, sh.Charge, sh.Prev = fixed.Vec{}, 0, 0, 0, 0
		w.emit(Event{Kind: PlayerAway, Slot: int8(i), Other: -1, Pos: sh.Pos})
	case !vacant && sh.Away:
		sh.Away = false
		if sh.Alive {
			sh.Invuln = SpawnInvuln
		}
		w.emit(Event{Kind: PlayerBack, Slot: int8(i), Other: -1, Pos: sh.Pos})
	}
	return sh.Away
}

// steer applies one tick of input to slot i's ship on the field.
func (w *World) steer(i int, in Input) {
	sh := &w.Ships[i]
	if in&Hyperspace != 0 && sh.Prev&Hyperspace == 0 && w.Setup.Hyperspace && sh.JumpCool == 0 {
		w.jump(i)
		return
	}
	if in&Left != 0 {
		sh.Angle -= RotateSpeed
	}
	if in&Right != 0 {
		sh.Angle += RotateSpeed
	}
	up, down := in&Up != 0, in&Down != 0
	switch {
	case up && !down:
		if w.thrustStep(sh, sh.Prev&Up == 0) && sh.Thrust < MaxThrust {
			sh.Thrust++
		}
	case down && !up:
		if w.thrustStep(sh, sh.Prev&Down == 0) && sh.Thrust > 0 {
			sh.Thrust--
		}
	default:
		sh.Hold = 0
	}
	if sh.Cooldown > 0 {
		sh.Cooldown--
	}
	if sh.Invuln > 0 {
		sh.Invuln--
	}
	switch {
	case in&Fire != 0:
		if sh.Charge < MaxCharge {
			sh.Charge++
		}
	case sh.Prev&Fire != 0 && sh.Charge > 0:
		if sh.Cooldown == 0 {
			w.fire(i)
		}
		sh.Charge = 0
	}
}

// thrustStep reports whether a held Up or Down changes the thrust level this
// tick: on the press, then every ThrustRepeat ticks while held.
func (w *World) thrustStep(sh *Ship, pressed bool) bool {
	if pressed {
		sh.Hold = 0
		return true
	}
	sh.Hold++
	if sh.Hold >= ThrustRepeat {
		sh.Hold = 0
		return true
	}
	return false
}

func (w *World) fire(i int) {
	sh := &w.Ships[i]
	n := 0
	for j := 0; j < int(w.NumBullet); j++ {
		if w.Bullets[j].Owner == uint8(i) {
			n++
		}
	}
	if n >= MaxShipBullets || int(w.NumBullet) >= MaxBullets {
		return
	}
	c := int(sh.Charge)
	speed := fixed.Int(BulletSpeedLo) + fixed.Frac((BulletSpeedHi-BulletSpeedLo)*c, MaxCharge)
	dir := fixed.Dir(sh.Angle)
	b := Bullet{
		ID:    w.newID(),
		Pos:   wrapVec(sh.Pos.Add(dir.Scale(ShipRadius))),
		Vel:   sh.Vel.Add(dir.Scale(speed)),
		Life:  uint16(BulletLifeLo + (BulletLifeHi-BulletLifeLo)*c/MaxCharge),
		Owner: uint8(i),
		Power: 1,
	}
	if c >= MaxCharge {
		b.Power = 2
	}
	w.Bullets[w.NumBullet] = b
	w.NumBullet++
	sh.Cooldown = FireCooldown
	w.emit(Event{Kind: ShotFired, Slot: int8(i), Other: -1, Pos: b.Pos, Value: int32(c)})
}

// jump takes slot i's ship off the field into hyperspace.
func (w *World) jump(i int) {
	sh := &w.Ships[i]
	sh.Alive = false
	sh.Jump, sh.JumpCool = HyperspaceDelay, HyperspaceCooldown
	sh.Vel = fixed.Vec{}
	sh.Charge, sh.Hold = 0, 0
	w.emit(Event{Kind: HyperspaceOut, Slot: int8(i), Other: -1, Pos: sh.Pos})
}

// arrive brings slot i's ship out of hyperspace at a random spot, where it
// may explode.
func (w *World) arrive(i int) {
	sh := &w.Ships[i]
	sh.Alive = true
	sh.Pos = fixed.Vec{X: fixed.Num(w.Rand.Intn(int(FieldW))), Y: fixed.Num(w.Rand.Intn(int(FieldH)))}
	w.emit(Event{Kind: HyperspaceIn, Slot: int8(i), Other: -1, Pos: sh.Pos})
	if w.Rand.Intn(64) < HyperspaceRisk+int(w.NumRocks)/8 {
		w.killShip(i, -1)
	}
}

// addScore credits slot with pts points, and with a life for every
// ExtraLifeScore points passed while the player is still in the game.
func (w *World) addScore(slot int, pts uint32) {
	sh := &w.Ships[slot]
	before := sh.Score / ExtraLifeScore
	sh.Score += pts
	if sh.Score/ExtraLifeScore != before && sh.Present && sh.Lives > 0 && sh.Lives < MaxLives {
		sh.Lives++
		w.emit(Event{Kind: ExtraLife, Slot: int8(slot), Other: -1, Pos: sh.Pos, Value: int32(sh.Lives)})
	}
}

func (w *World) newID() uint32 {
	id := w.NextID
	w.NextID++
	return id
}

func (w *World) moveShips() {
	for i := range w.Ships {
		sh := &w.Ships[i]
		if !sh.Alive || sh.Away {
			continue
		}
		if sh.Thrust > 0 {
			sh.Vel = sh.Vel.Add(fixed.Dir(sh.Angle).Scale(AccelPerLevel * fixed.Num(sh.Thrust)))
		}
		sh.Vel.X = drag(sh.Vel.X)
		sh.Vel.Y = drag(sh.Vel.Y)
		sh.Pos = wrapVec(sh.Pos.Add(sh.Vel))
	}
}

// drag slows v by 1/2^DragShift of itself, toward zero, and stops it once
// it is too slow to matter.
func drag(v fixed.Num) fixed.Num {
	v -= v / (1 << DragShift)
	if v > -(1<<DragShift) && v < 1<<DragShift {
		return 0
	}
	return v
}

// moveBullets moves the bullets on and drops those whose life is out,
// keeping order. It works on each bullet in place and copies one only to
// close a gap: a bullet copied out, changed and copied back costs a stalled
// store forward on amd64, which made this loop a seventh of Step.
func (w *World) moveBullets() {
	n := 0
	for j := 0; j < int(w.NumBullet); j++ {
		b := &w.Bullets[j]
		b.Pos = wrapVec(b.Pos.Add(b.Vel))
		b.Life--
		if b.Life == 0 {
			continue
		}
		if n != j {
			w.Bullets[n] = *b
		}
		n++
	}
	w.NumBullet = uint8(n)
}

func (w *World) moveRocks() {
	for j := 0; j < int(w.NumRocks); j++ {
		r := &w.Rocks[j]
		r.Pos = wrapVec(r.Pos.Add(r.Vel))
		r.Angle += fixed.Angle(r.Spin)
	}
}

// wrapVec brings a position back onto the field.
func wrapVec(p fixed.Vec) fixed.Vec {
	return fixed.Vec{X: wrap(p.X, FieldW), Y: wrap(p.Y, FieldH)}
}

func wrap(x, size fixed.Num) fixed.Num {
	if uint32(x) < uint32(size) { // 0 ≤ x < size, in one compare
		return x
	}
	return x.Wrap(size)
}

// isNear reports whether a and b, both on the field, are closer than r
// (r ≥ 0), measuring across the wrapped edges.
func isNear(a, b fixed.Vec, r fixed.Num) bool { return closer(a, b, sq(r)) }

// sq returns r², for closer.
func sq(r fixed.Num) uint64 { return uint64(r) * uint64(r) }

// closer reports whether the squared distance between a and b, both on
// the field, measured across the wrapped edges, is below r2. It is isNear
// with the radius squared by the caller, small enough to be inlined in
// collide's loops, which spend most of a tick in it.
//
// It has no branch to mispredict: testing |dx| and |dy| against r first,
// as isNear once did, gave the same answer (a square sum below r² needs
// both squares below it) but mispredicted about once a call, the largest
// cost of a collision test. In uint64, each square (of a difference that
// torus has made an int32 again) is exact and at most 2⁶², so their sum
// cannot overflow, even off the field.
func closer(a, b fixed.Vec, r2 uint64) bool {
	dx := uint64(torus(a.X-b.X, FieldW))
	dy := uint64(torus(a.Y-b.Y, FieldH))
	return dx*dx+dy*dy < r2
}

// torus maps the difference of two field coordinates, in (-size, size), to
// the shortest way round: [-size/2, size/2). (Written as two independent
// adjustments, the compiler makes them conditional moves, not branches; the
// second never applies after the first, which leaves d ≥ -size/2.)
func torus(d, size fixed.Num) fixed.Num {
	if d >= size/2 {
		d -= size
	}
	if d < -size/2 {
		d += size
	}
	return d
}

// torusDistSq returns the squared wrapped distance between a and b, raw.
func torusDistSq(a, b fixed.Vec) int64 {
	dx := int64(torus(a.X-b.X, FieldW))
	dy := int64(torus(a.Y-b.Y, FieldH))
	return dx*dx + dy*dy
}

// collide finds everything that touched this tick, in a fixed order: each
// bullet in turn (rocks, then saucers, then ships, each in index order),
// then each ship (rocks, then saucers), then each saucer (rocks).
func (w *World) collide() {
	var h hits
	var grid rockGrid
	grid.addRocks(w.Rocks[:w.NumRocks])
	grid.addSaucers(w.Saucers[:w.NumSaucer])
	var targets uint8 // ships a bullet can still hit
	for i := range w.Ships {
		if sh := &w.Ships[i]; sh.Alive && sh.Invuln == 0 && !sh.Away {
			targets |= 1 << i
			grid.addShip(i, sh.Pos)
		}
	}
	w.bulletHits(&grid, &h, targets)
	w.shipHits(&grid, &h)
	w.saucerHits(&grid, &h)
	w.finishCollide(h.rocks, &h.by, h.gone, h.spent)
}

// hits is what one tick's collisions destroyed so far, in the order the
// passes run: bullets, then ships, then saucers against rocks.
type hits struct {
	rocks rockSet        // rocks destroyed this tick
	by    [MaxRocks]int8 // slot credited with each destroyed rock (-1: nobody)
	gone  uint8          // saucers destroyed this tick, bit k: saucer k
	spent bool           // a bullet has no power left
}

// bulletHits runs every bullet against the rocks, saucers and ships
// (targets: bit i, ship i can be hit) near it.
func (w *World) bulletHits(grid *rockGrid, h *hits, targets uint8) {
	shipsHit := w.Setup.Mode == Versus || w.Setup.FriendlyFire
	for j := 0; j < int(w.NumBullet); j++ {
		b := &w.Bullets[j]
		near := grid.near(b.Pos)
		shooter := int8(b.Owner)
		if b.Owner >= MaxPlayers {
			shooter = -1 // a saucer's
		}
		// The rocks hit already are passed over, as the pairwise loops
		// passed them; this bullet hits each of the others at most once.
		for rocks := near.rocks.without(h.rocks); b.Power > 0; {
			k := rocks.next()
			if k < 0 {
				break
			}
			r := &w.Rocks[k]
			if !closer(b.Pos, r.Pos, sq(RockRadius(r.Size))) {
				continue
			}
			h.rocks.add(k)
			h.by[k] = shooter
			b.Power--
		}
		can := targets // the ships this bullet may hit
		if shooter >= 0 {
			for ss := near.saucers &^ h.gone; ss != 0 && b.Power > 0; ss &= ss - 1 {
				k := bits.TrailingZeros8(ss)
				if !closer(b.Pos, w.Saucers[k].Pos, sq(SaucerRadius(w.Saucers[k].Size))) {
					continue
				}
				h.gone |= 1 << k
				w.destroySaucer(k, int(shooter))
				b.Power--
			}
			can &^= 1 << shooter
			if !shipsHit {
				can = 0
			}
		}
		// Ships in slot order, as a pairwise loop would visit them.
		for ships := near.ships & can; ships != 0 && b.Power > 0; ships &= ships - 1 {
			i := bits.TrailingZeros8(ships)
			if !closer(b.Pos, w.Ships[i].Pos, sq(ShipRadius)) {
				continue
			}
			w.killShip(i, int(shooter))
			targets &^= 1 << i
			b.Power--
		}
		if b.Power == 0 {
			h.spent = true
		}
	}
}

// shipHits runs every ship still alive against the rocks and saucers near
// it: a rock kills it, a saucer rammed dies with it.
func (w *World) shipHits(grid *rockGrid, h *hits) {
	for i := range w.Ships {
		sh := &w.Ships[i]
		if !sh.Alive || sh.Invuln > 0 || sh.Away {
			continue
		}
		near := grid.around(sh.Pos)
		for rocks := near.rocks.without(h.rocks); ; {
			k := rocks.next()
			if k < 0 {
				break
			}
			r := &w.Rocks[k]
			if !closer(sh.Pos, r.Pos, sq(RockRadius(r.Size)+ShipRadius)) {
				continue
			}
			h.rocks.add(k)
			h.by[k] = int8(i)
			w.killShip(i, -1)
			break
		}
		if !sh.Alive {
			continue
		}
		// Ramming a saucer destroys both; the player scores it first.
		for ss := near.saucers &^ h.gone; ss != 0; ss &= ss - 1 {
			k := bits.TrailingZeros8(ss)
			if !closer(sh.Pos, w.Saucers[k].Pos, sq(SaucerRadius(w.Saucers[k].Size)+ShipRadius)) {
				continue
			}
			h.gone |= 1 << k
			w.destroySaucer(k, i)
			w.killShip(i, -1)
			break
		}
	}
}

// saucerHits runs every saucer still flying against the rocks near it:
// a saucer that meets a rock breaks it and is destroyed, scored by nobody.
func (w *World) saucerHits(grid *rockGrid, h *hits) {
	for k := 0; k < int(w.NumSaucer); k++ {
		if h.gone&(1<<k) != 0 {
			continue
		}
		s := &w.Saucers[k]
		near := grid.around(s.Pos)
		for rocks := near.rocks.without(h.rocks); ; {
			r := rocks.next()
			if r < 0 {
				break
			}
			rk := &w.Rocks[r]
			if !closer(s.Pos, rk.Pos, sq(RockRadius(rk.Size)+SaucerRadius(s.Size))) {
				continue
			}
			h.rocks.add(r)
			h.by[r] = -1
			h.gone |= 1 << k
			w.destroySaucer(k, -1)
			break
		}
	}
}

// finishCollide drops spent bullets (when spent says a bullet may have no
// power left) and destroyed saucers (bit k of gone: saucer k), and breaks
// the rocks hit, crediting each to the slot in by.
func (w *World) finishCollide(hit rockSet, by *[MaxRocks]int8, gone uint8, spent bool) {
	if spent {
		// Drop spent bullets, keeping order.
		n := 0
		for j := 0; j < int(w.NumBullet); j++ {
			if w.Bullets[j].Power > 0 {
				if n != j {
					w.Bullets[n] = w.Bullets[j]
				}
				n++
			}
		}
		w.NumBullet = uint8(n)
	}
	if gone != 0 {
		n := 0
		for k := 0; k < int(w.NumSaucer); k++ {
			if gone&(1<<k) == 0 {
				w.Saucers[n] = w.Saucers[k]
				n++
			}
		}
		w.NumSaucer = uint8(n)
	}
	if !hit.empty() {
		w.breakRocks(hit, by)
	}
}

// breakRocks removes the rocks hit, keeping order, then appends their
// fragments in the order of their parents. (Apart from collide, whose
// common tick breaks nothing, so that it does not clear the copies' room.)
// The rocks below the first one hit stay where they are.
func (w *World) breakRocks(hit rockSet, by *[MaxRocks]int8) {
	var broken [MaxRocks]Rock
	var credit [MaxRocks]int8
	rest := hit
	first := rest.next()
	nb, n := 0, first
	for k := first; k < int(w.NumRocks); k++ {
		if hit.has(k) {
			broken[nb], credit[nb] = w.Rocks[k], by[k]
			nb++
			continue
		}
		w.Rocks[n] = w.Rocks[k]
		n++
	}
	w.NumRocks = uint8(n)
	for k := 0; k < nb; k++ {
		w.breakRock(broken[k], credit[k])
	}
}

func (w *World) killShip(i, shooter int) {
	sh := &w.Ships[i]
	sh.Alive = false
	sh.Deaths++
	sh.Lives--
	sh.Thrust, sh.Charge, sh.Hold = 0, 0, 0
	sh.Vel = fixed.Vec{}
	if sh.Lives > 0 {
		sh.RespawnIn = RespawnDelay
	}
	if shooter >= 0 && shooter != i {
		w.Ships[shooter].Kills++
		if w.Setup.Mode == Versus {
			w.addScore(shooter, KillScore)
		}
	}
	w.emit(Event{Kind: ShipDestroyed, Slot: int8(i), Other: int8(shooter), Pos: sh.Pos})
}

// breakRock credits the destroyer and splits r into two smaller rocks.
func (w *World) breakRock(r Rock, slot int8) {
	var score uint32
	if slot >= 0 {
		score = RockScore(r.Size)
		w.addScore(int(slot), score)
	}
	w.emit(Event{Kind: RockDestroyed, Slot: slot, Other: -1, Size: r.Size, Pos: r.Pos, Value: int32(score)})
	if r.Size <= Small {
		return
	}
	dir := fixed.Dir(fixed.Angle(w.Rand.Uint32()))
	speed := w.rockSpeed(r.Size - 1)
	for s := 0; s < 2; s++ {
		if int(w.NumRocks) >= MaxRocks {
			return
		}
		d := dir
		if s == 1 {
			d = fixed.Vec{X: -dir.X, Y: -dir.Y}
		}
		w.Rocks[w.NumRocks] = Rock{
			ID:    w.newID(),
			Pos:   wrapVec(r.Pos.Add(d.Scale(RockRadius(r.Size - 1)))),
			Vel:   r.Vel.Scale(fixed.Half).Add(d.Scale(speed)),
			Angle: fixed.Angle(w.Rand.Uint32()),
			Spin:  int16(w.Rand.Range(-400, 400)),
			Size:  r.Size - 1,
			Shape: uint8(w.Rand.Intn(4)),
		}
		w.NumRocks++
	}
}

// rockSpeed returns a random speed for a rock of the given size in the
// current wave, in units per tick: bigger rocks are slower, later waves
// faster.
func (w *World) rockSpeed(size uint8) fixed.Num {
	wave := int(w.Wave)
	if wave > 20 {
		wave = 20
	}
	base := fixed.Frac(5+wave, 10) // 0.6 at wave 1, 2.5 at wave 20
	switch size {
	case Medium:
		base = base * 3 / 2
	case Small:
		base *= 2
	}
	return base/2 + fixed.Num(w.Rand.Intn(int(base/2)+1))
}

func (w *World) advanceWaves() {
	if w.NumRocks > 0 {
		return
	}
	if w.WaveIn == 0 {
		w.WaveIn = WaveDelay
		return
	}
	w.WaveIn--
	if w.WaveIn == 0 {
		next := w.Wave + 1
		if next == 0 {
			next = w.Wave
		}
		w.startWave(next)
	}
}

func (w *World) startWave(n uint8) {
	w.Wave = n
	w.WaveIn = 0
	count := 3 + int(n)
	if count > MaxWaveRocks {
		count = MaxWaveRocks
	}
	const away fixed.Num = 220 << fixed.Shift // units from any ship
	for k := 0; k < count && int(w.NumRocks) < MaxRocks; k++ {
		var pos fixed.Vec
		for try := 0; try < 8; try++ {
			pos = fixed.Vec{
				X: fixed.Num(w.Rand.Intn(int(FieldW))),
				Y: fixed.Num(w.Rand.Intn(int(FieldH))),
			}
			if w.clearOfShips(pos, away) {
				break
			}
		}
		dir := fixed.Dir(fixed.Angle(w.Rand.Uint32()))
		w.Rocks[w.NumRocks] = Rock{
			ID:    w.newID(),
			Pos:   pos,
			Vel:   dir.Scale(w.rockSpeed(Big)),
			Angle: fixed.Angle(w.Rand.Uint32()),
			Spin:  int16(w.Rand.Range(-200, 200)),
			Size:  Big,
			Shape: uint8(w.Rand.Intn(4)),
		}
		w.NumRocks++
	}
	if w.Setup.Saucers {
		w.SaucerIn = w.saucerInterval()
	}
	w.emit(Event{Kind: WaveStarted, Slot: -1, Other: -1, Value: int32(n)})
}

func (w *World) clearOfShips(p fixed.Vec, d fixed.Num) bool {
	for i := range w.Ships {
		sh := &w.Ships[i]
		if sh.Present && (sh.Alive || sh.Lives > 0) && isNear(p, sh.Pos, d) {
			return false
		}
	}
	return true
}

// homeSpot is where slot i starts: the centre of the field in a game of
// one, else on a ring around it.
func (w *World) homeSpot(i int) fixed.Vec {
	if bits.OnesCount8(w.Setup.Players) == 1 {
		return fixed.Vec{X: FieldW / 2, Y: FieldH / 2}
	}
	a := fixed.Angle(i * (fixed.Turn / MaxPlayers))
	return fixed.Vec{X: FieldW / 2, Y: FieldH / 2}.Add(fixed.Dir(a).Scale(fixed.Int(160)))
}

// placeShip puts slot i's ship on the field at p, at rest, facing up, and
// invulnerable for a while.
func (w *World) placeShip(i int, p fixed.Vec) {
	sh := &w.Ships[i]
	sh.Alive = true
	sh.Pos = p
	sh.Vel = fixed.Vec{}
	sh.Angle = 3 * fixed.Quarter
	sh.Thrust, sh.Hold, sh.Charge, sh.Cooldown = 0, 0, 0, 0
	sh.Invuln = SpawnInvuln
	sh.RespawnIn = 0
	sh.Jump, sh.JumpCool = 0, 0
}

// respawn returns slot i's ship at the safest of a few candidate spots: its
// home, the centre, then random points; the first with room enough, or the
// one with the most room.
func (w *World) respawn(i int) {
	best, bestRoom := w.homeSpot(i), fixed.Min
	for c := 0; c < 8; c++ {
		var p fixed.Vec
		switch c {
		case 0:
			p = w.homeSpot(i)
		case 1:
			p = fixed.Vec{X: FieldW / 2, Y: FieldH / 2}
		default:
			p = fixed.Vec{X: fixed.Num(w.Rand.Intn(int(FieldW))), Y: fixed.Num(w.Rand.Intn(int(FieldH)))}
		}
		room := w.room(p)
		if room > bestRoom {
			best, bestRoom = p, room
		}
		if room >= safeClearance {
			break
		}
	}
	w.placeShip(i, best)
	w.emit(Event{Kind: ShipRespawned, Slot: int8(i), Other: -1, Pos: best})
}

// room returns the distance from p to the edge of the nearest rock, in
// units (negative inside a rock), or fixed.Max with no rocks.
func (w *World) room(p fixed.Vec) fixed.Num {
	room := fixed.Max
	for k := 0; k < int(w.NumRocks); k++ {
		r := &w.Rocks[k]
		d := fixed.Num(fixed.ISqrt(uint64(torusDistSq(p, r.Pos)))) - RockRadius(r.Size)
		if d < room {
			room = d
		}
	}
	return room
}

func (w *World) checkOver() {
	standing, last := 0, -1
	for i := range w.Ships {
		sh := &w.Ships[i]
		if sh.Present && (sh.Alive || sh.Lives > 0) {
			standing++
			last = i
		}
	}
	started := 0
	for i := 0; i < MaxPlayers; i++ {
		if w.Setup.Players&(1<<i) != 0 {
			started++
		}
	}
	switch {
	case standing == 0:
		w.Over = true
	case w.Setup.Mode == Versus && started > 1 && standing == 1 && !w.Ships[last].Away:
		// A player who is away can neither lose nor win: the last one
		// standing, if away, wins only once back (or the game goes on
		// until it is dropped, which ends it).
		w.Over = true
		w.Winner = int8(last)
	}
	if w.Over {
		w.emit(Event{Kind: GameOver, Slot: w.Winner, Other: -1})
	}
}
