package ui

import (
	"time"

	"rockstep/game"
)

// A screen where nothing plays (the menus, the lobby, the results) is
// drawn at the full rate only while the player is doing something, and a
// few times a second otherwise. Under software rendering (a laptop without
// GPU drivers, a VM, a remote desktop) every frame of a 1280×720 window is
// rasterised by the CPU: drawing an idle menu 60 times a second took more
// than a core and a half (BENCHMARKS.md, "An idle window"). A game in play
// is always drawn at the full rate.
const (
	// idleFrame is the time between two frames drawn of a screen at rest:
	// a roster's change or a LAN game found shows within half a second.
	// (Each frame drawn is presented four times by Ebiten before it stops
	// presenting an unchanged screen: fewer frames are what saves.)
	idleFrame = 500 * time.Millisecond
	// busyFor is how long a screen stays at the full rate after the last
	// input (a key, a click, the pointer moving, the wheel, a gamepad), so
	// that hovering, typing and scrolling draw smoothly.
	busyFor = 1500 * time.Millisecond
	// restFrame is the time between two frames of Ebiten's loop while a
	// screen rests, drawn or not: each frame asks the X server about the
	// window, the pointer and the events, a tenth of a core at 60 a
	// second. Four ticks a frame keeps the ticks on time (Ebiten catches
	// up to five a frame) and hears a key within 67 ms.
	restFrame = 4 * time.Second / game.TicksPerSecond
)

// drawEveryFrame turns the rest off: every frame is drawn. The package's
// tests set it, since they read the screen after any update.
var drawEveryFrame bool

// drawGate decides, frame by frame, whether a screen is drawn: a pure
// clock of the last input and the last frame drawn (times in, a verdict
// out), so that it is tested on virtual time.
type drawGate struct {
	busyUntil time.Time // the full rate holds until then
	drawn     time.Time // when the last frame was drawn
	force     bool      // the next frame is drawn whatever: the screen changed
}

// input notes that the player did something at now.
func (g *drawGate) input(now time.Time) { g.busyUntil = now.Add(busyFor) }

// changed asks for the next frame to be drawn (a new screen, a new size).
func (g *drawGate) changed() { g.force = true }

// busy reports whether the screen is at the full rate at now.
func (g *drawGate) busy(now time.Time) bool { return now.Before(g.busyUntil) }

// draw reports whether the frame at now is drawn, playing telling that a
// game is on screen; a frame drawn is counted.
func (g *drawGate) draw(now time.Time, playing bool) bool {
	if !playing && !drawEveryFrame && !g.force && !g.busy(now) && !g.drawn.IsZero() && now.Sub(g.drawn) < idleFrame {
		return false
	}
	g.force = false
	g.drawn = now
	return true
}

// framePeriod returns the shortest time between two frames of Ebiten's
// loop at now: restFrame while a screen rests, minFrame otherwise.
func (g *drawGate) framePeriod(now time.Time, playing bool) time.Duration {
	if playing || drawEveryFrame || g.force || g.busy(now) {
		return minFrame
	}
	return restFrame
}

// playing reports whether the flow's screen is a game being played (or a
// replay being watched): drawn at the full rate, never at rest.
func (a *App) playing() bool {
	switch a.flow.screen {
	case screenPlay, screenPractice, screenReplay:
		return true
	}
	return false
}
