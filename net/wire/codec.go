package wire

import (
	"encoding/binary"
	"fmt"
	"math"
	"net/netip"
	"reflect"
	"slices"
	"unicode/utf8"

	"rockstep/game"
	"rockstep/game/bytesin"
)

// The encoding of every message is canonical: a value has exactly one
// encoding and a decoder accepts nothing else (varints are minimal, bools
// are 0 or 1, unused bits and padding are zero). So a frame that decodes
// re-encodes to the same bytes.
//
// Fields that a flag or a count says are absent (HashTurn when HasHash is
// false, inputs past Count, inputs of slots not in a master turn's Players,
// the timing fields of a non-timing event) are not sent: the encoder
// ignores them and the decoder leaves them zero.

// encoder is a message that this package can encode. Its methods have
// value receivers, so both T and *T satisfy it.
type encoder interface {
	Message
	payload
}

// decoder is a pointer to a message that this package can decode.
type decoder interface {
	encoder
	decodePayload(r *reader) error // fills the message from r; check is called after
}

// Append appends m as a whole frame (header and payload) to b. If m breaks
// a limit of the protocol (a name too long, a count out of range, a frame
// above MaxFrame), it returns b unchanged and an error: what Append sends,
// Decode accepts. m may be a message value or a non-nil pointer to one.
func Append(b []byte, m Message) ([]byte, error) {
	switch v := m.(type) {
	case nil:
		return b, fmt.Errorf("encode: nil message: %w", ErrInvalid)
	case *ClientPacket:
		if v == nil {
			break
		}
		return v.AppendFrame(b)
	case ClientPacket:
		return v.AppendFrame(b)
	case *MasterPacket:
		if v == nil {
			break
		}
		return v.AppendFrame(b)
	case MasterPacket:
		return v.AppendFrame(b)
	}
	if rv := reflect.ValueOf(m); rv.Kind() == reflect.Pointer && rv.IsNil() {
		return b, fmt.Errorf("encode: nil %T: %w", m, ErrInvalid)
	}
	p, ok := m.(encoder)
	if !ok {
		return b, fmt.Errorf("encode: %T is not a message of package wire: %w", m, ErrUnknownType)
	}
	return appendChecked(b, p, p.Type())
}

// payload is a message that checks its limits and appends its payload.
type payload interface {
	check() error                  // reports the first limit the message breaks
	appendPayload(b []byte) []byte // appends the payload; only called after check
}

// appendChecked appends p as a whole frame of type t to b, or returns b
// unchanged and an error if p breaks a limit or makes a frame above
// MaxFrame. It allocates nothing if b has room (p a pointer, or a value
// the caller already boxed).
func appendChecked(b []byte, p payload, t Type) ([]byte, error) {
	if err := p.check(); err != nil {
		return b, fmt.Errorf("encode %s: %w", t, err)
	}
	out := p.appendPayload(append(b, Version, byte(t)))
	return finishFrame(b, out, t)
}

// finishFrame returns out, the frame appended to b, or b and an error if the
// frame is larger than MaxFrame.
func finishFrame(b, out []byte, t Type) ([]byte, error) {
	if n := len(out) - len(b); n > MaxFrame {
		return b, fmt.Errorf("encode %s: frame of %d bytes, limit %d: %w", t, n, MaxFrame, ErrTooLarge)
	}
	return out, nil
}

// Decode decodes a whole frame. It returns the message as a value (such as
// Chat, not *Chat) that shares no memory with frame. Errors name the message
// and the field, and wrap ErrVersion, ErrUnknownType, ErrTooLarge,
// ErrTruncated, ErrTrailing, ErrLimit or ErrInvalid.
func Decode(frame []byte) (Message, error) {
	t, pl, err := Peek(frame)
	if err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	var m Message
	switch t {
	case TypeClientPacket:
		var p ClientPacket
		if err := p.DecodePayload(pl); err != nil {
			return nil, err
		}
		return p, nil
	case TypeMasterPacket:
		var p MasterPacket
		if err := p.DecodePayload(pl); err != nil {
			return nil, err
		}
		return p, nil
	case TypeJoin:
		m, err = decodeAs[Join](pl)
	case TypeWelcome:
		m, err = decodeAs[Welcome](pl)
	case TypeRefuse:
		m, err = decodeAs[Refuse](pl)
	case TypeSetupState:
		m, err = decodeAs[SetupState](pl)
	case TypeSetupChange:
		m, err = decodeAs[SetupChange](pl)
	case TypeReady:
		m, err = decodeAs[Ready](pl)
	case TypeStart:
		m, err = decodeAs[Start](pl)
	case TypePing:
		m, err = decodeAs[Ping](pl)
	case TypePong:
		m, err = decodeAs[Pong](pl)
	case TypeLeave:
		m, err = decodeAs[Leave](pl)
	case TypeSnapshotRequest:
		m, err = decodeAs[SnapshotRequest](pl)
	case TypeSnapshotChunk:
		m, err = decodeAs[SnapshotChunk](pl)
	case TypeDesyncReport:
		m, err = decodeAs[DesyncReport](pl)
	case TypeChat:
		m, err = decodeAs[Chat](pl)
	case TypeRoomStatus:
		m, err = decodeAs[RoomStatus](pl)
	case TypePause:
		m, err = decodeAs[Pause](pl)
	case TypeStartGame:
		m, err = decodeAs[StartGame](pl)
	case TypeCreateRoom:
		m, err = decodeAs[CreateRoom](pl)
	case TypeRoomCreated:
		m, err = decodeAs[RoomCreated](pl)
	case TypeEndGame:
		m, err = decodeAs[EndGame](pl)
	case TypeKick:
		m, err = decodeAs[Kick](pl)
	case TypeStandby:
		m, err = decodeAs[Standby](pl)
	case TypeSuccessors:
		m, err = decodeAs[Successors](pl)
	case TypeRoomListRequest:
		m, err = decodeAs[RoomListRequest](pl)
	case TypeRoomList:
		m, err = decodeAs[RoomList](pl)
	case TypeRepair:
		m, err = decodeAs[Repair](pl)
	case TypeDigestRequest:
		m, err = decodeAs[DigestRequest](pl)
	case TypeDigest:
		m, err = decodeAs[Digest](pl)
	case TypeMoveGame:
		m, err = decodeAs[MoveGame](pl)
	default:
		return nil, fmt.Errorf("decode: %s: %w", t, ErrUnknownType)
	}
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w", t, err)
	}
	return m, nil
}

