// Package replay records Rockstep games and plays them back.
//
// Lockstep makes a whole game a few kilobytes: the setup with its seed and
// the master turns. A replay file holds those, the hashes players reported
// per turn, the room's per-turn record (who was present and who actually
// sent their inputs, how long the room waited), desync reports with the
// players' snapshots, and an end marker.
//
// # Format
//
// The file starts with the magic "RSRP" and a format version byte. Records
// follow, each
//
//	kind u8 | length uvarint | payload | crc32 (IEEE) of kind and payload, u32 LE
//
// so a truncated or corrupted file is read up to its last good record and
// the reader says where it stopped. Kinds are only ever appended.
//
//	1 Start     setup (as in wire, booleans as a byte 0 or 1), room name, unix time, K, delay, protocol
//	            version; one a file (a second is corrupt)
//	2 Turn      length uvarint + one master turn as a wire master packet payload,
//	            then the room's per-turn record: live mask u8, wait uvarint (ms)
//	3 Hash      turn uvarint, slot u8, low 32 bits of the reported hash u32
//	            (a slot's first hash for a turn counts; a repeat is ignored)
//	4 Desync    turn uvarint, count u8, then slot u8 + hash u32 each
//	5 Snapshot  slot u8, turn uvarint, a world snapshot (game.World binary)
//	6 End       last turn uvarint, reason u8
//	7 Note      free text, e.g. why recording stopped
//	8 Hashes    turn uvarint, slot mask u8, hash u32: every slot in the mask
//	            reported this hash for the turn (the usual case, one record
//	            a turn; a slot that reported otherwise gets its own Hash record)
//	9 Players   the players' names: a string (uvarint length, UTF-8) for
//	            every slot in the start record's setup, lowest slot first
//
// A game ends where the players' games ended: at the end of the first
// turn after which the world is over or that carries the room's EventEnd
// (or at the End record's turn, if that comes first). Verify, the viewer
// and the results all stop there.
package replay

import (
	"errors"
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// Format constants.
const (
	Magic = "RSRP"
	// Version 2: the setup has Saucers and Hyperspace after FriendlyFire,
	// and the games are played by the rules with saucers and hyperspace
	// (a version 1 game would not replay the same).
	Version = 2

	// MaxRecord bounds one record's payload, bytes.
	MaxRecord = 128 << 10
	// DefaultMaxSize bounds a replay file, bytes; recording stops (with a
	// Note) when the next record would pass it. At about 1.5 KB a second
	// for eight players, that is more than ten hours.
	DefaultMaxSize = 64 << 20
)

// Record kinds.
const (
	kindStart    = 1
	kindTurn     = 2
	kindHash     = 3
	kindDesync   = 4
	kindSnapshot = 5
	kindEnd      = 6
	kindNote     = 7
	kindHashes   = 8
	kindPlayers  = 9
)

// End reasons.
const (
	EndFinished = 1 // the game finished
	EndDesync   = 2 // the game stopped on a desync
	EndClosed   = 3 // the room or server closed
	EndTarget   = 4 // a bot run reached its target
)

// Errors of reading.
var (
	ErrNotReplay = errors.New("not a Rockstep replay")
	ErrVersion   = errors.New("replay format version not supported")
	ErrCorrupt   = errors.New("corrupt record")
	ErrTruncated = errors.New("truncated")
)

// TurnLog is the room's record of one turn beyond its inputs: the Game
// Room design's "turn, players present, what each sent, errors".
type TurnLog struct {
	Live uint8         // bit i: slot i sent its own inputs (not filled in by the room)
	Wait time.Duration // how long the room waited for the turn since the previous one
}

// Turn is a recorded master turn with the room's record of it.
type Turn struct {
	wire.MasterTurn
	Log TurnLog
}

// Snapshot is a player's world sent for a desync report.
type Snapshot struct {
	Slot uint8
	Turn uint32 // the world at the end of this turn
	Data []byte // game.World binary
}

// Replay is a read replay file.
type Replay struct {
	Setup     game.Setup
	Names     [game.MaxPlayers]string // the players' names by slot (empty in replays from before names were kept)
	RoomName  string
	Started   time.Time
	K, Delay  int
	Protocol  int
	Turns     []Turn
	Hashes    map[uint32][]wire.HashEntry // by turn
	Desync    *wire.DesyncReport
	Snapshots []Snapshot
	EndTurn   uint32
	EndReason int // 0: no End record (the recording was cut short)
	Notes     []string
}
