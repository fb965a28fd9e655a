package game

import (
	"errors"
	"strconv"

	"rockstep/game/bytesin"
	"rockstep/game/fixed"
)

// Snapshot format. A snapshot is the magic, the version, then every field of
// the world in a fixed order, little-endian, fixed width; rocks, bullets and
// saucers are written as a count and the live entries. The encoding is
// canonical: every world has exactly one encoding and every accepted encoding
// decodes to a world that re-encodes to the same bytes.
//
// Version 2 added saucers and hyperspace: the setup's Saucers and Hyperspace,
// the ships' Jump and JumpCool, SaucerIn and the saucers after the bullets.
// A ship's Away is bit 1 of its Present byte: added without a new version,
// so that every world without an away ship keeps its bytes and its hash.
const (
	SnapshotVersion = 2
	snapshotMagic   = "RSW" // Rockstep world

	setupSize  = 8 + 7
	headSize   = 4 + 8 + 4 + 1 + 2 + 1 + 1 + 2
	shipSize   = 40
	rockSize   = bodySize + 6
	bulletSize = bodySize + 4
	saucerSize = bodySize + 5

	// MaxSnapshotSize is the largest snapshot, in bytes.
	MaxSnapshotSize = len(snapshotMagic) + 1 + setupSize + headSize +
		MaxPlayers*shipSize + 1 + MaxRocks*rockSize + 1 + MaxBullets*bulletSize +
		1 + MaxSaucers*saucerSize
)

// MarshalBinary returns the snapshot of w.
func (w *World) MarshalBinary() ([]byte, error) {
	return w.AppendBinary(make([]byte, 0, w.snapshotSize()))
}

func (w *World) snapshotSize() int {
	return MaxSnapshotSize - (MaxRocks-int(w.NumRocks))*rockSize - (MaxBullets-int(w.NumBullet))*bulletSize -
		(MaxSaucers-int(w.NumSaucer))*saucerSize
}

// AppendBinary appends the snapshot of w to b. It never fails; with enough
// capacity in b it does not allocate.
func (w *World) AppendBinary(b []byte) ([]byte, error) {
	return w.appendState(b), nil
}

func (w *World) appendState(b []byte) []byte {
	b = append(b, snapshotMagic...)
	b = append(b, SnapshotVersion)
	s := &w.Setup
	b = le64(b, s.Seed)
	b = append(b, s.Players, byte(s.Mode), s.Lives, s.StartWave, bit(s.FriendlyFire), bit(s.Saucers), bit(s.Hyperspace))
	b = le32(b, w.Tick)
	b = le64(b, w.Rand.State)
	b = le32(b, w.NextID)
	b = append(b, w.Wave)
	b = le16(b, w.WaveIn)
	b = append(b, bit(w.Over), byte(w.Winner))
	b = le16(b, w.SaucerIn)
	for i := range w.Ships {
		sh := &w.Ships[i]
		// Away shares the Present byte (bit 1), so that a world with no
		// one away encodes, and hashes, as before it existed.
		b = append(b, bit(sh.Present)|bit(sh.Away)<<1, bit(sh.Alive))
		b = vec(b, sh.Pos)
		b = vec(b, sh.Vel)
		b = le16(b, uint16(sh.Angle))
		b = append(b, sh.Thrust, sh.Hold, sh.Charge, sh.Cooldown, sh.Lives)
		b = le16(b, sh.Invuln)
		b = le16(b, sh.RespawnIn)
		b = le32(b, sh.Score)
		b = le16(b, sh.Kills)
		b = le16(b, sh.Deaths)
		b = append(b, byte(sh.Prev), sh.Jump, sh.JumpCool)
	}
	// Each entry's body (id, position, velocity; see bodyAt) is written
	// inline: a call an entry (appendBody) made Hash a quarter slower.
	b = append(b, w.NumRocks)
	for k := range w.NumRocks {
		r := &w.Rocks[k]
		b = vec(vec(le32(b, r.ID), r.Pos), r.Vel)
		b = le16(b, uint16(r.Angle))
		b = le16(b, uint16(r.Spin))
		b = append(b, r.Size, r.Shape)
	}
	b = append(b, w.NumBullet)
	for k := range w.NumBullet {
		u := &w.Bullets[k]
		b = vec(vec(le32(b, u.ID), u.Pos), u.Vel)
		b = le16(b, u.Life)
		b = append(b, u.Owner, u.Power)
	}
	b = append(b, w.NumSaucer)
	for k := range w.NumSaucer {
		s := &w.Saucers[k]
		b = vec(vec(le32(b, s.ID), s.Pos), s.Vel)
		b = append(b, s.Size)
		b = le16(b, s.Life)
		b = append(b, s.FireIn, s.TurnIn)
	}
	return b
}

func bit(v bool) byte {
	if v {
		return 1
	}
	return 0
}

func le16(b []byte, v uint16) []byte { return append(b, byte(v), byte(v>>8)) }

func le32(b []byte, v uint32) []byte {
	return append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}

