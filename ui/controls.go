package ui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/assets/palette"
	"rockstep/ui/draw"
)

// controlsScreen rebinds the ship's controls: the player selects a slot
// (two keys and two gamepad buttons per control) and presses the key or
// button for it. A key already on another control is swapped onto it:
// that control takes the key this slot had. Every change is saved at
// once; Reset puts the defaults back.
type controlsScreen struct {
	a      *App
	top    *widget.Container
	edit   Settings
	slots  []*bindSlot
	status *widget.Text
	pads   *widget.Text
	warn   *widget.ButtonImage // a slot whose key is on two controls

	capture *bindSlot // the slot waiting for a key or button, or nil
	armedAt int       // App.frames when it began: that update's keys do not count
}

// bindSlot is one key or button of one control.
type bindSlot struct {
	action int  // index in shipActions
	pad    bool // a gamepad button, not a key
	i      int  // which of the control's keys or buttons
	b      *widget.Button
}

// slotsPerControl is how many keys, and how many buttons, each control shows.
const slotsPerControl = 2

func newControlsScreen(a *App) *controlsScreen {
	t := a.theme()
	s := &controlsScreen{a: a, edit: a.settings}
	s.edit.Keys, s.edit.Pad = cloneBindings(a.settings.Keys), cloneBindings(a.settings.Pad)
	s.warn = &widget.ButtonImage{
		Idle:         t.frameImage(colButton, colWarn, 0.7),
		Hover:        t.frameImage(colHover, colWarn, 1),
		Pressed:      t.frameImage(colPressed, colWarn, 1),
		PressedHover: t.frameImage(colPressed, colWarn, 1),
		Disabled:     t.frameImage(colDisabled, colPanelRim, 0),
	}
	col := t.panelColumn(10)
	col.AddChild(t.heading("Controls"))

	form := t.grid([]bool{false, false, false}, 18, 8)
	head := func(s string) *widget.Text { return t.text(s, &t.smallFace, palette.Dim) }
	form.AddChild(head(""), head("Keyboard"), head("Gamepad"))
	for ai, act := range shipActions(&s.edit.Keys) {
		form.AddChild(t.text(act.label, &t.bodyFace, palette.Dim, t.size(150, 0),
			widget.WidgetOpts.LayoutData(widget.GridLayoutData{VerticalPosition: widget.GridLayoutPositionCenter})))
		for _, pad := range []bool{false, true} {
			r := t.hbox(8)
			for i := range slotsPerControl {
				sl := &bindSlot{action: ai, pad: pad, i: i}
				sl.b = widget.NewButton(
					widget.ButtonOpts.WidgetOpts(t.size(112, 0)),
					widget.ButtonOpts.Image(t.buttonImg),
					widget.ButtonOpts.Text("", &t.smallFace, t.buttonText),
					widget.ButtonOpts.TextPadding(t.insets(8, 8, 6, 6)),
					widget.ButtonOpts.DisableDefaultKeys(), // Enter and A come through the input layer
					widget.ButtonOpts.ClickedHandler(func(*widget.ButtonClickedEventArgs) { s.begin(sl) }),
				)
				s.slots = append(s.slots, sl)
				r.AddChild(sl.b)
			}
			form.AddChild(r)
		}
	}
	col.AddChild(form)
	s.status = widget.NewText(widget.TextOpts.Text("", &t.smallFace, palette.Text), widget.TextOpts.MaxWidth(float64(t.px(640))),
		widget.TextOpts.WidgetOpts(stretchRow()))
	col.AddChild(s.status)
	s.pads = t.dim("")
	col.AddChild(s.pads)
	col.AddChild(t.dim("The left stick always turns; B goes back, Start opens the game menu."))

	buttons := t.hbox(12, widget.ContainerOpts.WidgetOpts(widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionEnd})))
	reset := t.buttonFunc("Reset to defaults", func() {
		s.edit.Keys, s.edit.Pad = DefaultKeys(), DefaultPad()
		s.capture = nil
		s.save("Defaults restored.")
	})
	back := t.button("Back", a.emit, Intent{Kind: IntentBack}, t.size(140, 0))
	buttons.AddChild(reset, back)
	col.AddChild(buttons)
	s.linkGrid(reset, back)
	s.top = t.screenRoot(col, false)
	s.show("")
	return s
}

