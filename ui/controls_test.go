package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/game"
	"rockstep/ui/draw"
)

// inputDriver feeds an App input snapshots through its own input layer
// (App.input), one update at a time, as the keyboard and a gamepad would.
type inputDriver struct {
	t    testing.TB
	app  *App
	next InputState
}

func newInputDriver(t testing.TB, opt Options) *inputDriver {
	t.Helper()
	if opt.ConfigDir == "" {
		opt.ConfigDir = t.TempDir()
	}
	opt.Silent = true
	app, err := NewApp(opt)
	if err != nil {
		t.Fatalf("NewApp: %v", err)
	}
	t.Cleanup(app.Close)
	d := &inputDriver{t: t, app: app}
	app.input = func(int) *InputState {
		st := d.next
		d.next = InputState{}
		return &st
	}
	return d
}

// update runs one update with snapshot st.
func (d *inputDriver) update(st InputState) {
	d.t.Helper()
	d.next = st
	if err := d.app.Update(); err != nil {
		d.t.Fatalf("update %d: %v", d.app.frames, err)
	}
}

// key presses and releases k.
func (d *inputDriver) key(k ebiten.Key) {
	d.t.Helper()
	d.update(InputState{Held: []ebiten.Key{k}, Just: []ebiten.Key{k}})
	d.update(InputState{})
}

// hold holds keys down for n updates.
func (d *inputDriver) hold(n int, keys ...ebiten.Key) {
	d.t.Helper()
	for range n {
		d.update(InputState{Held: keys})
	}
}

// button presses and releases gamepad button b.
func (d *inputDriver) button(b ebiten.StandardGamepadButton) {
	d.t.Helper()
	var p PadState
	p.Held[b], p.Just[b] = true, true
	d.update(InputState{Pads: []PadState{p}})
	d.update(InputState{Pads: []PadState{{}}})
}

// pad holds p for n updates.
func (d *inputDriver) pad(n int, p PadState) {
	d.t.Helper()
	for range n {
		d.update(InputState{Pads: []PadState{p}})
	}
}

// focused returns the label of the focused button, or "".
func (d *inputDriver) focused() string {
	if b, ok := d.app.ui.GetFocusedWidget().(*widget.Button); ok && b.Text() != nil {
		return b.Text().Label
	}
	return ""
}

// focus moves the focus with move until the button labelled label has it.
func (d *inputDriver) focus(label string, move func()) {
	d.t.Helper()
	for range 40 {
		if d.focused() == label {
			return
		}
		move()
	}
	d.t.Fatalf("on the %v screen, %q never took the focus (last: %q)", d.app.flow.screen, label, d.focused())
}

func (d *inputDriver) wantScreen(want screenID) {
	d.t.Helper()
	if d.app.flow.screen != want || d.app.cur.id() != want {
		d.t.Fatalf("screen %v (shown: %v), want %v", d.app.flow.screen, d.app.cur.id(), want)
	}
}

