package ui

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

func TestUIScaleFollowsTheScreen(t *testing.T) {
	tests := []struct {
		w, h float64
		want float64
	}{
		{800, 600, 0.8},
		{1000, 750, 1},
		{1280, 720, 0.95},  // 720/750 = 0.96, a step down
		{2560, 1440, 1.9},  // the same window at device scale 2
		{3840, 2160, 2.85}, // 4K
		{1280, 400, 0.5},   // too small to read: no smaller
		{0, 0, 1},
	}
	for _, tc := range tests {
		if got := uiScale(tc.w, tc.h); got != tc.want {
			t.Errorf("uiScale(%v, %v) = %v, want %v", tc.w, tc.h, got, tc.want)
		}
	}
}

func TestThemeScalesTextAndSizes(t *testing.T) {
	a, err := NewApp(Options{ConfigDir: t.TempDir(), Silent: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	one, two := a.themeAt(1), a.themeAt(2)
	if a.themeAt(2) != two {
		t.Error("the theme of a scale is built again")
	}
	if got := two.px(24); got != 48 {
		t.Errorf("px(24) at scale 2 = %d, want 48", got)
	}
	for name, f := range map[string][2]text.Face{"title": {one.titleFace, two.titleFace}, "body": {one.bodyFace, two.bodyFace}, "small": {one.smallFace, two.smallFace}} {
		s1, s2 := f[0].(*text.GoTextFace).Size, f[1].(*text.GoTextFace).Size
		if s2 != 2*s1 {
			t.Errorf("the %s text is %v pixels at scale 1 and %v at scale 2", name, s1, s2)
		}
	}
}

func TestResizeRebuildsTheScreenAtItsScale(t *testing.T) {
	a, err := NewApp(Options{ConfigDir: t.TempDir(), Silent: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	deviceScale = 2
	defer func() { deviceScale = 0 }()
	a.emit(Intent{Kind: IntentOpenSettings})
	if err := a.process(); err != nil {
		t.Fatal(err)
	}
	s := a.cur.(*settingsScreen)
	s.edit.Volume = 30 // an edit not saved yet
	if w, h := a.LayoutF(1280, 720); w != 2560 || h != 1440 {
		t.Fatalf("LayoutF(1280, 720) at device scale 2 = %v×%v, want 2560×1440", w, h)
	}
	a.rescale()
	if a.theme().scale != 1.9 {
		t.Errorf("the theme's scale is %v on a 2560×1440 screen, want 1.9", a.theme().scale)
	}
	s2, ok := a.cur.(*settingsScreen)
	if !ok || s2 == s || a.ui.Container != s2.root() {
		t.Fatalf("the Settings screen was not rebuilt: %T", a.cur)
	}
	if s2.edit.Volume != 30 {
		t.Errorf("the unsaved volume is %d after the resize, want 30", s2.edit.Volume)
	}
	before := a.cur
	a.rescale() // the same size: nothing to do
	if a.cur != before {
		t.Error("the screen was rebuilt without a change of scale")
	}
}
