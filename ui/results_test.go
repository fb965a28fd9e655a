package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"rockstep/assets"
)

func TestResultRanksShowTiesAsTies(t *testing.T) {
	tests := []struct {
		name  string
		lines []resultLine
		want  []int
	}{
		{"co-op, all different", []resultLine{{score: 30}, {score: 20}, {score: 10}}, []int{1, 2, 3}},
		{"co-op, a tie at the top", []resultLine{{score: 30}, {score: 30}, {score: 10}}, []int{1, 1, 3}},
		{"co-op, everyone tied", []resultLine{{score: 0}, {score: 0}}, []int{1, 1}},
		{"versus winner above an equal score", []resultLine{{score: 30, winner: true}, {score: 30}, {score: 30}}, []int{1, 2, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := resultRanks(tc.lines); !slices.Equal(got, tc.want) {
				t.Errorf("ranks %v, want %v", got, tc.want)
			}
		})
	}
}

func TestEllipsisFitsNamesInTheirPlace(t *testing.T) {
	a, err := assets.Load()
	if err != nil {
		t.Fatal(err)
	}
	f := &text.GoTextFace{Source: a.Fonts.Regular, Size: 20}
	width := func(s string) float64 { w, _ := text.Measure(s, f, 0); return w }
	if got := ellipsis("Ada", f, 200); got != "Ada" {
		t.Errorf("a short name became %q", got)
	}
	long := "Bartholomew Featherstone"
	for _, room := range []float64{40, 120, 200} {
		got := ellipsis(long, f, room)
		if width(got) > room {
			t.Errorf("ellipsis(%q, %v) = %q, %.0f px wide", long, room, got, width(got))
		}
		if !strings.HasSuffix(got, "…") || !strings.HasPrefix(long, strings.TrimSuffix(got, "…")) {
			t.Errorf("ellipsis(%q, %v) = %q, want a prefix and …", long, room, got)
		}
		// As long as fits: one more character would not.
		n := len([]rune(strings.TrimSuffix(got, "…")))
		if more := string([]rune(long)[:n+1]) + "…"; width(more) <= room && !strings.HasSuffix(string([]rune(long)[:n+1]), " ") {
			t.Errorf("ellipsis(%q, %v) = %q, but %q fits too", long, room, got, more)
		}
	}
}

func TestTheWinnersStarIsDrawn(t *testing.T) {
	img := starPicture(starSize, colWarn)
	centre := img.RGBAAt(starSize/2, starSize/2+1)
	corner := img.RGBAAt(0, 0)
	if centre.A != 255 || centre.R != colWarn.R {
		t.Errorf("centre %v, want the gold %v", centre, colWarn)
	}
	if corner.A != 0 {
		t.Errorf("corner %v, want transparent", corner)
	}
	// The top point, under the centre line; not the space between points.
	if top := img.RGBAAt(starSize/2, 2); top.A == 0 {
		t.Error("no top point")
	}
	if gap := img.RGBAAt(starSize/2, starSize-2); gap.A != 0 {
		t.Errorf("the gap between the lower points is %v, want transparent", gap)
	}
}
