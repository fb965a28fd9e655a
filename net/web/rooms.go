package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"rockstep/game"
	"rockstep/net/wire"
)

// RoomSetup is POST /rooms' body: the room's name and the game's setup.
// Fields left out take a new room's defaults (game.DefaultSetup).
type RoomSetup struct {
	Name     string       `json:"name,omitempty"`
	Mode     string       `json:"mode,omitempty"`  // "coop" (default) or "versus"
	Lives    int          `json:"lives,omitempty"` // 1 to game.MaxLives
	Wave     int          `json:"wave,omitempty"`  // the starting wave, 1 to game.MaxStartWave
	Options  *RoomOptions `json:"options,omitempty"`
	Seed     uint64       `json:"seed,omitempty"`     // the first game's seed; 0: the server picks
	Unlisted bool         `json:"unlisted,omitempty"` // left out of GET /rooms and the Join screens' lists
}

// RoomOptions are a setup's switches.
type RoomOptions struct {
	FriendlyFire *bool `json:"friendly_fire,omitempty"`
	Saucers      *bool `json:"saucers,omitempty"`
	Hyperspace   *bool `json:"hyperspace,omitempty"`
}

// CreatedRoom is POST /rooms' 201 answer.
type CreatedRoom struct {
	ID   uint32 `json:"id"`
	Code string `json:"code"` // the invite code: -join CODE, or Join → Invite code
	URL  string `json:"url"`  // the link that opens the game in a browser tab in the room
}

// ListedRoom is one room of GET /rooms.
type ListedRoom struct {
	ID      uint32 `json:"id"`
	Name    string `json:"name"`
	Host    string `json:"host"` // the host player's name; "" while it has none
	State   string `json:"state"`
	Players int    `json:"players"`
	Max     int    `json:"max"`
	Code    string `json:"code"`
	URL     string `json:"url"`
}

// maxSetupBody bounds POST /rooms' body, bytes.
const maxSetupBody = 4 << 10

// setup turns the JSON setup into the game's, or says what is wrong.
func (rs RoomSetup) setup() (game.Setup, error) {
	s := game.DefaultSetup()
	switch strings.ToLower(rs.Mode) {
	case "", "coop", "co-op":
		s.Mode = game.Coop
	case "versus":
		s.Mode = game.Versus
	default:
		return s, fmt.Errorf("mode %q: want coop or versus", rs.Mode)
	}
	if rs.Lives != 0 {
		if rs.Lives < 1 || rs.Lives > game.MaxLives {
			return s, fmt.Errorf("lives %d: want 1 to %d", rs.Lives, game.MaxLives)
		}
		s.Lives = uint8(rs.Lives)
	}
	if rs.Wave != 0 {
		if rs.Wave < 1 || rs.Wave > game.MaxStartWave {
			return s, fmt.Errorf("wave %d: want 1 to %d", rs.Wave, game.MaxStartWave)
		}
		s.StartWave = uint8(rs.Wave)
	}
	if o := rs.Options; o != nil {
		for _, f := range []struct {
			v   *bool
			dst *bool
		}{{o.FriendlyFire, &s.FriendlyFire}, {o.Saucers, &s.Saucers}, {o.Hyperspace, &s.Hyperspace}} {
			if f.v != nil {
				*f.dst = *f.v
			}
		}
	}
	s.Seed = rs.Seed
	if len(rs.Name) > wire.MaxName {
		return s, fmt.Errorf("name of %d bytes: at most %d", len(rs.Name), wire.MaxName)
	}
	return s, s.Validate()
}