func le64(b []byte, v uint64) []byte {
	return append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24),
		byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56))
}

func vec(b []byte, v fixed.Vec) []byte {
	return le32(le32(b, uint32(v.X)), uint32(v.Y))
}

// A rock's, a bullet's and a saucer's bytes begin with its body: its id,
// position and velocity.
const bodySize = 4 + 8 + 8

// bodyAt reads a body (appendState writes it) and says what is wrong
// with it, or "".
func bodyAt(b []byte) (id uint32, pos, vel fixed.Vec, problem string) {
	_ = b[bodySize-1]
	id, pos, vel = bytesin.LE32(b), vecAt(b[4:]), vecAt(b[12:])
	if !onField(pos) {
		problem = "position off the field"
	}
	return
}

// UnmarshalBinary replaces w with the world in snapshot data. On any error w
// is left unchanged. Errors name the part of the snapshot that is wrong.
func (w *World) UnmarshalBinary(data []byte) error {
	var n World
	if err := n.decode(data); err != nil {
		return errors.New("decode snapshot: " + err.Error())
	}
	*w = n
	return nil
}

// reader reads a snapshot (bytesin's little-endian fields, fixed width);
// after the first error every read returns zero.
type reader struct {
	bytesin.Reader
}

func (r *reader) fail(what string) {
	if r.Err() == nil {
		r.Fail(errors.New(what))
	}
}

// err returns the first failure, a short read naming the length of the
// snapshot it ran off.
func (r *reader) err(size int) error {
	if err := r.Err(); err != bytesin.ErrTruncated {
		return err
	}
	return errors.New("truncated at byte " + strconv.Itoa(size))
}

func (r *reader) flag(what string) bool {
	switch r.U8() {
	case 0:
		return false
	case 1:
		return true
	}
	r.fail(what + ": not 0 or 1")
	return false
}

func vecAt(b []byte) fixed.Vec {
	return fixed.Vec{X: fixed.Num(bytesin.LE32(b)), Y: fixed.Num(bytesin.LE32(b[4:]))}
}

func onField(p fixed.Vec) bool {
	return p.X >= 0 && p.X < FieldW && p.Y >= 0 && p.Y < FieldH
}

// entity names entity i of a kind in an error message. It is called only
// on the error path, so decoding a good snapshot builds no strings.
func entity(kind string, i int) string { return kind + " " + strconv.Itoa(i) + ": " }

// count reads the count of a list of kind that holds at most max. A count
// above max fails the snapshot and reads as 0 (the world is thrown away).
func (r *reader) count(kind string, max int) uint8 {
	n := r.U8()
	if int(n) > max {
		r.fail(kind + " count " + strconv.Itoa(int(n)) + " above " + strconv.Itoa(max))
		return 0
	}
	return n
}

// check fails the snapshot if entry k of kind has a problem. It inlines, so
// a good entry costs no call.
func (r *reader) check(kind string, k int, problem string) {
	if problem != "" {
		r.failEntry(kind, k, problem)
	}
}

func (r *reader) failEntry(kind string, k int, problem string) {
	r.fail(entity(kind, k) + problem)
}

// The decode methods fill an entry from its bytes and say what is wrong
// with it, or "".

func (sh *Ship) decode(b []byte) (problem string) {
	_ = b[shipSize-1]
	sh.Present, sh.Away, sh.Alive = b[0]&1 == 1, b[0]&2 != 0, b[1] == 1
	sh.Pos = vecAt(b[2:])
	sh.Vel = vecAt(b[10:])
	sh.Angle = fixed.Angle(bytesin.LE16(b[18:]))
	sh.Thrust, sh.Hold, sh.Charge, sh.Cooldown, sh.Lives = b[20], b[21], b[22], b[23], b[24]
	sh.Invuln = bytesin.LE16(b[25:])
	sh.RespawnIn = bytesin.LE16(b[27:])
	sh.Score = bytesin.LE32(b[29:])
	sh.Kills = bytesin.LE16(b[33:])
	sh.Deaths = bytesin.LE16(b[35:])
	sh.Prev = Input(b[37])
	sh.Jump, sh.JumpCool = b[38], b[39]
	switch {
	case b[0] > 3 || b[1] > 1:
		problem = "flag not 0 or 1"
	case sh.Away && !sh.Present:
		problem = "away in an empty slot"
	case !onField(sh.Pos):
		problem = "position off the field"
	case sh.Thrust > MaxThrust:
		problem = "thrust above MaxThrust"
	case sh.Hold >= ThrustRepeat:
		problem = "hold not below ThrustRepeat"
	case sh.Charge > MaxCharge:
		problem = "charge above MaxCharge"
	case sh.Lives > MaxLives:
		problem = "lives above MaxLives"
	case sh.Prev&^ClientInputMask != 0:
		problem = "unknown input bits"
	case sh.Alive && !sh.Present:
		problem = "alive in an empty slot"
	case sh.Jump > HyperspaceDelay:
		problem = "jump above HyperspaceDelay"
	case sh.JumpCool > HyperspaceCooldown:
		problem = "jump cooldown above HyperspaceCooldown"
	case sh.Jump > 0 && (sh.Alive || !sh.Present || sh.Lives == 0 || sh.RespawnIn > 0):
		problem = "in hyperspace but not a ship in play"
	}
	return
}

