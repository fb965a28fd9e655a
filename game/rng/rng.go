// Package rng is the seeded random number generator of the Rockstep engine.
//
// Its whole state is one exported uint64 that lives inside the world, so a
// snapshot of the world carries it and a restored world draws the same
// numbers. The algorithm is SplitMix64 (Steele, Lea and Flood, 2014): an
// additive Weyl sequence passed through a 64-bit mixing function. It is
// small, fast, passes BigCrush, and needs only integer adds, shifts and
// multiplies, which every platform computes identically.
//
// Its output is pinned by a test: changing it changes every game.
package rng

// Rand is a SplitMix64 generator. The zero value is a valid generator
// (seed 0). Copying a Rand copies its state.
type Rand struct {
	State uint64 // the Weyl counter; the only state
}

// golden is the Weyl increment: 2^64 divided by the golden ratio, odd.
const golden = 0x9e3779b97f4a7c15

// New returns a generator seeded with seed.
func New(seed uint64) Rand { return Rand{State: seed} }

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	r.State += golden
	z := r.State
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Uint32 returns the next 32 random bits (the high half of Uint64).
func (r *Rand) Uint32() uint32 { return uint32(r.Uint64() >> 32) }

// Intn returns a number in [0, n) for n > 0, and 0 for n <= 0. It uses the
// multiply-shift reduction of a 32-bit draw: exactly one draw per call, so
// the sequence of draws never depends on the values drawn. The bias is below
// n/2^32, far below anything a player could notice.
func (r *Rand) Intn(n int) int {
	if n <= 0 {
		return 0
	}
	return int(uint64(r.Uint32()) * uint64(uint32(n)) >> 32)
}

// Range returns a number in [lo, hi] (inclusive) for lo <= hi, and lo otherwise.
func (r *Rand) Range(lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + r.Intn(hi-lo+1)
}