// bearer returns the request's Authorization: Bearer key, "" for none.
func bearer(r *http.Request) (string, error) {
	a := r.Header.Get("Authorization")
	if a == "" {
		return "", nil
	}
	scheme, key, ok := strings.Cut(a, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || len(key) > wire.MaxRoomKey {
		return "", errors.New("Authorization: want Bearer and the server's room key")
	}
	return strings.TrimSpace(key), nil
}

// createRoom is POST /rooms: the seed's /create. The room key (Authorization:
// Bearer KEY) is checked by the rooms themselves, in constant time, as a
// desktop player's CreateRoom is: without a key configured, anyone may.
func (h *Handler) createRoom(w http.ResponseWriter, r *http.Request) {
	from, err := remoteAddr(r)
	if err != nil {
		jsonError(w, http.StatusBadRequest, err.Error())
		return
	}
	key, err := bearer(r)
	if err != nil {
		w.Header().Set("WWW-Authenticate", `Bearer realm="rockstep"`)
		jsonError(w, http.StatusUnauthorized, err.Error())
		return
	}
	var rs RoomSetup
	dec := json.NewDecoder(io.LimitReader(r.Body, maxSetupBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rs); err != nil && !errors.Is(err, io.EOF) {
		jsonError(w, http.StatusBadRequest, "setup: "+err.Error())
		return
	}
	setup, err := rs.setup()
	if err != nil {
		jsonError(w, http.StatusBadRequest, err.Error())
		return
	}
	frame, err := wire.Append(nil, wire.CreateRoom{Name: rs.Name, Setup: setup, Key: key, Unlisted: rs.Unlisted})
	if err != nil {
		jsonError(w, http.StatusBadRequest, err.Error())
		return
	}
	m, err := h.ask(r.Context(), from, [][]byte{frame}, func(m wire.Message) bool {
		switch m.(type) {
		case wire.RoomCreated, wire.Refuse:
			return true
		}
		return false
	})
	if err != nil {
		h.log.Info("POST /rooms failed", "from", from.String(), "err", err)
		jsonError(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	switch m := m.(type) {
	case wire.Refuse:
		if m.Reason == wire.RefuseRoomKey {
			w.Header().Set("WWW-Authenticate", `Bearer realm="rockstep"`)
			jsonError(w, http.StatusUnauthorized, m.Text)
			return
		}
		jsonError(w, http.StatusTooManyRequests, m.Text)
	case wire.RoomCreated:
		code, err := h.roomCode(m.RoomID, m.Secret)
		if err != nil {
			jsonError(w, http.StatusInternalServerError, err.Error())
			return
		}
		url := baseURL(r) + "/join/" + code
		w.Header().Set("Location", url)
		writeJSON(w, http.StatusCreated, CreatedRoom{ID: m.RoomID, Code: code, URL: url})
	}
}

// listPages bounds GET /rooms' pages of wire.MaxListRooms rooms each.
const listPages = 16

// listRooms is GET /rooms: the rooms the server lists publicly (no room
// created unlisted), as JSON.
func (h *Handler) listRooms(w http.ResponseWriter, r *http.Request) {
	from, err := remoteAddr(r)
	if err != nil {
		jsonError(w, http.StatusBadRequest, err.Error())
		return
	}
	out := []ListedRoom{}
	after := uint32(0)
	for range listPages {
		frame, err := wire.Append(nil, wire.RoomListRequest{After: after})
		if err != nil {
			jsonError(w, http.StatusInternalServerError, err.Error())
			return
		}
		m, err := h.ask(r.Context(), from, [][]byte{frame}, func(m wire.Message) bool {
			_, ok := m.(wire.RoomList)
			return ok
		})
		if err != nil {
			jsonError(w, http.StatusServiceUnavailable, err.Error())
			return
		}
		l := m.(wire.RoomList)
		for _, ri := range l.Rooms {
			lr := ListedRoom{ID: ri.RoomID, Name: ri.Name, Host: ri.Host, State: ri.State.String(), Players: int(ri.Players), Max: int(ri.Max)}
			if code, err := h.roomCode(ri.RoomID, 0); err == nil {
				lr.Code, lr.URL = code, baseURL(r)+"/join/"+code
			}
			out = append(out, lr)
			after = ri.RoomID
		}
		if !l.More || len(l.Rooms) == 0 {
			break
		}
	}
	writeJSON(w, http.StatusOK, out)
}
