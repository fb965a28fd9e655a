package replay

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"time"
	"unicode/utf8"

	"rockstep/game"
	"rockstep/game/bytesin"
	"rockstep/net/wire"
)

// ReadFile reads the replay at path. See Read.
func ReadFile(path string) (*Replay, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rp, err := Read(f)
	if err != nil {
		return rp, fmt.Errorf("%s: %w", path, err)
	}
	return rp, nil
}

// Read reads a replay. On a truncated or corrupted file it returns what it
// read up to the last good record together with an error that says where
// it stopped (matching ErrTruncated or ErrCorrupt); the partial replay can
// still be played to its last good turn. It never panics on any input.
func Read(r io.Reader) (*Replay, error) {
	br := bufio.NewReader(r)
	head := make([]byte, len(Magic)+1)
	if _, err := io.ReadFull(br, head); err != nil || string(head[:len(Magic)]) != Magic {
		return nil, ErrNotReplay
	}
	if head[len(Magic)] != Version {
		return nil, fmt.Errorf("%w: %d (this build reads %d)", ErrVersion, head[len(Magic)], Version)
	}
	rp := &Replay{Hashes: map[uint32][]wire.HashEntry{}}
	var mp wire.MasterPacket
	offset := int64(len(head))
	for n := 0; ; n++ {
		kind, payload, size, err := readRecord(br)
		if errors.Is(err, io.EOF) {
			return rp, nil
		}
		if err != nil {
			return rp, fmt.Errorf("replay record %d at byte %d: %w", n, offset, err)
		}
		if err := rp.apply(kind, payload, &mp); err != nil {
			return rp, fmt.Errorf("replay record %d at byte %d: %w: %w", n, offset, ErrCorrupt, err)
		}
		offset += size
	}
}

func readRecord(br *bufio.Reader) (kind byte, payload []byte, size int64, err error) {
	kind, err = br.ReadByte()
	if err != nil {
		return 0, nil, 0, io.EOF // a clean end between records
	}
	n, err := binary.ReadUvarint(br)
	if err != nil {
		return 0, nil, 0, ErrTruncated
	}
	if n > MaxRecord {
		return 0, nil, 0, fmt.Errorf("%w: record of %d bytes", ErrCorrupt, n)
	}
	payload = make([]byte, n+4)
	if _, err = io.ReadFull(br, payload); err != nil {
		return 0, nil, 0, ErrTruncated
	}
	sum := binary.LittleEndian.Uint32(payload[n:])
	payload = payload[:n]
	crc := crc32.NewIEEE()
	crc.Write([]byte{kind})
	crc.Write(payload)
	if crc.Sum32() != sum {
		return 0, nil, 0, fmt.Errorf("%w: checksum", ErrCorrupt)
	}
	return kind, payload, int64(1 + uvarintLen(n) + int(n) + 4), nil
}

func uvarintLen(n uint64) int { return len(binary.AppendUvarint(nil, n)) }

// field reads the fields of one record: bytesin's little-endian fields
// and varints, and the record's own turn and string fields.
type field struct {
	bytesin.Reader
}

func newField(payload []byte) *field { return &field{bytesin.New(payload)} }

func (f *field) turn() uint32 {
	v := f.Uvarint()
	if v > 1<<32-1 {
		f.Fail(errors.New("turn out of range"))
	}
	return uint32(v)
}

func (f *field) str(max int) string {
	n := f.Uvarint()
	if n > uint64(max) {
		f.Fail(errors.New("string too long"))
		return ""
	}
	s := string(f.Take(int(n)))
	if !utf8.ValidString(s) {
		f.Fail(errors.New("string not UTF-8"))
	}
	return s
}

// done returns the record's first failure, a short read or a varint too
// long as ErrTruncated, or an error if bytes follow its last field.
func (f *field) done() error {
	switch err := f.Err(); err {
	case nil:
		if f.Len() != 0 {
			return fmt.Errorf("%d bytes after the record", f.Len())
		}
		return nil
	case bytesin.ErrTruncated, bytesin.ErrOverflow:
		return ErrTruncated
	default:
		return err
	}
}