func TestControlsScreenRebindsAKeyAndTheShipTurnsWithIt(t *testing.T) {
	dir := t.TempDir()
	d := newInputDriver(t, Options{Seed: 5, ConfigDir: dir})
	d.update(InputState{})
	if got := d.focused(); got != "Host game" {
		t.Fatalf("main menu opens with %q in focus, want Host game", got)
	}
	down := func() { d.key(ebiten.KeyArrowDown) }
	d.focus("Settings", down)
	d.key(ebiten.KeyEnter)
	d.wantScreen(screenSettings)
	d.focus("Keys and gamepad…", down)
	d.key(ebiten.KeyEnter)
	d.wantScreen(screenControls)
	d.update(InputState{})

	// Turn left's first key, the left arrow, is the first slot.
	if got := d.focused(); got != "Left arrow" {
		t.Fatalf("Controls opens with %q in focus, want Turn left's Left arrow", got)
	}
	// ↓ and ↑ move between rows, the same column.
	for _, step := range []struct {
		key  ebiten.Key
		want string
	}{{ebiten.KeyArrowDown, "Right arrow"}, {ebiten.KeyArrowDown, "Up arrow"}, {ebiten.KeyArrowUp, "Right arrow"}, {ebiten.KeyArrowUp, "Left arrow"}} {
		d.key(step.key)
		if got := d.focused(); got != step.want {
			t.Fatalf("after %v: focus on %q, want %q", step.key, got, step.want)
		}
	}
	d.key(ebiten.KeyEnter)
	if !d.app.takingInput() {
		t.Fatal("Enter on a slot does not wait for a key")
	}
	d.key(ebiten.KeyJ)
	if d.app.takingInput() {
		t.Fatal("still waiting after J was pressed")
	}
	d.update(InputState{})
	s, _, err := LoadSettings(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"J", "A"}; !slices.Equal(s.Keys.Left, want) {
		t.Fatalf("settings.json turns left with %q, want %q", s.Keys.Left, want)
	}

	// Turn left's second key, A, becomes D, Turn right's: swapped.
	d.key(ebiten.KeyArrowRight)
	if got := d.focused(); got != "A" {
		t.Fatalf("focus on %q, want Turn left's A", got)
	}
	d.key(ebiten.KeyEnter)
	d.key(ebiten.KeyD)
	d.update(InputState{})
	s, _, _ = LoadSettings(dir)
	if !slices.Equal(s.Keys.Left, []string{"J", "D"}) || !slices.Equal(s.Keys.Right, []string{"ArrowRight", "A"}) {
		t.Fatalf("after D on Turn left: left %q, right %q; want [J D] and [ArrowRight A] (swapped)", s.Keys.Left, s.Keys.Right)
	}
	if c := d.app.cur.(*controlsScreen); !strings.Contains(c.status.Label, "swapped") {
		t.Errorf("status %q does not say the keys were swapped", c.status.Label)
	}

	// Esc while waiting cancels; Esc then goes back, one level at a time.
	d.key(ebiten.KeyEnter)
	d.key(ebiten.KeyEscape)
	d.wantScreen(screenControls)
	d.key(ebiten.KeyEscape)
	d.wantScreen(screenSettings)
	d.key(ebiten.KeyEscape)
	d.wantScreen(screenMenu)

	d.update(InputState{})
	d.focus("Practice", down)
	d.key(ebiten.KeyEnter)
	d.wantScreen(screenPractice)
	start := play(t, d.app).world.Ships[me].Angle
	d.hold(10, ebiten.KeyJ)
	if got, want := play(t, d.app).world.Ships[me].Angle, start-10*game.RotateSpeed; got != want {
		t.Errorf("ship angle %d after J for 10 ticks, want %d (turned left)", got, want)
	}
	d.hold(5, ebiten.KeyArrowLeft) // no longer bound
	if got, want := play(t, d.app).world.Ships[me].Angle, start-10*game.RotateSpeed; got != want {
		t.Errorf("ship angle %d after the unbound left arrow, want %d (unchanged)", got, want)
	}
}

func TestControlsResetAndMarkConflicts(t *testing.T) {
	dir := t.TempDir()
	s := DefaultSettings()
	s.Keys.Fire = []string{"Space", "W"} // W thrusts too: a hand-edited clash
	if err := SaveSettings(dir, s); err != nil {
		t.Fatal(err)
	}
	d := newInputDriver(t, Options{ConfigDir: dir})
	d.app.emit(Intent{Kind: IntentOpenControls})
	d.update(InputState{})
	c := d.app.cur.(*controlsScreen)
	if !strings.Contains(c.status.Label, "W is on Thrust up and Charge and fire") {
		t.Errorf("status %q does not name the clash", c.status.Label)
	}
	d.focus("Reset to defaults", func() { d.key(ebiten.KeyArrowDown) })
	d.key(ebiten.KeyEnter)
	d.update(InputState{})
	got, _, _ := LoadSettings(dir)
	if !slices.Equal(got.Keys.Fire, DefaultKeys().Fire) || !slices.Equal(got.Pad.Fire, DefaultPad().Fire) {
		t.Errorf("after Reset: fire keys %q, pad %q; want the defaults", got.Keys.Fire, got.Pad.Fire)
	}
}

