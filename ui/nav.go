package ui

import (
	"math"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"rockstep/ui/draw"
)

// Menus are driven by the game's own input layer, so that the arrows, Enter
// and Esc and a gamepad's d-pad, stick, A and B do the same everywhere: the
// focus moves through a screen's widgets in their order, Confirm presses
// the focused button, and Quit goes back one level (escape).

// inputTaker is a screen that, for now, wants every key and button for
// itself (the Controls screen waiting for a key): the menus do not move.
type inputTaker interface {
	takesInput() bool
}

// escaper is a screen with its own meaning for Esc (closing something
// open on it first). escape returns false to leave Esc to the rule.
type escaper interface {
	escape() bool
}

// focusStart is a screen whose first focus is not its first button.
type focusStart interface {
	initialFocus() widget.Focuser
}

// navigate moves the focus and presses the focused button as in says,
// keeping a button focused on any screen that shows one.
func (a *App) navigate(in *Intents) {
	if t, ok := a.cur.(inputTaker); ok && t.takesInput() {
		return
	}
	switch {
	case a.flow.screen == screenReplay:
		return // the arrows seek and change speed
	case (a.flow.screen == screenPlay || a.flow.screen == screenPractice) && !a.flow.gameMenu:
		return // the arrows steer
	}
	focusers := a.ui.Container.GetFocusers()
	if a.prompt != nil {
		focusers = a.prompt.box.GetFocusers() // it is modal
	}
	cur := a.ui.GetFocusedWidget()
	at := -1
	for i, f := range focusers {
		if f == cur {
			at = i
		}
	}
	var want widget.Focuser
	if fs, ok := a.cur.(focusStart); ok && a.prompt == nil {
		// While the focus is where navigate put it for want of the
		// button the screen names, it goes there as soon as it can.
		want = fs.initialFocus()
		if at >= 0 && cur == a.focusAuto && cur != want && slices.Contains(focusers, want) {
			at = -1
		}
	}
	if at < 0 {
		// Nothing (visible) in focus: the screen's first button, or the
		// one it names.
		for i, f := range focusers {
			if _, ok := f.(*widget.Button); ok && (at < 0 || f == want) {
				at, cur = i, f
				if f == want || want == nil {
					break
				}
			}
		}
		if at < 0 {
			return
		}
		a.ui.SetFocusedWidget(cur)
		a.focusAuto = cur
	}
	_, typing := cur.(*widget.TextInput)
	if !typing && a.state != nil && len(a.state.Chars) > 0 {
		// Letters typed move the focus to the buttons they begin: every
		// character typed arrives, however slow the frames (see typeFocus).
		if to, moves := typeFocus(labels(focusers), at, a.state.Chars); moves > 0 {
			at, cur = to, focusers[to]
			a.typedMoves += moves
			a.focusAuto = nil
			a.ui.SetFocusedWidget(cur)
		}
	}
	step := in.NavY
	if !typing {
		// ← and → move the caret in a text box.
		step += in.NavX
	}
	// A widget may name its neighbours (a grid's rows); else the focus
	// steps through the screen's widgets in order.
	next := -1
	if dir, ok := direction(in, typing); ok {
		if n := cur.GetFocus(dir); n != nil {
			next = slices.Index(focusers, n)
		}
	}
	switch {
	case next >= 0:
		at = next
	case step < 0:
		at = (at + len(focusers) - 1) % len(focusers)
	case step > 0:
		at = (at + 1) % len(focusers)
	}
	if step != 0 {
		a.focusAuto = nil
		a.ui.SetFocusedWidget(focusers[at])
		cur = focusers[at]
	}
	if b, ok := cur.(*widget.Button); ok && in.Confirm {
		b.Click()
	}
}

// Ebitengine reads the keyboard once a frame and keeps one state per key:
// an arrow pressed twice within a slow frame (a busy machine, software
// rendering) moves the focus once. The characters typed are queued one by
// one (ebiten.AppendInputChars), so the menus also answer letters, as
// list boxes do: each letter typed moves the focus to the next button
// whose label begins with it, in the screen's order and round, and
// letters typed quickly all count. Enter still presses the button.

// typeFocus returns where the focus goes from at (an index of labels, -1
// for none) after chars are typed, and how many of them moved it: a
// letter or digit moves it to the next label that begins with it
// (case aside), after at and round; any other character, or one no label
// begins with, leaves it.
func typeFocus(labels []string, at int, chars []rune) (int, int) {
	moves := 0
	for _, c := range chars {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			continue
		}
		c = unicode.ToLower(c)
		for i := 1; i <= len(labels); i++ {
			j := (max(at, -1) + i + len(labels)) % len(labels)
			if r, _ := utf8.DecodeRuneInString(labels[j]); labels[j] != "" && unicode.ToLower(r) == c {
				if j != at {
					at = j
					moves++
				}
				break
			}
		}
	}
	return at, moves
}