func (rp *Replay) apply(kind byte, payload []byte, mp *wire.MasterPacket) error {
	f := newField(payload)
	switch kind {
	case kindStart:
		return rp.applyStart(f)
	case kindTurn:
		return rp.applyTurn(f, mp)
	case kindHash:
		turn, slot, low := f.turn(), f.U8(), f.U32()
		if err := f.done(); err != nil {
			return fmt.Errorf("hash: %w", err)
		}
		if slot >= game.MaxPlayers {
			return fmt.Errorf("hash: slot %d", slot)
		}
		rp.addHash(turn, slot, low)
	case kindHashes:
		turn, mask, low := f.turn(), f.U8(), f.U32()
		if err := f.done(); err != nil {
			return fmt.Errorf("hashes: %w", err)
		}
		for i := 0; i < game.MaxPlayers; i++ {
			if mask&(1<<i) != 0 {
				rp.addHash(turn, uint8(i), low)
			}
		}
	case kindDesync:
		d := &wire.DesyncReport{Turn: f.turn()}
		n := f.U8()
		if n > game.MaxPlayers {
			return fmt.Errorf("desync: %d entries", n)
		}
		for i := 0; i < int(n); i++ {
			d.Entries = append(d.Entries, wire.HashEntry{Slot: f.U8(), HashLow: f.U32()})
		}
		if err := f.done(); err != nil {
			return fmt.Errorf("desync: %w", err)
		}
		rp.Desync = d
	case kindSnapshot:
		slot, turn := f.U8(), f.turn()
		if f.Err() != nil || slot >= game.MaxPlayers {
			return errors.New("snapshot: bad header")
		}
		if len(rp.Snapshots) < 4*game.MaxPlayers {
			rp.Snapshots = append(rp.Snapshots, Snapshot{Slot: slot, Turn: turn, Data: append([]byte(nil), f.Rest()...)})
		}
	case kindEnd:
		turn, reason := f.turn(), f.U8()
		if err := f.done(); err != nil {
			return fmt.Errorf("end: %w", err)
		}
		rp.EndTurn, rp.EndReason = turn, int(reason)
	case kindPlayers:
		var names [game.MaxPlayers]string
		for i := range names {
			if rp.Setup.Players&(1<<i) != 0 {
				names[i] = f.str(wire.MaxName)
			}
		}
		if err := f.done(); err != nil {
			return fmt.Errorf("players: %w", err)
		}
		rp.Names = names
	case kindNote:
		if !utf8.Valid(payload) || len(rp.Notes) >= 64 {
			return nil
		}
		rp.Notes = append(rp.Notes, string(payload))
	default:
		// A kind from a newer writer of the same version: skip it.
	}
	return nil
}

// applyStart reads a start record: the game's setup, the room's name,
// when it started and its timing (K, the input delay, the protocol).
func (rp *Replay) applyStart(f *field) error {
	if rp.Setup.Validate() == nil {
		// A file holds one game (a Writer is started once): a second
		// start would mix the setup of one game with the rest of another.
		return errors.New("a second start record")
	}
	s := game.Setup{Seed: f.U64(), Players: f.U8(), Mode: game.Mode(f.U8()), Lives: f.U8(), StartWave: f.U8()}
	s.FriendlyFire, s.Saucers, s.Hyperspace = f.U8() == 1, f.U8() == 1, f.U8() == 1
	name, started := f.str(wire.MaxName), f.U64()
	k, delay, protocol := f.U8(), f.U8(), f.U8()
	if err := f.done(); err != nil {
		return fmt.Errorf("start: %w", err)
	}
	if err := s.Validate(); err != nil {
		return fmt.Errorf("start: %w", err)
	}
	// Only a good record is kept: a partial replay holds what was
	// read up to the last good record, none of a bad one.
	rp.Setup, rp.RoomName, rp.Started = s, name, time.Unix(int64(started), 0)
	rp.K, rp.Delay, rp.Protocol = int(k), int(delay), int(protocol)
	return nil
}

// applyTurn reads a turn record: one master turn, decoded with mp's
// buffers, and what the room logged of it.
func (rp *Replay) applyTurn(f *field, mp *wire.MasterPacket) error {
	n := f.Uvarint()
	body := f.Take(int(min(n, MaxRecord)))
	live, wait := f.U8(), f.Uvarint()
	if err := f.done(); err != nil {
		return fmt.Errorf("turn: %w", err)
	}
	if err := mp.DecodePayload(body); err != nil {
		return fmt.Errorf("turn: %w", err)
	}
	if len(mp.Turns) != 1 {
		return fmt.Errorf("turn: %d turns in one record", len(mp.Turns))
	}
	mt := mp.Turns[0]
	mt.Events = append([]wire.RoomEvent(nil), mt.Events...)
	if len(rp.Turns) > 0 && mt.Turn != rp.Turns[len(rp.Turns)-1].Turn+1 {
		return fmt.Errorf("turn %d after turn %d", mt.Turn, rp.Turns[len(rp.Turns)-1].Turn)
	}
	rp.Turns = append(rp.Turns, Turn{MasterTurn: mt, Log: TurnLog{Live: live, Wait: time.Duration(min(wait, 1<<40)) * time.Millisecond}})
	return nil
}

// addHash keeps the hash slot reported for turn. A slot reports one hash a
// turn, and the room records only its first report (a repeat comes by
// redundancy): a second record for the same slot and turn is ignored, so a
// turn holds at most one entry per slot.
func (rp *Replay) addHash(turn uint32, slot uint8, low uint32) {
	for _, e := range rp.Hashes[turn] {
		if e.Slot == slot {
			return
		}
	}
	rp.Hashes[turn] = append(rp.Hashes[turn], wire.HashEntry{Slot: slot, HashLow: low})
}