// linkGrid lets ↑ and ↓ (the d-pad, the stick) move between the rows of
// slots, and from the last row to reset (the keys' side) or back (the
// gamepad's).
func (s *controlsScreen) linkGrid(reset, back *widget.Button) {
	const cols = 2 * slotsPerControl
	for i, sl := range s.slots {
		if i >= cols {
			sl.b.AddFocus(widget.FOCUS_NORTH, s.slots[i-cols].b)
		}
		switch {
		case i+cols < len(s.slots):
			sl.b.AddFocus(widget.FOCUS_SOUTH, s.slots[i+cols].b)
		case i%cols < slotsPerControl:
			sl.b.AddFocus(widget.FOCUS_SOUTH, reset)
		default:
			sl.b.AddFocus(widget.FOCUS_SOUTH, back)
		}
	}
	last := len(s.slots) - cols
	reset.AddFocus(widget.FOCUS_NORTH, s.slots[last].b)
	back.AddFocus(widget.FOCUS_NORTH, s.slots[last+cols-1].b)
}

// cloneBindings copies b, so that editing it leaves the original alone.
func cloneBindings(b KeyBindings) KeyBindings {
	for _, c := range shipActions(&b) {
		*c.names = slices.Clone(*c.names)
	}
	return b
}

// names returns the keys or buttons of control ai being edited.
func (s *controlsScreen) names(ai int, pad bool) *[]string {
	if pad {
		return shipActions(&s.edit.Pad)[ai].names
	}
	return shipActions(&s.edit.Keys)[ai].names
}

// begin waits for the key or button of slot sl.
func (s *controlsScreen) begin(sl *bindSlot) {
	s.capture, s.armedAt = sl, s.a.frames
	what := "a key"
	if sl.pad {
		what = "a gamepad button"
	}
	s.show(fmt.Sprintf("Press %s for %s (Esc cancels).", what, shipActions(&s.edit.Keys)[sl.action].label))
}

// takesInput implements inputTaker: while a slot waits, every key is its.
func (s *controlsScreen) takesInput() bool { return s.capture != nil }

func (s *controlsScreen) id() screenID            { return screenControls }
func (s *controlsScreen) root() *widget.Container { return s.top }

func (s *controlsScreen) update(Intents) error {
	s.a.backdrop.step()
	st := s.a.state
	if st != nil {
		s.pads.Label = fmt.Sprintf("Gamepads connected: %d", len(st.Pads))
		if len(st.Pads) == 0 {
			s.pads.Label = "No gamepad connected (one can be plugged in at any time)."
		}
	}
	if s.capture == nil || st == nil || s.a.frames <= s.armedAt {
		return nil
	}
	if st.justKey(ebiten.KeyEscape) || st.padJust(padBack) || st.padJust(padStart) {
		s.capture = nil
		s.show("Cancelled.")
		return nil
	}
	if !s.capture.pad {
		// From the end: Ebiten lists a modifier's either-side key (Shift)
		// after its left and right ones, and it is the one to bind.
		for _, k := range slices.Backward(st.Just) {
			if k == ebiten.KeyF3 || k == ebiten.KeyF11 {
				continue // kept for the network graph and full screen
			}
			if name, err := k.MarshalText(); err == nil {
				s.assign(string(name))
				return nil
			}
		}
		return nil
	}
	for i := range st.Pads {
		for b, just := range st.Pads[i].Just {
			if name := padButtonName(ebiten.StandardGamepadButton(b)); just && name != "" {
				s.assign(name)
				return nil
			}
		}
	}
	return nil
}