// decodeAs decodes a payload into a T, checks it and that nothing trails it.
func decodeAs[T any, P interface {
	*T
	decoder
}](pl []byte) (T, error) {
	var m T
	r := newReader(pl)
	if err := P(&m).decodePayload(&r); err != nil {
		return m, err
	}
	if err := r.finish(); err != nil {
		return m, err
	}
	return m, P(&m).check()
}

// reader reads the fields of a payload with game/bytesin's reader. The
// first failure sticks: later reads return zero values, and the error
// names the field that failed and wraps one of this package's errors.
// What is the wire's own: every read names its field, and a varint must
// be minimally encoded (an encoding is canonical).
type reader struct {
	bytesin.Reader
}

func newReader(payload []byte) reader { return reader{bytesin.New(payload)} }

func (r *reader) fail(field string, err error) {
	if r.Err() == nil {
		r.Fail(fmt.Errorf("%s: %w", field, err))
	}
}

// finish reports the first error, or trailing bytes.
func (r *reader) finish() error {
	if r.Err() == nil && r.Len() > 0 {
		r.Fail(fmt.Errorf("%d bytes after the payload: %w", r.Len(), ErrTrailing))
	}
	return r.Err()
}

// need fails naming field if fewer than n bytes are left, so that the
// bytesin read that follows returns zero under this package's error. (After
// an earlier failure fail keeps that one; need stays small enough to inline.)
func (r *reader) need(field string, n int) {
	if n > r.Len() {
		r.fail(field, ErrTruncated)
	}
}

// take returns the next n bytes (capped at n), or nil after a failure.
func (r *reader) take(field string, n int) []byte {
	r.need(field, n)
	return r.Take(n)
}

func (r *reader) u8(field string) uint8 {
	r.need(field, 1)
	return r.U8()
}

func (r *reader) bool(field string) bool {
	switch r.u8(field) {
	case 0:
		return false
	case 1:
		return true
	}
	r.fail(field, fmt.Errorf("bool not 0 or 1: %w", ErrInvalid))
	return false
}

func (r *reader) u32le(field string) uint32 {
	r.need(field, 4)
	return r.U32()
}

func (r *reader) u64le(field string) uint64 {
	r.need(field, 8)
	return r.U64()
}

func (r *reader) bytes16(field string) (a [16]byte) {
	if v := r.take(field, 16); v != nil {
		copy(a[:], v)
	}
	return a
}

// uvarint reads a minimally encoded unsigned varint.
func (r *reader) uvarint(field string) uint64 {
	if r.Err() != nil {
		return 0
	}
	rest := r.Rest()
	v, n := binary.Uvarint(rest)
	switch {
	case n == 0:
		r.fail(field, ErrTruncated)
		return 0
	case n < 0:
		r.fail(field, fmt.Errorf("varint overflows 64 bits: %w", ErrInvalid))
		return 0
	case n > 1 && rest[n-1] == 0:
		r.fail(field, fmt.Errorf("varint not minimally encoded: %w", ErrInvalid))
		return 0
	}
	r.Take(n)
	return v
}

// uvarintMax reads an unsigned varint no larger than max.
func (r *reader) uvarintMax(field string, max uint64) uint64 {
	v := r.uvarint(field)
	if v > max {
		r.fail(field, fmt.Errorf("%d above %d: %w", v, max, ErrInvalid))
		return 0
	}
	return v
}

func (r *reader) uvarint32(field string) uint32 {
	return uint32(r.uvarintMax(field, math.MaxUint32))
}

// delta reads a value written by appendDelta against base.
func (r *reader) delta(field string, base uint32) uint32 {
	z := r.uvarintMax(field, 1<<33) // |d| < 2³²: the zigzag fits 33 bits
	d := int64(z>>1) ^ -int64(z&1)
	v := int64(base) - d
	if v < 0 || v > math.MaxUint32 {
		r.fail(field, fmt.Errorf("delta %d from %d leaves uint32: %w", d, base, ErrInvalid))
		return 0
	}
	return uint32(v)
}

// bytes reads a length-prefixed byte string of at most max bytes. The
// result is a copy, nil when empty.
func (r *reader) bytes(field string, max int) []byte {
	n := r.uvarint(field)
	if r.Err() != nil {
		return nil
	}
	if n > uint64(max) {
		r.fail(field, fmt.Errorf("%d bytes, limit %d: %w", n, max, ErrLimit))
		return nil
	}
	v := r.take(field, int(n))
	if len(v) == 0 {
		return nil
	}
	return append([]byte(nil), v...)
}

// string reads a length-prefixed UTF-8 string of at most max bytes.
func (r *reader) string(field string, max int) string {
	n := r.uvarint(field)
	if r.Err() != nil {
		return ""
	}
	if n > uint64(max) {
		r.fail(field, fmt.Errorf("%d bytes, limit %d: %w", n, max, ErrLimit))
		return ""
	}
	v := r.take(field, int(n))
	if !utf8.Valid(v) {
		r.fail(field, fmt.Errorf("not UTF-8: %w", ErrInvalid))
		return ""
	}
	return string(v)
}

// appendDelta writes v as the zigzag varint of base-v: small when v is
// near base on either side, and defined for every pair of uint32.
func appendDelta(b []byte, base, v uint32) []byte {
	d := int64(base) - int64(v)
	return binary.AppendUvarint(b, uint64(d<<1^d>>63))
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// checkString reports a string over max bytes or not UTF-8.
func checkString(field, s string, max int) error {
	if len(s) > max {
		return fmt.Errorf("%s: %d bytes, limit %d: %w", field, len(s), max, ErrLimit)
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("%s: not UTF-8: %w", field, ErrInvalid)
	}
	return nil
}

// checkRange reports v outside lo..hi.
func checkRange(field string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("%s %d outside %d..%d: %w", field, v, lo, hi, ErrInvalid)
	}
	return nil
}

// checkSlot reports a slot that is neither a player slot nor, if
// spectator is true, SpectatorSlot.
func checkSlot(field string, slot uint8, spectator bool) error {
	if slot < game.MaxPlayers || spectator && slot == SpectatorSlot {
		return nil
	}
	return fmt.Errorf("%s %d is not a player slot: %w", field, slot, ErrInvalid)
}

// game.Setup: Seed u64 LE, Players u8, Mode u8, Lives u8, StartWave u8,
// FriendlyFire bool, Saucers bool, Hyperspace bool. Only Mode is checked
// here; the room validates the rest.

