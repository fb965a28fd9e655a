package game

import (
	"testing"

	"rockstep/game/fixed"
	"rockstep/game/rng"
)

// collidePairwise is collide as it was before the grid: every bullet and
// every ship against every rock, in index order. The grid must give the
// same world, tick for tick.
func (w *World) collidePairwise() {
	var hit [MaxRocks]bool
	var by [MaxRocks]int8
	shipsHit := w.Setup.Mode == Versus || w.Setup.FriendlyFire
	for j := 0; j < int(w.NumBullet); j++ {
		b := &w.Bullets[j]
		for k := 0; k < int(w.NumRocks) && b.Power > 0; k++ {
			r := &w.Rocks[k]
			if hit[k] || !isNear(b.Pos, r.Pos, RockRadius(r.Size)) {
				continue
			}
			hit[k], by[k] = true, int8(b.Owner)
			b.Power--
		}
		if !shipsHit {
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
			w.killShip(i, int(b.Owner))
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
	}
	w.finishCollide(&hit, &by)
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
		w.NumRocks = uint8(1 + r.Intn(MaxRocks))
		w.NumBullet = uint8(r.Intn(MaxBullets + 1))
		for k := 0; k < int(w.NumRocks); k++ {
			w.Rocks[k].Pos = fixed.Vec{X: edge(FieldW), Y: edge(FieldH)}
			w.Rocks[k].Size = uint8(1 + r.Intn(3))
		}
		for j := 0; j < int(w.NumBullet); j++ {
			w.Bullets[j].Pos = fixed.Vec{X: edge(FieldW), Y: edge(FieldH)}
			w.Bullets[j].Power = uint8(1 + r.Intn(2))
		}
		for i := range w.Ships {
			w.Ships[i].Pos = fixed.Vec{X: edge(FieldW), Y: edge(FieldH)}
			w.Ships[i].Invuln = uint16(r.Intn(2))
		}
		a, b := *w, *w
		a.collide()
		b.collidePairwise()
		if a.Hash() != b.Hash() || a.NumEvents != b.NumEvents || a.Events != b.Events {
			t.Fatalf("trial %d: the grid and the pairwise test disagree (rocks %d→%d/%d, bullets %d→%d/%d)",
				trial, w.NumRocks, a.NumRocks, b.NumRocks, w.NumBullet, a.NumBullet, b.NumBullet)
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
		g.addShip(0, p)
		if rocks, ships := g.near(p); rocks[0]&1 == 0 || ships&1 == 0 {
			t.Errorf("near(%v) misses what is binned at %v", p, p)
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
