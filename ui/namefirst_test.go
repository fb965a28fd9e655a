package ui

import (
	"strings"
	"testing"

	"github.com/ebitenui/ebitenui/widget"

	"rockstep/net/lan"
)

// TestFirstStartAsksForAName: the first start (an empty config) asks for
// a name over the main menu, the guest name selected so that typing
// replaces it; the name given is kept and shown. Skip keeps the guest
// name; a later start does not ask again.
func TestFirstStartAsksForAName(t *testing.T) {
	askNameOnFirstStart = true
	defer func() { askNameOnFirstStart = false }()
	start := func(dir string) *App {
		t.Helper()
		a, err := NewApp(Options{Seed: 7, ConfigDir: dir, Discovery: &lan.Fake{}, Silent: true})
		if err != nil {
			t.Fatal(err)
		}
		a.input = func(int) *InputState { return &InputState{} }
		for range 3 {
			if err := a.Update(); err != nil {
				t.Fatal(err)
			}
		}
		return a
	}
	dir := t.TempDir()
	a := start(dir)
	if a.prompt == nil {
		t.Fatal("the first start asks nothing")
	}
	field, ok := a.ui.GetFocusedWidget().(*widget.TextInput)
	if !ok {
		t.Fatalf("the focus is on %T, want the name field", a.ui.GetFocusedWidget())
	}
	if got := field.SelectedText(); !strings.HasPrefix(got, "Guest-") || got != field.GetText() {
		t.Errorf("the field holds %q with %q selected, want the guest name, all selected", field.GetText(), got)
	}
	field.SetText("Ada")
	field.Submit() // Enter
	for range 3 {
		if err := a.Update(); err != nil {
			t.Fatal(err)
		}
	}
	if a.prompt != nil || a.settings.Name != "Ada" {
		t.Fatalf("after Enter: prompt %v, name %q; want it closed and the name Ada", a.prompt != nil, a.settings.Name)
	}
	if m, ok := a.cur.(*menuScreen); !ok || m.name.Label != "playing as Ada" {
		t.Errorf("the menu is %T and says %q", a.cur, m.name.Label)
	}
	a.Close()
	if s, _, _ := LoadSettings(dir); s.Name != "Ada" {
		t.Errorf("the settings kept %q, want Ada", s.Name)
	}
	again := start(dir)
	defer again.Close()
	if again.prompt != nil {
		t.Error("a later start asks the name again")
	}

	skip := start(t.TempDir())
	defer skip.Close()
	guest := skip.settings.Name
	var skipBtn *widget.Button
	for _, f := range skip.prompt.box.GetFocusers() {
		if b, ok := f.(*widget.Button); ok && b.Text().Label == "Skip" {
			skipBtn = b
		}
	}
	if skipBtn == nil {
		t.Fatal("no Skip")
	}
	skipBtn.Click()
	for range 3 {
		if err := skip.Update(); err != nil {
			t.Fatal(err)
		}
	}
	if skip.prompt != nil || skip.settings.Name != guest {
		t.Errorf("after Skip: prompt %v, name %q; want it closed and %q kept", skip.prompt != nil, skip.settings.Name, guest)
	}
}
