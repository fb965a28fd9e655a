package wire

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"rockstep/game"
)

// Client and master packets are the hot path: a room of 8 players handles
// 30 of each per player per second. Their encoders and decoders allocate
// nothing once the packet's slices and the output buffer have grown.

// ClientPacket payload:
//
//	flags       u8: bit 0 HasHash, bit 1 HasStats, bit 2 has turns, bit 3
//	            Ended (only with HasHash); others 0
//	if turns:
//	  Turn      uvarint, the first (oldest) turn
//	  shape     u8: (turns-1)<<4 | Count, so 1..16 turns of 1..8 ticks
//	  inputs    6 bits per tick (game.ClientInputMask), turn by turn, oldest
//	            tick first, least significant bit first, zero-padded to a byte
//	  MasterAck zigzag varint of newest turn - MasterAck
//	else:
//	  MasterAck uvarint
//	if HasHash:
//	  HashTurn  zigzag varint of newest turn - HashTurn, or uvarint if no turns
//	  HashLow   u32 LE
//	if HasStats:
//	  RTT       uvarint (ms)
//	  FPS       u8 (ticks a second sustained)
//
// One turn of K=2 at turn 100000 with an ack and a hash takes 13 bytes.
const (
	clientHasHash  = 1 << 0
	clientHasStats = 1 << 1
	clientHasTurns = 1 << 2
	clientEnded    = 1 << 3
	clientFlags    = clientHasHash | clientHasStats | clientHasTurns | clientEnded

	inputBits = 6 // bits per client input on the wire
)

// The packing of client inputs relies on ClientInputMask being the low
// inputBits bits.
const _ = -uint(game.ClientInputMask ^ (1<<inputBits - 1))

// checkTurns reports the first limit that a batch of turns breaks, the
// rules client and master packets share: at most MaxBatch turns, numbered
// one after another and the newest within uint32, each of 1..MaxK ticks.
// head gives a turn's number and count of ticks.
func checkTurns[T any](turns []T, head func(*T) (turn uint32, count uint8)) error {
	if len(turns) == 0 {
		return nil
	}
	n := len(turns)
	first, _ := head(&turns[0])
	if n > MaxBatch {
		return fmt.Errorf("%d turns, limit %d: %w", n, MaxBatch, ErrLimit)
	}
	if uint64(first)+uint64(n-1) > math.MaxUint32 {
		return fmt.Errorf("turns %d and %d after it overflow uint32: %w", first, n-1, ErrInvalid)
	}
	for i := range turns {
		turn, count := head(&turns[i])
		if turn != first+uint32(i) {
			return fmt.Errorf("turn %d after turn %d, not consecutive: %w", turn, first+uint32(i)-1, ErrInvalid)
		}
		if err := checkRange("count", int(count), 1, MaxK); err != nil {
			return fmt.Errorf("turn %d: %w", turn, err)
		}
	}
	return nil
}

func (t *TurnInput) head() (uint32, uint8)  { return t.Turn, t.Count }
func (t *MasterTurn) head() (uint32, uint8) { return t.Turn, t.Count }

// check reports the first limit p breaks.
func (p *ClientPacket) check() error {
	if p.Ended && !p.HasHash {
		return fmt.Errorf("ended without a hash: %w", ErrInvalid)
	}
	if err := checkTurns(p.Turns, (*TurnInput).head); err != nil {
		return err
	}
	for i := range p.Turns {
		t := &p.Turns[i]
		if first := &p.Turns[0]; t.Count != first.Count {
			return fmt.Errorf("turn %d: count %d, turn %d has %d; all must be equal: %w", t.Turn, t.Count, first.Turn, first.Count, ErrInvalid)
		}
		for j, in := range t.Inputs[:t.Count] {
			if in&^game.ClientInputMask != 0 {
				return fmt.Errorf("turn %d: tick %d: input %#x has bits outside game.ClientInputMask: %w", t.Turn, j, in, ErrInvalid)
			}
		}
	}
	return nil
}