func checkSetup(s game.Setup) error {
	return checkRange("setup: mode", int(s.Mode), int(game.Coop), int(game.Versus))
}

func appendSetup(b []byte, s game.Setup) []byte {
	b = binary.LittleEndian.AppendUint64(b, s.Seed)
	b = append(b, s.Players, byte(s.Mode), s.Lives, s.StartWave)
	b = appendBool(b, s.FriendlyFire)
	b = appendBool(b, s.Saucers)
	return appendBool(b, s.Hyperspace)
}

func (r *reader) setup() game.Setup {
	return game.Setup{
		Seed:         r.u64le("setup: seed"),
		Players:      r.u8("setup: players"),
		Mode:         game.Mode(r.u8("setup: mode")),
		Lives:        r.u8("setup: lives"),
		StartWave:    r.u8("setup: start wave"),
		FriendlyFire: r.bool("setup: friendly fire"),
		Saucers:      r.bool("setup: saucers"),
		Hyperspace:   r.bool("setup: hyperspace"),
	}
}

// Join: RoomID u32 LE, PlayerID 16, Name, Token 16, Spectate, Resuming,
// Resume uvarint, Rules u64 LE, then Secret u64 LE if not 0 (optional).

func (m Join) check() error {
	if !m.Resuming && m.Resume != 0 {
		return fmt.Errorf("resume %d without resuming: %w", m.Resume, ErrInvalid)
	}
	return checkString("name", m.Name, MaxName)
}

func (m Join) appendPayload(b []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, m.RoomID)
	b = append(b, m.PlayerID[:]...)
	b = appendString(b, m.Name)
	b = append(b, m.Token[:]...)
	b = appendBool(b, m.Spectate)
	b = appendBool(b, m.Resuming)
	b = binary.AppendUvarint(b, uint64(m.Resume))
	b = binary.LittleEndian.AppendUint64(b, m.Rules)
	return appendSecret(b, m.Secret)
}

// appendSecret appends an optional room secret (Join, RoomCreated): 8
// bytes if set, nothing if 0, so that frames without one are the bytes a
// peer of before the field sends and reads.
func appendSecret(b []byte, secret uint64) []byte {
	if secret == 0 {
		return b
	}
	return binary.LittleEndian.AppendUint64(b, secret)
}

// secret reads an optional room secret at the end of a payload; a secret
// written as 0 is not canonical (appendSecret leaves it out).
func (r *reader) secret() uint64 {
	if r.Err() != nil || r.Len() < 8 {
		return 0 // fewer bytes are trailing ones (finish)
	}
	v := r.u64le("secret")
	if v == 0 && r.Err() == nil {
		r.fail("secret", fmt.Errorf("written as 0: %w", ErrInvalid))
	}
	return v
}

func (m *Join) decodePayload(r *reader) error {
	m.RoomID = r.u32le("room id")
	m.PlayerID = r.bytes16("player id")
	m.Name = r.string("name", MaxName)
	m.Token = r.bytes16("token")
	m.Spectate = r.bool("spectate")
	m.Resuming = r.bool("resuming")
	m.Resume = r.uvarint32("resume")
	m.Rules = r.u64le("rules")
	m.Secret = r.secret()
	return r.Err()
}

// Welcome: RoomID u32 LE, Slot u8, Token 16, State u8, Resumed.

func (m Welcome) check() error {
	if err := checkSlot("slot", m.Slot, true); err != nil {
		return err
	}
	return checkRange("state", int(m.State), int(StateSetup), int(StateFinished))
}

func (m Welcome) appendPayload(b []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, m.RoomID)
	b = append(b, m.Slot)
	b = append(b, m.Token[:]...)
	b = append(b, byte(m.State))
	return appendBool(b, m.Resumed)
}

func (m *Welcome) decodePayload(r *reader) error {
	m.RoomID = r.u32le("room id")
	m.Slot = r.u8("slot")
	m.Token = r.bytes16("token")
	m.State = RoomState(r.u8("state"))
	m.Resumed = r.bool("resumed")
	return r.Err()
}

// Refuse: Reason u8, Text.

func (m Refuse) check() error {
	if err := checkRange("reason", int(m.Reason), 1, refuseReasonEnd-1); err != nil {
		return err
	}
	if m.Reason == refuseReserved {
		return fmt.Errorf("reason %d: reserved: %w", m.Reason, ErrInvalid)
	}
	return checkString("text", m.Text, MaxText)
}

func (m Refuse) appendPayload(b []byte) []byte {
	return appendString(append(b, byte(m.Reason)), m.Text)
}

func (m *Refuse) decodePayload(r *reader) error {
	m.Reason = RefuseReason(r.u8("reason"))
	m.Text = r.string("text", MaxText)
	return r.Err()
}

// SetupState: Revision uvarint, RoomID u32 LE, Game uvarint, Name, Setup, MaxSlots u8,
// player count u8, players. A player: Slot u8, flags u8 (bit 0 Ready,
// bit 1 Host, bit 2 Connected), Colour u8, Ping uvarint, ID 16, Name.

const (
	playerReady = 1 << iota
	playerHost
	playerConnected
	playerFlags = playerReady | playerHost | playerConnected
)

func (m SetupState) check() error {
	if err := checkString("name", m.Name, MaxName); err != nil {
		return err
	}
	if err := checkSetup(m.Setup); err != nil {
		return err
	}
	if err := checkRange("max slots", int(m.MaxSlots), 0, game.MaxPlayers); err != nil {
		return err
	}
	if len(m.Players) > game.MaxPlayers {
		return fmt.Errorf("%d players, limit %d: %w", len(m.Players), game.MaxPlayers, ErrLimit)
	}
	for i, p := range m.Players {
		if err := checkSlot("slot", p.Slot, false); err != nil {
			return fmt.Errorf("player %d: %w", i, err)
		}
		if i > 0 && p.Slot <= m.Players[i-1].Slot {
			return fmt.Errorf("player %d: slot %d after slot %d, not in slot order: %w", i, p.Slot, m.Players[i-1].Slot, ErrInvalid)
		}
		if err := checkString("name", p.Name, MaxName); err != nil {
			return fmt.Errorf("player %d: %w", i, err)
		}
	}
	return nil
}

