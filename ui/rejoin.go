package ui

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"rockstep/internal/userdir"
	"rockstep/net/wire"
)

// A player whose game crashed (or whose machine did) comes back as the
// same player: while a game runs, its session token is kept on disk beside
// the settings, and a restarted game offers Rejoin on the main menu and in
// the LAN list. The file is removed when the game ends or the player
// leaves: a kept token means a game this player did not leave.

// sessionFile is the file, in the settings folder, that keeps the running
// game's token.
const sessionFile = "session.json"

// sessionMaxAge is how old a kept session may be and still be offered: a
// game long gone is not worth a button (the room would refuse the token).
const sessionMaxAge = 6 * time.Hour

// savedSession is a running game this player can come back to.
type savedSession struct {
	Addr   string    `json:"addr"`              // host:port joined
	Key    string    `json:"key,omitempty"`     // the fingerprint of the host key found there, if known: a Rejoin accepts no other
	GameID string    `json:"game_id,omitempty"` // the LAN advertisement's id, if joined from the list
	Room   string    `json:"room"`              // the room's name, for the button
	RoomID uint32    `json:"room_id,omitempty"` // the room's id on a server that holds several (0: its default room, or a player's own)
	Slot   int       `json:"slot"`
	Token  string    `json:"token"` // 32 hex digits
	Saved  time.Time `json:"saved"`
}

// token returns the session token, or false if the file's is malformed.
func (s savedSession) token() ([16]byte, bool) {
	var t [16]byte
	b, err := hex.DecodeString(s.Token)
	if err != nil || len(b) != len(t) {
		return t, false
	}
	copy(t[:], b)
	return t, t != [16]byte{}
}

// loadSession reads the kept session in dir. A missing, malformed or stale
// file gives ok false (a malformed one is removed, with an error to log).
func loadSession(dir string, now time.Time) (s savedSession, ok bool, err error) {
	if dir == "" {
		return s, false, nil
	}
	path := filepath.Join(dir, sessionFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return s, false, nil
	}
	if err != nil {
		return s, false, fmt.Errorf("read %s: %w", path, err)
	}
	if err = json.Unmarshal(data, &s); err != nil {
		_ = os.Remove(path)
		return savedSession{}, false, fmt.Errorf("%s is damaged and was removed: %w", path, err)
	}
	if _, tokOK := s.token(); !tokOK || s.Addr == "" {
		_ = os.Remove(path)
		return savedSession{}, false, fmt.Errorf("%s holds no usable session and was removed", path)
	}
	if now.Sub(s.Saved) > sessionMaxAge {
		_ = os.Remove(path)
		return savedSession{}, false, nil
	}
	return s, true, nil
}

// saveSession keeps s in dir, atomically (a crash mid-write leaves the old
// file or none).
func saveSession(dir string, s savedSession) error {
	if dir == "" {
		return nil
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := userdir.WriteFile(dir, sessionFile, data); err != nil {
		return fmt.Errorf("keep the session: %w", err)
	}
	return nil
}

// rejoinAt says where a Rejoin finds the game this player is in: the room
// it is connected to at addr (under the host key fp, and listed on the LAN
// as gameID), unless that room runs in this process (roomHere: we host, or
// took it over in a handover), which a crash takes with it. Then the game
// goes on at the first successor the room names other than us (slot me),
// under its key and the room's listing; with none, there is nowhere to
// come back to ("").
func rejoinAt(addr, fp, gameID string, roomHere bool, me int, succ wire.Successors) (string, string, string) {
	if !roomHere {
		return addr, fp, gameID
	}
	for _, s := range succ.List {
		if int(s.Slot) == me {
			continue // a list made before we took the game over
		}
		if succ.Listing != ([8]byte{}) {
			gameID = hex.EncodeToString(succ.Listing[:])
		}
		return s.Addr.String(), hex.EncodeToString(s.Key[:]), gameID
	}
	return "", "", ""
}

// clearSession forgets the kept session in dir.
func clearSession(dir string) {
	if dir != "" {
		_ = os.Remove(filepath.Join(dir, sessionFile))
	}
}
