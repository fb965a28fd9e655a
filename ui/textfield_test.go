package ui

import (
	"testing"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/net/lan"
)

// slowFrameTicks is how many updates Ebitengine runs for one frame whose
// Draw takes 100 ms: six ticks of 1/60 s, the input read once, before the
// first.
const slowFrameTicks = 6

// TestTextFieldKeepsEveryPressInSlowFrames: five Backspaces tapped in five
// slow frames (each pressed and released again within its frame, so that
// the key never looks released between them) take off five characters:
// every press Ebitengine reports as just pressed counts, once.
func TestTextFieldKeepsEveryPressInSlowFrames(t *testing.T) {
	a, err := NewApp(Options{Seed: 7, ConfigDir: t.TempDir(), Discovery: &lan.Fake{}, Silent: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	const presses = 5
	a.input = func(n int) *InputState {
		st := &InputState{}
		if n >= 10 && n < 10+presses*slowFrameTicks {
			st.Held = []ebiten.Key{ebiten.KeyBackspace}
			if (n-10)%slowFrameTicks == 0 {
				st.Just = []ebiten.Key{ebiten.KeyBackspace}
			}
		}
		return st
	}
	a.emit(Intent{Kind: IntentOpenJoin})
	var s *joinScreen
	for range 10 {
		if err := a.Update(); err != nil {
			t.Fatal(err)
		}
		if j, ok := a.cur.(*joinScreen); ok && s == nil {
			s = j
			s.addr.SetText("127.0.0.1:40777")
			s.addr.CursorMoveEnd()
			a.ui.SetFocusedWidget(s.addr)
		}
	}
	if s == nil {
		t.Fatalf("screen %T, want the join screen", a.cur)
	}
	for range presses * slowFrameTicks {
		if err := a.Update(); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := s.addr.GetText(), "127.0.0.1:"; got != want {
		t.Errorf("after %d Backspaces the field holds %q, want %q", presses, got, want)
	}
}

// TestClickIntoFieldSelectsItsText: a field focused by a click holds its
// text selected once the button is up, so that typing replaces it; a field
// already focused keeps its caret where the click put it.
func TestClickIntoFieldSelectsItsText(t *testing.T) {
	f := widget.NewTextInput()
	f.SetText("127.0.0.1:40777")
	var e fieldEdit
	e.before(nil)
	f.Focus(true)
	e.after(f, nil, true) // pressed: focused by this press
	if got := f.SelectedText(); got != "" {
		t.Fatalf("selected %q while the button is down", got)
	}
	e.before(f)
	e.after(f, nil, false) // released
	if got := f.SelectedText(); got != "127.0.0.1:40777" {
		t.Errorf("after the click the field has %q selected, want all its text", got)
	}
	f.DeselectText()
	e.before(f)
	e.after(f, nil, true)
	e.before(f)
	e.after(f, nil, false)
	if got := f.SelectedText(); got != "" {
		t.Errorf("a click into the focused field selected %q", got)
	}
}