// AppendFrame appends p as a whole frame to b, or returns b unchanged and
// an error if p breaks a limit. It allocates nothing if b has room.
func (p *ClientPacket) AppendFrame(b []byte) ([]byte, error) {
	return appendChecked(b, p, TypeClientPacket)
}

// appendPayload appends p's payload to out; only called after check.
func (p *ClientPacket) appendPayload(out []byte) []byte {
	var flags byte
	if p.HasHash {
		flags |= clientHasHash
	}
	if p.HasStats {
		flags |= clientHasStats
	}
	if len(p.Turns) > 0 {
		flags |= clientHasTurns
	}
	if p.Ended {
		flags |= clientEnded
	}
	out = append(out, flags)
	var newest uint32
	if len(p.Turns) > 0 {
		first, count := p.Turns[0].Turn, p.Turns[0].Count
		newest = first + uint32(len(p.Turns)-1)
		out = binary.AppendUvarint(out, uint64(first))
		out = append(out, byte(len(p.Turns)-1)<<4|count)
		var acc uint32 // bits not yet written, least significant first
		var n uint     // how many
		for i := range p.Turns {
			for _, in := range p.Turns[i].Inputs[:count] {
				acc |= uint32(in) << n
				n += inputBits
				if n >= 8 {
					out = append(out, byte(acc))
					acc >>= 8
					n -= 8
				}
			}
		}
		if n > 0 {
			out = append(out, byte(acc))
		}
		out = appendDelta(out, newest, p.MasterAck)
	} else {
		out = binary.AppendUvarint(out, uint64(p.MasterAck))
	}
	if p.HasHash {
		if len(p.Turns) > 0 {
			out = appendDelta(out, newest, p.HashTurn)
		} else {
			out = binary.AppendUvarint(out, uint64(p.HashTurn))
		}
		out = binary.LittleEndian.AppendUint32(out, p.HashLow)
	}
	if p.HasStats {
		out = binary.AppendUvarint(out, uint64(p.RTT))
		out = append(out, p.FPS)
	}
	return out
}

// DecodePayload decodes a client packet's payload (a frame after Peek)
// into p, reusing p.Turns. It allocates nothing once p.Turns has grown to
// the packets it sees. On error p is left in an unspecified state.
func (p *ClientPacket) DecodePayload(payload []byte) error {
	r := newReader(payload)
	return decodeError(TypeClientPacket, p.decode(&r))
}

func (p *ClientPacket) decode(r *reader) error {
	*p = ClientPacket{Turns: p.Turns[:0]}
	flags := r.u8("flags")
	if flags&^clientFlags != 0 {
		r.fail("flags", fmt.Errorf("unknown bits %#x: %w", flags&^clientFlags, ErrInvalid))
	}
	p.HasHash, p.HasStats, p.Ended = flags&clientHasHash != 0, flags&clientHasStats != 0, flags&clientEnded != 0
	if p.Ended && !p.HasHash {
		r.fail("flags", fmt.Errorf("ended without a hash: %w", ErrInvalid))
	}
	var newest uint32
	if flags&clientHasTurns != 0 {
		first := r.uvarint32("turn")
		shape := r.u8("turn shape")
		n, count := int(shape>>4)+1, shape&0x0f
		if r.Err() != nil {
			return r.Err()
		}
		if count < 1 || count > MaxK {
			return fmt.Errorf("turn %d: count %d outside 1..%d: %w", first, count, MaxK, ErrInvalid)
		}
		if uint64(first)+uint64(n-1) > math.MaxUint32 {
			return fmt.Errorf("turn %d and %d after it overflow uint32: %w", first, n-1, ErrInvalid)
		}
		newest = first + uint32(n-1)
		p.Turns = slices.Grow(p.Turns, n)
		data := r.take("inputs", (n*int(count)*inputBits+7)/8)
		if r.Err() != nil {
			return r.Err()
		}
		var acc uint32
		var have uint
		for i := range n {
			p.Turns = append(p.Turns, TurnInput{Turn: first + uint32(i), Count: count})
			t := &p.Turns[i]
			for j := range t.Inputs[:count] {
				if have < inputBits {
					acc |= uint32(data[0]) << have
					data = data[1:]
					have += 8
				}
				t.Inputs[j] = game.Input(acc & (1<<inputBits - 1))
				acc >>= inputBits
				have -= inputBits
			}
		}
		if acc != 0 {
			return fmt.Errorf("inputs: padding bits not zero: %w", ErrInvalid)
		}
		p.MasterAck = r.delta("master ack", newest)
	} else {
		p.MasterAck = r.uvarint32("master ack")
	}
	if p.HasHash {
		if len(p.Turns) > 0 {
			p.HashTurn = r.delta("hash turn", newest)
		} else {
			p.HashTurn = r.uvarint32("hash turn")
		}
		p.HashLow = r.u32le("hash")
	}
	if p.HasStats {
		p.RTT = uint16(r.uvarintMax("rtt", math.MaxUint16))
		p.FPS = r.u8("fps")
	}
	return r.finish()
}

