package ui

import "rockstep/game"

// The heartbeat: the arcade's two low notes played by turns, quicker as
// the wave's rocks thin out. It is read from the displayed world and kept
// in world ticks, so it stops with the game (paused, waiting for a
// player, over) and never touches the engine.

// Beat intervals, in world ticks: a full wave beats once a second, its
// last rock four times a second.
const (
	beatSlow = game.TicksPerSecond
	beatFast = game.TicksPerSecond / 4
)

// heartbeat keeps the time to the next beat and which note it is.
type heartbeat struct {
	wait    int  // ticks to the next beat
	high    bool // the next beat is the high note
	most    int  // rocksLeft at its highest this wave: the tempo's full scale
	waveOf  uint8
	started bool
}

// rocksLeft is how many hits the world's rocks still take to clear the
// wave: a big rock is itself and its two mediums and their four smalls.
func rocksLeft(w *game.World) int {
	n := 0
	for _, r := range w.LiveRocks() {
		switch r.Size {
		case game.Big:
			n += 7
		case game.Medium:
			n += 3
		default:
			n++
		}
	}
	return n
}

// beatInterval returns the ticks between beats with left of most rocks left.
func beatInterval(left, most int) int {
	if most <= 0 || left >= most {
		return beatSlow
	}
	return beatFast + (beatSlow-beatFast)*left/most
}

// step advances the heartbeat by ticks world ticks of world w and reports
// whether a beat falls in them, and if so whether it is the high note.
// No rocks, or the game over, is silence.
func (h *heartbeat) step(w *game.World, ticks int) (beat, high bool) {
	left := rocksLeft(w)
	if w.Wave != h.waveOf {
		h.waveOf, h.most = w.Wave, left
	}
	h.most = max(h.most, left)
	if w.Over || left == 0 {
		h.started = false
		return false, false
	}
	if ticks <= 0 {
		// A frame that ran no tick (the game waits for a turn, or is
		// paused): the beat holds where it was, it does not start over.
		return false, false
	}
	iv := beatInterval(left, h.most)
	if !h.started {
		h.started, h.wait = true, iv // the first beat a beat after the rocks come
	}
	h.wait = min(h.wait, iv) // a rock shot quickens the next beat at once
	h.wait -= ticks
	if h.wait > 0 {
		return false, false
	}
	h.wait = iv
	high = h.high
	h.high = !h.high
	return true, high
}