func TestGamepadAloneDrivesTheMenusAndAPracticeGame(t *testing.T) {
	d := newInputDriver(t, Options{Seed: 5})
	d.update(InputState{Connected: []PadInfo{{Name: "Test pad", Standard: true}}, Pads: []PadState{{}}})
	if !strings.Contains(d.app.padHint.text, "Test pad") || d.app.padHint.left == 0 {
		t.Errorf("no hint when a gamepad connects: %+v", d.app.padHint)
	}
	if got := d.focused(); got != "Host game" {
		t.Fatalf("main menu opens with %q in focus, want Host game", got)
	}
	// One push of the stick moves the focus once, however long it is held.
	var stickDown PadState
	stickDown.Axes[ebiten.StandardGamepadAxisLeftStickVertical] = 1
	d.pad(5, stickDown)
	d.pad(1, PadState{})
	if got := d.focused(); got != "Join game" {
		t.Fatalf("after the stick was held down: focus on %q, want Join game", got)
	}
	// Settings and back with B.
	d.focus("Settings", func() { d.button(ebiten.StandardGamepadButtonLeftBottom) })
	d.button(ebiten.StandardGamepadButtonRightBottom)
	d.wantScreen(screenSettings)
	d.button(ebiten.StandardGamepadButtonRightRight)
	d.wantScreen(screenMenu)

	d.pad(1, PadState{})
	d.focus("Practice", func() { d.button(ebiten.StandardGamepadButtonLeftTop) })
	d.button(ebiten.StandardGamepadButtonRightBottom)
	d.wantScreen(screenPractice)

	sh := func() game.Ship { return play(t, d.app).world.Ships[me] }
	start := sh().Angle
	var left PadState
	left.Axes[ebiten.StandardGamepadAxisLeftStickHorizontal] = -1
	d.pad(6, left)
	if got, want := sh().Angle, start-6*game.RotateSpeed; got != want {
		t.Errorf("ship angle %d after the stick was held left for 6 ticks, want %d", got, want)
	}
	var right PadState
	right.Held[ebiten.StandardGamepadButtonLeftRight] = true
	d.pad(6, right)
	if got := sh().Angle; got != start {
		t.Errorf("ship angle %d after the d-pad was held right as long, want %d", got, start)
	}
	var rt PadState
	rt.Held[ebiten.StandardGamepadButtonFrontBottomRight] = true
	d.pad(1, rt)
	if sh().Thrust == 0 {
		t.Error("the right trigger did not raise the thrust")
	}
	var fire PadState
	fire.Held[padA] = true
	d.pad(20, fire)
	d.pad(1, PadState{})
	if n := len(play(t, d.app).world.LiveBullets()); n == 0 {
		t.Error("holding and releasing A fired nothing")
	}
	// Start opens the practice menu, which pauses the game; B closes it,
	// Start again and the d-pad and A leave for the main menu.
	d.button(ebiten.StandardGamepadButtonCenterRight)
	if !d.app.flow.gameMenu {
		t.Fatal("Start in practice did not open the practice menu")
	}
	tick := play(t, d.app).world.Tick
	d.pad(5, PadState{})
	if got := play(t, d.app).world.Tick; got != tick {
		t.Errorf("the game went on from tick %d to %d with the menu open", tick, got)
	}
	d.button(ebiten.StandardGamepadButtonRightRight)
	if d.app.flow.gameMenu {
		t.Fatal("B did not close the practice menu")
	}
	d.button(ebiten.StandardGamepadButtonCenterRight)
	d.pad(1, PadState{})
	d.focus("Main menu", func() { d.button(ebiten.StandardGamepadButtonLeftBottom) })
	d.button(padA)
	d.wantScreen(screenMenu)
}

func TestEscLeavesATextBoxBeforeTheScreen(t *testing.T) {
	d := newInputDriver(t, Options{})
	d.app.emit(Intent{Kind: IntentOpenSettings})
	d.update(InputState{})
	d.focus("Save", func() { d.key(ebiten.KeyArrowDown) })
	d.key(ebiten.KeyArrowDown) // wraps round to the name box
	if _, ok := d.app.ui.GetFocusedWidget().(*widget.TextInput); !ok {
		t.Fatalf("focus on %T after Save, want the name box", d.app.ui.GetFocusedWidget())
	}
	d.key(ebiten.KeyEscape)
	d.wantScreen(screenSettings)
	d.key(ebiten.KeyEscape)
	d.wantScreen(screenMenu)
}

