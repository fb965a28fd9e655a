// Package iconart draws Rockstep's application icon from the game's own
// vector art: the ship and rock outlines of package outline and the colours
// of package palette, on the dark field, glowing as on a vector monitor.
//
// It is pure Go image code (no window, no GPU), so the icon can be drawn at
// `go generate` time and by the release packager at any size: 256×256 is
// embedded in package assets as icon.png; the macOS .icns holds 128, 256 and
// 512. Every line is drawn from a distance field: a pixel's coverage comes
// from its distance to the nearest segment, which anti-aliases at any size
// without supersampling.
package iconart

import (
	"image"
	"image/color"
	"math"

	"rockstep/assets/outline"
	"rockstep/assets/palette"
)

// colShip is the ship's colour: player slot 0's, cyan.
var colShip = palette.Players[0]

// flameOutline is the thrust flame behind the ship's notch, in the ship's
// units (package outline).
var flameOutline = [][2]float64{{-7, -4.5}, {-17, 0}, {-7, 4.5}}

// The composition, in design units on a 256×256 canvas (y down).
const (
	design     = 256.0
	tileInset  = 8.0  // transparent margin around the tile
	tileRadius = 52.0 // corner radius of the tile
)

// shape is one closed outline placed on the canvas.
type shape struct {
	pts      [][2]float64 // local outline
	x, y     float64      // centre on the canvas, design units
	scale    float64      // design units per local unit
	angle    float64      // radians, clockwise on screen (y down)
	col      color.RGBA
	width    float64 // line width, design units
	fill     float64 // opacity of the inside, 0..1
	glow     float64 // opacity of the halo, 0..1
	glowSize float64 // halo radius, design units
}

func (s shape) segments() [][4]float64 {
	sin, cos := math.Sincos(s.angle)
	n := len(s.pts)
	pts := make([][2]float64, n)
	for i, p := range s.pts {
		px, py := p[0]*s.scale, p[1]*s.scale
		pts[i] = [2]float64{s.x + px*cos - py*sin, s.y + px*sin + py*cos}
	}
	segs := make([][4]float64, n)
	for i := range pts {
		a, b := pts[i], pts[(i+1)%n]
		segs[i] = [4]float64{a[0], a[1], b[0], b[1]}
	}
	return segs
}

// scene is the icon: a ship firing at a big rock, with smaller rocks about.
func scene() []shape {
	up := -math.Pi / 4 // the ship faces up and to the right
	rock := func(s int, x, y, r, a float64) shape {
		return shape{pts: outline.Rocks[s&3], x: x, y: y, scale: r, angle: a, col: palette.Rock,
			width: 5, fill: 0.06, glow: 0.35, glowSize: 10}
	}
	return []shape{
		rock(0, 178, 84, 46, 0.3),
		rock(2, 198, 192, 22, 1.1),
		rock(3, 66, 70, 17, 2.0),
		{pts: flameOutline, x: 96, y: 164, scale: 3.4, angle: up, col: palette.Flame,
			width: 5, fill: 0.35, glow: 0.45, glowSize: 10},
		{pts: outline.Ship[:], x: 96, y: 164, scale: 3.4, angle: up, col: colShip,
			width: 6, fill: 0.14, glow: 0.55, glowSize: 14},
	}
}

// stars are faint dots on the field: x, y, radius in design units.
var stars = [][3]float64{
	{44, 132, 1.6}, {122, 46, 1.3}, {214, 138, 1.4}, {58, 212, 1.2},
	{140, 214, 1.5}, {226, 46, 1.1}, {100, 98, 1.0},
}

// bullet is the shot on its way to the big rock: centre and radius.
var bullet = [3]float64{150, 110, 4.5}

// Render draws the icon at size×size pixels: an opaque rounded tile on a
// transparent background. Line widths never fall below one pixel, so small
// sizes stay legible.
func Render(size int) *image.NRGBA {
	k := float64(size) / design // pixels per design unit
	c := newCanvas(size)

	// The tile: the field colour with the border colour as a rim.
	inset, rad := tileInset*k, tileRadius*k
	half := float64(size)/2 - inset
	rim := math.Max(3*k, 1)
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			x, y := float64(px)+0.5-float64(size)/2, float64(py)+0.5-float64(size)/2
			d := roundedSquareDist(x, y, half, rad)
			if a := clamp01(0.5 - d); a > 0 {
				c.over(px, py, palette.Field, a)
			}
			if a := clamp01(0.5-math.Abs(d+rim/2)+rim/2) * 0.9; a > 0 {
				c.over(px, py, palette.Border, a)
			}
		}
	}
	for _, s := range stars {
		c.dot(s[0]*k, s[1]*k, math.Max(s[2]*k, 0.6), palette.Star, 0.55)
	}
	for _, s := range scene() {
		segs := s.segments()
		for i := range segs {
			for j := range segs[i] {
				segs[i][j] *= k
			}
		}
		c.stroke(segs, math.Max(s.width*k, 1), s.col, s.fill, s.glow, math.Max(s.glowSize*k, 1.5))
	}
	c.dot(bullet[0]*k, bullet[1]*k, math.Max(bullet[2]*3*k, 1.5), palette.Core, 0.25)
	c.dot(bullet[0]*k, bullet[1]*k, math.Max(bullet[2]*k, 0.8), palette.Core, 1)

	// Keep the art inside the tile: nothing is drawn on the transparent margin.
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			x, y := float64(px)+0.5-float64(size)/2, float64(py)+0.5-float64(size)/2
			c.mask(px, py, clamp01(0.5-roundedSquareDist(x, y, half, rad)))
		}
	}
	return c.image()
}

