package host

import (
	"testing"
	"time"

	"rockstep/game"
)

// TestRoomsThatRunNoGameClose: a created room that has run no game for
// lobbyLimit is closed and counted, though Linger would keep it; a younger
// one and the default room stay. The host's clock is moved, not waited
// for. (The rule does not look at who is in a room.)
func TestRoomsThatRunNoGameClose(t *testing.T) {
	cfg := LAN()
	cfg.Linger = 24 * time.Hour // only lobbyLimit closes rooms here
	h := New(cfg)
	old := h.openRoom("old", game.Setup{}, 0)
	h.Tick(time.Now())
	h.start = h.start.Add(-lobbyLimit / 2) // the host's clock moves on
	young := h.openRoom("young", game.Setup{}, 0)
	steps := []struct {
		name   string
		ahead  time.Duration
		open   []uint32
		closed []uint32
		drops  uint64
	}{
		{"both within the limit", 0, []uint32{DefaultRoom, old, young}, nil, 0},
		{"the old one past it", lobbyLimit/2 + time.Second, []uint32{DefaultRoom, young}, []uint32{old}, 1},
		{"the young one past it", lobbyLimit / 2, []uint32{DefaultRoom}, []uint32{old, young}, 2},
	}
	for _, st := range steps {
		h.start = h.start.Add(-st.ahead)
		h.Tick(time.Now())
		for _, id := range st.open {
			if h.rooms[id] == nil {
				t.Errorf("%s: room %d closed, want it open", st.name, id)
			}
		}
		for _, id := range st.closed {
			if h.rooms[id] != nil {
				t.Errorf("%s: room %d open, want it closed", st.name, id)
			}
		}
		if got := h.dropped[dropHostNoGame]; got != st.drops {
			t.Errorf("%s: %d host_no_game, want %d", st.name, got, st.drops)
		}
	}
}