func (m SetupState) appendPayload(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(m.Revision))
	b = binary.LittleEndian.AppendUint32(b, m.RoomID)
	b = binary.AppendUvarint(b, uint64(m.Game))
	b = appendString(b, m.Name)
	b = appendSetup(b, m.Setup)
	b = append(b, m.MaxSlots, byte(len(m.Players)))
	for _, p := range m.Players {
		var f byte
		if p.Ready {
			f |= playerReady
		}
		if p.Host {
			f |= playerHost
		}
		if p.Connected {
			f |= playerConnected
		}
		b = append(b, p.Slot, f, p.Colour)
		b = binary.AppendUvarint(b, uint64(p.Ping))
		b = append(b, p.ID[:]...)
		b = appendString(b, p.Name)
	}
	return b
}

func (m *SetupState) decodePayload(r *reader) error {
	m.Revision = r.uvarint32("revision")
	m.RoomID = r.u32le("room id")
	m.Game = r.uvarint32("game")
	m.Name = r.string("name", MaxName)
	m.Setup = r.setup()
	m.MaxSlots = r.u8("max slots")
	n := int(r.u8("player count"))
	if r.Err() != nil {
		return r.Err()
	}
	if n > game.MaxPlayers {
		return fmt.Errorf("%d players, limit %d: %w", n, game.MaxPlayers, ErrLimit)
	}
	if n > 0 {
		m.Players = make([]Player, n)
	}
	for i := range m.Players {
		p := &m.Players[i]
		p.Slot = r.u8("slot")
		f := r.u8("flags")
		if f&^playerFlags != 0 {
			r.fail("flags", fmt.Errorf("unknown bits %#x: %w", f&^playerFlags, ErrInvalid))
		}
		p.Ready, p.Host, p.Connected = f&playerReady != 0, f&playerHost != 0, f&playerConnected != 0
		p.Colour = r.u8("colour")
		p.Ping = uint16(r.uvarintMax("ping", math.MaxUint16))
		p.ID = r.bytes16("id")
		p.Name = r.string("name", MaxName)
		if r.Err() != nil {
			return fmt.Errorf("player %d: %w", i, r.Err())
		}
	}
	return nil
}

// SetupChange: Setup.

func (m SetupChange) check() error                  { return checkSetup(m.Setup) }
func (m SetupChange) appendPayload(b []byte) []byte { return appendSetup(b, m.Setup) }

func (m *SetupChange) decodePayload(r *reader) error {
	m.Setup = r.setup()
	return r.Err()
}

// Ready: Ready bool.

func (m Ready) check() error                  { return nil }
func (m Ready) appendPayload(b []byte) []byte { return appendBool(b, m.Ready) }

func (m *Ready) decodePayload(r *reader) error {
	m.Ready = r.bool("ready")
	return r.Err()
}

// Start: Setup, then a Name for every slot in Setup.Players (lowest
// first), FirstTurn uvarint, K u8, Delay u8, ChangeAt uvarint, and only if
// ChangeAt is not zero: ChangeK u8, ChangeDelay u8.

func (m Start) check() error {
	if err := checkSetup(m.Setup); err != nil {
		return err
	}
	for i, n := range m.Names {
		if m.Setup.Players&(1<<i) == 0 {
			if n != "" {
				return fmt.Errorf("name of slot %d, which is not in the game: %w", i, ErrInvalid)
			}
			continue
		}
		if err := checkString("name", n, MaxName); err != nil {
			return fmt.Errorf("slot %d: %w", i, err)
		}
	}
	if err := checkRange("k", int(m.K), 1, MaxK); err != nil {
		return err
	}
	if err := checkRange("delay", int(m.Delay), 0, MaxDelay); err != nil {
		return err
	}
	if m.ChangeAt == 0 {
		if m.ChangeK != 0 || m.ChangeDelay != 0 {
			return fmt.Errorf("timing change without a turn: %w", ErrInvalid)
		}
		return nil
	}
	if err := checkRange("change k", int(m.ChangeK), 1, MaxK); err != nil {
		return err
	}
	return checkRange("change delay", int(m.ChangeDelay), 0, MaxDelay)
}

func (m Start) appendPayload(b []byte) []byte {
	b = appendSetup(b, m.Setup)
	for i, n := range m.Names {
		if m.Setup.Players&(1<<i) != 0 {
			b = appendString(b, n)
		}
	}
	b = binary.AppendUvarint(b, uint64(m.FirstTurn))
	b = append(b, m.K, m.Delay)
	b = binary.AppendUvarint(b, uint64(m.ChangeAt))
	if m.ChangeAt != 0 {
		b = append(b, m.ChangeK, m.ChangeDelay)
	}
	return b
}

func (m *Start) decodePayload(r *reader) error {
	m.Setup = r.setup()
	for i := range m.Names {
		if m.Setup.Players&(1<<i) != 0 {
			m.Names[i] = r.string("name", MaxName)
		}
	}
	m.FirstTurn = r.uvarint32("first turn")
	m.K = r.u8("k")
	m.Delay = r.u8("delay")
	m.ChangeAt = r.uvarint32("change at")
	if m.ChangeAt != 0 {
		m.ChangeK = r.u8("change k")
		m.ChangeDelay = r.u8("change delay")
	}
	return r.Err()
}

// Ping and Pong: ID u32 LE, Time i64 LE.

func (m Ping) check() error { return nil }
func (m Pong) check() error { return nil }

func (m Ping) appendPayload(b []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, m.ID)
	return binary.LittleEndian.AppendUint64(b, uint64(m.Time))
}

func (m Pong) appendPayload(b []byte) []byte { return Ping(m).appendPayload(b) }

func (m *Ping) decodePayload(r *reader) error {
	m.ID = r.u32le("id")
	m.Time = int64(r.u64le("time"))
	return r.Err()
}

func (m *Pong) decodePayload(r *reader) error { return (*Ping)(m).decodePayload(r) }

// Leave: Reason u8, Text.

func (m Leave) check() error {
	if err := checkRange("reason", int(m.Reason), 1, leaveReasonEnd-1); err != nil {
		return err
	}
	return checkString("text", m.Text, MaxText)
}

func (m Leave) appendPayload(b []byte) []byte {
	return appendString(append(b, byte(m.Reason)), m.Text)
}

func (m *Leave) decodePayload(r *reader) error {
	m.Reason = LeaveReason(r.u8("reason"))
	m.Text = r.string("text", MaxText)
	return r.Err()
}

// Repair: Kind u8, Turn uvarint, Upto uvarint.

