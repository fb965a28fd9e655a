// Package outline holds the vector outlines of Rockstep's ship, saucer and
// rocks, in local world units: +X is where the object faces (angle 0), Y
// grows downward, as on the field. It imports nothing that needs a window,
// so the game's UI and the icon generator can share it, as they share
// package palette.
package outline

import "math"

// Ship is the classic Asteroids ship: a long nose, two swept wings and a
// notch at the back. It fits within game.ShipRadius (12 units).
var Ship = [...][2]float64{
	{16, 0},
	{-10, -10},
	{-5, 0},
	{-10, 10},
}

// Saucer is the classic flying saucer for a saucer of radius 1: a wide hull
// with a dome on top; SaucerRim is the line across the hull (drawn as a
// flat closed polygon, there and back).
var Saucer = [...][2]float64{
	{-1, 0}, {-0.45, 0.38}, {0.45, 0.38}, {1, 0},
	{0.45, -0.24}, {0.25, -0.62}, {-0.25, -0.62}, {-0.45, -0.24},
}

// SaucerRim is the line across Saucer's hull.
var SaucerRim = [...][2]float64{{-1, 0}, {1, 0}, {0.45, -0.24}, {-0.45, -0.24}}

// Rocks are the outlines of Rock.Shape 0..3 for a rock of radius 1: jagged
// polygons whose points lie between 0.64 and 1.06 of the radius, so that
// the outline roughly matches the engine's round hit area.
var Rocks = rocks()

func rocks() [4][][2]float64 {
	radii := [4][]float64{
		{1.00, 0.78, 1.02, 0.92, 0.70, 0.98, 1.04, 0.80, 0.96, 0.74, 1.00},
		{0.95, 1.05, 0.72, 0.90, 1.02, 0.86, 0.66, 0.98, 1.04, 0.82, 0.94, 0.76},
		{1.04, 0.88, 0.96, 0.64, 0.92, 1.02, 0.90, 0.72, 1.00, 0.94},
		{0.86, 1.02, 0.96, 0.78, 1.04, 0.70, 0.92, 1.00, 0.84, 1.03, 0.74},
	}
	// Uneven spacing of the points, as a fraction of the even step, so that
	// no shape looks like a regular polygon.
	jitter := [...]float64{0, 0.18, -0.12, 0.22, -0.2, 0.08, -0.06}
	var out [4][][2]float64
	for s, rs := range radii {
		step := 2 * math.Pi / float64(len(rs))
		pts := make([][2]float64, len(rs))
		for i, r := range rs {
			a := (float64(i) + jitter[i%len(jitter)]) * step
			pts[i] = [2]float64{r * math.Cos(a), r * math.Sin(a)}
		}
		out[s] = pts
	}
	return out
}
