package game

import (
	"testing"

	"rockstep/game/fixed"
	"rockstep/game/rng"
)

// collidePairwise is collide as it was before the grid: every bullet
// against every rock, saucer and ship, every ship against every rock and
// saucer, every saucer against every rock, in index order. The grid must
// give the same world, tick for tick.
func (w *World) collidePairwise() {
	var hit [MaxRocks]bool
	var by [MaxRocks]int8
	var gone uint8
	shipsHit := w.Setup.Mode == Versus || w.Setup.FriendlyFire
	for j := 0; j < int(w.NumBullet); j++ {
		b := &w.Bullets[j]
		saucer := b.Owner == SaucerOwner
		shooter := int8(b.Owner)
		if saucer {
			shooter = -1
		}
		for k := 0; k < int(w.NumRocks) && b.Power > 0; k++ {
			r := &w.Rocks[k]
			if hit[k] || !isNear(b.Pos, r.Pos, RockRadius(r.Size)) {
				continue
			}
			hit[k], by[k] = true, shooter
			b.Power--
		}
		for k := 0; k < int(w.NumSaucer) && !saucer && b.Power > 0; k++ {
			s := &w.Saucers[k]
			if gone&(1<<k) != 0 || !isNear(b.Pos, s.Pos, SaucerRadius(s.Size)) {
				continue
			}
			gone |= 1 << k
			w.destroySaucer(k, int(b.Owner))
			b.Power--
		}
		if !saucer && !shipsHit {
			continue
		}
		for i := range w.Ships {
			if b.Power == 0 {
				break
			}
			sh := &w.Ships[i]
			if i == int(b.Owner) || !sh.Alive || sh.Invuln > 0 || !isNear(b.Pos, sh.Pos, ShipRadius) {
				continue
			}
			w.killShip(i, int(shooter))
			b.Power--
		}
	}
	for i := range w.Ships {
		sh := &w.Ships[i]
		if !sh.Alive || sh.Invuln > 0 {
			continue
		}
		for k := 0; k < int(w.NumRocks); k++ {
			r := &w.Rocks[k]
			if hit[k] || !isNear(sh.Pos, r.Pos, RockRadius(r.Size)+ShipRadius) {
				continue
			}
			hit[k], by[k] = true, int8(i)
			w.killShip(i, -1)
			break
		}
		for k := 0; k < int(w.NumSaucer) && sh.Alive; k++ {
			s := &w.Saucers[k]
			if gone&(1<<k) != 0 || !isNear(sh.Pos, s.Pos, SaucerRadius(s.Size)+ShipRadius) {
				continue
			}
			gone |= 1 << k
			w.destroySaucer(k, i)
			w.killShip(i, -1)
		}
	}
	for k := 0; k < int(w.NumSaucer); k++ {
		s := &w.Saucers[k]
		for r := 0; r < int(w.NumRocks) && gone&(1<<k) == 0; r++ {
			rk := &w.Rocks[r]
			if hit[r] || !isNear(s.Pos, rk.Pos, RockRadius(rk.Size)+SaucerRadius(s.Size)) {
				continue
			}
			hit[r], by[r] = true, -1
			gone |= 1 << k
			w.destroySaucer(k, -1)
		}
	}
	var hitSet rockSet
	for k := range hit {
		if hit[k] {
			hitSet.add(k)
		}
	}
	w.finishCollide(hitSet, &by, gone, true)
}

