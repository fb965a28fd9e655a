package draw

import (
	"math"

	"rockstep/game"
)

// Smoother hides the corrections of a predicted world. When a newer
// confirmed state arrives and the prediction is rebuilt, a ship may stand a
// little away from where the last frame drew it (another player's input
// was guessed wrong). Rather than teleport it (the jump the seeds' TankWarz
// diary describes), the smoother keeps the ship where it was drawn and
// lets the difference fade over a few frames; the ship glides into place.
// Large jumps (a respawn, or crossing the edge of the field) are real and
// shown at once.
type Smoother struct {
	off   [game.MaxPlayers][2]float64 // drawn minus simulated, units
	last  [game.MaxPlayers][2]float64 // simulated position last frame
	vel   [game.MaxPlayers][2]float64 // units per tick last frame
	alive [game.MaxPlayers]bool
	tick  uint32
}

// Smoothing constants.
const (
	smoothKeep  = 0.75 // share of the offset kept each frame: it halves in about 2.4 frames (40 ms)
	smoothSnap  = 60.0 // units: a bigger correction is shown at once
	smoothFloor = 0.05 // units: a smaller offset is dropped
)

// Update takes the world about to be drawn and returns, per slot, the
// offset to add to the ship's simulated position.
func (s *Smoother) Update(w *game.World) *[game.MaxPlayers][2]float64 {
	ticks := float64(w.Tick) - float64(s.tick)
	for i := range w.Ships {
		sh := &w.Ships[i]
		x, y := toUnits(sh.Pos.X), toUnits(sh.Pos.Y)
		vx, vy := toUnits(sh.Vel.X), toUnits(sh.Vel.Y)
		if !sh.Alive || !s.alive[i] || ticks < 0 || ticks > 30 {
			s.off[i] = [2]float64{}
		} else {
			// Where last frame's ship would be now, had nothing been corrected.
			ex := s.last[i][0] + s.vel[i][0]*ticks
			ey := s.last[i][1] + s.vel[i][1]*ticks
			dx := wrapDelta(ex-x, toUnits(game.FieldW))
			dy := wrapDelta(ey-y, toUnits(game.FieldH))
			s.off[i][0] = s.off[i][0]*smoothKeep + dx
			s.off[i][1] = s.off[i][1]*smoothKeep + dy
			if math.Hypot(s.off[i][0], s.off[i][1]) > smoothSnap {
				s.off[i] = [2]float64{}
			}
			if math.Abs(s.off[i][0]) < smoothFloor && math.Abs(s.off[i][1]) < smoothFloor {
				s.off[i] = [2]float64{}
			}
		}
		s.last[i] = [2]float64{x, y}
		s.vel[i] = [2]float64{vx, vy}
		s.alive[i] = sh.Alive
	}
	s.tick = w.Tick
	return &s.off
}

// wrapDelta maps a difference on a ring of the given size to the shortest
// way round.
func wrapDelta(d, size float64) float64 {
	d = math.Mod(d, size)
	switch {
	case d >= size/2:
		d -= size
	case d < -size/2:
		d += size
	}
	return d
}
