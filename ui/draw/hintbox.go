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
	h.rescale(v)
	n := min(len(lines), len(labels))
	if n == 0 || a <= 0 {
		return
	}
	lineH := float32(h.label.Size * 1.4) // pixels
	var w float32
	for i := 0; i < n; i++ {
		w = max(w, float32(labels[i].prepare(lines[i], &h.label)))
	}
	x, by := v.pt(FieldW/2, bottom)
	top := by - lineH*float32(n)
	pad := max(v.px(12), 8)
	r.hud.reset()
	r.hud.Rect(x-w/2-pad, top-pad/2, w+2*pad, lineH*float32(n)+pad, Tint(palette.Bars, 0.7*a))
	r.hud.flush(dst, r.white, ebiten.BlendSourceOver)
	for i := 0; i < n; i++ {
		labels[i].draw(dst, lines[i], &h.label, x, top+lineH*float32(i), text.AlignCenter, c, a)
	}
}