// assign binds name to the waiting slot, swapping it with the slot that
// had it, and saves.
func (s *controlsScreen) assign(name string) {
	sl := s.capture
	s.capture = nil
	acts := shipActions(&s.edit.Keys)
	list := s.names(sl.action, sl.pad)
	old := ""
	if sl.i < len(*list) {
		old = (*list)[sl.i]
	}
	msg := fmt.Sprintf("%s: %s.", acts[sl.action].label, displayName(name, sl.pad))
	if name != old {
		for ai := range acts {
			other := s.names(ai, sl.pad)
			for j := 0; j < len(*other); j++ {
				if (*other)[j] != name || (ai == sl.action && j == sl.i) {
					continue
				}
				switch {
				case old != "" && ai == sl.action:
					(*other)[j] = old
					msg = fmt.Sprintf("%s: %s and %s swapped places.", acts[ai].label, displayName(name, sl.pad), displayName(old, sl.pad))
				case old != "":
					(*other)[j] = old
					msg = fmt.Sprintf("%s moved from %s to %s; swapped: %s now has %s.",
						displayName(name, sl.pad), acts[ai].label, acts[sl.action].label, acts[ai].label, displayName(old, sl.pad))
				default:
					*other = slices.Delete(*other, j, j+1)
					j--
					msg = fmt.Sprintf("%s moved from %s to %s.", displayName(name, sl.pad), acts[ai].label, acts[sl.action].label)
				}
			}
		}
		if sl.i < len(*list) {
			(*list)[sl.i] = name
		} else {
			*list = append(*list, name)
		}
	}
	s.save(msg)
}

// save keeps the edited bindings (in settings.json, through the flow).
func (s *controlsScreen) save(msg string) {
	e := s.a.settings
	e.Keys, e.Pad = cloneBindings(s.edit.Keys), cloneBindings(s.edit.Pad)
	s.a.emit(Intent{Kind: IntentSaveControls, Settings: e})
	s.show(msg)
}

// show puts the bindings on the slots, marking any key or button that two
// controls share (a hand-edited file can do that), and msg on the status
// line (or the conflicts, when msg is empty).
func (s *controlsScreen) show(msg string) {
	t := s.a.theme()
	var clash []string
	for _, sl := range s.slots {
		list := *s.names(sl.action, sl.pad)
		label, img := "—", t.buttonImg
		if sl.i < len(list) {
			label = displayName(list[sl.i], sl.pad)
			if owners := s.owners(list[sl.i], sl.pad); len(owners) > 1 {
				img = s.warn
				c := label + " is on " + strings.Join(owners, " and ")
				if !slices.Contains(clash, c) {
					clash = append(clash, c)
				}
			}
		}
		if sl == s.capture {
			label = "press…"
		}
		sl.b.SetText(label)
		sl.b.SetImage(img)
	}
	s.status.SetColor(palette.Text)
	switch {
	case msg == "" && len(clash) > 0:
		msg = strings.Join(clash, "; ") + ": select one to change it."
		s.status.SetColor(colWarn)
	case msg == "":
		msg = "Select a slot, then press the key or gamepad button for it."
	}
	s.status.Label = msg
}

// owners returns the controls bound to name.
func (s *controlsScreen) owners(name string, pad bool) []string {
	var o []string
	for ai, act := range shipActions(&s.edit.Keys) {
		if slices.Contains(*s.names(ai, pad), name) {
			o = append(o, act.label)
		}
	}
	return o
}

func (s *controlsScreen) draw(dst *ebiten.Image, v draw.View, t float64) {
	s.a.backdrop.draw(s.a.env, dst, v, t)
}

// displayName is how the Controls screen writes a key or button name.
func displayName(name string, pad bool) string {
	if pad {
		if d, ok := strings.CutPrefix(name, "Dpad"); ok {
			return "D-pad " + strings.ToLower(d)
		}
		return name
	}
	if d, ok := strings.CutPrefix(name, "Arrow"); ok {
		return d + " arrow"
	}
	return name
}