func (m Repair) check() error {
	return checkRange("kind", int(m.Kind), 1, repairKindEnd-1)
}

func (m Repair) appendPayload(b []byte) []byte {
	b = binary.AppendUvarint(append(b, byte(m.Kind)), uint64(m.Turn))
	return binary.AppendUvarint(b, uint64(m.Upto))
}

func (m *Repair) decodePayload(r *reader) error {
	m.Kind = RepairKind(r.u8("kind"))
	m.Turn = r.uvarint32("turn")
	m.Upto = r.uvarint32("upto")
	return r.Err()
}

// DigestRequest: Turn uvarint.

func (m DigestRequest) check() error { return nil }

func (m DigestRequest) appendPayload(b []byte) []byte {
	return binary.AppendUvarint(b, uint64(m.Turn))
}

func (m *DigestRequest) decodePayload(r *reader) error {
	m.Turn = r.uvarint32("turn")
	return r.Err()
}

// Digest: Turn uvarint, Hash u64 LE, Sum 16 bytes.

func (m Digest) check() error { return nil }

func (m Digest) appendPayload(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(m.Turn))
	b = binary.LittleEndian.AppendUint64(b, m.Hash)
	return append(b, m.Sum[:]...)
}

func (m *Digest) decodePayload(r *reader) error {
	m.Turn = r.uvarint32("turn")
	m.Hash = r.u64le("hash")
	m.Sum = r.bytes16("sum")
	return r.Err()
}

// SnapshotRequest: Turn uvarint.

func (m SnapshotRequest) check() error { return nil }

func (m SnapshotRequest) appendPayload(b []byte) []byte {
	return binary.AppendUvarint(b, uint64(m.Turn))
}

func (m *SnapshotRequest) decodePayload(r *reader) error {
	m.Turn = r.uvarint32("turn")
	return r.Err()
}

// SnapshotChunk: Turn uvarint, Hash u64 LE, Total u8, Index u8, Data.

func (m SnapshotChunk) check() error {
	if err := checkRange("total", int(m.Total), 1, MaxChunks); err != nil {
		return err
	}
	if m.Index >= m.Total {
		return fmt.Errorf("index %d of %d chunks: %w", m.Index, m.Total, ErrInvalid)
	}
	if len(m.Data) > MaxChunk {
		return fmt.Errorf("data: %d bytes, limit %d: %w", len(m.Data), MaxChunk, ErrLimit)
	}
	return nil
}

func (m SnapshotChunk) appendPayload(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(m.Turn))
	b = binary.LittleEndian.AppendUint64(b, m.Hash)
	b = append(b, m.Total, m.Index)
	b = binary.AppendUvarint(b, uint64(len(m.Data)))
	return append(b, m.Data...)
}

func (m *SnapshotChunk) decodePayload(r *reader) error {
	m.Turn = r.uvarint32("turn")
	m.Hash = r.u64le("hash")
	m.Total = r.u8("total")
	m.Index = r.u8("index")
	m.Data = r.bytes("data", MaxChunk)
	return r.Err()
}

// DesyncReport: Turn uvarint, entry count u8, entries of Slot u8 and
// HashLow u32 LE.

func (m DesyncReport) check() error {
	if len(m.Entries) > game.MaxPlayers {
		return fmt.Errorf("%d entries, limit %d: %w", len(m.Entries), game.MaxPlayers, ErrLimit)
	}
	for i, e := range m.Entries {
		if err := checkSlot("slot", e.Slot, false); err != nil {
			return fmt.Errorf("entry %d: %w", i, err)
		}
	}
	return nil
}

func (m DesyncReport) appendPayload(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(m.Turn))
	b = append(b, byte(len(m.Entries)))
	for _, e := range m.Entries {
		b = binary.LittleEndian.AppendUint32(append(b, e.Slot), e.HashLow)
	}
	return b
}

func (m *DesyncReport) decodePayload(r *reader) error {
	m.Turn = r.uvarint32("turn")
	n := int(r.u8("entry count"))
	if r.Err() != nil {
		return r.Err()
	}
	if n > game.MaxPlayers {
		return fmt.Errorf("%d entries, limit %d: %w", n, game.MaxPlayers, ErrLimit)
	}
	if n > 0 {
		m.Entries = make([]HashEntry, n)
	}
	for i := range m.Entries {
		m.Entries[i] = HashEntry{Slot: r.u8("slot"), HashLow: r.u32le("hash")}
		if r.Err() != nil {
			return fmt.Errorf("entry %d: %w", i, r.Err())
		}
	}
	return nil
}

// Chat: From u8, Text.

func (m Chat) check() error {
	if err := checkSlot("from", m.From, true); err != nil {
		return err
	}
	return checkString("text", m.Text, MaxChat)
}

func (m Chat) appendPayload(b []byte) []byte { return appendString(append(b, m.From), m.Text) }

func (m *Chat) decodePayload(r *reader) error {
	m.From = r.u8("from")
	m.Text = r.string("text", MaxChat)
	return r.Err()
}

// RoomStatus: State u8, Child u8, Turn uvarint, Lagging u8, Vacant u8,
// VacancyMs uvarint, End u8, and only if End is not zero: Final uvarint;
// then Slow u8.

func (m RoomStatus) check() error {
	if err := checkRange("state", int(m.State), int(StateSetup), int(StateFinished)); err != nil {
		return err
	}
	if err := checkRange("child", int(m.Child), int(ChildIterating), int(ChildDesynced)); err != nil {
		return err
	}
	if m.End == 0 {
		if m.Final != 0 {
			return fmt.Errorf("final turn %d without an end: %w", m.Final, ErrInvalid)
		}
		return nil
	}
	return checkRange("end", int(m.End), 1, endReasonEnd-1)
}

func (m RoomStatus) appendPayload(b []byte) []byte {
	b = append(b, byte(m.State), byte(m.Child))
	b = binary.AppendUvarint(b, uint64(m.Turn))
	b = append(b, m.Lagging, m.Vacant)
	b = binary.AppendUvarint(b, uint64(m.VacancyMs))
	b = append(b, byte(m.End))
	if m.End != 0 {
		b = binary.AppendUvarint(b, uint64(m.Final))
	}
	return append(b, m.Slow)
}

