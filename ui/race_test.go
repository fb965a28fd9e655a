//go:build race

package ui

// raceEnabled reports whether the race detector is on: Ebiten's drawing
// allocates under it (about a dozen times a frame more), so the allocation
// count of drawing is checked without it (make test-allocs).
const raceEnabled = true
