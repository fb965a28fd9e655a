package game

import (
	"math/bits"

	"rockstep/game/fixed"
)

// The collision broad phase: a uniform grid over the wrapping field. Each
// tick, collide bins every rock, every saucer and every ship that can be
// hit, by the cell its centre is in.
//
// A cell is at least twice as wide and as high as the longest distance at
// which a bullet hits anything, so what a bullet can hit is binned in the
// bullet's own cell or in the three cells that meet at the corner of the
// quarter the bullet is in (across the field's edges, which wrap): near
// returns those. A cell is also at least as wide and as high as the longest
// distance at which a ship or a saucer touches anything, so what they can
// touch is in their own cell or the eight around it: around returns those.
// Bullets are most of what is tested, and small cells give them fewer
// candidates.
//
// The grid changes nothing a player could see: candidates come out in
// index order, as the pairwise loops visited them, and each is tested
// exactly as before, so the world (and its hash) is the same tick for tick.
// The grid lives on the stack of one collide call: it is not part of the
// world, its snapshot or its hash.

// A grid cell's width and height, in units.
const (
	cellW fixed.Num = 80 << fixed.Shift
	cellH fixed.Num = 80 << fixed.Shift
)

// Grid dimensions, in cells.
const (
	gridW = int(FieldW / cellW)
	gridH = int(FieldH / cellH)
)

// bulletReach is the longest distance at which a bullet hits anything: a
// big rock's radius (above a saucer's and a ship's), in units.
// TestGridReach checks it against RockRadius, SaucerRadius and ShipRadius.
const bulletReach fixed.Num = 40 << fixed.Shift

// reach is the longest distance at which two things collide: a big rock's
// radius plus a large saucer's (which is above a ship's), in units.
// TestGridReach checks it against RockRadius and SaucerRadius.
const reach = 40<<fixed.Shift + max(ShipRadius, 18<<fixed.Shift)

// The grid's assumptions, checked by the compiler (a negative constant
// converted to uint does not compile):
const (
	// the field is a whole number of cells each way, so the grid wraps as
	// the field does;
	_ = uint(-(FieldW % cellW))
	_ = uint(-(FieldH % cellH))
	// half a cell is at least a bullet's reach, so a bullet and what it
	// hits are in the same quarter's four cells;
	_ = uint(cellW/2 - bulletReach)
	_ = uint(cellH/2 - bulletReach)
	// a cell is at least the reach, so anything and what it touches are in
	// the same three by three cells;
	_ = uint(cellW - reach)
	_ = uint(cellH - reach)
	// those cells are different cells;
	_ = uint(gridW - 3)
	_ = uint(gridH - 3)
	// a rock set holds every rock, and a byte every saucer.
	_ = uint(2*64 - MaxRocks)
	_ = uint(8 - MaxSaucers)
)

// rockSet is a set of rock indices, 0..127, as bits. It is a struct, not
// an array: Go passes and returns a struct of two words in registers, an
// array of two through memory.
type rockSet struct{ lo, hi uint64 }

// add puts k in s.
func (s *rockSet) add(k int) {
	if k < 64 {
		s.lo |= 1 << k
	} else {
		s.hi |= 1 << (k - 64)
	}
}

// has reports whether k is in s.
func (s rockSet) has(k int) bool {
	return (s.lo>>uint(k)|s.hi>>uint(k-64))&1 != 0
}

// without returns s less the indices in t.
func (s rockSet) without(t rockSet) rockSet {
	return rockSet{s.lo &^ t.lo, s.hi &^ t.hi}
}

// empty reports whether s holds no index.
func (s rockSet) empty() bool { return s.lo|s.hi == 0 }

// next removes and returns the lowest index in s, or -1 if s is empty.
func (s *rockSet) next() int {
	if s.lo != 0 {
		k := bits.TrailingZeros64(s.lo)
		s.lo &= s.lo - 1
		return k
	}
	if s.hi != 0 {
		k := bits.TrailingZeros64(s.hi)
		s.hi &= s.hi - 1
		return 64 + k
	}
	return -1
}

