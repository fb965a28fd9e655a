package ui

import (
	"time"

	"rockstep/game"
)

// minFrame is the shortest time between two frames drawn. Where the
// display has no vsync (some Linux drivers, software rendering under Xvfb,
// a laptop saving power), Ebiten draws as fast as the machine allows: an
// idle menu then keeps every core busy. Frames are held back to at most a
// little over 60 a second instead, which is every tick (the game changes
// nothing between ticks but the interpolation); a display that keeps
// vsync at 60 Hz presents a frame every 16.7 ms, so its frames never wait
// here. (Ebiten does not tell the display's refresh rate: a faster display
// draws 60-odd frames a second too.)
const minFrame = time.Second / game.TicksPerSecond * 15 / 16

// framePacer spaces the frames drawn at least minFrame apart.
type framePacer struct {
	at time.Time // when the last frame was let through (or was due)
}

// wait returns how long to wait before drawing a frame at now, and counts
// the frame as drawn at the end of that wait. The frames keep a steady
// beat: a frame that waits is counted at its due time, not later.
func (p *framePacer) wait(now time.Time) time.Duration { return p.waitFor(now, minFrame) }

// waitFor is wait with frames at least period apart.
func (p *framePacer) waitFor(now time.Time, period time.Duration) time.Duration {
	due := p.at.Add(period)
	if p.at.IsZero() || !now.Before(due) {
		p.at = now
		return 0
	}
	p.at = due
	return due.Sub(now)
}
