package assets

import (
	"image"
	"testing"

	"rockstep/assets/iconart"
)

// TestIconIsFreshFromTheArt fails when icon.png and the art of package
// iconart disagree: run `go generate ./assets` after changing the art.
func TestIconIsFreshFromTheArt(t *testing.T) {
	got, err := Icon()
	if err != nil {
		t.Fatalf("Icon: %v", err)
	}
	if b := got.Bounds(); b != image.Rect(0, 0, 256, 256) {
		t.Fatalf("icon.png bounds %v, want 256×256", b)
	}
	want := iconart.Render(256)
	const tolerance = 2 // per 16-bit channel step of 257: floating point may round differently on other machines
	bad := 0
	for y := 0; y < 256; y++ {
		for x := 0; x < 256; x++ {
			r1, g1, b1, a1 := got.At(x, y).RGBA()
			r2, g2, b2, a2 := want.At(x, y).RGBA()
			for _, d := range [][2]uint32{{r1, r2}, {g1, g2}, {b1, b2}, {a1, a2}} {
				if diff := int(d[0]>>8) - int(d[1]>>8); diff > tolerance || diff < -tolerance {
					bad++
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("icon.png differs from iconart.Render(256) in %d channels; run go generate ./assets", bad)
	}
}
