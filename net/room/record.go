package room

import (
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// Recorder keeps a record of a game as the room plays it: the replay. The
// room calls it on its own goroutine. A recorder writes files or memory;
// the room itself stays free of I/O.
type Recorder interface {
	// Started is the game's start: its setup, the room's name, the
	// players' names by slot, and the initial timing.
	Started(setup game.Setup, name string, players [game.MaxPlayers]string, k, delay int)
	Turn(mt *wire.MasterTurn, log TurnLog)
	Hash(turn uint32, slot int, low uint32)
	Desync(d *DesyncInfo)
	Snapshot(slot int, turn uint32, data []byte) // a player's world, for a desync report
	Finished(lastTurn uint32, reason int)
}

// TurnLog is the room's record of a turn beyond its inputs (the Game Room
// design's per-turn record: turn, players present, what each sent, errors).
type TurnLog struct {
	Live uint8         // bit i: slot i sent its own inputs (the room filled in the others)
	Wait time.Duration // how long since the previous turn was compiled
}

// Reasons a recorded game ended (Recorder.Finished).
const (
	EndFinished = 1 // game over, or the host ended it
	EndDesync   = 2 // stopped on a desync
	EndClosed   = 3 // the room closed or everyone left
)

// startRecording asks for a recorder for the game that starts.
func (r *Room) startRecording() {
	r.rec = nil
	if r.cfg.NewRecorder != nil {
		r.rec = r.cfg.NewRecorder(r.setup, r.cfg.Name)
	}
	if r.rec != nil {
		r.rec.Started(r.setup, r.cfg.Name, r.cast, int(r.cur.k), int(r.cur.delay))
	}
}

// stopRecording ends the recording at the game's last turn.
func (r *Room) stopRecording(reason int, last uint32) {
	if r.rec == nil {
		return
	}
	r.rec.Finished(last, reason)
	r.rec = nil
}

// lastCompiled returns the last master turn compiled (0 before any).
func (r *Room) lastCompiled() uint32 {
	if r.nextTurn == 0 {
		return 0
	}
	return r.nextTurn - 1
}