// canvas accumulates premultiplied linear-ish RGBA in floats (0..1).
type canvas struct {
	size int
	px   [][4]float64
}

func newCanvas(size int) *canvas {
	return &canvas{size: size, px: make([][4]float64, size*size)}
}

// over composites colour col at opacity a over pixel (x, y).
func (c *canvas) over(x, y int, col color.RGBA, a float64) {
	p := &c.px[y*c.size+x]
	r, g, b := float64(col.R)/255, float64(col.G)/255, float64(col.B)/255
	p[0] = r*a + p[0]*(1-a)
	p[1] = g*a + p[1]*(1-a)
	p[2] = b*a + p[2]*(1-a)
	p[3] = a + p[3]*(1-a)
}

// add brightens pixel (x, y) by colour col at strength a, as light adds on a
// phosphor screen; alpha is left to the tile.
func (c *canvas) add(x, y int, col color.RGBA, a float64) {
	p := &c.px[y*c.size+x]
	p[0] = math.Min(p[0]+float64(col.R)/255*a, p[3])
	p[1] = math.Min(p[1]+float64(col.G)/255*a, p[3])
	p[2] = math.Min(p[2]+float64(col.B)/255*a, p[3])
}

func (c *canvas) mask(x, y int, a float64) {
	p := &c.px[y*c.size+x]
	for i := range p {
		p[i] *= a
	}
}

// dot draws a filled disc of radius r pixels centred on (cx, cy).
func (c *canvas) dot(cx, cy, r float64, col color.RGBA, a float64) {
	x0, x1, y0, y1 := c.bounds(cx-r-1, cx+r+1, cy-r-1, cy+r+1)
	for py := y0; py < y1; py++ {
		for px := x0; px < x1; px++ {
			d := math.Hypot(float64(px)+0.5-cx, float64(py)+0.5-cy)
			if v := clamp01(r + 0.5 - d); v > 0 {
				c.over(px, py, col, v*a)
			}
		}
	}
}

// stroke draws the closed outline made of segments (x0, y0, x1, y1 in pixels)
// with a line of the given width, its inside filled at opacity fill and a
// halo of the given opacity and radius around it.
func (c *canvas) stroke(segs [][4]float64, width float64, col color.RGBA, fill, glow, glowSize float64) {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, s := range segs {
		minX, maxX = math.Min(minX, math.Min(s[0], s[2])), math.Max(maxX, math.Max(s[0], s[2]))
		minY, maxY = math.Min(minY, math.Min(s[1], s[3])), math.Max(maxY, math.Max(s[1], s[3]))
	}
	m := width + 3*glowSize
	x0, x1, y0, y1 := c.bounds(minX-m, maxX+m, minY-m, maxY+m)
	for py := y0; py < y1; py++ {
		for px := x0; px < x1; px++ {
			x, y := float64(px)+0.5, float64(py)+0.5
			d := math.Inf(1)
			inside := false
			for _, s := range segs {
				d = math.Min(d, segDist(x, y, s))
				// Even-odd rule for the fill.
				if (s[1] > y) != (s[3] > y) && x < s[0]+(y-s[1])*(s[2]-s[0])/(s[3]-s[1]) {
					inside = !inside
				}
			}
			if inside && fill > 0 {
				c.over(px, py, col, fill)
			}
			if glow > 0 {
				g := math.Max(d-width/2, 0) / glowSize
				c.add(px, py, col, glow*math.Exp(-g*g))
			}
			if v := clamp01(width/2 + 0.5 - d); v > 0 {
				c.over(px, py, col, v)
			}
		}
	}
}

func (c *canvas) bounds(x0, x1, y0, y1 float64) (int, int, int, int) {
	clampInt := func(v float64) int { return int(math.Max(0, math.Min(float64(c.size), v))) }
	return clampInt(math.Floor(x0)), clampInt(math.Ceil(x1)), clampInt(math.Floor(y0)), clampInt(math.Ceil(y1))
}

// image converts the canvas to straight-alpha 8-bit RGBA.
func (c *canvas) image() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, c.size, c.size))
	for i, p := range c.px {
		o := img.Pix[i*4 : i*4+4]
		if p[3] <= 0 {
			continue
		}
		for j := 0; j < 3; j++ {
			o[j] = uint8(math.Round(clamp01(p[j]/p[3]) * 255))
		}
		o[3] = uint8(math.Round(clamp01(p[3]) * 255))
	}
	return img
}

// segDist is the distance from (x, y) to the segment s.
func segDist(x, y float64, s [4]float64) float64 {
	dx, dy := s[2]-s[0], s[3]-s[1]
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = clamp01(((x-s[0])*dx + (y-s[1])*dy) / l)
	}
	return math.Hypot(x-s[0]-t*dx, y-s[1]-t*dy)
}

// roundedSquareDist is the signed distance from (x, y) to a square of
// half-side half with corners of radius r, centred on the origin: negative
// inside.
func roundedSquareDist(x, y, half, r float64) float64 {
	qx, qy := math.Abs(x)-half+r, math.Abs(y)-half+r
	out := math.Hypot(math.Max(qx, 0), math.Max(qy, 0))
	return out + math.Min(math.Max(qx, qy), 0) - r
}

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }
