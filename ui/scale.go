package ui

import "math"

// The menus are designed in pixels of a reference screen of refW×refH:
// on a screen of w×h device pixels they are drawn at uiScale(w, h), so
// that they fill about the same part of any screen, 800×600 to
// 3840×2160, and stay sharp (the theme's faces and frames are made at
// that size, not scaled as images).
const (
	refW = 1000
	refH = 750
)

// Scales the menus are drawn at: quantised to scaleStep, so that a
// resize builds a theme only now and then (each is kept), and at least
// minScale, below which text is no longer readable.
const (
	scaleStep = 0.05
	minScale  = 0.5
)

// uiScale returns the scale of the menus on a screen of w×h device
// pixels: the smaller of w/refW and h/refH, rounded down to a step.
func uiScale(w, h float64) float64 {
	s := math.Min(w/refW, h/refH)
	if math.IsNaN(s) || math.IsInf(s, 0) || s <= 0 {
		return 1
	}
	s = math.Floor(s/scaleStep+1e-9) * scaleStep
	return math.Max(minScale, math.Round(s*100)/100)
}

// deviceScale, if not zero, is used as the monitor's device scale factor
// instead of the one Ebiten reports: a test sets it to see a HiDPI
// screen on a display that has none.
var deviceScale float64

// windowSize, if not zero, is the size the window opens at (in device
// independent pixels) instead of windowW×windowH: tests set it.
var windowSize struct{ W, H int }
