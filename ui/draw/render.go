package draw

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"

	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/assets/outline"
	"rockstep/assets/palette"
	"rockstep/game"
)

// Renderer draws a world as glowing vector outlines. A frame is a handful
// of draw calls: the stars and every glow in one additive batch, every
// outline and fill in one batch over it, then the explosions and the HUD.
type Renderer struct {
	glow  Beams         // additive: stars, glows
	core  Beams         // over: fills, outlines, shots
	fx    Beams         // additive: explosions
	hud   Beams         // over: HUD shapes
	white *ebiten.Image // a white pixel, the source of every triangle

	v         View
	lineWidth float32       // pixels, of the current frame
	glowWidth float32       // pixels
	field     *ebiten.Image // the screen clipped to the field
	fieldOf   *ebiten.Image // the screen field was cut from
	fieldRect image.Rectangle
	stars     [140]star
	copies    [4][2]float64  // offsets of wrapped copies, units
	pts       [24][2]float32 // an outline on the screen, pixels
}

// star is a fixed point of the backdrop.
type star struct {
	x, y  float64 // world units
	size  float64 // world units
	light float32 // 0..1
}

// Opacity of the glow around outlines.
const glowAlpha = 0.22

// NewRenderer returns a renderer with its backdrop of stars.
func NewRenderer() *Renderer {
	r := &Renderer{}
	// A cosmetic RNG of the UI's own: the engine's RNG is state of the game
	// and must never be drawn from outside it.
	rnd := rand.New(rand.NewPCG(0x5eed, 0x57a75))
	for i := range r.stars {
		r.stars[i] = star{
			x:     rnd.Float64() * FieldW,
			y:     rnd.Float64() * FieldH,
			size:  0.8 + rnd.Float64()*1.2,
			light: 0.10 + 0.45*float32(rnd.Float64()*rnd.Float64()),
		}
	}
	return r
}

// Begin prepares a frame on screen under view v and returns the image to
// draw the field on: the screen clipped to the field's rectangle, so that
// wrapped copies of objects do not spill into the bars.
func (r *Renderer) Begin(screen *ebiten.Image, v View) *ebiten.Image {
	if r.white == nil {
		img := ebiten.NewImage(3, 3)
		img.Fill(color.White)
		r.white = img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)
	}
	rect := v.rect()
	if r.field == nil || r.fieldOf != screen || r.fieldRect != rect {
		r.field = screen.SubImage(rect).(*ebiten.Image)
		r.fieldOf, r.fieldRect = screen, rect
	}
	r.v = v
	r.lineWidth = float32(math.Max(1.5, 2*v.Scale))
	r.glowWidth = r.lineWidth * 5
	r.glow.reset()
	r.core.reset()
	r.fx.reset()
	r.hud.reset()
	return r.field
}

// outline adds the closed polygon pts (local units), scaled by size, turned
// by angle (radians) and placed at world point (x, y), with the copies that
// wrap around the field's edges within reach (none for reach < 0, as the
// HUD's outside the field): its glow, a fill of opacity
// fillA if above zero, and its line, in colour c at opacity a. glow nil
// draws no glow; core receives the fill and the line.
func (r *Renderer) outline(glow, core *Beams, pts [][2]float64, x, y, angle, size, reach float64, c color.RGBA, a, fillA float32) {
	sin, cos := math.Sincos(angle)
	n := len(pts)
	if n > len(r.pts) {
		n = len(r.pts)
	}
	lc, gc, fc := Tint(c, a), Tint(c, a*glowAlpha), Tint(c, fillA)
	copies := 1
	if reach >= 0 {
		copies = wrapCopies(x, y, reach, &r.copies)
	} else {
		r.copies[0] = [2]float64{}
	}
	for k := 0; k < copies; k++ {
		cx, cy := x+r.copies[k][0], y+r.copies[k][1]
		for i, p := range pts[:n] {
			r.pts[i][0], r.pts[i][1] = r.v.pt(cx+(p[0]*cos-p[1]*sin)*size, cy+(p[0]*sin+p[1]*cos)*size)
		}
		if fillA > 0 {
			sx, sy := r.v.pt(cx, cy)
			core.fan(sx, sy, r.pts[:n], fc)
		}
		for i := 0; i < n; i++ {
			p, q := r.pts[i], r.pts[(i+1)%n]
			if glow != nil {
				glow.glow(p[0], p[1], q[0], q[1], r.glowWidth, gc)
			}
			core.line(p[0], p[1], q[0], q[1], r.lineWidth, lc)
		}
	}
}

