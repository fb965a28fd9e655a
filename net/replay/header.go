package replay

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// Header is what a list of replays shows of one: the start record and a
// count of the turns, read without decoding or checking the turns.
type Header struct {
	Setup     game.Setup
	RoomName  string
	Started   time.Time
	K         int    // ticks per turn at the start
	Turns     int    // turn records
	TurnTicks int    // ticks the turn records hold: the sum of their counts
	EndTurn   uint32 // from the end record
	EndReason int    // 0: no end record (cut short)
	Desync    bool   // a desync was recorded
}

// Ticks is the game's recorded length in ticks: the sum of the turns'
// tick counts (K changes during a game as the room adapts its timing).
func (h Header) Ticks() int { return h.TurnTicks }

// ReadHeaderFile reads the header of the replay at path. See ReadHeader.
func ReadHeaderFile(path string) (Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return Header{}, err
	}
	defer f.Close()
	h, err := ReadHeader(f)
	if err != nil {
		return h, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}

// ReadHeader reads a replay's start record and skims the rest, counting
// turn records and their ticks and reading the end and desync markers; it
// checks only the start record's checksum. A file cut short gives what was read with an
// error matching ErrTruncated; a file that is no replay, ErrNotReplay.
func ReadHeader(r io.Reader) (Header, error) {
	br := bufio.NewReaderSize(r, 32<<10)
	head := make([]byte, len(Magic)+1)
	if _, err := io.ReadFull(br, head); err != nil || string(head[:len(Magic)]) != Magic {
		return Header{}, ErrNotReplay
	}
	if head[len(Magic)] != Version {
		return Header{}, fmt.Errorf("%w: %d (this build reads %d)", ErrVersion, head[len(Magic)], Version)
	}
	kind, payload, _, err := readRecord(br)
	if err != nil || kind != kindStart {
		return Header{}, fmt.Errorf("%w: no start record", ErrCorrupt)
	}
	rp := &Replay{}
	if err := rp.apply(kind, payload, nil); err != nil {
		return Header{}, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	h := Header{Setup: rp.Setup, RoomName: rp.RoomName, Started: rp.Started, K: rp.K}
	var buf []byte
	var mp wire.MasterPacket
	for {
		kind, err := br.ReadByte()
		if err != nil {
			return h, nil
		}
		n, err := binary.ReadUvarint(br)
		if err != nil || n > MaxRecord {
			return h, ErrTruncated
		}
		switch kind {
		case kindEnd:
			payload := make([]byte, n+4)
			if _, err := io.ReadFull(br, payload); err != nil {
				return h, ErrTruncated
			}
			f := newField(payload[:n])
			turn, reason := f.turn(), f.U8()
			if f.done() == nil {
				h.EndTurn, h.EndReason = turn, int(reason)
			}
			continue
		case kindTurn:
			buf = slices.Grow(buf[:0], int(n)+4)[:n+4]
			if _, err := io.ReadFull(br, buf); err != nil {
				return h, ErrTruncated
			}
			h.Turns++
			h.TurnTicks += turnTicks(buf[:n], &mp, rp.K)
			continue
		}
		if _, err := br.Discard(int(n) + 4); err != nil {
			return h, ErrTruncated
		}
		if kind == kindDesync {
			h.Desync = true
		}
	}
}

// turnTicks returns the ticks of the turn record payload (decoded into
// mp, reused), or k, the ticks per turn at the start, if it does not
// decode: the header skims and does not judge.
func turnTicks(payload []byte, mp *wire.MasterPacket, k int) int {
	f := newField(payload)
	body := f.Take(int(min(f.Uvarint(), MaxRecord)))
	if f.Err() != nil || mp.DecodePayload(body) != nil || len(mp.Turns) != 1 {
		return max(k, 1)
	}
	return int(mp.Turns[0].Count)
}