func (m *RoomStatus) decodePayload(r *reader) error {
	m.State = RoomState(r.u8("state"))
	m.Child = Child(r.u8("child"))
	m.Turn = r.uvarint32("turn")
	m.Lagging = r.u8("lagging")
	m.Vacant = r.u8("vacant")
	m.VacancyMs = r.uvarint32("vacancy ms")
	m.End = EndReason(r.u8("end"))
	if m.End != 0 {
		m.Final = r.uvarint32("final turn")
	}
	m.Slow = r.u8("slow")
	return r.Err()
}

// CreateRoom: Name string, Setup, Key string, Unlisted bool.

func (m CreateRoom) check() error {
	if err := checkString("name", m.Name, MaxName); err != nil {
		return err
	}
	if err := checkString("key", m.Key, MaxRoomKey); err != nil {
		return err
	}
	return checkSetup(m.Setup)
}

func (m CreateRoom) appendPayload(b []byte) []byte {
	b = appendSetup(appendString(b, m.Name), m.Setup)
	return appendBool(appendString(b, m.Key), m.Unlisted)
}

func (m *CreateRoom) decodePayload(r *reader) error {
	m.Name = r.string("name", MaxName)
	m.Setup = r.setup()
	m.Key = r.string("key", MaxRoomKey)
	m.Unlisted = r.bool("unlisted")
	return r.Err()
}

// RoomListRequest: After uvarint.

func (m RoomListRequest) check() error { return nil }

func (m RoomListRequest) appendPayload(b []byte) []byte {
	return binary.AppendUvarint(b, uint64(m.After))
}

func (m *RoomListRequest) decodePayload(r *reader) error {
	m.After = r.uvarint32("after")
	return r.Err()
}

// RoomList: count u8, then per room RoomID uvarint, Name string, Host
// string, Players u8, Max u8, State u8, Version u8; then More bool, then
// a byte of the optional fields set (left out when none: 1 Referee, 2
// Web), then Web string if set.
// Room ids ascend strictly and are never 0.

func (m RoomList) check() error {
	if len(m.Rooms) > MaxListRooms {
		return fmt.Errorf("rooms: %d, limit %d: %w", len(m.Rooms), MaxListRooms, ErrLimit)
	}
	if err := checkString("web", m.Web, MaxWebBase); err != nil {
		return err
	}
	var last uint32
	for i, ri := range m.Rooms {
		if err := ri.check(last); err != nil {
			return fmt.Errorf("room %d: %w", i, err)
		}
		last = ri.RoomID
	}
	return nil
}

// check reports a room that does not follow the one with id after, or
// whose fields are out of range.
func (ri RoomInfo) check(after uint32) error {
	if ri.RoomID <= after {
		return fmt.Errorf("room id %d after %d: %w", ri.RoomID, after, ErrInvalid)
	}
	if err := checkString("name", ri.Name, MaxName); err != nil {
		return err
	}
	if err := checkString("host", ri.Host, MaxName); err != nil {
		return err
	}
	if err := checkRange("max", int(ri.Max), 1, game.MaxPlayers); err != nil {
		return err
	}
	if err := checkRange("players", int(ri.Players), 0, int(ri.Max)); err != nil {
		return err
	}
	return checkRange("state", int(ri.State), int(StateSetup), int(StateFinished))
}

func (m RoomList) appendPayload(b []byte) []byte {
	b = append(b, uint8(len(m.Rooms)))
	for _, ri := range m.Rooms {
		b = binary.AppendUvarint(b, uint64(ri.RoomID))
		b = appendString(appendString(b, ri.Name), ri.Host)
		b = append(b, ri.Players, ri.Max, uint8(ri.State), ri.Version)
	}
	b = appendBool(b, m.More)
	var flags uint8
	if m.Referee {
		flags |= listReferee
	}
	if m.Web != "" {
		flags |= listWeb
	}
	if flags != 0 {
		b = append(b, flags)
	}
	if m.Web != "" {
		b = appendString(b, m.Web)
	}
	return b
}

// The optional byte after a RoomList's More: which of the optional fields
// follow. 1 alone is the referee byte of before Web.
const (
	listReferee = 1 << 0 // RoomList.Referee
	listWeb     = 1 << 1 // RoomList.Web follows, a string
)

func (m *RoomList) decodePayload(r *reader) error {
	n := int(r.u8("rooms"))
	if r.Err() == nil && n > MaxListRooms {
		r.fail("rooms", fmt.Errorf("%d, limit %d: %w", n, MaxListRooms, ErrLimit))
	}
	if r.Err() != nil {
		return r.Err()
	}
	m.Rooms = nil
	if n > 0 {
		m.Rooms = make([]RoomInfo, n)
	}
	var last uint32
	for i := range m.Rooms {
		ri := &m.Rooms[i]
		ri.RoomID = r.uvarint32("room id")
		ri.Name = r.string("name", MaxName)
		ri.Host = r.string("host", MaxName)
		ri.Players = r.u8("players")
		ri.Max = r.u8("max")
		ri.State = RoomState(r.u8("state"))
		ri.Version = r.u8("version")
		if r.Err() != nil {
			return r.Err()
		}
		if err := ri.check(last); err != nil {
			r.fail(fmt.Sprintf("room %d", i), err)
			return r.Err()
		}
		last = ri.RoomID
	}
	m.More = r.bool("more")
	if r.Err() == nil && r.Len() > 0 && r.Rest()[0] != 0 && r.Rest()[0] <= listReferee|listWeb {
		// Written only when a field is set; any other byte is left to be
		// trailing.
		flags := r.u8("optional fields")
		m.Referee = flags&listReferee != 0
		if flags&listWeb != 0 {
			m.Web = r.string("web", MaxWebBase)
			if r.Err() == nil && m.Web == "" {
				r.fail("web", fmt.Errorf("written empty: %w", ErrInvalid))
			}
		}
	}
	return r.Err()
}

// RoomCreated: RoomID u32 LE, then Secret u64 LE if not 0 (optional).

func (m RoomCreated) check() error { return nil }

func (m RoomCreated) appendPayload(b []byte) []byte {
	return appendSecret(binary.LittleEndian.AppendUint32(b, m.RoomID), m.Secret)
}

func (m *RoomCreated) decodePayload(r *reader) error {
	m.RoomID = r.u32le("room id")
	m.Secret = r.secret()
	return r.Err()
}

// Kick: Slot u8.

func (m Kick) check() error                  { return nil }
func (m Kick) appendPayload(b []byte) []byte { return append(b, m.Slot) }

func (m *Kick) decodePayload(r *reader) error {
	m.Slot = r.u8("slot")
	return r.Err()
}

