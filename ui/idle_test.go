package ui

import (
	"testing"
	"time"
)

// The package's tests read the screen after any update: every frame is
// drawn for them (TestDrawGate tests the rest). They start with an empty
// config each time: no first start's question over the menu
// (TestFirstStartAsksForAName asks it).
func init() { drawEveryFrame, askNameOnFirstStart = true, false }

// TestDrawGate: a screen where nothing plays is drawn at the full rate
// while the player acts and for busyFor after, then every idleFrame; a new
// screen is drawn at once; a game is always drawn.
func TestDrawGate(t *testing.T) {
	drawEveryFrame = false
	defer func() { drawEveryFrame = true }()
	t0 := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	frame := time.Second / 64
	count := func(g *drawGate, from time.Time, d time.Duration, playing bool) int {
		n := 0
		for at := from; at.Before(from.Add(d)); at = at.Add(frame) {
			if g.draw(at, playing) {
				n++
			}
		}
		return n
	}
	var g drawGate
	// At rest: the first frame, then one every idleFrame.
	want := int(10 * time.Second / idleFrame)
	if n := count(&g, t0, 10*time.Second, false); n < want-2 || n > want+2 {
		t.Errorf("menu at rest: %d frames drawn in 10 s, want about %d", n, want)
	}
	// A key: the full rate for busyFor.
	t1 := t0.Add(10 * time.Second)
	g.input(t1)
	if n := count(&g, t1, busyFor, false); n != int(busyFor/frame) {
		t.Errorf("after a key: %d frames drawn in %v, want all %d", n, busyFor, int(busyFor/frame))
	}
	// A new screen is drawn at once, even at rest.
	t2 := t1.Add(busyFor + 5*time.Second)
	g.draw(t2, false)
	g.changed()
	if !g.draw(t2.Add(frame), false) {
		t.Error("a new screen was not drawn at once")
	}
	// A game: every frame.
	t3 := t2.Add(time.Minute)
	if n := count(&g, t3, time.Second, true); n != 64 {
		t.Errorf("game: %d frames drawn in 1 s, want 64", n)
	}
}
