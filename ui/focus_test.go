package ui

import (
	"testing"

	"github.com/ebitenui/ebitenui/widget"

	"rockstep/net/lan"
)

// TestJoinFocusesTheFirstLANGame: the Join screen opens with the focus on
// the address's Join while it looks; once a game is found, on that game's
// Join, so that Enter joins it.
func TestJoinFocusesTheFirstLANGame(t *testing.T) {
	fake := &lan.Fake{}
	a, err := NewApp(Options{Seed: 7, ConfigDir: t.TempDir(), Discovery: fake, Silent: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	a.input = func(int) *InputState { return &InputState{} }
	a.emit(Intent{Kind: IntentOpenJoin})
	for range 5 {
		if err := a.Update(); err != nil {
			t.Fatal(err)
		}
	}
	s, ok := a.cur.(*joinScreen)
	if !ok {
		t.Fatalf("screen %T, want Join", a.cur)
	}
	fake.Set([]lan.Game{lanGame("Ada's game", true), lanGame("Zed's game", true)})
	for range 2 * lanPollTicks {
		if err := a.Update(); err != nil {
			t.Fatal(err)
		}
	}
	if s.first == nil {
		t.Fatal("no LAN game listed")
	}
	if got := a.ui.GetFocusedWidget(); got != widget.Focuser(s.first) {
		t.Errorf("the focus is on %T %v, want the first LAN game's Join", got, got.GetWidget().Rect)
	}
}

// TestMenuQuitWaitsForThePointerToMove: the menu opens (after Leave) with
// the pointer at rest, perhaps over Quit: a click there does not quit
// until the pointer has moved.
func TestMenuQuitWaitsForThePointerToMove(t *testing.T) {
	a, err := NewApp(Options{Seed: 7, ConfigDir: t.TempDir(), Discovery: &lan.Fake{}, Silent: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	at := PointerState{X: 640, Y: 600}
	a.input = func(int) *InputState { return &InputState{Pointer: at} }
	for _, in := range []IntentKind{IntentOpenJoin, IntentBack} {
		a.emit(Intent{Kind: in})
		for range 3 {
			if err := a.Update(); err != nil {
				t.Fatal(err)
			}
		}
	}
	m, ok := a.cur.(*menuScreen)
	if !ok {
		t.Fatalf("screen %T, want the menu", a.cur)
	}
	m.quit()
	if len(a.queue) != 0 || a.quit {
		t.Fatal("Quit answered a click with the pointer where it rested when the menu opened")
	}
	at.Y += 3
	if err := a.Update(); err != nil {
		t.Fatal(err)
	}
	m.quit()
	if len(a.queue) != 1 || a.queue[0].Kind != IntentQuit {
		t.Errorf("after the pointer moved, Quit queued %v, want Quit", a.queue)
	}
}
