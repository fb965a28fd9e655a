package draw

import (
	"image/color"
	"math"
	"math/rand/v2"

	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/assets/palette"
	"rockstep/game"
)

// Explosions are cosmetic: the UI makes them from the engine's events and
// they never feed back into the game, so each machine may draw its own.

const maxParticles = 768

// particle is a spark (a dot), a shard (a spinning line) or a shock ring
// (a growing circle) of an explosion.
type particle struct {
	x, y, vx, vy float64 // world units, units per tick
	angle, spin  float64 // radians, radians per tick (shards)
	length       float64 // world units: a shard's length, a ring's final radius; 0 for a spark
	ring         bool
	life, span   float64 // ticks left, ticks in all
	col          color.RGBA
}

// Particles is a fixed pool of live particles.
type Particles struct {
	p   [maxParticles]particle
	n   int
	rnd *rand.Rand // cosmetic, separate from the engine's RNG
}

// NewParticles returns an empty pool whose explosions are shaped by a
// cosmetic RNG seeded with seed.
func NewParticles(seed uint64) *Particles {
	return &Particles{rnd: rand.New(rand.NewPCG(seed, 0xb00))}
}

// add adds q unless the pool is full.
func (ps *Particles) add(q particle) {
	if ps.n < len(ps.p) {
		ps.p[ps.n] = q
		ps.n++
	}
}

// burst throws n sparks of colour c from world point (x, y) at up to speed
// units per tick, living up to life ticks.
func (ps *Particles) burst(x, y float64, n int, speed, life float64, c color.RGBA) {
	for range n {
		a := ps.rnd.Float64() * 2 * math.Pi
		s := speed * (0.25 + 0.75*ps.rnd.Float64())
		l := life * (0.5 + 0.5*ps.rnd.Float64())
		ps.add(particle{x: x, y: y, vx: s * math.Cos(a), vy: s * math.Sin(a), life: l, span: l, col: c})
	}
}

// shards throws n spinning lines of the given length from (x, y).
func (ps *Particles) shards(x, y float64, n int, length, speed, life float64, c color.RGBA) {
	for range n {
		a := ps.rnd.Float64() * 2 * math.Pi
		s := speed * (0.3 + 0.7*ps.rnd.Float64())
		l := life * (0.6 + 0.4*ps.rnd.Float64())
		ps.add(particle{
			x: x + math.Cos(a)*length/2, y: y + math.Sin(a)*length/2,
			vx: s * math.Cos(a), vy: s * math.Sin(a),
			angle: ps.rnd.Float64() * 2 * math.Pi, spin: (ps.rnd.Float64() - 0.5) * 0.3,
			length: length * (0.6 + 0.4*ps.rnd.Float64()), life: l, span: l, col: c,
		})
	}
}

// implode adds n sparks on a circle of the given radius around (x, y),
// falling in to it over life ticks.
func (ps *Particles) implode(x, y float64, n int, radius, life float64, c color.RGBA) {
	for range n {
		a := ps.rnd.Float64() * 2 * math.Pi
		r := radius * (0.6 + 0.4*ps.rnd.Float64())
		// Particles slow by 1.5% a tick: this speed arrives near the centre.
		s := r * 0.015 / (1 - math.Pow(0.985, life))
		ps.add(particle{x: wrapFloat(x+r*math.Cos(a), FieldW), y: wrapFloat(y+r*math.Sin(a), FieldH),
			vx: -s * math.Cos(a), vy: -s * math.Sin(a), life: life, span: life, col: c})
	}
}

// ring adds a shock ring at (x, y) growing to radius in life ticks.
func (ps *Particles) ring(x, y, radius, life float64, c color.RGBA) {
	ps.add(particle{x: x, y: y, length: radius, ring: true, life: life, span: life, col: c})
}

