package game

import "rockstep/game/fixed"

// StandardScene returns the scene that the performance budget of Rockstep
// is measured on (docs/ARCHITECTURE.md §6): eight ships in versus mode with
// friendly fire, saucers and hyperspace, 40 rocks of every size and 64
// bullets in flight, spread over the field by seed. It is a normal world:
// stepping it plays on by the rules.
func StandardScene(seed uint64) *World { return scene(seed, 40, 64, 0) }

// SaucerScene is the standard scene with two saucers on the field, a large
// and a small one, that the standard budget also holds for.
func SaucerScene(seed uint64) *World { return scene(seed, 40, 64, MaxSaucers) }

// WorstScene returns the heaviest world the engine holds: eight ships in
// versus mode with friendly fire, every rock slot (MaxRocks), every bullet
// slot (MaxBullets) and every saucer slot (MaxSaucers) in use, spread over
// the field by seed. Step's worst-case budget is measured on it.
func WorstScene(seed uint64) *World { return scene(seed, MaxRocks, MaxBullets, MaxSaucers) }

// scene returns eight ships in versus mode with friendly fire, saucers and
// hyperspace, with rocks rocks of every size, bullets bullets in flight
// and saucers saucers (alternately large and small, at the start of their
// way), spread over the field by seed.
func scene(seed uint64, rocks, bullets, saucers int) *World {
	w, err := New(Setup{Seed: seed, Players: 0xFF, Mode: Versus, Lives: MaxLives, StartWave: 1, FriendlyFire: true, Saucers: true, Hyperspace: true})
	if err != nil {
		panic("scene: " + err.Error()) // the setup above is valid
	}
	spot := func() fixed.Vec {
		return fixed.Vec{X: fixed.Num(w.Rand.Intn(int(FieldW))), Y: fixed.Num(w.Rand.Intn(int(FieldH)))}
	}
	w.NumRocks = 0
	for k := 0; k < rocks; k++ {
		w.Rocks[k] = Rock{
			ID:    w.newID(),
			Pos:   spot(),
			Vel:   fixed.Dir(fixed.Angle(w.Rand.Uint32())).Scale(fixed.Half),
			Angle: fixed.Angle(w.Rand.Uint32()),
			Spin:  int16(w.Rand.Range(-200, 200)),
			Size:  uint8(1 + k%3),
			Shape: uint8(k % 4),
		}
		w.NumRocks++
	}
	w.NumBullet = 0
	for k := 0; k < bullets; k++ {
		d := fixed.Dir(fixed.Angle(w.Rand.Uint32()))
		w.Bullets[k] = Bullet{
			ID:    w.newID(),
			Pos:   spot(),
			Vel:   d.Scale(fixed.Int(8)),
			Life:  uint16(BulletLifeHi),
			Owner: uint8(k % MaxPlayers),
			Power: 1,
		}
		w.NumBullet++
	}
	w.NumSaucer = 0
	for k := 0; k < saucers; k++ {
		size := uint8(LargeSaucer - k%2)
		speed := saucerSpeed(size)
		w.Saucers[k] = Saucer{
			ID:     w.newID(),
			Pos:    spot(),
			Vel:    fixed.Vec{X: speed, Y: speed},
			Size:   size,
			Life:   uint16(FieldW / speed),
			FireIn: uint8(1 + 20*k),
			TurnIn: uint8(30 + k),
		}
		w.NumSaucer++
	}
	return w
}
