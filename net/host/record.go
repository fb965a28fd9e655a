package host

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"rockstep/game"
	"rockstep/net/replay"
	"rockstep/net/room"
	"rockstep/net/wire"
)

// recorders makes a replay file for every game the host's rooms play, and
// a desync report beside it when a game desyncs.
type recorders struct {
	dir   string // folder for replays named by time and room; "" means replay.DefaultFolder
	file  string // the first game's file; later games get -2, -3…
	count int
	log   func(msg string, args ...any)

	mu      sync.Mutex
	open    []*recording
	reports []*recording // desynced games waiting for the players' snapshots
	last    string       // path of the last desync report written
}

// recording is one game's replay file, open while the game is played and,
// after a desync, until its report is written.
type recording struct {
	w      *replay.Writer
	path   string
	desync time.Time // when the desync was recorded
	closed bool
	// finished: the game ended. A desync a repair healed (room/repair.go)
	// leaves the game running: its report is written from the file as it
	// stands, and the file stays open until the game ends.
	finished bool
}

// reportWait is how long after a desync the report waits for the players'
// snapshots before it is written with what arrived.
const reportWait = 2 * time.Second

// path returns the file the next game, played in room roomID named
// roomName, is recorded into, and whether that name is the game's own
// (made here, never to be written over) rather than one the operator gave.
func (rs *recorders) path(roomID uint32, roomName string) (string, bool, error) {
	rs.count++
	if rs.file != "" {
		if rs.count == 1 {
			return rs.file, false, nil
		}
		ext := ".rsrp"
		base := strings.TrimSuffix(rs.file, ext)
		return base + "-" + strconv.Itoa(rs.count) + ext, false, nil
	}
	dir := rs.dir
	if dir == "" {
		d, err := replay.DefaultFolder()
		if err != nil {
			return "", false, err
		}
		dir = d
	}
	return filepath.Join(dir, replay.FileName(time.Now(), roomID, rs.count, roomName)), true, nil
}

// maxNameTries bounds the names newRecorder tries for a game when another
// process (a second server, a game hosted beside it) recorded into the
// same folder under the same name.
const maxNameTries = 16

// newRecorder is room roomID's Config.NewRecorder.
func (rs *recorders) newRecorder(roomID uint32, roomName string) room.Recorder {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	var err error
	for range maxNameTries {
		var p string
		var own bool
		if p, own, err = rs.path(roomID, roomName); err != nil {
			break
		}
		var w *replay.Writer
		if own {
			w, err = replay.CreateNew(p, 0)
			if errors.Is(err, fs.ErrExist) {
				continue // another process's game: the next count
			}
		} else {
			w, err = replay.Create(p, 0)
		}
		if err != nil {
			break
		}
		rec := &recording{w: w, path: p}
		rs.open = append(rs.open, rec)
		rs.log("recording the game", "file", p)
		return &hostRecorder{rs: rs, rec: rec}
	}
	rs.log("cannot record the game", "err", err)
	return nil
}

// hostRecorder passes the room's records to the file and closes it when the
// game ends.
type hostRecorder struct {
	rs  *recorders
	rec *recording
}

func (h *hostRecorder) Started(s game.Setup, name string, players [game.MaxPlayers]string, k, d int) {
	h.rec.w.Started(s, name, players, k, d)
}
func (h *hostRecorder) Hash(turn uint32, slot int, low uint32) { h.rec.w.Hash(turn, slot, low) }
func (h *hostRecorder) Snapshot(slot int, turn uint32, data []byte) {
	h.rec.w.Snapshot(slot, turn, data)
}

func (h *hostRecorder) Turn(mt *wire.MasterTurn, log room.TurnLog) { h.rec.w.Turn(mt, log) }

func (h *hostRecorder) Desync(d *room.DesyncInfo) {
	h.rec.w.Desync(d)
	h.rs.mu.Lock()
	if h.rec.desync.IsZero() {
		h.rs.reports = append(h.rs.reports, h.rec)
	}
	h.rec.desync = time.Now()
	h.rs.mu.Unlock()
}

// Note records a line of text (a repair, a handover) in the replay.
func (h *hostRecorder) Note(text string) { h.rec.w.Note(text) }

func (h *hostRecorder) Finished(last uint32, reason int) {
	h.rec.w.Finished(last, reason)
	h.rs.mu.Lock()
	defer h.rs.mu.Unlock()
	h.rec.finished = true
	if h.rec.desync.IsZero() {
		h.rs.closeLocked(h.rec)
	}
}

func (rs *recorders) closeLocked(rec *recording) {
	if rec.closed {
		return
	}
	rec.closed = true
	if err := rec.w.Close(); err != nil {
		rs.log("replay not saved whole", "file", rec.path, "err", err)
	}
	for i, r := range rs.open {
		if r == rec {
			rs.open = append(rs.open[:i], rs.open[i+1:]...)
			break
		}
	}
}

// tick flushes every open replay (a crash loses at most the last second)
// and writes the desync reports that are due.
func (rs *recorders) tick(now time.Time) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for _, r := range rs.open {
		_ = r.w.Flush()
	}
	for i := 0; i < len(rs.reports); i++ {
		r := rs.reports[i]
		if now.Sub(r.desync) < reportWait {
			continue
		}
		rs.reports = append(rs.reports[:i], rs.reports[i+1:]...)
		i--
		if r.finished {
			rs.closeLocked(r)
		} else {
			// Repaired: the game goes on, and so does its replay; the
			// report reads what has been written so far.
			_ = r.w.Flush()
			r.desync = time.Time{}
		}
		if path, err := WriteReport(r.path); err != nil {
			rs.log("cannot write the desync report", "replay", r.path, "err", err)
		} else {
			rs.last = path
			rs.log("desync report written", "file", path)
		}
	}
}

// lastReport returns the path of the last desync report written, or "".
func (rs *recorders) lastReport() string {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.last
}

// closeAll closes every open replay (the host is stopping).
func (rs *recorders) closeAll() {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for len(rs.open) > 0 {
		rs.closeLocked(rs.open[0])
	}
}

// WriteReport reads the replay at path and writes its desync report beside
// it (path + ".desync.txt"), returning the report's path.
func WriteReport(path string) (string, error) {
	rp, err := replay.ReadFile(path)
	if rp == nil {
		return "", err
	}
	text := replay.Report(rp)
	if err != nil {
		text += fmt.Sprintf("(the replay was read only in part: %v)\n", err)
	}
	out := path + ".desync.txt"
	return out, os.WriteFile(out, []byte(text), 0o644)
}