// TestGridCollidesAsPairwise: on crowded random worlds, with things packed
// against the field's wrapping edges and corners, collide through the
// grid leaves exactly the world the pairwise loops leave.
func TestGridCollidesAsPairwise(t *testing.T) {
	r := rng.New(99)
	edge := func(size fixed.Num) fixed.Num {
		// Near 0 or near the far edge half the time, anywhere otherwise.
		switch r.Intn(4) {
		case 0:
			return fixed.Num(r.Intn(int(60 << fixed.Shift)))
		case 1:
			return size - 1 - fixed.Num(r.Intn(int(60<<fixed.Shift)))
		}
		return fixed.Num(r.Intn(int(size)))
	}
	for trial := 0; trial < 500; trial++ {
		w := WorstScene(uint64(trial))
		if trial%2 == 0 {
			w.Setup.Mode, w.Setup.FriendlyFire = Coop, trial%4 == 0
		}
		w.Setup.Saucers = true
		w.NumRocks = uint8(1 + r.Intn(MaxRocks))
		w.NumBullet = uint8(r.Intn(MaxBullets + 1))
		w.NumSaucer = uint8(r.Intn(MaxSaucers + 1))
		for k := 0; k < int(w.NumRocks); k++ {
			w.Rocks[k].Pos = fixed.Vec{X: edge(FieldW), Y: edge(FieldH)}
			w.Rocks[k].Size = uint8(1 + r.Intn(3))
		}
		for j := 0; j < int(w.NumBullet); j++ {
			w.Bullets[j].Pos = fixed.Vec{X: edge(FieldW), Y: edge(FieldH)}
			w.Bullets[j].Power = uint8(1 + r.Intn(2))
			if r.Intn(4) == 0 {
				w.Bullets[j].Owner = SaucerOwner
			}
		}
		for k := 0; k < int(w.NumSaucer); k++ {
			w.Saucers[k].Pos = fixed.Vec{X: edge(FieldW), Y: edge(FieldH)}
			w.Saucers[k].Size = uint8(1 + r.Intn(2))
		}
		for i := range w.Ships {
			w.Ships[i].Pos = fixed.Vec{X: edge(FieldW), Y: edge(FieldH)}
			w.Ships[i].Invuln = uint16(r.Intn(2))
		}
		a, b := *w, *w
		a.collide()
		b.collidePairwise()
		if a.Hash() != b.Hash() || a.NumEvents != b.NumEvents || a.Events != b.Events {
			t.Fatalf("trial %d: the grid and the pairwise test disagree (rocks %d→%d/%d, bullets %d→%d/%d, saucers %d→%d/%d)",
				trial, w.NumRocks, a.NumRocks, b.NumRocks, w.NumBullet, a.NumBullet, b.NumBullet, w.NumSaucer, a.NumSaucer, b.NumSaucer)
		}
	}
}

// TestGridOffTheField: a position off the field (a damaged snapshot)
// still maps to cells of the grid.
func TestGridOffTheField(t *testing.T) {
	var g rockGrid
	for _, p := range []fixed.Vec{{X: -1, Y: -1}, {X: FieldW, Y: FieldH}, {X: fixed.Max, Y: fixed.Min}, {X: fixed.Min, Y: fixed.Max}} {
		hx, hy := halves(p)
		if hx < 0 || hx >= 2*gridW || hy < 0 || hy >= 2*gridH {
			t.Errorf("halves(%v) = %d, %d: outside the %d×%d grid", p, hx, hy, gridW, gridH)
		}
		g.addRocks([]Rock{{Pos: p}})
		g.addSaucers([]Saucer{{Pos: p}})
		g.addShip(0, p)
		if n := g.near(p); n.rocks.lo&1 == 0 || n.ships&1 == 0 || n.saucers&1 == 0 {
			t.Errorf("near(%v) misses what is binned at %v", p, p)
		}
		if n := g.around(p); n.rocks.lo&1 == 0 || n.ships&1 == 0 || n.saucers&1 == 0 {
			t.Errorf("around(%v) misses what is binned at %v", p, p)
		}
	}
}

// TestGridReach: reach covers the longest distance at which two things
// collide, and bulletReach the longest at which a bullet hits anything.
// (The compiler checks that the cells are large enough for both.)
func TestGridReach(t *testing.T) {
	for _, d := range []struct {
		what  string
		r     fixed.Num
		reach fixed.Num
	}{
		{"big rock and ship", RockRadius(Big) + ShipRadius, reach},
		{"big rock and large saucer", RockRadius(Big) + SaucerRadius(LargeSaucer), reach},
		{"big rock and small saucer", RockRadius(Big) + SaucerRadius(SmallSaucer), reach},
		{"ship and large saucer", ShipRadius + SaucerRadius(LargeSaucer), reach},
		{"bullet and big rock", RockRadius(Big), bulletReach},
		{"bullet and large saucer", SaucerRadius(LargeSaucer), bulletReach},
		{"bullet and ship", ShipRadius, bulletReach},
	} {
		if d.r > d.reach {
			t.Errorf("%s collide at %d units, beyond the grid's reach %d", d.what, d.r.Floor(), d.reach.Floor())
		}
	}
}