// MasterPacket payload:
//
//	ClientAck   uvarint
//	turns       u8, 0..MaxBatch
//	if turns:
//	  Turn      uvarint, the first (oldest); the others follow it
//	  per turn:
//	    Count   u8, 1..MaxK
//	    Players u8
//	    inputs  Count bytes per slot in Players, lowest slot first
//	    events  u8, 0..MaxEvents, then per event:
//	      Kind u8, Slot u8 (< game.MaxPlayers),
//	      for EventTiming: At uvarint, K u8 (1..MaxK), Delay u8 (0..MaxDelay)

// checkEvent reports the first limit e breaks.
func checkEvent(e *RoomEvent) error {
	if err := checkRange("kind", int(e.Kind), 1, eventKindEnd-1); err != nil {
		return err
	}
	if err := checkSlot("slot", e.Slot, false); err != nil {
		return err
	}
	if e.Kind == EventTiming {
		if err := checkRange("k", int(e.K), 1, MaxK); err != nil {
			return err
		}
		return checkRange("delay", int(e.Delay), 0, MaxDelay)
	}
	return nil
}

// check reports the first limit p breaks.
func (p *MasterPacket) check() error {
	if err := checkTurns(p.Turns, (*MasterTurn).head); err != nil {
		return err
	}
	for i := range p.Turns {
		t := &p.Turns[i]
		if len(t.Events) > MaxEvents {
			return fmt.Errorf("turn %d: %d events, limit %d: %w", t.Turn, len(t.Events), MaxEvents, ErrLimit)
		}
		for j := range t.Events {
			if err := checkEvent(&t.Events[j]); err != nil {
				return fmt.Errorf("turn %d: event %d: %w", t.Turn, j, err)
			}
		}
	}
	return nil
}

// AppendFrame appends p as a whole frame to b, or returns b unchanged and
// an error if p breaks a limit or makes a frame above MaxFrame. It
// allocates nothing if b has room.
func (p *MasterPacket) AppendFrame(b []byte) ([]byte, error) {
	return appendChecked(b, p, TypeMasterPacket)
}

// appendPayload appends p's payload to out; only called after check.
func (p *MasterPacket) appendPayload(out []byte) []byte {
	out = binary.AppendUvarint(out, uint64(p.ClientAck))
	out = append(out, byte(len(p.Turns)))
	if len(p.Turns) > 0 {
		out = binary.AppendUvarint(out, uint64(p.Turns[0].Turn))
	}
	for i := range p.Turns {
		t := &p.Turns[i]
		out = append(out, t.Count, t.Players)
		for s := range t.Inputs {
			if t.Players&(1<<s) != 0 {
				for _, in := range t.Inputs[s][:t.Count] {
					out = append(out, byte(in))
				}
			}
		}
		out = append(out, byte(len(t.Events)))
		for j := range t.Events {
			e := &t.Events[j]
			out = append(out, byte(e.Kind), e.Slot)
			if e.Kind == EventTiming {
				out = binary.AppendUvarint(out, uint64(e.At))
				out = append(out, e.K, e.Delay)
			}
		}
	}
	return out
}

