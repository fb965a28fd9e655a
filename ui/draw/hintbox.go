package draw

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"rockstep/assets/palette"
)

// Lines draws lines of small text (the HUD's label face, at least 12
// pixels) through labels, one label a line, centred on the field with the
// bottom of the last at world height bottom, on one dark box that keeps
// them readable over rocks; in colour c at opacity a. Lines beyond
// len(labels) are not drawn.
func (h *HUD) Lines(dst *ebiten.Image, r *Renderer, v View, labels []Label, lines []string, bottom float64, c color.RGBA, a float32) {
	n := min(len(lines), len(labels))
	if n == 0 || a <= 0 {
		return
	}
	bx, by, bw, bh := h.LinesBox(v, labels, lines, bottom)
	r.hud.reset()
	r.hud.Rect(bx, by, bw, bh, Tint(palette.Bars, 0.7*a))
	r.hud.flush(dst, r.white, ebiten.BlendSourceOver)
	lineH := float32(h.label.Size * 1.4) // pixels
	x, top := bx+bw/2, by+h.linesPad(v)/2
	for i := 0; i < n; i++ {
		labels[i].draw(dst, lines[i], &h.label, x, top+lineH*float32(i), text.AlignCenter, c, a)
	}
}

// LinesBox returns the box Lines draws its lines on: its top-left corner,
// width and height, in pixels of the screen the View is of.
func (h *HUD) LinesBox(v View, labels []Label, lines []string, bottom float64) (x, y, w, hgt float32) {
	h.rescale(v)
	n := min(len(lines), len(labels))
	lineH := float32(h.label.Size * 1.4) // pixels
	var tw float32
	for i := 0; i < n; i++ {
		tw = max(tw, float32(labels[i].prepare(lines[i], &h.label)))
	}
	cx, by := v.pt(FieldW/2, bottom)
	top := by - lineH*float32(n)
	pad := h.linesPad(v)
	return cx - tw/2 - pad, top - pad/2, tw + 2*pad, lineH*float32(n) + pad
}

// linesPad is the padding of Lines' box, in pixels: 12 units, at least 8.
func (h *HUD) linesPad(v View) float32 { return max(v.px(12), 8) }