// arc adds an arc of radius rad (units) around world point (x, y) from
// angle a0 sweeping clockwise by sweep (radians), with its glow.
func (r *Renderer) arc(x, y, rad, a0, sweep float64, c color.RGBA, a float32) {
	segs := int(math.Ceil(32 * math.Abs(sweep) / (2 * math.Pi)))
	segs = max(segs, 2)
	lc, gc := Tint(c, a), Tint(c, a*glowAlpha)
	px, py := r.v.pt(x+rad*math.Cos(a0), y+rad*math.Sin(a0))
	for k := 1; k <= segs; k++ {
		ang := a0 + sweep*float64(k)/float64(segs)
		qx, qy := r.v.pt(x+rad*math.Cos(ang), y+rad*math.Sin(ang))
		r.glow.glow(px, py, qx, qy, r.glowWidth, gc)
		r.core.line(px, py, qx, qy, r.lineWidth, lc)
		px, py = qx, qy
	}
}

// DrawBackdrop paints the bars, the field and its stars.
func (r *Renderer) DrawBackdrop(screen, field *ebiten.Image, tick uint32) {
	screen.Fill(fillBars)
	field.Fill(fillField)
	for i := range r.stars {
		s := &r.stars[i]
		// A slow twinkle, different for every star.
		tw := 0.8 + 0.2*float32(math.Sin(float64(tick)*0.03+float64(i)*1.7))
		x, y := r.v.pt(s.x, s.y)
		d := max(r.v.px(s.size), 1)
		r.glow.Rect(x-d/2, y-d/2, d, d, Tint(palette.Star, s.light*tw))
	}
	// The field's edge, where things wrap round.
	b := r.fieldRect
	x0, y0, x1, y1 := float32(b.Min.X), float32(b.Min.Y), float32(b.Max.X), float32(b.Max.Y)
	edge := Tint(palette.Border, 1)
	r.glow.Rect(x0, y0, x1-x0, 1, edge)
	r.glow.Rect(x0, y1-1, x1-x0, 1, edge)
	r.glow.Rect(x0, y0+1, 1, y1-y0-2, edge)
	r.glow.Rect(x1-1, y0+1, 1, y1-y0-2, edge)
}

// DrawWorld draws the world as it was a fraction t ∈ [0, 1] of a tick after
// prev, on its way to cur, onto field, together with the backdrop's stars.
func (r *Renderer) DrawWorld(field *ebiten.Image, prev, cur *game.World, t float64) {
	r.drawRocks(prev, cur, t)
	r.drawSaucers(prev, cur, t)
	r.drawBullets(prev, cur, t)
	for i := range cur.Ships {
		r.drawShip(i, &prev.Ships[i], &cur.Ships[i], t, cur.Tick)
	}
	r.glow.flush(field, r.white, ebiten.BlendLighter)
	r.core.flush(field, r.white, ebiten.BlendSourceOver)
}

func (r *Renderer) drawRocks(prev, cur *game.World, t float64) {
	tr := tracker[game.Rock]{before: prev.LiveRocks(), key: rockKey}
	for _, rk := range cur.LiveRocks() {
		x, y, was := tr.at(rk.ID, rk.Pos, t)
		a := float64(rk.Angle)
		if was != nil {
			a = lerpAngle(was.Angle, rk.Angle, t)
		}
		rad := toUnits(game.RockRadius(rk.Size))
		// A faint fill gives the rocks body without hiding what is behind.
		r.outline(&r.glow, &r.core, outline.Rocks[rk.Shape&3], x, y, toRadians(a), rad, rad*1.1, palette.Rock, 1, 0.06)
		r.edgeHint(x, y, toUnits(rk.Vel.X), toUnits(rk.Vel.Y), rad)
	}
}

// edgeWarnTicks is how long before a rock shows at the far edge the edge
// warns of it: 0.75 s of world ticks.
const edgeWarnTicks = 45

// edgeHint marks the edge a rock at (x, y) moving (vx, vy) units a tick
// with radius rad is about to come in by, where it wraps round: a short
// line along that edge, brighter as the rock nears, so that a rock never
// comes in from nowhere. Drawing only: the engine is not asked.
func (r *Renderer) edgeHint(x, y, vx, vy, rad float64) {
	// Ticks until the wrapped copy's edge reaches the far edge (the copy
	// shows once the rock is within rad of the near one), by axis.
	if at, ok := edgeTicks(x, vx, rad, FieldW); ok {
		ey := wrapFloat(y+vy*at, FieldH)
		ex := 0.0 // moving right, it comes in at the left
		if vx < 0 {
			ex = FieldW
		}
		r.edgeMark(ex, ey-rad, ex, ey+rad, at, math.Copysign(1, vx), 0)
	}
	if at, ok := edgeTicks(y, vy, rad, FieldH); ok {
		ex := wrapFloat(x+vx*at, FieldW)
		ey := 0.0
		if vy < 0 {
			ey = FieldH
		}
		r.edgeMark(ex-rad, ey, ex+rad, ey, at, 0, math.Copysign(1, vy))
	}
}

