package draw

import (
	"image"
	"testing"
)

func TestFitViewKeepsAspect(t *testing.T) {
	tests := []struct {
		name     string
		w, h     float64
		want     View
		wantRect image.Rectangle
	}{
		// The field and the HUD's bands are 1280×820 world units.
		{"field and bands at 1:1", 1280, 820, View{1, 0, HUDTop}, image.Rect(0, HUDTop, 1280, 720+HUDTop)},
		{"double (HiDPI)", 2560, 1640, View{2, 0, 2 * HUDTop}, image.Rect(0, 2*HUDTop, 2560, 1440+2*HUDTop)},
		{"wider: bars left and right", 1600, 820, View{1, 160, HUDTop}, image.Rect(160, HUDTop, 1440, 720+HUDTop)},
		{"taller: bars top and bottom", 640, 820, View{0.5, 0, 205 + HUDTop/2}, image.Rect(0, 205+HUDTop/2, 640, 565+HUDTop/2)},
		{"degenerate window", 0, 0, View{1, -640, -410 + HUDTop}, image.Rect(-640, -410+HUDTop, 640, 310+HUDTop)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := FitView(tc.w, tc.h)
			if got != tc.want {
				t.Errorf("fitView(%v, %v) = %+v, want %+v", tc.w, tc.h, got, tc.want)
			}
			if r := got.rect(); r != tc.wantRect {
				t.Errorf("fitView(%v, %v).rect() = %v, want %v", tc.w, tc.h, r, tc.wantRect)
			}
		})
	}
}

func TestViewMapsFieldCorners(t *testing.T) {
	v := FitView(1600, 820)
	if x, y := v.pt(0, 0); x != 160 || y != HUDTop {
		t.Errorf("pt(0, 0) = (%v, %v), want (160, %v)", x, y, HUDTop)
	}
	if x, y := v.pt(FieldW, FieldH); x != 1440 || y != 720+HUDTop {
		t.Errorf("pt(field corner) = (%v, %v), want (1440, %v)", x, y, 720+HUDTop)
	}
	if got := v.px(12); got != 12 {
		t.Errorf("px(12) = %v, want 12", got)
	}
}

func TestWrapCopies(t *testing.T) {
	tests := []struct {
		name    string
		x, y, r float64
		want    [][2]float64
	}{
		{"in the middle", 640, 360, 40, [][2]float64{{0, 0}}},
		{"touching the left edge", 10, 360, 40, [][2]float64{{0, 0}, {FieldW, 0}}},
		{"touching the right edge", 1270, 360, 40, [][2]float64{{0, 0}, {-FieldW, 0}}},
		{"touching the top edge", 640, 5, 40, [][2]float64{{0, 0}, {0, FieldH}}},
		{"touching the bottom edge", 640, 700, 40, [][2]float64{{0, 0}, {0, -FieldH}}},
		{"in a corner", 1275, 3, 40, [][2]float64{{0, 0}, {-FieldW, 0}, {0, FieldH}, {-FieldW, FieldH}}},
		{"exactly a radius away", 40, 680, 40, [][2]float64{{0, 0}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var dst [4][2]float64
			n := wrapCopies(tc.x, tc.y, tc.r, &dst)
			if n != len(tc.want) {
				t.Fatalf("wrapCopies(%v, %v, %v) wrote %d offsets %v, want %v", tc.x, tc.y, tc.r, n, dst[:n], tc.want)
			}
			for i := range tc.want {
				if dst[i] != tc.want[i] {
					t.Errorf("offset %d = %v, want %v", i, dst[i], tc.want[i])
				}
			}
		})
	}
}

func TestMenuViewHasNoBands(t *testing.T) {
	if v := MenuView(1280, 720); v != (View{1, 0, 0}) {
		t.Errorf("menuView(1280, 720) = %+v, want the field filling the screen", v)
	}
	if v := MenuView(800, 600); v != (View{0.625, 0, 75}) {
		t.Errorf("menuView(800, 600) = %+v, want bars above and below", v)
	}
}

func TestFitViewAboveLeavesTheBottomFree(t *testing.T) {
	// 1280×784 world units above a bar of 100 pixels, at 1:1.
	v := FitViewAbove(1280, 784+100, 100)
	if v != (View{1, 0, HUDTop}) {
		t.Errorf("fitViewAbove(1280, 884, 100) = %+v, want %+v", v, View{1, 0, HUDTop})
	}
	if r := v.rect(); r.Max.Y > 884-100 {
		t.Errorf("the field %v reaches into the bar", r)
	}
}

// TestEdgeMarkClearButQuiet: an edge mark shows clearly from its first
// frame (it used to start from nothing, found only by measuring pixels)
// and never outshines the rocks.
func TestEdgeMarkClearButQuiet(t *testing.T) {
	for _, ticks := range []float64{edgeWarnTicks - 0.01, edgeWarnTicks / 2, 0} {
		a := edgeAlpha(ticks)
		if a < edgeMarkMin-1e-6 || a > edgeMarkMax+1e-6 {
			t.Errorf("%v ticks before the rock: opacity %.2f, want %.2f to %.2f", ticks, a, edgeMarkMin, edgeMarkMax)
		}
	}
	if edgeAlpha(edgeWarnTicks-0.01) < 0.4 {
		t.Error("a fresh mark is fainter than 0.4")
	}
}
