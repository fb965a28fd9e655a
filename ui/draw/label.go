package draw

import (
	"image/color"
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

// Label is one line of text on the screen, rendered into an image of its
// own when its text or size changes and drawn from that image otherwise:
// text.Draw lays the line out and allocates on every call, a label only
// when the text changes.
type Label struct {
	s    string
	size float64 // of the face it was rendered with, pixels
	w    float64 // advance of the text, pixels
	img  *ebiten.Image
	op   ebiten.DrawImageOptions
}

// TextSized, if set, is told the size of the face of every line a label
// renders, in pixels (on the drawing goroutine): the UI's screenshot tests
// check with it that no text is drawn too small to read.
var TextSized func(size float64)

// labelPad is the margin around the text in a label's image, in pixels,
// for glyphs whose ink overhangs their advance.
const labelPad = 2

// draw draws s with face f at screen point (x, y): the top of the line,
// and its left end, middle or right end as align says; in colour c at
// opacity a.
func (l *Label) draw(dst *ebiten.Image, s string, f *text.GoTextFace, x, y float32, align text.Align, c color.RGBA, a float32) {
	if s == "" {
		return
	}
	l.prepare(s, f)
	left := float64(x)
	switch align {
	case text.AlignCenter:
		left -= l.w / 2
	case text.AlignEnd:
		left -= l.w
	}
	l.op.GeoM.Reset()
	// Whole pixels keep the glyphs as crisp as they were rendered.
	l.op.GeoM.Translate(math.Round(left)-labelPad, math.Round(float64(y))-labelPad)
	l.op.ColorScale.Reset()
	l.op.ColorScale.Scale(float32(c.R)/255*a, float32(c.G)/255*a, float32(c.B)/255*a, float32(c.A)/255*a)
	dst.DrawImage(l.img, &l.op)
}

// prepare renders s with face f unless the label holds it already, and
// returns the width of the text in pixels.
func (l *Label) prepare(s string, f *text.GoTextFace) float64 {
	if l.img == nil || l.s != s || l.size != f.Size {
		l.render(s, f)
	}
	return l.w
}

func (l *Label) render(s string, f *text.GoTextFace) {
	if l.img != nil {
		l.img.Deallocate()
	}
	if TextSized != nil {
		TextSized(f.Size)
	}
	w, h := text.Measure(s, f, 0)
	l.img = ebiten.NewImage(int(math.Ceil(w))+2*labelPad, int(math.Ceil(h))+2*labelPad)
	var op text.DrawOptions
	op.GeoM.Translate(labelPad, labelPad)
	text.Draw(l.img, s, f, &op)
	l.s, l.size, l.w = s, f.Size, w
}

// Ellipsis returns s shortened with "…" to at most width pixels in face
// f, or s itself if it fits: a name never runs into what is beside it.
func Ellipsis(s string, f text.Face, width float64) string {
	if w, _ := text.Measure(s, f, 0); w <= width {
		return s
	}
	r := []rune(s)
	// The longest prefix that fits with the "…", by bisection.
	lo, hi := 0, len(r) // r[:lo]+"…" fits (or lo is 0); r[:hi]+"…" does not
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if w, _ := text.Measure(string(r[:mid])+"…", f, 0); w <= width {
			lo = mid
		} else {
			hi = mid
		}
	}
	return strings.TrimRight(string(r[:lo]), " ") + "…"
}
