package ui

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"rockstep/game"
	"rockstep/net/replay"
)

// The Replays screen's list is pure: a folder in, rows out, newest first.
// Each replay's header is skimmed (replay.ReadHeader), never the whole
// game.

// replayExt is the file extension of replays; a desync report sits beside
// its replay with reportExt appended.
const (
	replayExt = ".rsrp"
	reportExt = ".desync.txt"
)

// replayMaxListed bounds the list: the newest this many replays.
const replayMaxListed = 200

// replayEntry is one replay of the list.
type replayEntry struct {
	Path    string    // the replay file
	File    string    // its base name
	Room    string    // the room's name, from the start record
	Started time.Time // the game's start, or the file's time if unknown
	Ticks   int       // length, estimated from the turns
	Players int       // players in the game
	Report  string    // path of its desync report, if one exists
	Desync  bool      // the replay recorded a desync
	Damaged string    // why the file could not be read in full, if not
}

// replaysDir returns the folder the Host button records into, beside the
// settings ("" without a settings folder).
func replaysDir(settingsDir string) string {
	if settingsDir == "" {
		return ""
	}
	return replay.Folder(settingsDir)
}

// scanReplays lists the replays in dir, newest first (by the game's start,
// then by name), with their reports. A missing folder is an empty list.
func scanReplays(dir string) ([]replayEntry, error) {
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("replays: %w", err)
	}
	names := map[string]bool{}
	for _, de := range des {
		names[de.Name()] = true
	}
	var out []replayEntry
	for _, de := range des {
		name := de.Name()
		if de.IsDir() || !strings.HasSuffix(name, replayExt) {
			continue
		}
		e := replayEntry{Path: filepath.Join(dir, name), File: name}
		if names[name+reportExt] {
			e.Report = e.Path + reportExt
		}
		h, herr := replay.ReadHeaderFile(e.Path)
		e.Room, e.Started, e.Ticks, e.Desync = h.RoomName, h.Started, h.Ticks(), h.Desync
		e.Players = playerCount(h.Setup.Players)
		if herr != nil {
			e.Damaged = herr.Error()
		}
		if e.Started.IsZero() || e.Started.Unix() == 0 {
			if info, err := de.Info(); err == nil {
				e.Started = info.ModTime()
			}
		}
		out = append(out, e)
	}
	return sortReplays(out), nil
}

// sortReplays sorts entries newest first (by the game's start, then by
// file name, which starts with the time) and keeps replayMaxListed.
func sortReplays(entries []replayEntry) []replayEntry {
	slices.SortFunc(entries, func(a, b replayEntry) int {
		if c := b.Started.Compare(a.Started); c != 0 {
			return c
		}
		return strings.Compare(b.File, a.File)
	})
	if len(entries) > replayMaxListed {
		entries = entries[:replayMaxListed]
	}
	return entries
}

// playerCount counts the slots set in mask.
func playerCount(mask uint8) int {
	n := 0
	for i := 0; i < game.MaxPlayers; i++ {
		if mask&(1<<i) != 0 {
			n++
		}
	}
	return n
}

// title is the row's name: the room, else the file.
func (e replayEntry) title() string {
	if e.Room != "" {
		return e.Room
	}
	return e.File
}

// when formats the game's start in local time.
func (e replayEntry) when() string { return e.Started.Local().Format("2006-01-02 15:04") }

// length formats the game's length.
func (e replayEntry) length() string { return clockText(e.Ticks) }

// players formats the player count.
func (e replayEntry) players() string {
	if e.Players == 1 {
		return "1 player"
	}
	return strconv.Itoa(e.Players) + " players"
}

// clockText formats ticks of game time as m:ss (or h:mm:ss).
func clockText(ticks int) string {
	s := max(ticks, 0) / game.TicksPerSecond
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// readReport returns the text of a desync report, bounded for display.
func readReport(path string) (string, error) {
	const maxReport = 64 << 10 // bytes shown
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxReport+1))
	if err != nil {
		return "", err
	}
	s := string(b[:min(len(b), maxReport)])
	if len(b) > maxReport {
		s += "\n… (cut: the whole report is in " + path + ")"
	}
	return s, nil
}