// React makes the explosions of one tick's events.
func (ps *Particles) React(events []game.Event) {
	for _, e := range events {
		x, y := toUnits(e.Pos.X), toUnits(e.Pos.Y)
		switch e.Kind {
		case game.RockDestroyed:
			r := toUnits(game.RockRadius(e.Size))
			ps.ring(x, y, r*1.6, 18, palette.Rock)
			ps.burst(x, y, 8+int(r/2), 1.0+r/20, 36+r, palette.Rock)
			ps.burst(x, y, 4+int(r/6), 1.6+r/20, 24, palette.Flame)
			ps.shards(x, y, 2+int(e.Size)*2, r*0.5, 0.5+r/60, 45+r, palette.Rock)
		case game.ShipDestroyed:
			c := PlayerColour(int(e.Slot))
			ps.ring(x, y, 70, 26, palette.Flame)
			ps.burst(x, y, 60, 3.2, 70, palette.Flame)
			ps.burst(x, y, 30, 1.8, 90, c)
			ps.shards(x, y, 5, 14, 1.0, 110, c)
		case game.ShotFired:
			if e.Value >= game.MaxCharge {
				ps.burst(x, y, 10, 1.6, 14, palette.Core)
			}
		case game.ShipRespawned:
			ps.burst(x, y, 24, 2.4, 24, PlayerColour(int(e.Slot)))
		case game.SaucerDestroyed:
			r := toUnits(game.SaucerRadius(e.Size))
			ps.ring(x, y, r*3, 22, palette.Danger)
			ps.burst(x, y, 30, 2.6, 60, palette.Danger)
			ps.burst(x, y, 16, 1.6, 40, palette.Flame)
			ps.shards(x, y, 6, r*0.8, 0.9, 70, palette.Danger)
		case game.HyperspaceOut:
			// The ship folds into a point: sparks drawn in, a ring closing.
			c := PlayerColour(int(e.Slot))
			ps.implode(x, y, 40, 70, 24, c)
			ps.implode(x, y, 12, 40, 16, palette.Core)
			ps.ring(x, y, 40, 14, palette.Core)
		case game.HyperspaceIn:
			// And unfolds where it lands.
			c := PlayerColour(int(e.Slot))
			ps.ring(x, y, 56, 24, c)
			ps.burst(x, y, 28, 2.8, 26, c)
			ps.burst(x, y, 10, 1.4, 18, palette.Core)
		}
	}
}

// Step advances every particle by one tick and drops the dead ones.
func (ps *Particles) Step() {
	n := 0
	for i := 0; i < ps.n; i++ {
		q := ps.p[i]
		q.life--
		if q.life <= 0 {
			continue
		}
		q.x = wrapFloat(q.x+q.vx, FieldW)
		q.y = wrapFloat(q.y+q.vy, FieldH)
		q.vx *= 0.985
		q.vy *= 0.985
		q.angle += q.spin
		ps.p[n] = q
		n++
	}
	ps.n = n
}

// Clear drops every particle: playback jumped to another time.
func (ps *Particles) Clear() { ps.n = 0 }

// wrapFloat brings x back into [0, size).
func wrapFloat(x, size float64) float64 {
	switch {
	case x < 0:
		return x + size
	case x >= size:
		return x - size
	}
	return x
}

// Draw draws the particles t ∈ [0, 1] of a tick after their last step minus
// one, as the world is drawn one tick behind, onto dst through r.
func (ps *Particles) Draw(dst *ebiten.Image, r *Renderer, t float64) {
	if ps.n == 0 {
		return
	}
	v, b := r.v, &r.fx
	back := 1 - t
	for i := 0; i < ps.n; i++ {
		q := &ps.p[i]
		x, y := q.x-q.vx*back, q.y-q.vy*back
		f := (q.life + back) / q.span // of its life left, 0..1
		a := flashAlpha(f)
		c := Tint(q.col, a)
		switch {
		case q.ring:
			grow := 1 - f
			rad := q.length * (0.3 + 0.7*grow*(2-grow)) // eases out, units
			px, py := v.pt(x+rad, y)
			const segs = 24
			for k := 1; k <= segs; k++ {
				s, co := math.Sincos(float64(k) * 2 * math.Pi / segs)
				qx, qy := v.pt(x+rad*co, y+rad*s)
				b.glow(px, py, qx, qy, r.glowWidth, Tint(q.col, a*glowAlpha))
				b.line(px, py, qx, qy, r.lineWidth*0.75, Tint(q.col, a*0.6))
				px, py = qx, qy
			}
		case q.length == 0:
			// A spark is a short streak along its motion.
			x0, y0 := v.pt(x, y)
			x1, y1 := v.pt(x-q.vx*2.5, y-q.vy*2.5)
			b.line(x0, y0, x1, y1, r.lineWidth*0.8, c)
		default:
			dx, dy := math.Cos(q.angle)*q.length/2, math.Sin(q.angle)*q.length/2
			x0, y0 := v.pt(x-dx, y-dy)
			x1, y1 := v.pt(x+dx, y+dy)
			b.line(x0, y0, x1, y1, r.lineWidth, c)
		}
	}
	// Drawn over, not added: sparks piled on one another never pass the
	// brightest of them, and none is opaque, so a flash never whites out
	// the shards in it that kill.
	b.flush(dst, r.white, ebiten.BlendSourceOver)
}

// flashMax is the opacity of a particle at its brightest.
const flashMax = 0.65

// flashAlpha is the opacity of a particle with fraction f of its life
// left: fading as the square of it, never above flashMax.
func flashAlpha(f float64) float32 { return float32(min(f*f, 1) * flashMax) }

// Len returns how many particles are alive.
func (ps *Particles) Len() int { return ps.n }
