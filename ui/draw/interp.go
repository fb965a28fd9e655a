package draw

import (
	"rockstep/game"
	"rockstep/game/fixed"
)

// The renderer draws the world between the last two ticks, at the fraction
// of a tick that has elapsed since the last one, so that motion is smooth
// on displays faster than the engine's 60 ticks/s and when frames and
// ticks drift apart. Interpolation is cosmetic: it reads two worlds and
// changes neither.

// jumpUnits is the largest move in one tick that is drawn as motion; a
// larger one (a respawn) is a jump and is drawn at once. The fastest thing
// on the field, a full-power shot from a speeding ship, moves about 20
// units a tick.
const jumpUnits = 64 // world units

// lerpCoord returns the coordinate a fraction t ∈ [0, 1] of the way from a to
// b, on a wrapping axis of the given size, in world units in [0, size).
// It goes the short way round, so an object leaving one edge glides in at
// the other rather than streaking across the field; when a and b are more
// than jumpUnits apart that way it returns b.
func lerpCoord(a, b, size fixed.Num, t float64) float64 {
	d := toUnits(fixed.WrapDelta(b, a, size))
	if d > jumpUnits || d < -jumpUnits {
		return toUnits(b)
	}
	x := toUnits(a) + d*t
	s := toUnits(size)
	switch {
	case x < 0:
		x += s
	case x >= s:
		x -= s
	}
	return x
}

// lerpPos returns the field position a fraction t of the way from a to b, in
// world units. A jump on either axis is a jump of the whole object.
func lerpPos(a, b fixed.Vec, t float64) (x, y float64) {
	dx := toUnits(fixed.WrapDelta(b.X, a.X, game.FieldW))
	dy := toUnits(fixed.WrapDelta(b.Y, a.Y, game.FieldH))
	if dx > jumpUnits || dx < -jumpUnits || dy > jumpUnits || dy < -jumpUnits {
		return toUnits(b.X), toUnits(b.Y)
	}
	return lerpCoord(a.X, b.X, game.FieldW, t), lerpCoord(a.Y, b.Y, game.FieldH, t)
}

// lerpAngle returns the angle a fraction t of the way from a to b the short
// way round, in engine angle units (65536 a turn) as a float.
func lerpAngle(a, b fixed.Angle, t float64) float64 {
	d := int16(b - a) // the short way: -32768..32767 units
	return float64(a) + float64(d)*t
}

// tracker follows a tick's rocks, bullets or saucers back to the previous
// tick's. The engine keeps each list in order of creation, that is of
// ascending ID, so matching a whole list against the previous tick's is
// one forward pass: at and find are called with ascending IDs.
type tracker[T any] struct {
	before []T                                 // the previous tick's list
	key    func(*T) (id uint32, pos fixed.Vec) // an entry's ID and position
	j      int                                 // where the search in before goes on from
}

// find returns the entry of before with the given id, or nil if it has none
// (the entity is new).
func (tr *tracker[T]) find(id uint32) *T {
	for ; tr.j < len(tr.before); tr.j++ {
		e := &tr.before[tr.j]
		if prevID, _ := tr.key(e); prevID >= id {
			if prevID == id {
				return e
			}
			return nil
		}
	}
	return nil
}

// at returns where the entity with the given id, now at pos, is drawn a
// fraction t of a tick after the previous tick: on its way from where it
// was then, or at pos if it is new. It returns the entity as it was then,
// or nil.
func (tr *tracker[T]) at(id uint32, pos fixed.Vec, t float64) (x, y float64, was *T) {
	if was = tr.find(id); was == nil {
		return toUnits(pos.X), toUnits(pos.Y), nil
	}
	_, from := tr.key(was)
	x, y = lerpPos(from, pos, t)
	return x, y, was
}

func rockKey(r *game.Rock) (uint32, fixed.Vec)     { return r.ID, r.Pos }
func bulletKey(b *game.Bullet) (uint32, fixed.Vec) { return b.ID, b.Pos }
func saucerKey(s *game.Saucer) (uint32, fixed.Vec) { return s.ID, s.Pos }