// BenchmarkCollide compares the grid with the pairwise loops on the
// standard and the worst scene (the ratio is in BENCHMARKS.md).
func BenchmarkCollide(b *testing.B) {
	for _, sc := range []struct {
		name string
		w    *World
	}{{"standard", StandardScene(1)}, {"worst", WorstScene(1)}} {
		b.Run(sc.name+"/grid", func(b *testing.B) {
			for b.Loop() {
				w := *sc.w
				w.collide()
			}
		})
		b.Run(sc.name+"/pairwise", func(b *testing.B) {
			for b.Loop() {
				w := *sc.w
				w.collidePairwise()
			}
		})
	}
}

// isNearBefore is isNear as it was before it lost its branches: it tested
// |dx| and |dy| against r before the squares.
func isNearBefore(a, b fixed.Vec, r fixed.Num) bool {
	torus := func(d, size fixed.Num) fixed.Num {
		if d >= size/2 {
			return d - size
		}
		if d < -size/2 {
			return d + size
		}
		return d
	}
	dx := torus(a.X-b.X, FieldW)
	if dx > r || dx < -r {
		return false
	}
	dy := torus(a.Y-b.Y, FieldH)
	if dy > r || dy < -r {
		return false
	}
	return int64(dx)*int64(dx)+int64(dy)*int64(dy) < int64(r)*int64(r)
}

// TestIsNearAsBefore: isNear (and closer, which it calls) answers as it
// did with its branches, on the field, across its edges and far off it.
func TestIsNearAsBefore(t *testing.T) {
	r := rng.New(16)
	coords := func(size fixed.Num) []fixed.Num {
		return []fixed.Num{0, 1, -1, size/2 - 1, size / 2, size/2 + 1, -size / 2, size - 1, size, fixed.Max, fixed.Min, fixed.Min + 1}
	}
	radii := []fixed.Num{0, 1, RockRadius(Small), RockRadius(Big), RockRadius(Big) + ShipRadius, SaucerRadius(LargeSaucer) + ShipRadius, 220 << fixed.Shift, fixed.Max}
	check := func(a, b fixed.Vec) {
		for _, rad := range radii {
			if got, want := isNear(a, b, rad), isNearBefore(a, b, rad); got != want {
				t.Fatalf("isNear(%v, %v, %d) = %v, was %v", a, b, rad, got, want)
			}
		}
	}
	for _, ax := range coords(FieldW) {
		for _, ay := range coords(FieldH) {
			for _, bx := range coords(FieldW) {
				for _, by := range coords(FieldH) {
					check(fixed.Vec{X: ax, Y: ay}, fixed.Vec{X: bx, Y: by})
				}
			}
		}
	}
	for n := 0; n < 200000; n++ {
		a := fixed.Vec{X: fixed.Num(r.Intn(int(FieldW))), Y: fixed.Num(r.Intn(int(FieldH)))}
		// b near a half the time, so that both answers come up.
		b := fixed.Vec{X: fixed.Num(r.Intn(int(FieldW))), Y: fixed.Num(r.Intn(int(FieldH)))}
		if n%2 == 0 {
			b = wrapVec(a.Add(fixed.Vec{X: fixed.Num(r.Range(-60<<fixed.Shift, 60<<fixed.Shift)), Y: fixed.Num(r.Range(-60<<fixed.Shift, 60<<fixed.Shift))}))
		}
		if n%5 == 0 {
			b.X = fixed.Num(r.Uint32()) // off the field
		}
		check(a, b)
	}
}