func TestControlsBindsAModifierAsEitherSide(t *testing.T) {
	dir := t.TempDir()
	d := newInputDriver(t, Options{ConfigDir: dir})
	d.app.emit(Intent{Kind: IntentOpenControls})
	d.update(InputState{})
	d.key(ebiten.KeyEnter) // Turn left's first slot
	// What Ebiten reports for the left Shift: the key and the either-side one.
	d.update(InputState{Held: []ebiten.Key{ebiten.KeyShiftLeft, ebiten.KeyShift}, Just: []ebiten.Key{ebiten.KeyShiftLeft, ebiten.KeyShift}})
	d.update(InputState{})
	s, _, _ := LoadSettings(dir)
	if len(s.Keys.Left) == 0 || s.Keys.Left[0] != "Shift" {
		t.Errorf("turn left bound to %q, want Shift first", s.Keys.Left)
	}
	// Shift was Hyperspace's: swapped, Hyperspace takes the left arrow.
	if len(s.Keys.Jump) != 1 || s.Keys.Jump[0] != "ArrowLeft" {
		t.Errorf("hyperspace bound to %q, want [ArrowLeft] (swapped)", s.Keys.Jump)
	}
}

// buttons returns every button under c.
func buttons(c *widget.Container) []*widget.Button {
	var bs []*widget.Button
	for _, ch := range c.Children() {
		switch w := ch.(type) {
		case *widget.Button:
			bs = append(bs, w)
		case *widget.Container:
			bs = append(bs, buttons(w)...)
		}
	}
	return bs
}

func TestButtonsArePressedOnlyThroughTheInputLayer(t *testing.T) {
	// ebitenui presses a focused button on Enter or Space by itself; with
	// navigate pressing it too, one Enter would press it twice.
	d := newInputDriver(t, Options{})
	for _, open := range []IntentKind{0, IntentOpenSettings, IntentOpenControls} {
		if open != 0 {
			d.app.emit(Intent{Kind: open})
		}
		d.update(InputState{})
		bs := buttons(d.app.cur.root())
		if len(bs) == 0 {
			t.Fatalf("the %v screen has no buttons", d.app.flow.screen)
		}
		for _, b := range bs {
			if !b.DisableDefaultKeys {
				t.Errorf("on the %v screen, %q answers Enter and Space by itself", d.app.flow.screen, b.Text().Label)
			}
		}
	}
}

func TestEscInTheLobbyAsksBeforeLeaving(t *testing.T) {
	d := newInputDriver(t, Options{})
	d.update(InputState{})
	a := d.app
	a.flow.screen, a.flow.hosting = screenLobby, true // as if hosting: the question only
	a.escape()
	if a.prompt == nil || len(a.queue) != 0 {
		t.Fatalf("Esc in the lobby: prompt %v, queued %v; want a question and nothing done", a.prompt, a.queue)
	}
	if got := d.focused(); got != "Stay" {
		t.Errorf("the question opens with %q in focus, want Stay", got)
	}
	a.escape() // back one level: the question goes
	if a.prompt != nil || len(a.queue) != 0 {
		t.Fatalf("Esc on the question: prompt %v, queued %v; want it closed and nothing done", a.prompt, a.queue)
	}
	a.escape()
	a.navigate(&Intents{NavX: 1})
	if got := d.focused(); got != "Close it" {
		t.Fatalf("→ on the question: focus on %q, want Close it", got)
	}
	a.navigate(&Intents{Confirm: true})
	a.ui.Update() // the click is delivered
	if a.prompt != nil || len(a.queue) != 1 || a.queue[0].Kind != IntentLeave {
		t.Errorf("Close it: prompt %v, queued %v; want it closed and the room left", a.prompt, a.queue)
	}
}

func TestSettingsKeepTheirEditsThroughTheControlsScreen(t *testing.T) {
	dir := t.TempDir()
	d := newInputDriver(t, Options{ConfigDir: dir})
	d.app.emit(Intent{Kind: IntentOpenSettings})
	d.update(InputState{})
	vol := d.app.cur.(*settingsScreen).edit.Volume
	d.focus("+", func() { d.key(ebiten.KeyArrowDown) })
	d.key(ebiten.KeyEnter) // volume up, not saved yet
	d.focus("Keys and gamepad…", func() { d.key(ebiten.KeyArrowDown) })
	d.key(ebiten.KeyEnter)
	d.wantScreen(screenControls)
	d.update(InputState{})
	d.key(ebiten.KeyEnter) // Turn left's first key…
	d.key(ebiten.KeyK)     // …is K, saved at once
	d.key(ebiten.KeyEscape)
	d.wantScreen(screenSettings)
	s := d.app.cur.(*settingsScreen)
	if s.edit.Volume != vol+10 {
		t.Errorf("volume %d back from Controls, want the unsaved %d", s.edit.Volume, vol+10)
	}
	if s.edit.Keys.Left[0] != "K" {
		t.Errorf("turn left %q back from Controls, want K first", s.edit.Keys.Left)
	}
}

