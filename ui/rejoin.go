package ui

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"rockstep/internal/userdir"
	"rockstep/net/migrate"
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
	Addr   string `json:"addr"`              // host:port joined
	Key    string `json:"key,omitempty"`     // the fingerprint of the host key found there, if known: a Rejoin accepts no other
	GameID string `json:"game_id,omitempty"` // the LAN advertisement's id, if joined from the list
	Room   string `json:"room"`              // the room's name, for the button
	RoomID uint32 `json:"room_id,omitempty"` // the room's id on a server that holds several (0: its default room, or a player's own)
	// RoomSecret is that room's secret if it is unlisted (a Join must
	// carry it); a string in the file, as a JSON number loses 64 bits.
	RoomSecret uint64    `json:"room_secret,omitempty,string"`
	Slot       int       `json:"slot"`
	Token      string    `json:"token"` // 32 hex digits
	Saved      time.Time `json:"saved"`
	// Seen is the last time this player was seen playing the game (kept
	// every sessionSeenEvery while it plays): after a crash, the room
	// holds its place about rejoinHold from then, and the Rejoin button
	// counts that down. Zero in a file from before it was kept.
	Seen time.Time `json:"seen,omitzero"`
	// Lobby: the seat is in a lobby, not a game: the room's host, which
	// crashed there, finds it at its first successor (keepSession).
	Lobby bool `json:"lobby,omitempty"`
	// MoveKey (32 hex digits), if set, is the game's move key
	// (migrate.MoveKey): Addr is the community server the game goes to
	// when no player can carry it on, and a Rejoin finds its room there
	// by this key (client.RejoinMoved). Kept by a player whose room runs
	// in this process, whose crash moves the game there.
	MoveKey string `json:"move_key,omitempty"`
}

// moveKey returns the session's move key, or false if it has none (or a
// malformed one).
func (s savedSession) moveKey() ([16]byte, bool) {
	var k [16]byte
	b, err := hex.DecodeString(s.MoveKey)
	if err != nil || len(b) != len(k) {
		return k, false
	}
	copy(k[:], b)
	return k, k != [16]byte{}
}

// rejoinHold is how long a room holds the place of a player whose
// connection was lost, for it to come back into the running game:
// net/room's VacancyTimeout, the same on a LAN host and on a server
// (room.LAN()). The room starts counting once it has heard nothing for its
// silence timeout (3 s), and Seen may be up to sessionSeenEvery old: the
// countdown from Seen errs on the side of too little time, never too much
// by more than those 3 s.
const rejoinHold = 30 * time.Second

// sessionSeenEvery is how often the kept session's Seen is renewed while
// the game runs (a small file written; bytes, not a stall).
const sessionSeenEvery = 5 * time.Second

// left is how long this player's place in the running game is still held
// at now (about: see rejoinHold), or 0 when that is past or unknown. After
// it, a Rejoin finds the game without it (the room says so), or, the game
// over and its players back in the room's lobby, that lobby.
func (s savedSession) left(now time.Time) time.Duration {
	if s.Seen.IsZero() {
		return 0
	}
	return max(0, s.Seen.Add(rejoinHold).Sub(now))
}

// rejoinLabel is the main menu's Rejoin button at now: the room's name (or
// its address) and, while the place is held, the seconds left to take it
// back, so that a player whose game crashed knows how long it has while it
// can still act on it.
func (s savedSession) rejoinLabel(now time.Time) string {
	label := "Rejoin " + s.Addr
	if s.Room != "" {
		label = "Rejoin “" + s.Room + "”"
	}
	if left := s.left(now); left > 0 {
		label += " · " + strconv.Itoa(int((left+time.Second-1)/time.Second)) + " s left"
	}
	return label
}

// touchSession renews the kept session's Seen while this player plays the
// game it keeps, every sessionSeenEvery.
func (a *App) touchSession(now time.Time) {
	if a.saved == nil || now.Sub(a.saved.Seen) < sessionSeenEvery {
		return
	}
	a.saved.Seen = now
	if err := saveSession(a.settingsDir, *a.saved); err != nil {
		log.Printf("rockstep: %v", err)
	}
}

// tickRejoin keeps the main menu's Rejoin button's countdown current.
func (s *menuScreen) tickRejoin(now time.Time) {
	if s.rejoin == nil || s.a.saved == nil {
		return
	}
	if label := s.a.saved.rejoinLabel(now); label != s.rejoinLabel {
		s.rejoinLabel = label
		s.rejoin.SetText(label)
	}
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

// rejoinOnServer says where a Rejoin finds the game whose room runs in
// this process (roomHere) when its crash moves the game to a community
// server (migrate.GoesToServer: every player then goes to the first known
// server at once).
// It returns that server's address, the key pinned for it (hex, "" if
// none) and the game's move key, which finds the room there.
func rejoinOnServer(me int, succ wire.Successors) (addr, fp string, key [16]byte, ok bool) {
	if !migrate.GoesToServer(succ, me) {
		return "", "", key, false
	}
	srv := succ.Servers[0]
	if srv.Key != ([16]byte{}) {
		fp = hex.EncodeToString(srv.Key[:])
	}
	return srv.Addr, fp, migrate.MoveKey(succ), true
}

// clearSession forgets the kept session in dir.
func clearSession(dir string) {
	if dir != "" {
		_ = os.Remove(filepath.Join(dir, sessionFile))
	}
}
