package draw

import (
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"rockstep/assets"
)

func TestEllipsisFitsNamesInTheirPlace(t *testing.T) {
	a, err := assets.Load()
	if err != nil {
		t.Fatal(err)
	}
	f := &text.GoTextFace{Source: a.Fonts.Regular, Size: 20}
	width := func(s string) float64 { w, _ := text.Measure(s, f, 0); return w }
	if got := Ellipsis("Ada", f, 200); got != "Ada" {
		t.Errorf("a short name became %q", got)
	}
	long := "Bartholomew Featherstone"
	for _, room := range []float64{40, 120, 200} {
		got := Ellipsis(long, f, room)
		if width(got) > room {
			t.Errorf("Ellipsis(%q, %v) = %q, %.0f px wide", long, room, got, width(got))
		}
		if !strings.HasSuffix(got, "…") || !strings.HasPrefix(long, strings.TrimSuffix(got, "…")) {
			t.Errorf("Ellipsis(%q, %v) = %q, want a prefix and …", long, room, got)
		}
		// As long as fits: one more character would not.
		n := len([]rune(strings.TrimSuffix(got, "…")))
		if more := string([]rune(long)[:n+1]) + "…"; width(more) <= room && !strings.HasSuffix(string([]rune(long)[:n+1]), " ") {
			t.Errorf("Ellipsis(%q, %v) = %q, but %q fits too", long, room, got, more)
		}
	}
}