func TestControlsRebindsAGamepadButtonWithTheGamepad(t *testing.T) {
	dir := t.TempDir()
	d := newInputDriver(t, Options{Seed: 5, ConfigDir: dir})
	d.app.emit(Intent{Kind: IntentOpenControls})
	d.pad(1, PadState{})
	right := func() { d.button(ebiten.StandardGamepadButtonLeftRight) }
	d.focus("D-pad left", right) // Turn left's first button
	d.button(padA)
	if !d.app.takingInput() {
		t.Fatal("A on a slot does not wait for a button")
	}
	d.button(padBack) // B cancels, and stays on the screen
	d.wantScreen(screenControls)
	if d.app.takingInput() {
		t.Fatal("B did not cancel the wait")
	}
	d.button(padA)
	d.button(ebiten.StandardGamepadButtonRightLeft) // X
	d.pad(1, PadState{})
	s, _, _ := LoadSettings(dir)
	if len(s.Pad.Left) == 0 || s.Pad.Left[0] != "X" {
		t.Fatalf("turn left on the gamepad is %q, want X first", s.Pad.Left)
	}
	d.button(padBack)
	d.wantScreen(screenMenu)
	d.app.emit(Intent{Kind: IntentPractice})
	d.pad(1, PadState{})
	start := play(t, d.app).world.Ships[me].Angle
	var x PadState
	x.Held[ebiten.StandardGamepadButtonRightLeft] = true
	d.pad(4, x)
	if got, want := play(t, d.app).world.Ships[me].Angle, start-4*game.RotateSpeed; got != want {
		t.Errorf("ship angle %d after X for 4 ticks, want %d (turned left)", got, want)
	}
}

// namedFocusScreen is a screen naming its first focus: Leave, a text box,
// then Ready, disabled at first (as the lobby's, until the room answers).
type namedFocusScreen struct {
	top          *widget.Container
	leave, ready *widget.Button
	box          *widget.TextInput
}

func (s *namedFocusScreen) id() screenID                           { return screenLobby }
func (s *namedFocusScreen) root() *widget.Container                { return s.top }
func (s *namedFocusScreen) update(Intents) error                   { return nil }
func (s *namedFocusScreen) draw(*ebiten.Image, draw.View, float64) {}
func (s *namedFocusScreen) initialFocus() widget.Focuser           { return s.ready }

func TestNamedFirstFocusWaitsForItsButtonButNotOverTheMouse(t *testing.T) {
	d := newInputDriver(t, Options{})
	a := d.app
	th := a.theme()
	s := &namedFocusScreen{top: th.vbox(4, nil)}
	s.leave = th.buttonFunc("Leave", func() {})
	s.box = th.input("chat", nil)
	s.ready = th.buttonFunc("Ready", func() {})
	enable(s.ready, false)
	s.top.AddChild(s.leave, s.box, s.ready)
	a.cur, a.ui.Container = s, s.top
	a.ui.ClearFocus()

	a.navigate(&Intents{})
	if a.ui.GetFocusedWidget() != widget.Focuser(s.leave) {
		t.Fatal("with Ready disabled, the focus is not on the first button, Leave")
	}
	enable(s.ready, true)
	a.navigate(&Intents{})
	if a.ui.GetFocusedWidget() != widget.Focuser(s.ready) {
		t.Fatal("with Ready enabled, the focus did not move to it")
	}
	a.ui.SetFocusedWidget(s.box) // the player clicks the text box
	a.navigate(&Intents{})
	if a.ui.GetFocusedWidget() != widget.Focuser(s.box) {
		t.Errorf("focus on %T after the player clicked the text box, want it kept there", a.ui.GetFocusedWidget())
	}
}

func TestStartOpensTheGameMenuButIsNotBackInMenus(t *testing.T) {
	d := newInputDriver(t, Options{})
	d.app.emit(Intent{Kind: IntentOpenSettings})
	d.pad(1, PadState{})
	d.button(padStart)
	d.wantScreen(screenSettings)
	d.button(padBack)
	d.wantScreen(screenMenu)
}
