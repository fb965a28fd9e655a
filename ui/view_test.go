package ui

import (
	"image"
	"testing"
)

func TestFitViewKeepsAspect(t *testing.T) {
	tests := []struct {
		name     string
		w, h     float64
		want     view
		wantRect image.Rectangle
	}{
		// The field and the HUD's bands are 1280×820 world units.
		{"field and bands at 1:1", 1280, 820, view{1, 0, hudTop}, image.Rect(0, hudTop, 1280, 720+hudTop)},
		{"double (HiDPI)", 2560, 1640, view{2, 0, 2 * hudTop}, image.Rect(0, 2*hudTop, 2560, 1440+2*hudTop)},
		{"wider: bars left and right", 1600, 820, view{1, 160, hudTop}, image.Rect(160, hudTop, 1440, 720+hudTop)},
		{"taller: bars top and bottom", 640, 820, view{0.5, 0, 205 + hudTop/2}, image.Rect(0, 205+hudTop/2, 640, 565+hudTop/2)},
		{"degenerate window", 0, 0, view{1, -640, -410 + hudTop}, image.Rect(-640, -410+hudTop, 640, 310+hudTop)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := fitView(tc.w, tc.h)
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
	v := fitView(1600, 820)
	if x, y := v.pt(0, 0); x != 160 || y != hudTop {
		t.Errorf("pt(0, 0) = (%v, %v), want (160, %v)", x, y, hudTop)
	}
	if x, y := v.pt(fieldW, fieldH); x != 1440 || y != 720+hudTop {
		t.Errorf("pt(field corner) = (%v, %v), want (1440, %v)", x, y, 720+hudTop)
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
		{"touching the left edge", 10, 360, 40, [][2]float64{{0, 0}, {fieldW, 0}}},
		{"touching the right edge", 1270, 360, 40, [][2]float64{{0, 0}, {-fieldW, 0}}},
		{"touching the top edge", 640, 5, 40, [][2]float64{{0, 0}, {0, fieldH}}},
		{"touching the bottom edge", 640, 700, 40, [][2]float64{{0, 0}, {0, -fieldH}}},
		{"in a corner", 1275, 3, 40, [][2]float64{{0, 0}, {-fieldW, 0}, {0, fieldH}, {-fieldW, fieldH}}},
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
	if v := menuView(1280, 720); v != (view{1, 0, 0}) {
		t.Errorf("menuView(1280, 720) = %+v, want the field filling the screen", v)
	}
	if v := menuView(800, 600); v != (view{0.625, 0, 75}) {
		t.Errorf("menuView(800, 600) = %+v, want bars above and below", v)
	}
}

func TestFitViewAboveLeavesTheBottomFree(t *testing.T) {
	// 1280×784 world units above a bar of 100 pixels, at 1:1.
	v := fitViewAbove(1280, 784+100, 100)
	if v != (view{1, 0, hudTop}) {
		t.Errorf("fitViewAbove(1280, 884, 100) = %+v, want %+v", v, view{1, 0, hudTop})
	}
	if r := v.rect(); r.Max.Y > 884-100 {
		t.Errorf("the field %v reaches into the bar", r)
	}
}
