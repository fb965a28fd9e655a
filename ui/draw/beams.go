package draw

import (
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
)

// Beams is a batch of coloured triangles drawn in one DrawTriangles32 call:
// anti-aliased lines, soft glows, filled polygons and discs, in screen
// pixels. Lines are anti-aliased by a one-pixel alpha ramp along each edge
// rather than by Ebiten's stencil-buffer path filling, which costs a frame
// rate of 2 to 17 FPS on a software renderer (Mesa llvmpipe under Xvfb)
// where these strips keep 60. Its buffers are kept between frames, so a
// frame allocates nothing once they have grown.
type Beams struct {
	verts []ebiten.Vertex
	idx   []uint32
	op    ebiten.DrawTrianglesOptions
}

// feather is the width of the alpha ramp at the edge of a line, in pixels.
const feather = 1.0

// VertexColour is a straight-alpha colour for vertices (see Tint).
type VertexColour struct{ r, g, b, a float32 }

// Tint returns c at opacity a as a vertex colour.
func Tint(c color.RGBA, a float32) VertexColour {
	return VertexColour{float32(c.R) / 255, float32(c.G) / 255, float32(c.B) / 255, float32(c.A) / 255 * a}
}

func (b *Beams) reset() { b.verts, b.idx = b.verts[:0], b.idx[:0] }

func (b *Beams) vertex(x, y float32, c VertexColour, a float32) {
	b.verts = append(b.verts, ebiten.Vertex{
		DstX: x, DstY: y, SrcX: 1.5, SrcY: 1.5, // the middle of the white pixel
		ColorR: c.r, ColorG: c.g, ColorB: c.b, ColorA: c.a * a,
	})
}

// line adds an anti-aliased line from (x0, y0) to (x1, y1) of width w
// pixels. Its ends are extended by half its opaque core, so that the lines
// of a polygon meet without notches at its corners.
func (b *Beams) line(x0, y0, x1, y1, w float32, c VertexColour) {
	h := (w - feather) / 2 // half the fully opaque core
	if h < 0.25 {
		c.a *= (w + 0.5) / (2*0.25 + feather + 0.5)
		h = 0.25
	}
	b.strip(x0, y0, x1, y1, h, [4]float32{-h - feather, -h, h, h + feather}, [4]float32{0, 1, 1, 0}, c)
}

// glow adds a soft band of light along a line, w pixels wide, brightest in
// its middle.
func (b *Beams) glow(x0, y0, x1, y1, w float32, c VertexColour) {
	h := w / 2
	b.strip(x0, y0, x1, y1, 0, [4]float32{-h, -h / 3, h / 3, h}, [4]float32{0, 0.8, 0.8, 0}, c)
}

// strip adds a band along a line, extended by ext at both ends: its cross
// section has points at the given offsets (pixels, across the line) with
// the given opacities.
func (b *Beams) strip(x0, y0, x1, y1, ext float32, off, alpha [4]float32, c VertexColour) {
	dx, dy := x1-x0, y1-y0
	l := float32(math.Sqrt(float64(dx*dx + dy*dy)))
	if l < 1e-3 {
		dx, dy, l = 1, 0, 1
	}
	dx, dy = dx/l, dy/l
	nx, ny := -dy, dx
	ax, ay := x0-dx*ext, y0-dy*ext
	bx, by := x1+dx*ext, y1+dy*ext
	base := uint32(len(b.verts))
	for k := range off {
		b.vertex(ax+nx*off[k], ay+ny*off[k], c, alpha[k])
	}
	for k := range off {
		b.vertex(bx+nx*off[k], by+ny*off[k], c, alpha[k])
	}
	for k := uint32(0); k < 3; k++ {
		b.idx = append(b.idx, base+k, base+k+1, base+4+k+1, base+k, base+4+k+1, base+4+k)
	}
}

// fan fills the polygon pts (screen pixels) as a fan of triangles from
// (cx, cy), which must see every edge: the polygon must be star-shaped
// around it, as rocks and the ship are around their centres.
func (b *Beams) fan(cx, cy float32, pts [][2]float32, c VertexColour) {
	base := uint32(len(b.verts))
	b.vertex(cx, cy, c, 1)
	for _, p := range pts {
		b.vertex(p[0], p[1], c, 1)
	}
	n := uint32(len(pts))
	for k := uint32(0); k < n; k++ {
		b.idx = append(b.idx, base, base+1+k, base+1+(k+1)%n)
	}
}

// discSides is the number of sides of the polygon that draws a disc.
const discSides = 12

// Disc adds a filled disc of radius r pixels at (x, y) with an
// anti-aliased rim; soft makes it a glow that fades from the centre.
func (b *Beams) Disc(x, y, r float32, c VertexColour, soft bool) {
	base := uint32(len(b.verts))
	b.vertex(x, y, c, 1)
	inner, outer, edge := r-feather/2, r+feather/2, float32(1)
	if soft {
		inner, outer, edge = r, r, 0
	}
	for k := 0; k < discSides; k++ {
		s, co := math.Sincos(float64(k) * 2 * math.Pi / discSides)
		sx, cx := float32(s), float32(co)
		b.vertex(x+cx*max(inner, 0), y+sx*max(inner, 0), c, edge)
		b.vertex(x+cx*outer, y+sx*outer, c, 0)
	}
	for k := uint32(0); k < discSides; k++ {
		i0, o0 := base+1+2*k, base+2+2*k
		i1, o1 := base+1+2*((k+1)%discSides), base+2+2*((k+1)%discSides)
		b.idx = append(b.idx, base, i0, i1, i0, o0, o1, i0, o1, i1)
	}
}

// Rect adds an axis-aligned filled rectangle.
func (b *Beams) Rect(x, y, w, h float32, c VertexColour) {
	base := uint32(len(b.verts))
	b.vertex(x, y, c, 1)
	b.vertex(x+w, y, c, 1)
	b.vertex(x+w, y+h, c, 1)
	b.vertex(x, y+h, c, 1)
	b.idx = append(b.idx, base, base+1, base+2, base, base+2, base+3)
}

// flush draws the batch onto dst with the given blend and empties it.
func (b *Beams) flush(dst, white *ebiten.Image, blend ebiten.Blend) {
	if len(b.idx) > 0 {
		b.op.Blend = blend
		dst.DrawTriangles32(b.verts, b.idx, white, &b.op)
	}
	b.reset()
}
