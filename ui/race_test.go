//go:build race

package ui

// raceEnabled reports whether the race detector is on: it makes values
// escape to the heap, so allocation counts mean nothing under it.
const raceEnabled = true