func (rk *Rock) decode(b []byte) (problem string) {
	_ = b[rockSize-1]
	rk.ID, rk.Pos, rk.Vel, problem = bodyAt(b)
	rk.Angle = fixed.Angle(bytesin.LE16(b[bodySize:]))
	rk.Spin = int16(bytesin.LE16(b[bodySize+2:]))
	rk.Size, rk.Shape = b[bodySize+4], b[bodySize+5]
	switch {
	case problem != "":
	case rk.Size < Small || rk.Size > Big:
		problem = "size outside 1..3"
	}
	return
}

func (u *Bullet) decode(b []byte) (problem string) {
	_ = b[bulletSize-1]
	u.ID, u.Pos, u.Vel, problem = bodyAt(b)
	u.Life = bytesin.LE16(b[bodySize:])
	u.Owner, u.Power = b[bodySize+2], b[bodySize+3]
	switch {
	case problem != "":
	case u.Owner > SaucerOwner:
		problem = "owner is no slot nor a saucer"
	case u.Life == 0:
		problem = "no life left"
	case u.Power == 0 || u.Power > 2:
		problem = "power outside 1..2"
	}
	return
}

func (u *Saucer) decode(b []byte) (problem string) {
	_ = b[saucerSize-1]
	u.ID, u.Pos, u.Vel, problem = bodyAt(b)
	u.Size = b[bodySize]
	u.Life = bytesin.LE16(b[bodySize+1:])
	u.FireIn, u.TurnIn = b[bodySize+3], b[bodySize+4]
	switch {
	case problem != "":
	case u.Size != SmallSaucer && u.Size != LargeSaucer:
		problem = "size not small or large"
	case u.Life == 0:
		problem = "no life left"
	case u.FireIn == 0 || u.TurnIn == 0:
		problem = "timer at 0"
	}
	return
}

func (w *World) decode(data []byte) error {
	r := &reader{bytesin.New(data)}
	if string(r.Take(len(snapshotMagic))) != snapshotMagic {
		return errors.New("not a Rockstep world snapshot")
	}
	if v := r.U8(); v != SnapshotVersion {
		return errors.New("version " + strconv.Itoa(int(v)) + ", want " + strconv.Itoa(SnapshotVersion))
	}
	s := &w.Setup
	s.Seed = r.U64()
	s.Players = r.U8()
	s.Mode = Mode(r.U8())
	s.Lives = r.U8()
	s.StartWave = r.U8()
	s.FriendlyFire = r.flag("friendly fire")
	s.Saucers = r.flag("saucers")
	s.Hyperspace = r.flag("hyperspace")
	if r.Err() == nil {
		if err := s.Validate(); err != nil {
			return err
		}
	}
	w.Tick = r.U32()
	w.Rand.State = r.U64()
	w.NextID = r.U32()
	w.Wave = r.U8()
	w.WaveIn = r.U16()
	w.Over = r.flag("game over")
	w.Winner = int8(r.U8())
	if w.Winner < -1 || w.Winner >= MaxPlayers {
		r.fail("winner " + strconv.Itoa(int(w.Winner)) + " is no slot")
	}
	w.SaucerIn = r.U16()
	switch {
	case !s.Saucers && w.SaucerIn != 0:
		r.fail("saucer timer running with saucers off")
	case s.Saucers && (w.SaucerIn == 0 || w.SaucerIn > maxSaucerInterval):
		r.fail("saucer timer " + strconv.Itoa(int(w.SaucerIn)) + " outside 1.." + strconv.Itoa(maxSaucerInterval))
	}
	for i := range w.Ships {
		if b := r.Take(shipSize); b != nil {
			r.check("ship", i, w.Ships[i].decode(b))
		}
	}
	w.NumRocks = r.count("rock", MaxRocks)
	for k := range int(w.NumRocks) {
		if b := r.Take(rockSize); b != nil {
			r.check("rock", k, w.Rocks[k].decode(b))
		}
	}
	w.NumBullet = r.count("bullet", MaxBullets)
	for k := range int(w.NumBullet) {
		if b := r.Take(bulletSize); b != nil {
			r.check("bullet", k, w.Bullets[k].decode(b))
		}
	}
	w.NumSaucer = r.count("saucer", MaxSaucers)
	if w.NumSaucer > 0 && !s.Saucers {
		r.fail("saucers on the field with saucers off")
	}
	for k := range int(w.NumSaucer) {
		if b := r.Take(saucerSize); b != nil {
			r.check("saucer", k, w.Saucers[k].decode(b))
		}
	}
	if err := r.err(len(data)); err != nil {
		return err
	}
	if r.Len() != 0 {
		return errors.New(strconv.Itoa(r.Len()) + " bytes after the end")
	}
	return nil
}
