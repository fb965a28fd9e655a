package fixed_test

import (
	"testing"

	"rockstep/game/fixed"
)

func TestWorkedExample(t *testing.T) {
	a, b := fixed.Frac(5, 2), fixed.Frac(-1, 4)
	if a != 163840 || b != -16384 {
		t.Fatalf("2.5 = %d, -0.25 = %d; want 163840, -16384", a, b)
	}
	if got := a.Mul(b); got != -40960 {
		t.Errorf("2.5 × -0.25 = %d, want -40960 (-0.625)", got)
	}
	if got := a.Div(fixed.Int(2)); got != fixed.Frac(5, 4) {
		t.Errorf("2.5 / 2 = %d, want %d", got, fixed.Frac(5, 4))
	}
	if got := fixed.Frac(-7, 2).Floor(); got != -4 {
		t.Errorf("floor(-3.5) = %d, want -4", got)
	}
}

func TestTrig(t *testing.T) {
	tests := []struct {
		deg      int
		sin, cos fixed.Num
	}{
		{0, 0, fixed.One},
		{90, fixed.One, 0},
		{180, 0, -fixed.One},
		{270, -fixed.One, 0},
		{30, fixed.Half, 56756}, // cos 30° = 0.866025 ≈ 56756/65536
	}
	for _, tt := range tests {
		a := fixed.Degrees(tt.deg)
		if got := fixed.Sin(a); (got - tt.sin).Abs() > 3 {
			t.Errorf("sin(%d°) = %d, want %d", tt.deg, got, tt.sin)
		}
		if got := fixed.Cos(a); (got - tt.cos).Abs() > 3 {
			t.Errorf("cos(%d°) = %d, want %d", tt.deg, got, tt.cos)
		}
	}
	// Every direction is a unit vector, within the table's rounding.
	for a := 0; a < fixed.Turn; a += 97 {
		l := fixed.Dir(fixed.Angle(a)).Length()
		if (l - fixed.One).Abs() > 4 {
			t.Fatalf("|Dir(%d)| = %d, want about %d", a, l, fixed.One)
		}
	}
}

func TestWrap(t *testing.T) {
	size := fixed.Int(100)
	tests := []struct{ in, want fixed.Num }{
		{fixed.Int(5), fixed.Int(5)},
		{fixed.Int(-5), fixed.Int(95)},
		{fixed.Int(105), fixed.Int(5)},
		{fixed.Int(100), 0},
		{fixed.Int(-300), 0},
	}
	for _, tt := range tests {
		if got := tt.in.Wrap(size); got != tt.want {
			t.Errorf("Wrap(%d) = %d, want %d", tt.in.Floor(), got.Floor(), tt.want.Floor())
		}
	}
	if got := fixed.WrapDelta(fixed.Int(2), fixed.Int(98), size); got != fixed.Int(4) {
		t.Errorf("WrapDelta(2, 98) = %d, want 4", got.Floor())
	}
}

func TestISqrt(t *testing.T) {
	for _, n := range []uint64{0, 1, 2, 3, 4, 15, 16, 17, 1 << 40, 1<<64 - 1} {
		r := fixed.ISqrt(n)
		if r*r > n || (r+1)*(r+1) <= n && r+1 != 1<<32 {
			t.Errorf("ISqrt(%d) = %d", n, r)
		}
	}
}

// TestTableIsGenerated keeps the committed table identical to what the
// generator would write: a few entries are pinned.
func TestTableIsGenerated(t *testing.T) {
	if fixed.TableSize != 1024 {
		t.Fatalf("TableSize = %d, want 1024", fixed.TableSize)
	}
	pins := map[fixed.Angle]fixed.Num{64: 402, 128: 804, 4096: 25080, 8192: 46341}
	for a, want := range pins {
		if got := fixed.Sin(a); got != want {
			t.Errorf("Sin(%d) = %d, want %d", a, got, want)
		}
	}
}
