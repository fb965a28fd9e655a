package assets

import (
	"encoding/binary"
	"math"
)

// SampleRate is the rate of every sound, in samples per second.
const SampleRate = 44100

// Sounds are the game's sound effects as 16-bit signed little-endian
// stereo PCM at SampleRate, synthesised when the assets load: no sound
// files ship with the game.
type Sounds struct {
	Shot      []byte // a shot fired: a falling chirp, 0.12 s
	Thrust    []byte // the thrust level raised: a puff of filtered noise, 0.2 s
	Explosion []byte // a rock breaking: a burst of rumbling noise, 0.5 s
	Boom      []byte // a ship destroyed: a longer, deeper burst, 1.1 s
	Respawn   []byte // a ship back on the field: a rising shimmer, 0.35 s
	ExtraLife []byte // an extra life: a bright rising arpeggio, 0.5 s
	Warp      []byte // a jump into or out of hyperspace: a swept whoosh, 0.3 s
	Saucer    []byte // a saucer comes on: a warbling siren, 0.8 s
	// The heartbeat: two low thumps played by turns, quickening as the
	// wave's rocks thin out, 0.14 s each.
	BeatLow, BeatHigh []byte
}

// noise is a tiny deterministic PRNG (xorshift32): the same sounds every run.
type noise uint32

func (n *noise) next() float64 {
	x := uint32(*n)
	x ^= x << 13
	x ^= x >> 17
	x ^= x << 5
	*n = noise(x)
	return float64(x)/float64(math.MaxUint32)*2 - 1
}

// synth renders secs seconds of sample(t) (t in seconds, result in -1..1)
// to PCM.
func synth(secs float64, sample func(t float64) float64) []byte {
	n := int(secs * SampleRate)
	out := make([]byte, n*4)
	for i := 0; i < n; i++ {
		t := float64(i) / SampleRate
		v := sample(t)
		// A 4 ms fade at both ends: no clicks.
		fade := math.Min(1, math.Min(t, secs-t)/0.004)
		s := int16(math.Max(-1, math.Min(1, v*fade)) * 32000)
		binary.LittleEndian.PutUint16(out[i*4:], uint16(s))
		binary.LittleEndian.PutUint16(out[i*4+2:], uint16(s))
	}
	return out
}

// makeSounds synthesises the effects.
func makeSounds() Sounds {
	var s Sounds
	{
		phase := 0.0
		s.Shot = synth(0.12, func(t float64) float64 {
			f := 1500 * math.Exp(-t*18) // Hz, falling
			phase += 2 * math.Pi * (f + 180) / SampleRate
			sq := math.Copysign(1, math.Sin(phase)) // square: a bright beep
			return 0.35 * sq * math.Exp(-t*22)
		})
	}
	{
		n, lp := noise(0x7a11), 0.0
		s.Thrust = synth(0.2, func(t float64) float64 {
			lp += 0.08 * (n.next() - lp) // one-pole low pass: a hiss
			env := math.Min(1, t/0.03) * math.Exp(-t*9)
			return 2.2 * lp * env
		})
	}
	burst := func(secs, cutoff, decay float64, seed noise) []byte {
		n, lp, lp2 := seed, 0.0, 0.0
		return synth(secs, func(t float64) float64 {
			k := cutoff * math.Exp(-t*3) // the rumble darkens as it fades
			lp += k * (n.next() - lp)
			lp2 += k * (lp - lp2)
			return 3.2 * lp2 * math.Exp(-t*decay)
		})
	}
	s.Explosion = burst(0.5, 0.12, 7, 0xb00b)
	s.Boom = burst(1.1, 0.07, 3.5, 0xdead)
	{
		phase := 0.0
		s.Respawn = synth(0.35, func(t float64) float64 {
			f := 300 + 1400*t // Hz, rising
			phase += 2 * math.Pi * f / SampleRate
			trem := 0.6 + 0.4*math.Sin(2*math.Pi*24*t)
			return 0.3 * math.Sin(phase) * trem * math.Min(1, (0.35-t)/0.1)
		})
	}
	{
		// Four notes of a major chord, up an octave: a chime.
		phase := 0.0
		s.ExtraLife = synth(0.5, func(t float64) float64 {
			notes := [...]float64{880, 1108.73, 1318.51, 1760}
			k := min(int(t/0.09), len(notes)-1)
			phase += 2 * math.Pi * notes[k] / SampleRate
			env := math.Exp(-(t - float64(k)*0.09) * 9)
			return 0.32 * (math.Sin(phase) + 0.3*math.Sin(3*phase)) * env
		})
	}
	{
		phase, n := 0.0, noise(0x3a9)
		s.Warp = synth(0.3, func(t float64) float64 {
			f := 200 + 2400*math.Pow(t/0.3, 2) // Hz, sweeping up
			phase += 2 * math.Pi * f / SampleRate
			return (0.28*math.Sin(phase) + 0.08*n.next()) * math.Sin(math.Pi*t/0.3)
		})
	}
	{
		phase := 0.0
		s.Saucer = synth(0.8, func(t float64) float64 {
			f := 700 + 250*math.Sin(2*math.Pi*7*t) // Hz, warbling
			phase += 2 * math.Pi * f / SampleRate
			sq := math.Copysign(1, math.Sin(phase))
			return 0.18 * sq * math.Min(1, (0.8-t)/0.2)
		})
	}
	// A thump: a low sine with its second and third harmonics (so that
	// small speakers, which cannot play 55 Hz, still carry it), its pitch
	// sagging a little as it dies away.
	thump := func(f0 float64) []byte {
		phase := 0.0
		return synth(0.14, func(t float64) float64 {
			f := f0 * (1 - 0.15*t/0.14) // Hz
			phase += 2 * math.Pi * f / SampleRate
			env := math.Min(1, t/0.006) * math.Exp(-t*18)
			return 0.75 * (math.Sin(phase) + 0.5*math.Sin(2*phase) + 0.25*math.Sin(3*phase)) * env
		})
	}
	s.BeatLow, s.BeatHigh = thump(55), thump(65.4) // A1 and C2
	return s
}