// edgeTicks returns the ticks until a rock at p moving v a tick, of
// radius rad, begins to show at the far edge of a field size long, if it
// is due within edgeWarnTicks.
func edgeTicks(p, v, rad, size float64) (float64, bool) {
	var d float64 // units to go
	switch {
	case v > 0:
		d = size - rad - p
	case v < 0:
		d = p - rad
	default:
		return 0, false
	}
	at := d / math.Abs(v)
	return at, at > 0 && at < edgeWarnTicks
}

// Edge marks: how bright a mark is when it appears and when the rock
// comes in (of the rock's own colour), and how far its arrow points into
// the field, in units.
const (
	edgeMarkMin   = 0.4  // clear at a glance from the first frame
	edgeMarkMax   = 0.85 // still under the rocks' own brightness
	edgeMarkArrow = 10.0
)

// edgeAlpha is an edge mark's opacity ticks before its rock comes in.
func edgeAlpha(ticks float64) float32 {
	return float32(edgeMarkMin + (edgeMarkMax-edgeMarkMin)*(1-ticks/edgeWarnTicks))
}

// edgeMark draws the warning at an edge, ticks from the rock's coming in:
// a line from (x0, y0) to (x1, y1) along the edge and, from its middle, a
// short arrow pointing (dx, dy) into the field, the way the rock comes.
func (r *Renderer) edgeMark(x0, y0, x1, y1, ticks, dx, dy float64) {
	a := edgeAlpha(ticks)
	p0x, p0y := r.v.pt(x0, y0)
	p1x, p1y := r.v.pt(x1, y1)
	w := r.lineWidth * 1.5
	r.glow.glow(p0x, p0y, p1x, p1y, r.glowWidth, Tint(palette.Rock, a*glowAlpha))
	r.core.line(p0x, p0y, p1x, p1y, w, Tint(palette.Rock, a))
	mx, my := (x0+x1)/2, (y0+y1)/2
	tx, ty := r.v.pt(mx+dx*edgeMarkArrow, my+dy*edgeMarkArrow)
	ax, ay := float32(dy*edgeMarkArrow/2), float32(dx*edgeMarkArrow/2) // half the arrow's base, along the edge
	s := float32(r.v.Scale)
	b0x, b0y := r.v.pt(mx, my)
	r.core.line(b0x-ax*s, b0y-ay*s, tx, ty, w, Tint(palette.Rock, a))
	r.core.line(b0x+ax*s, b0y+ay*s, tx, ty, w, Tint(palette.Rock, a))
}

func (r *Renderer) drawBullets(prev, cur *game.World, t float64) {
	tr := tracker[game.Bullet]{before: prev.LiveBullets(), key: bulletKey}
	for _, b := range cur.LiveBullets() {
		x, y, _ := tr.at(b.ID, b.Pos, t)
		col := PlayerColour(int(b.Owner))
		if b.Owner == game.SaucerOwner {
			col = palette.Danger
		}
		// A short streak behind the shot along its velocity, and a bright
		// head; full-power shots are longer and bigger.
		vx, vy := toUnits(b.Vel.X), toUnits(b.Vel.Y)
		tail, rad := 1.5, 1.8 // ticks of travel, units
		if b.Power > 1 {
			tail, rad = 2.5, 3
		}
		n := wrapCopies(x, y, 40, &r.copies)
		for c := 0; c < n; c++ {
			cx, cy := x+r.copies[c][0], y+r.copies[c][1]
			sx, sy := r.v.pt(cx, cy)
			ex, ey := r.v.pt(cx-vx*tail, cy-vy*tail)
			r.glow.glow(ex, ey, sx, sy, r.glowWidth, Tint(col, glowAlpha*1.5))
			r.glow.Disc(sx, sy, r.v.px(rad*3), Tint(col, 0.5), true)
			r.core.line(ex, ey, sx, sy, r.lineWidth, Tint(col, 0.9))
			r.core.Disc(sx, sy, max(r.v.px(rad), 1), Tint(palette.Core, 1), false)
		}
	}
}