// EndGame: no payload.

func (m EndGame) check() error                  { return nil }
func (m EndGame) appendPayload(b []byte) []byte { return b }

func (m *EndGame) decodePayload(r *reader) error { return r.Err() }

// StartGame: Game uvarint.

func (m StartGame) check() error                  { return nil }
func (m StartGame) appendPayload(b []byte) []byte { return binary.AppendUvarint(b, uint64(m.Game)) }

func (m *StartGame) decodePayload(r *reader) error {
	m.Game = r.uvarint32("game")
	return r.Err()
}

// Pause: Paused bool.

func (m Pause) check() error                  { return nil }
func (m Pause) appendPayload(b []byte) []byte { return appendBool(b, m.Paused) }

func (m *Pause) decodePayload(r *reader) error {
	m.Paused = r.bool("paused")
	return r.Err()
}

// Standby: Port u16 LE, Key 16, Reach u8; then, optional (left out when
// both are zero), Probed u8 and Outside (16 bytes of IPv6 or IPv4-mapped
// address, all zero for none; port u16 LE).

func (m Standby) check() error {
	if m.Outside.IsValid() && (m.Outside.Port() == 0 || m.Outside.Addr().Zone() != "" || m.Outside.Addr().IsUnspecified()) {
		return fmt.Errorf("standby: outside address %v: %w", m.Outside, ErrInvalid)
	}
	return nil
}

func (m Standby) appendPayload(b []byte) []byte {
	b = binary.LittleEndian.AppendUint16(b, m.Port)
	b = append(b, m.Key[:]...)
	b = append(b, m.Reach)
	if m.Probed == 0 && !m.Outside.IsValid() {
		return b
	}
	return appendAddrPort(append(b, m.Probed), m.Outside)
}

func (m *Standby) decodePayload(r *reader) error {
	if v := r.take("port", 2); v != nil {
		m.Port = binary.LittleEndian.Uint16(v)
	}
	m.Key = r.bytes16("key")
	m.Reach = r.u8("reach")
	if r.Err() == nil && r.Len() >= 1+addrPortSize { // fewer bytes are trailing ones (finish)
		m.Probed = r.u8("probed")
		m.Outside = r.addrPort("outside address")
		if r.Err() == nil && m.Probed == 0 && !m.Outside.IsValid() {
			r.fail("probed", fmt.Errorf("written empty: %w", ErrInvalid))
		}
	}
	return r.Err()
}

// successorTail is the size of a successor's appended fields.
const successorTail = addrPortSize + 1

// appended reports whether s has a field of the optional tail set.
func (s Successor) appended() bool { return s.Outside.IsValid() || s.Unreached }

// addrPortSize is the size of an address written by appendAddrPort.
const addrPortSize = 18

// appendAddrPort appends a as 16 bytes of IPv6 or IPv4-mapped address and
// a port u16 LE; the zero AddrPort as 18 zero bytes.
func appendAddrPort(b []byte, a netip.AddrPort) []byte {
	var ip [16]byte
	if a.IsValid() {
		ip = a.Addr().As16()
	}
	b = append(b, ip[:]...)
	return binary.LittleEndian.AppendUint16(b, a.Port())
}

// addrPort reads what appendAddrPort wrote: 18 zero bytes are no address.
func (r *reader) addrPort(field string) netip.AddrPort {
	ip := r.take(field, 16)
	v := r.take(field, 2)
	if ip == nil || v == nil {
		return netip.AddrPort{}
	}
	port := binary.LittleEndian.Uint16(v)
	if [16]byte(ip) == ([16]byte{}) && port == 0 {
		return netip.AddrPort{}
	}
	return netip.AddrPortFrom(netip.AddrFrom16([16]byte(ip)).Unmap(), port)
}

// Successors: Game uvarint, Turn uvarint, count u8, then per successor
// Slot u8, address (16 bytes of IPv6 or IPv4-mapped address, port u16 LE),
// Key 16, Confirmed; then 16 bytes of token hash per slot; then Listing 8;
// then, optional (left out when no successor has either), each
// successor's Outside (as in Standby: 18 zero bytes for none) and
// Unreached, in list order; then, optional (left out when there are
// none), the fallback servers: count u8, then per server Name, Addr, Key
// 16. With servers the successors' tail is written whatever it holds.

func (m Successors) check() error {
	if len(m.List) > game.MaxPlayers {
		return fmt.Errorf("successors: %d, limit %d: %w", len(m.List), game.MaxPlayers, ErrLimit)
	}
	if len(m.Servers) > MaxFallbackServers {
		return fmt.Errorf("servers: %d, limit %d: %w", len(m.Servers), MaxFallbackServers, ErrLimit)
	}
	for i, s := range m.Servers {
		if err := s.check(); err != nil {
			return fmt.Errorf("server %d: %w", i, err)
		}
	}
	var seen uint8
	for i, s := range m.List {
		if err := checkSlot(fmt.Sprintf("successor %d: slot", i), s.Slot, false); err != nil {
			return err
		}
		if seen&(1<<s.Slot) != 0 {
			return fmt.Errorf("successor %d: slot %d twice: %w", i, s.Slot, ErrInvalid)
		}
		seen |= 1 << s.Slot
		if !s.Addr.IsValid() || s.Addr.Port() == 0 || s.Addr.Addr().Zone() != "" {
			return fmt.Errorf("successor %d: address %v: %w", i, s.Addr, ErrInvalid)
		}
		if o := s.Outside; o.IsValid() && (o.Port() == 0 || o.Addr().Zone() != "" || o.Addr().IsUnspecified()) {
			return fmt.Errorf("successor %d: outside address %v: %w", i, o, ErrInvalid)
		}
	}
	return nil
}

func (m Successors) appendPayload(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(m.Game))
	b = binary.AppendUvarint(b, uint64(m.Turn))
	b = append(b, uint8(len(m.List)))
	for _, s := range m.List {
		b = append(b, s.Slot)
		ip := s.Addr.Addr().As16()
		b = append(b, ip[:]...)
		b = binary.LittleEndian.AppendUint16(b, s.Addr.Port())
		b = append(b, s.Key[:]...)
		b = appendBool(b, s.Confirmed)
	}
	for i := range m.Tokens {
		b = append(b, m.Tokens[i][:]...)
	}
	b = append(b, m.Listing[:]...)
	if !slices.ContainsFunc(m.List, Successor.appended) && len(m.Servers) == 0 {
		return b
	}
	for _, s := range m.List {
		b = appendBool(appendAddrPort(b, s.Outside), s.Unreached)
	}
	if len(m.Servers) == 0 {
		return b
	}
	b = append(b, uint8(len(m.Servers)))
	for _, s := range m.Servers {
		b = appendString(appendString(b, s.Name), s.Addr)
		b = append(b, s.Key[:]...)
	}
	return b
}