// labels returns the label of each button of focusers, "" for other
// widgets.
func labels(focusers []widget.Focuser) []string {
	out := make([]string, len(focusers))
	for i, f := range focusers {
		if b, ok := f.(*widget.Button); ok && b.Text() != nil {
			out[i] = b.Text().Label
		}
	}
	return out
}

// direction returns the way in moves the focus, if it moves it one way.
func direction(in *Intents, typing bool) (widget.FocusDirection, bool) {
	x := in.NavX
	if typing {
		x = 0
	}
	switch {
	case in.NavY > 0 && x == 0:
		return widget.FOCUS_SOUTH, true
	case in.NavY < 0 && x == 0:
		return widget.FOCUS_NORTH, true
	case x > 0 && in.NavY == 0:
		return widget.FOCUS_EAST, true
	case x < 0 && in.NavY == 0:
		return widget.FOCUS_WEST, true
	}
	return 0, false
}

// escape applies the one Esc rule: back one level; in a network game, the
// in-game menu (Esc again closes it). Leaving a text box is a level.
func (a *App) escape() {
	if a.prompt != nil {
		a.closePrompt()
		return
	}
	if e, ok := a.cur.(escaper); ok && e.escape() {
		return
	}
	if _, typing := a.ui.GetFocusedWidget().(*widget.TextInput); typing && a.hasWidgets() {
		// Out of the text box first (a chat line half typed in the
		// lobby is not a wish to leave the room).
		a.ui.ClearFocus()
		return
	}
	switch a.flow.screen {
	case screenMenu:
		// The top: nothing to go back to (Quit is a button).
	case screenLobby:
		// Leaving is not undone by coming back: ask first.
		if a.flow.hosting {
			title, body, button := hostLeaveWords(&a.nv)
			a.ask(title, body, button, Intent{Kind: IntentLeave})
		} else {
			a.ask("Leave the room?", "", "Leave", Intent{Kind: IntentLeave})
		}
	case screenPlay, screenPractice:
		// The in-game menu opens (practice pauses); Esc again closes it.
		a.emit(Intent{Kind: IntentGameMenu})
	default:
		// Join (stop trying, or the menu), results (leave the room),
		// settings, controls, replays, the replay viewer, high scores.
		a.emit(Intent{Kind: IntentBack})
	}
}

// padHintTicks is how long "gamepad connected" shows.
const padHintTicks = 3 * 60

// padHint is the line shown for a while when a gamepad is plugged in.
type padHint struct {
	text string
	left int // ticks
	line draw.Label
}

func (h *padHint) connected(pads []PadInfo) {
	if len(pads) == 0 {
		return
	}
	p := pads[len(pads)-1]
	h.text = "Gamepad connected: " + p.Name + " — stick or d-pad turns, triggers thrust, A fires, Y hyperspace, Start menu"
	if !p.Standard {
		h.text = "Gamepad connected: " + p.Name + ", but its layout is unknown: it cannot be used"
	}
	h.left = padHintTicks
}

func (h *padHint) step() {
	if h.left > 0 {
		h.left--
	}
}

// draw draws the hint at the top of the field.
func (h *padHint) draw(e *env, dst *ebiten.Image, v draw.View) {
	if h.left == 0 {
		return
	}
	a := min(float32(h.left)/60, 1)
	field := e.draw.Begin(dst, v)
	e.hud.Band(field, e.draw, v, &h.line, h.text, 12, colAccent, a, 0.6*a)
}

// takingInput reports whether the screen wants every key for itself.
func (a *App) takingInput() bool {
	t, ok := a.cur.(inputTaker)
	return ok && t.takesInput()
}

// drawFocus rings the focused widget, so that the focus stands out from
// a button the mouse merely hovers (ebitenui draws both alike).
func (a *App) drawFocus(dst *ebiten.Image) {
	f := a.ui.GetFocusedWidget()
	if f == nil || a.takingInput() {
		return
	}
	w := f.GetWidget()
	if !w.IsVisible() || w.Disabled {
		return
	}
	r := w.Rect
	// 4 and 2 design pixels: as thick, beside the button, on any screen.
	s := float32(a.theme().scale)
	gap, width := 4*s, max(2, float32(math.Round(float64(2*s))))
	vector.StrokeRect(dst, float32(r.Min.X)-gap, float32(r.Min.Y)-gap, float32(r.Dx())+2*gap, float32(r.Dy())+2*gap, width, colAccent, true)
}
