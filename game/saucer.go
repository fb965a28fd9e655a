package game

import "rockstep/game/fixed"

// Saucers, as in the original: with Setup.Saucers, one comes onto the
// field from the left or right edge every so often while a wave is on,
// zigzags across it and leaves at the other edge. The large one fires in
// random directions; the small one aims at the nearest ship, with an error
// drawn from the world's RNG that shrinks with the wave. Their shots hit
// ships (whatever the mode) and rocks; players' shots and ships hit them.

// saucerInterval draws the ticks until the next saucer in the current
// wave: between 3/4 and 5/4 of a mean that shortens with the wave.
func (w *World) saucerInterval() uint16 {
	mean := SaucerInterval - SaucerIntervalStep*(int(w.Wave)-1)
	if mean < SaucerIntervalMin {
		mean = SaucerIntervalMin
	}
	return uint16(mean*3/4 + w.Rand.Intn(mean/2+1))
}

// maxSaucerInterval bounds saucerInterval, for the snapshot's check.
const maxSaucerInterval = SaucerInterval * 5 / 4

// smallSaucerChance returns the percentage of saucers that are small in
// the current wave: 10 in wave 1, 10 more each wave, 80 at most.
func (w *World) smallSaucerChance() int {
	return min(10*int(w.Wave), 80)
}

// saucerSpeed returns the speed of a saucer of the given size, in units
// per tick.
func saucerSpeed(size uint8) fixed.Num {
	if size == SmallSaucer {
		return SmallSaucerSpeed
	}
	return LargeSaucerSpeed
}

// moveSaucers moves the saucers on, and lets go those that have crossed
// the field.
func (w *World) moveSaucers() {
	n := 0
	for k := 0; k < int(w.NumSaucer); k++ {
		s := w.Saucers[k]
		s.Pos = wrapVec(s.Pos.Add(s.Vel))
		s.Life--
		if s.Life == 0 {
			w.emit(Event{Kind: SaucerLeft, Slot: -1, Other: -1, Size: s.Size, Pos: s.Pos})
			continue
		}
		w.Saucers[n] = s
		n++
	}
	w.NumSaucer = uint8(n)
}

// runSaucers brings a saucer on when the timer says so, and steers and
// fires the saucers on the field.
func (w *World) runSaucers() {
	if w.SaucerIn > 0 && w.NumRocks > 0 {
		w.SaucerIn--
		if w.SaucerIn == 0 {
			if w.NumSaucer < MaxSaucers {
				w.spawnSaucer()
			}
			w.SaucerIn = w.saucerInterval()
		}
	}
	for k := 0; k < int(w.NumSaucer); k++ {
		s := &w.Saucers[k]
		s.TurnIn--
		if s.TurnIn == 0 {
			w.turnSaucer(s)
		}
		s.FireIn--
		if s.FireIn == 0 {
			w.saucerFire(k)
		}
	}
}

// spawnSaucer brings a saucer onto the field at its left or right edge.
func (w *World) spawnSaucer() {
	size := uint8(LargeSaucer)
	if w.Rand.Intn(100) < w.smallSaucerChance() {
		size = SmallSaucer
	}
	speed := saucerSpeed(size)
	s := Saucer{
		ID:     w.newID(),
		Pos:    fixed.Vec{Y: fixed.Num(w.Rand.Intn(int(FieldH)))},
		Vel:    fixed.Vec{X: speed},
		Size:   size,
		Life:   uint16(FieldW / speed), // ticks to cross the field once
		FireIn: SaucerFirstShot,
	}
	if w.Rand.Intn(2) == 1 {
		s.Pos.X, s.Vel.X = FieldW-1, -speed
	}
	w.turnSaucer(&s)
	w.Saucers[w.NumSaucer] = s
	w.NumSaucer++
	w.emit(Event{Kind: SaucerAppeared, Slot: -1, Other: -1, Size: size, Pos: s.Pos})
}

// turnSaucer sets a saucer on a new course across the field: straight
// across, or diagonally up or down, for a random while.
func (w *World) turnSaucer(s *Saucer) {
	s.Vel.Y = saucerSpeed(s.Size) * fixed.Num(w.Rand.Intn(3)-1)
	s.TurnIn = uint8(w.Rand.Range(SaucerTurnLo, SaucerTurnHi))
}

// saucerFire makes saucer k fire, if the saucers' shots in flight allow,
// and sets the time of its next shot.
func (w *World) saucerFire(k int) {
	s := &w.Saucers[k]
	if s.Size == SmallSaucer {
		s.FireIn = uint8(w.Rand.Range(35, 65))
	} else {
		s.FireIn = uint8(w.Rand.Range(50, 90))
	}
	n := 0
	for j := 0; j < int(w.NumBullet); j++ {
		if w.Bullets[j].Owner == SaucerOwner {
			n++
		}
	}
	if n >= MaxSaucerShots || int(w.NumBullet) >= MaxBullets {
		return
	}
	var dir fixed.Vec
	if s.Size == SmallSaucer {
		dir = w.aim(s.Pos)
	} else {
		dir = fixed.Dir(fixed.Angle(w.Rand.Uint32()))
	}
	b := Bullet{
		ID:    w.newID(),
		Pos:   wrapVec(s.Pos.Add(dir.Scale(SaucerRadius(s.Size)))),
		Vel:   dir.Scale(fixed.Int(SaucerShotSpeed)),
		Life:  SaucerShotLife,
		Owner: SaucerOwner,
		Power: 1,
	}
	w.Bullets[w.NumBullet] = b
	w.NumBullet++
	w.emit(Event{Kind: SaucerFired, Slot: -1, Other: -1, Size: s.Size, Pos: b.Pos})
}

// aim returns the unit vector from p toward the nearest ship on the field
// (the lowest slot of those equally near; not an away one), turned by a random error of up
// to the wave's aim error either way; a random direction if no ship is on
// the field.
func (w *World) aim(p fixed.Vec) fixed.Vec {
	best, bestD := -1, int64(0)
	for i := range w.Ships {
		sh := &w.Ships[i]
		if !sh.Alive || sh.Away {
			continue
		}
		if d := torusDistSq(p, sh.Pos); best < 0 || d < bestD {
			best, bestD = i, d
		}
	}
	if best < 0 || bestD == 0 {
		return fixed.Dir(fixed.Angle(w.Rand.Uint32()))
	}
	t := w.Ships[best].Pos
	dx := int64(torus(t.X-p.X, FieldW))
	dy := int64(torus(t.Y-p.Y, FieldH))
	l := int64(fixed.ISqrt(uint64(bestD)))
	u := fixed.Vec{X: fixed.Num(dx << fixed.Shift / l), Y: fixed.Num(dy << fixed.Shift / l)}
	spread := int(fixed.Degrees(max(SaucerAimError-2*(int(w.Wave)-1), SaucerAimErrorMin)))
	e := fixed.Angle(w.Rand.Range(-spread, spread))
	c, s := fixed.Cos(e), fixed.Sin(e)
	return fixed.Vec{X: u.X.Mul(c) - u.Y.Mul(s), Y: u.X.Mul(s) + u.Y.Mul(c)}
}

// destroySaucer reports saucer k destroyed and credits slot (-1: no one);
// finishCollide takes it off the field.
func (w *World) destroySaucer(k, slot int) {
	s := &w.Saucers[k]
	var score uint32
	if slot >= 0 {
		score = SaucerScore(s.Size)
		w.addScore(slot, score)
	}
	w.emit(Event{Kind: SaucerDestroyed, Slot: int8(slot), Other: -1, Size: s.Size, Pos: s.Pos, Value: int32(score)})
}