func (s FallbackServer) check() error {
	if err := checkString("name", s.Name, MaxName); err != nil {
		return err
	}
	if err := checkString("address", s.Addr, MaxServerAddr); err != nil {
		return err
	}
	if s.Addr == "" {
		return fmt.Errorf("address: empty: %w", ErrInvalid)
	}
	return nil
}

func (m *Successors) decodePayload(r *reader) error {
	m.Game = r.uvarint32("game")
	m.Turn = r.uvarint32("turn")
	n := int(r.u8("successors"))
	if r.Err() == nil && n > game.MaxPlayers {
		r.fail("successors", fmt.Errorf("%d, limit %d: %w", n, game.MaxPlayers, ErrLimit))
	}
	if r.Err() != nil {
		return r.Err()
	}
	if n > 0 {
		m.List = make([]Successor, n)
	}
	for i := range m.List {
		s := &m.List[i]
		s.Slot = r.u8("successor slot")
		ip := r.take("successor address", 16)
		var port uint16
		if v := r.take("successor port", 2); v != nil {
			port = binary.LittleEndian.Uint16(v)
		}
		if ip != nil {
			s.Addr = netip.AddrPortFrom(netip.AddrFrom16([16]byte(ip)).Unmap(), port)
		}
		s.Key = r.bytes16("successor key")
		s.Confirmed = r.bool("successor confirmed")
	}
	for i := range m.Tokens {
		m.Tokens[i] = r.bytes16("token hash")
	}
	if v := r.take("listing", 8); v != nil {
		m.Listing = [8]byte(v)
	}
	if n := len(m.List); r.Err() == nil && n > 0 && r.Len() >= n*successorTail { // fewer bytes are trailing ones (finish)
		for i := range m.List {
			m.List[i].Outside = r.addrPort("successor outside address")
			m.List[i].Unreached = r.bool("successor unreached")
		}
		if r.Err() == nil && !slices.ContainsFunc(m.List, Successor.appended) && r.Len() == 0 {
			r.fail("successor outside address", fmt.Errorf("written empty: %w", ErrInvalid))
		}
	}
	if r.Err() == nil && r.Len() > 0 && r.Rest()[0] != 0 { // a zero count is never written: a trailing byte (finish)
		n := int(r.u8("servers"))
		switch {
		case r.Err() != nil:
		case n > MaxFallbackServers:
			r.fail("servers", fmt.Errorf("%d, limit %d: %w", n, MaxFallbackServers, ErrLimit))
		default:
			m.Servers = make([]FallbackServer, n)
			for i := range m.Servers {
				s := &m.Servers[i]
				s.Name = r.string("server name", MaxName)
				s.Addr = r.string("server address", MaxServerAddr)
				s.Key = r.bytes16("server key")
			}
		}
	}
	return r.Err()
}

// MoveGame: Key 16, RoomKey string, State (as SetupState), Names (a
// string per slot), Tokens (16 bytes per slot), Present u8, Expected u8,
// Next uvarint, K u8, Delay u8, PendingAt uvarint, PendingK u8,
// PendingDelay u8; then, only with chat lines (an appended tail): their
// count u8 and each as a Chat.

func (m MoveGame) check() error {
	if err := checkString("room key", m.RoomKey, MaxRoomKey); err != nil {
		return err
	}
	for i, n := range m.Names {
		if err := checkString(fmt.Sprintf("name %d", i), n, MaxName); err != nil {
			return err
		}
	}
	if len(m.Chat) > MaxMoveChat {
		return fmt.Errorf("chat: %d lines, limit %d: %w", len(m.Chat), MaxMoveChat, ErrLimit)
	}
	for i, c := range m.Chat {
		if err := c.check(); err != nil {
			return fmt.Errorf("chat line %d: %w", i, err)
		}
	}
	return m.State.check()
}

func (m MoveGame) appendPayload(b []byte) []byte {
	b = append(b, m.Key[:]...)
	b = appendString(b, m.RoomKey)
	b = m.State.appendPayload(b)
	for _, n := range m.Names {
		b = appendString(b, n)
	}
	for i := range m.Tokens {
		b = append(b, m.Tokens[i][:]...)
	}
	b = append(b, m.Present, m.Expected)
	b = binary.AppendUvarint(b, uint64(m.Next))
	b = append(b, m.K, m.Delay)
	b = binary.AppendUvarint(b, uint64(m.PendingAt))
	b = append(b, m.PendingK, m.PendingDelay)
	if len(m.Chat) > 0 {
		b = append(b, uint8(len(m.Chat)))
		for _, c := range m.Chat {
			b = c.appendPayload(b)
		}
	}
	return b
}

func (m *MoveGame) decodePayload(r *reader) error {
	m.Key = r.bytes16("key")
	m.RoomKey = r.string("room key", MaxRoomKey)
	if r.Err() != nil {
		return r.Err()
	}
	if err := m.State.decodePayload(r); err != nil {
		return err
	}
	for i := range m.Names {
		m.Names[i] = r.string("name", MaxName)
	}
	for i := range m.Tokens {
		m.Tokens[i] = r.bytes16("token hash")
	}
	m.Present = r.u8("present")
	m.Expected = r.u8("expected")
	m.Next = r.uvarint32("next")
	m.K = r.u8("k")
	m.Delay = r.u8("delay")
	m.PendingAt = r.uvarint32("pending at")
	m.PendingK = r.u8("pending k")
	m.PendingDelay = r.u8("pending delay")
	if r.Err() == nil && r.Len() > 0 && r.Rest()[0] != 0 { // a zero count is never written: a trailing byte (finish)
		n := int(r.u8("chat lines"))
		if n > MaxMoveChat {
			r.fail("chat lines", fmt.Errorf("%d, limit %d: %w", n, MaxMoveChat, ErrLimit))
			return r.Err()
		}
		m.Chat = make([]Chat, n)
		for i := range m.Chat {
			if err := m.Chat[i].decodePayload(r); err != nil {
				return err
			}
		}
	}
	return r.Err()
}
