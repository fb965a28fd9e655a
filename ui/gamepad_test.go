package ui

import (
	"strings"
	"testing"

	"github.com/ebitenui/ebitenui"
	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/game"
)

// padWith returns a gamepad holding buttons held, of which just went down
// this update, with its left stick at (x, y).
func padWith(x, y float64, held []ebiten.StandardGamepadButton, just ...ebiten.StandardGamepadButton) PadState {
	var p PadState
	for _, b := range held {
		p.Held[b] = true
	}
	for _, b := range just {
		p.Held[b], p.Just[b] = true, true
	}
	p.Axes[ebiten.StandardGamepadAxisLeftStickHorizontal] = x
	p.Axes[ebiten.StandardGamepadAxisLeftStickVertical] = y
	return p
}

func TestGamepadStateMapsToIntents(t *testing.T) {
	const (
		A     = ebiten.StandardGamepadButtonRightBottom
		B     = ebiten.StandardGamepadButtonRightRight
		Start = ebiten.StandardGamepadButtonCenterRight
		RT    = ebiten.StandardGamepadButtonFrontBottomRight
		LB    = ebiten.StandardGamepadButtonFrontTopLeft
		Left  = ebiten.StandardGamepadButtonLeftLeft
		Right = ebiten.StandardGamepadButtonLeftRight
		Down  = ebiten.StandardGamepadButtonLeftBottom
	)
	tests := []struct {
		name string
		pad  KeyBindings
		p    PadState
		want Intents
	}{
		{"idle", DefaultPad(), padWith(0, 0, nil), Intents{}},
		{"stick pushed left turns left and moves the focus", DefaultPad(), padWith(-0.9, 0, nil), Intents{Ship: game.Left, NavX: -1}},
		{"a stick in its dead zone does nothing", DefaultPad(), padWith(0.3, -0.3, nil), Intents{}},
		{"d-pad right turns right", DefaultPad(), padWith(0, 0, []ebiten.StandardGamepadButton{Right}), Intents{Ship: game.Right}},
		{"stick left and d-pad right cancel", DefaultPad(), padWith(-1, 0, []ebiten.StandardGamepadButton{Right}), Intents{NavX: -1}},
		{"right trigger thrusts up", DefaultPad(), padWith(0, 0, []ebiten.StandardGamepadButton{RT}), Intents{Ship: game.Up}},
		{"left shoulder thrusts down", DefaultPad(), padWith(0, 0, []ebiten.StandardGamepadButton{LB}), Intents{Ship: game.Down}},
		{"A held charges", DefaultPad(), padWith(0, 0, []ebiten.StandardGamepadButton{A}), Intents{Ship: game.Fire}},
		{"A pressed also confirms", DefaultPad(), padWith(0, 0, nil, A), Intents{Ship: game.Fire, Confirm: true}},
		{"B goes back", DefaultPad(), padWith(0, 0, nil, B), Intents{Quit: true}},
		{"Start opens the menu", DefaultPad(), padWith(0, 0, nil, Start), Intents{Menu: true}},
		{"d-pad down moves the focus", DefaultPad(), padWith(0, 0, nil, Down), Intents{NavY: 1}},
		{"d-pad left steers and moves the focus", DefaultPad(), padWith(0, 0, nil, Left), Intents{Ship: game.Left, NavX: -1}},
		{"Y jumps", DefaultPad(), padWith(0, 0, []ebiten.StandardGamepadButton{ebiten.StandardGamepadButtonRightTop}), Intents{Ship: game.Hyperspace}},
		{"a rebound X fires", KeyBindings{Fire: []string{"X"}}, padWith(0, 0, []ebiten.StandardGamepadButton{ebiten.StandardGamepadButtonRightLeft}), Intents{Ship: game.Fire}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var m inputMapper
			st := InputState{Pads: []PadState{tc.p}}
			if got := m.intents(defaultKeyMap, NewPadMap(tc.pad), &st); got != tc.want {
				t.Errorf("intents = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestStickMovesTheFocusOncePerPush(t *testing.T) {
	var m inputMapper
	pad := NewPadMap(DefaultPad())
	var got []int
	for _, y := range []float64{0, 0.9, 1, 0.8, 0.2, -0.7, -1, 0, 1} {
		st := InputState{Pads: []PadState{padWith(0, y, nil)}}
		got = append(got, m.intents(defaultKeyMap, pad, &st).NavY)
	}
	want := []int{0, 1, 0, 0, 0, -1, 0, 0, 1}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("NavY over the pushes = %v, want %v", got, want)
		}
	}
}

func TestKeyboardSnapshotGivesTheSameIntentsAsBefore(t *testing.T) {
	var m inputMapper
	st := InputState{Held: []ebiten.Key{ebiten.KeyArrowUp, ebiten.KeyEnter}, Just: []ebiten.Key{ebiten.KeyEnter, ebiten.KeyArrowDown}}
	got := m.intents(defaultKeyMap, NewPadMap(DefaultPad()), &st)
	want := ReadIntents(st.heldKey, st.justKey)
	want.NavY = 1
	if got != want {
		t.Errorf("intents = %+v, want %+v", got, want)
	}
}

func TestEscGoesBackOneLevelEverywhere(t *testing.T) {
	tests := []struct {
		screen screenID
		want   IntentKind // 0: nothing
	}{
		{screenMenu, 0},
		{screenJoin, IntentBack},
		{screenPlay, IntentGameMenu},
		{screenPractice, IntentGameMenu},
		{screenScores, IntentBack},
		{screenResults, IntentBack},
		{screenSettings, IntentBack},
		{screenControls, IntentBack},
		{screenReplays, IntentBack},
		{screenReplay, IntentBack},
	}
	for _, tc := range tests {
		t.Run(tc.screen.String(), func(t *testing.T) {
			a := &App{ui: &ebitenui.UI{}}
			a.flow.screen = tc.screen
			a.escape()
			var got IntentKind
			if len(a.queue) > 0 {
				got = a.queue[0].Kind
			}
			if got != tc.want || len(a.queue) > 1 {
				t.Errorf("Esc on %v queued %v, want kind %d", tc.screen, a.queue, tc.want)
			}
		})
	}
	// And what the flow makes of it: back one level.
	for _, tc := range []struct {
		from, to screenID
	}{{screenSettings, screenMenu}, {screenReplays, screenMenu}, {screenLobby, screenMenu}, {screenResults, screenMenu}} {
		f := flow{screen: tc.from}
		f.apply(Intent{Kind: IntentBack})
		if f.screen != tc.to {
			t.Errorf("Back on %v goes to %v, want %v", tc.from, f.screen, tc.to)
		}
	}
	for _, from := range []screenID{screenMenu, screenSettings} {
		f := flow{screen: from}
		f.apply(Intent{Kind: IntentOpenControls})
		f.apply(Intent{Kind: IntentBack})
		if f.screen != from {
			t.Errorf("Back from Controls opened on %v goes to %v", from, f.screen)
		}
	}
}

func TestDamagedPadBindingsGiveDefaultsAndAMessage(t *testing.T) {
	dir := t.TempDir()
	s := DefaultSettings()
	s.Pad.Fire = []string{"Turbo"}
	s.Pad.Up = []string{"Start"} // Start is the menu's
	if err := SaveSettings(dir, s); err != nil {
		t.Fatal(err)
	}
	got, warning, err := LoadSettings(dir)
	if err != nil {
		t.Fatal(err)
	}
	d := DefaultPad()
	if strings.Join(got.Pad.Fire, ",") != strings.Join(d.Fire, ",") || strings.Join(got.Pad.Up, ",") != strings.Join(d.Up, ",") {
		t.Errorf("pad fire %q, up %q; want the defaults %q, %q", got.Pad.Fire, got.Pad.Up, d.Fire, d.Up)
	}
	if !strings.Contains(warning, "pad.fire (Turbo)") || !strings.Contains(warning, "pad.up (Start)") {
		t.Errorf("warning %q does not name the bad bindings", warning)
	}
}

func TestPadHintSaysWhenAGamepadCannotBeUsed(t *testing.T) {
	var h padHint
	h.connected([]PadInfo{{Name: "Odd stick", Standard: false}})
	if !strings.Contains(h.text, "Odd stick") || !strings.Contains(h.text, "cannot be used") || h.left == 0 {
		t.Errorf("hint %q (%d ticks) for a gamepad of unknown layout", h.text, h.left)
	}
	h.connected(nil)
	for range padHintTicks {
		h.step()
	}
	if h.left != 0 {
		t.Errorf("hint still up after %d ticks", padHintTicks)
	}
}