// DecodePayload decodes a master packet's payload (a frame after Peek)
// into p, reusing p.Turns and each turn's Events. It allocates nothing once
// those slices have grown to the packets it sees.
//
// The decoded turns and their Events share memory with p: a caller that
// keeps a MasterTurn past the next DecodePayload must copy its Events
// (slices.Clone). On error p is left in an unspecified state.
func (p *MasterPacket) DecodePayload(payload []byte) error {
	r := newReader(payload)
	return decodeError(TypeMasterPacket, p.decode(&r))
}

// decodeError names packet type t in a decoding error; nil stays nil.
func decodeError(t Type, err error) error {
	if err != nil {
		return fmt.Errorf("decode %s: %w", t, err)
	}
	return nil
}

func (p *MasterPacket) decode(r *reader) error {
	p.ClientAck = r.uvarint32("client ack")
	n := int(r.u8("turn count"))
	var first uint32
	if n > 0 {
		first = r.uvarint32("turn")
	}
	if r.Err() != nil {
		return r.Err()
	}
	if n > MaxBatch {
		return fmt.Errorf("%d turns, limit %d: %w", n, MaxBatch, ErrLimit)
	}
	if uint64(first)+uint64(max(n-1, 0)) > math.MaxUint32 {
		return fmt.Errorf("turn %d and %d after it overflow uint32: %w", first, n-1, ErrInvalid)
	}
	if cap(p.Turns) < n {
		// Grow once, keeping the turns beyond len for their Events.
		grown := make([]MasterTurn, cap(p.Turns), n)
		copy(grown, p.Turns[:cap(p.Turns)])
		p.Turns = grown
	}
	p.Turns = p.Turns[:0]
	for i := range n {
		// Reuse the turn in the backing array and its Events.
		if len(p.Turns) < cap(p.Turns) {
			p.Turns = p.Turns[:len(p.Turns)+1]
			t := &p.Turns[i]
			*t = MasterTurn{Events: t.Events[:0]}
		} else {
			p.Turns = append(p.Turns, MasterTurn{})
		}
		t := &p.Turns[i]
		t.Turn = first + uint32(i)
		if err := t.decode(r); err != nil {
			return fmt.Errorf("turn %d: %w", t.Turn, err)
		}
	}
	return r.finish()
}

// decode reads t's fields after its turn number.
func (t *MasterTurn) decode(r *reader) error {
	t.Count = r.u8("count")
	t.Players = r.u8("players")
	if r.Err() != nil {
		return r.Err()
	}
	if t.Count < 1 || t.Count > MaxK {
		return fmt.Errorf("count %d outside 1..%d: %w", t.Count, MaxK, ErrInvalid)
	}
	data := r.take("inputs", bits.OnesCount8(t.Players)*int(t.Count))
	if r.Err() != nil {
		return r.Err()
	}
	for s := range t.Inputs {
		if t.Players&(1<<s) != 0 {
			for j := range t.Inputs[s][:t.Count] {
				t.Inputs[s][j] = game.Input(data[j])
			}
			data = data[t.Count:]
		}
	}
	ne := int(r.u8("event count"))
	if r.Err() != nil {
		return r.Err()
	}
	if ne > MaxEvents {
		return fmt.Errorf("%d events, limit %d: %w", ne, MaxEvents, ErrLimit)
	}
	t.Events = slices.Grow(t.Events, ne)
	for j := range ne {
		e := RoomEvent{Kind: EventKind(r.u8("kind")), Slot: r.u8("slot")}
		if e.Kind == EventTiming {
			e.At = r.uvarint32("at")
			e.K = r.u8("k")
			e.Delay = r.u8("delay")
		}
		if r.Err() == nil {
			r.Fail(checkEvent(&e))
		}
		if r.Err() != nil {
			return fmt.Errorf("event %d: %w", j, r.Err())
		}
		t.Events = append(t.Events, e)
	}
	return nil
}