// rockGrid is what is binned in each cell of the field, row by row: the
// rocks, the ships (bit i: slot i) and the saucers (bit k: saucer k).
type rockGrid struct {
	rocks   [gridW * gridH]rockSet
	ships   [gridW * gridH]uint8
	saucers [gridW * gridH]uint8
}

// nearby is what is binned where it could touch a point.
type nearby struct {
	rocks   rockSet
	ships   uint8
	saucers uint8
}

// halves returns which half cell p is in, across and down. Only a damaged
// snapshot has a position off the field; wrapVec brings it onto it. (On
// the field the coordinates are not negative: unsigned, the divisions need
// no sign correction.)
func halves(p fixed.Vec) (hx, hy int) {
	p = wrapVec(p)
	return int(uint32(p.X) / uint32(cellW/2)), int(uint32(p.Y) / uint32(cellH/2))
}

// addRocks bins rocks.
func (g *rockGrid) addRocks(rocks []Rock) {
	for k := range rocks {
		hx, hy := halves(rocks[k].Pos)
		g.rocks[hy>>1*gridW+hx>>1].add(k)
	}
}

// addSaucers bins saucers.
func (g *rockGrid) addSaucers(saucers []Saucer) {
	for k := range saucers {
		hx, hy := halves(saucers[k].Pos)
		g.saucers[hy>>1*gridW+hx>>1] |= 1 << k
	}
}

// addShip bins ship i at p.
func (g *rockGrid) addShip(i int, p fixed.Vec) {
	hx, hy := halves(p)
	g.ships[hy>>1*gridW+hx>>1] |= 1 << i
}

// near returns what is binned where a bullet at p could hit it: in p's
// cell and the three that meet at the corner of p's quarter.
func (g *rockGrid) near(p fixed.Vec) nearby {
	hx, hy := halves(p)
	x0, y0 := hx>>1, hy>>1
	x1, y1 := x0+(hx&1)*2-1, y0+(hy&1)*2-1 // the neighbour on the half's side
	switch x1 {
	case -1:
		x1 = gridW - 1
	case gridW:
		x1 = 0
	}
	switch y1 {
	case -1:
		y1 = gridH - 1
	case gridH:
		y1 = 0
	}
	c00, c01, c10, c11 := y0*gridW+x0, y0*gridW+x1, y1*gridW+x0, y1*gridW+x1
	a, b, c, d := &g.rocks[c00], &g.rocks[c01], &g.rocks[c10], &g.rocks[c11]
	return nearby{
		rocks:   rockSet{a.lo | b.lo | c.lo | d.lo, a.hi | b.hi | c.hi | d.hi},
		ships:   g.ships[c00] | g.ships[c01] | g.ships[c10] | g.ships[c11],
		saucers: g.saucers[c00] | g.saucers[c01] | g.saucers[c10] | g.saucers[c11],
	}
}

// around returns what is binned where a ship or a saucer at p could touch
// it: in p's cell and the eight around it.
func (g *rockGrid) around(p fixed.Vec) nearby {
	hx, hy := halves(p)
	x, y := hx>>1, hy>>1
	xs := [3]int{x - 1, x, x + 1}
	if x == 0 {
		xs[0] = gridW - 1
	}
	if x == gridW-1 {
		xs[2] = 0
	}
	rows := [3]int{(y - 1) * gridW, y * gridW, (y + 1) * gridW}
	if y == 0 {
		rows[0] = (gridH - 1) * gridW
	}
	if y == gridH-1 {
		rows[2] = 0
	}
	var n nearby
	for _, row := range rows {
		for _, x := range xs {
			c := row + x
			n.rocks.lo |= g.rocks[c].lo
			n.rocks.hi |= g.rocks[c].hi
			n.ships |= g.ships[c]
			n.saucers |= g.saucers[c]
		}
	}
	return n
}
