//go:build !race

package ui

// raceEnabled reports whether the race detector is on.
const raceEnabled = false
