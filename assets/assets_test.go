package assets

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

func TestLoadParsesEveryFont(t *testing.T) {
	a, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	for _, tc := range []struct {
		name string
		src  *text.GoTextFaceSource
	}{
		{"Regular", a.Fonts.Regular},
		{"Bold", a.Fonts.Bold},
		{"Mono", a.Fonts.Mono},
	} {
		if tc.src == nil {
			t.Errorf("Fonts.%s is nil", tc.name)
			continue
		}
		face := &text.GoTextFace{Source: tc.src, Size: 20}
		if w, _ := text.Measure("GAME OVER — 0123", face, 0); w <= 0 {
			t.Errorf("Fonts.%s: measured width %v, want > 0", tc.name, w)
		}
	}
}