// drawSaucers draws the saucers between prev and cur: the classic hull
// and dome, with a light that blinks along the hull as it flies.
func (r *Renderer) drawSaucers(prev, cur *game.World, t float64) {
	tr := tracker[game.Saucer]{before: prev.LiveSaucers(), key: saucerKey}
	for _, s := range cur.LiveSaucers() {
		x, y, _ := tr.at(s.ID, s.Pos, t)
		rad := toUnits(game.SaucerRadius(s.Size))
		r.outline(&r.glow, &r.core, outline.Saucer[:], x, y, 0, rad, rad*1.1, palette.Danger, 1, 0.12)
		r.outline(&r.glow, &r.core, outline.SaucerRim[:], x, y, 0, rad, rad*1.1, palette.Danger, 0.8, 0)
		// The light runs along the rim, one step every four ticks.
		k := float64((cur.Tick/4)%5) - 2
		n := wrapCopies(x, y, rad*1.1, &r.copies)
		for c := 0; c < n; c++ {
			sx, sy := r.v.pt(x+r.copies[c][0]+k*0.3*rad, y+r.copies[c][1]+0.12*rad)
			r.glow.Disc(sx, sy, r.v.px(rad*0.25), Tint(palette.Core, 0.4), true)
			r.core.Disc(sx, sy, max(r.v.px(rad*0.07), 1), Tint(palette.Core, 1), false)
		}
	}
}

// hyperFold is how many ticks a ship takes to fold into hyperspace, and to
// unfold out of it.
const hyperFold = 12

// drawShip draws slot i's ship between its states in prev and cur.
func (r *Renderer) drawShip(i int, prev, cur *game.Ship, t float64, tick uint32) {
	if cur.Present && !cur.Alive && cur.Jump > game.HyperspaceDelay-hyperFold {
		// Into hyperspace: the ship folds into its point where it was.
		f := (float64(cur.Jump-(game.HyperspaceDelay-hyperFold)) - t) / hyperFold
		x, y := toUnits(cur.Pos.X), toUnits(cur.Pos.Y)
		r.outline(&r.glow, &r.core, outline.Ship[:], x, y, toRadians(float64(cur.Angle)), max(f, 0.05), 30, palette.Core, float32(0.4+0.6*f), 0.3)
		return
	}
	if !cur.Present || !cur.Alive {
		return
	}
	x, y, a := toUnits(cur.Pos.X), toUnits(cur.Pos.Y), float64(cur.Angle)
	if prev.Alive {
		x, y = lerpPos(prev.Pos, cur.Pos, t)
		a = lerpAngle(prev.Angle, cur.Angle, t)
	}
	ang := toRadians(a)
	alpha := float32(1)
	switch {
	case cur.Away:
		alpha = 0.2 // faint and steady: its player is away, the ship out of play
	case cur.Invuln > 0 && (cur.Invuln/6)%2 == 1:
		alpha = 0.25 // blinking: not yet vulnerable
	}
	col := PlayerColour(i)
	size := 1.0
	if since := game.HyperspaceCooldown - game.HyperspaceDelay - int(cur.JumpCool); cur.JumpCool > 0 && since < hyperFold {
		// Out of hyperspace: the ship unfolds where it lands.
		size = 0.3 + 0.7*(float64(since)+t)/hyperFold
	}

	if cur.Thrust > 0 {
		// The flame grows with the thrust level and flickers.
		flick := 0.85 + 0.15*math.Sin(float64(tick)*1.9+float64(i))
		length := (5 + 5*float64(cur.Thrust)) * flick // units behind the notch
		flame := [3][2]float64{{-7.5, -3.5}, {-5 - length, 0}, {-7.5, 3.5}}
		r.outline(&r.glow, &r.core, flame[:], x, y, ang, 1, 60, palette.Flame, alpha, 0.25*alpha)
	}
	r.outline(&r.glow, &r.core, outline.Ship[:], x, y, ang, size, 30, col, alpha, 0.14*alpha)

	if cur.Charge > 0 {
		// The charge ring fills clockwise from the top; once full it pulses.
		f := float64(cur.Charge) / game.MaxCharge
		ca, cc := float32(0.5+0.5*f), col
		if cur.Charge >= game.MaxCharge {
			ca, cc = float32(0.75+0.25*math.Sin(float64(tick)*0.5)), palette.Core
		}
		n := wrapCopies(x, y, 30, &r.copies)
		for c := 0; c < n; c++ {
			r.arc(x+r.copies[c][0], y+r.copies[c][1], 22, -math.Pi/2, 2*math.Pi*f, cc, ca*alpha)
		}
	}
}

// Overlay returns the renderer's overlay batch, emptied: shapes added to it
// are drawn over the field and the bands by DrawOverlay (a replay's control
// bar).
func (r *Renderer) Overlay() *Beams {
	r.hud.reset()
	return &r.hud
}

// DrawOverlay draws the overlay batch onto dst and empties it.
func (r *Renderer) DrawOverlay(dst *ebiten.Image) {
	r.hud.flush(dst, r.white, ebiten.BlendSourceOver)
}

// FieldRect returns the screen rectangle, in pixels, of the field as last
// begun: what nothing of the HUD may cover.
func (r *Renderer) FieldRect() image.Rectangle { return r.fieldRect }
