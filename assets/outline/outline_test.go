package outline

import (
	"math"
	"testing"
)

// TestRocksWithinTheirRadius: every point of a rock lies between 0.64 and
// 1.06 of its radius, as the hit area expects.
func TestRocksWithinTheirRadius(t *testing.T) {
	for s, pts := range Rocks {
		if len(pts) < 10 {
			t.Errorf("rock %d: %d points", s, len(pts))
		}
		for i, p := range pts {
			if r := math.Hypot(p[0], p[1]); r < 0.64-1e-9 || r > 1.06+1e-9 {
				t.Errorf("rock %d point %d at %.3f of the radius", s, i, r)
			}
		}
	}
}
