package iconart

import (
	"image"
	"testing"
)

func TestRenderIsAnOpaqueTileOnATransparentMargin(t *testing.T) {
	for _, size := range []int{16, 32, 48, 128, 256} {
		img := Render(size)
		if b := img.Bounds(); b != image.Rect(0, 0, size, size) {
			t.Fatalf("Render(%d): bounds %v", size, b)
		}
		if a := img.NRGBAAt(0, 0).A; a != 0 {
			t.Errorf("Render(%d): corner alpha %d, want 0 (transparent margin)", size, a)
		}
		if a := img.NRGBAAt(size/2, size/2).A; a != 255 {
			t.Errorf("Render(%d): centre alpha %d, want 255 (opaque tile)", size, a)
		}
	}
}

func TestRenderShowsTheShipInItsColour(t *testing.T) {
	img := Render(256)
	cyan := 0
	for y := 0; y < 256; y++ {
		for x := 0; x < 256; x++ {
			c := img.NRGBAAt(x, y)
			if c.A == 255 && c.B > 0xe0 && c.G > 0xc0 && c.R < 0x80 {
				cyan++
			}
		}
	}
	if cyan < 500 {
		t.Errorf("%d bright cyan pixels, want at least 500: the ship is missing", cyan)
	}
}
