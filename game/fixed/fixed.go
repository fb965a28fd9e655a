// Package fixed provides the integer arithmetic of the Rockstep engine: a
// fixed-point number, a 2-D vector of them and a full-turn integer angle with
// sine and cosine from a generated table.
//
// Every operation is defined on integers only, so every machine (amd64, 386,
// arm64) computes the same bits. Go defines signed right shift as arithmetic
// and integer division as truncation toward zero on every platform, and this
// package relies on nothing else.
package fixed

//go:generate go run gen_trig.go

// Num is a signed fixed-point number in Q16.16 format: the int32 holds the
// value multiplied by 65536 (16 integer bits including sign, 16 fraction
// bits).
//
// Range: -32768 to 32767.99998 in steps of 1/65536 (about 0.0000153).
//
// Worked example: 2.5 is stored as 2.5 × 65536 = 163840 (0x00028000);
// -0.25 is -16384. Their product, Mul(163840, -16384), is
// (163840 × -16384) >> 16 = -40960, which is -0.625.
type Num int32

// Format constants for Num.
const (
	Shift     = 16         // fraction bits
	One   Num = 1 << Shift // 1.0
	Half  Num = One / 2    // 0.5
	Max   Num = 1<<31 - 1  // largest value, about 32768
	Min   Num = -1 << 31   // smallest value, -32768
)

// Int returns n as a Num. n must be within the range of Num.
func Int(n int) Num { return Num(n << Shift) }

// Frac returns num/den as a Num, truncated toward zero. den must not be zero.
func Frac(num, den int) Num { return Num(int64(num) << Shift / int64(den)) }

// Mul returns a×b, rounded toward negative infinity.
func (a Num) Mul(b Num) Num { return Num(int64(a) * int64(b) >> Shift) }

// MulInt returns a×n.
func (a Num) MulInt(n int) Num { return a * Num(n) }

// Div returns a/b, truncated toward zero. b must not be zero.
func (a Num) Div(b Num) Num { return Num(int64(a) << Shift / int64(b)) }

// Floor returns the integer part of a, rounded toward negative infinity.
func (a Num) Floor() int { return int(a >> Shift) }

// Abs returns |a|. Abs(Min) is Min.
func (a Num) Abs() Num {
	if a < 0 {
		return -a
	}
	return a
}

// Wrap returns a reduced into [0, size) for a size > 0, as the play field
// wraps around its edges.
func (a Num) Wrap(size Num) Num {
	a %= size
	if a < 0 {
		a += size
	}
	return a
}

// WrapDelta returns the shortest signed distance from b to a on a ring of
// the given size: a value in [-size/2, size/2).
func WrapDelta(a, b, size Num) Num {
	d := (a - b).Wrap(size)
	if d >= size/2 {
		d -= size
	}
	return d
}

// Vec is a 2-D vector of Nums. On the play field X grows to the right and Y
// grows downward, as on the screen.
type Vec struct {
	X, Y Num
}

// Add returns a+b.
func (a Vec) Add(b Vec) Vec { return Vec{a.X + b.X, a.Y + b.Y} }

// Sub returns a-b.
func (a Vec) Sub(b Vec) Vec { return Vec{a.X - b.X, a.Y - b.Y} }

// Scale returns a×s.
func (a Vec) Scale(s Num) Vec { return Vec{a.X.Mul(s), a.Y.Mul(s)} }

// LenSq returns the squared length of a in raw units (value × 2^32), as an
// int64 so that no distance on the field overflows.
func (a Vec) LenSq() int64 { return int64(a.X)*int64(a.X) + int64(a.Y)*int64(a.Y) }

// Angle is a direction as a fraction of a full turn: 65536 units make 360°,
// so one unit is about 0.0055°, and arithmetic wraps around by itself.
// Angle 0 points along +X; angles grow clockwise on the screen (toward +Y).
type Angle uint16

// Angle constants.
const (
	Turn           = 1 << 16 // units in a full turn
	Quarter  Angle = 1 << 14 // 90°
	HalfTurn Angle = 1 << 15 // 180°
)

// Degrees returns the Angle nearest to d whole degrees.
func Degrees(d int) Angle {
	return Angle((d*Turn + 180) / 360)
}

// Sin returns the sine of a: the table of TableSize steps per turn,
// linearly interpolated between its entries (error below 2/65536).
func Sin(a Angle) Num {
	const fracBits = 16 - tableBits
	i := int(a >> fracBits)
	f := Num(a & (1<<fracBits - 1))
	s0, s1 := sinTable[i], sinTable[(i+1)&(TableSize-1)]
	return s0 + (s1-s0)*f>>fracBits
}

// Cos returns the cosine of a.
func Cos(a Angle) Num { return Sin(a + Quarter) }

// Dir returns the unit vector pointing at angle a.
func Dir(a Angle) Vec { return Vec{Cos(a), Sin(a)} }

// ISqrt returns the integer square root of n: the largest r with r×r <= n.
func ISqrt(n uint64) uint64 {
	if n < 2 {
		return n
	}
	// Newton's method from an initial guess above the root; converges in a
	// bounded number of steps (at most about 40 for 64-bit inputs).
	x := n
	y := x/2 + x&1 // (x+1)/2 without overflow
	for y < x {
		x = y
		y = (x + n/x) / 2
	}
	return x
}

// Length returns |v|, rounded down.
func (a Vec) Length() Num { return Num(ISqrt(uint64(a.LenSq()))) }
