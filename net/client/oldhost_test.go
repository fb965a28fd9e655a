package client

import (
	"sync"
	"testing"
	"time"

	"rockstep/net/lockstep"
)

// TestOldHostCutOffRejoins: issue 52's "the old host that loses its
// players while they elect a successor is such a side" (docs/ARCHITECTURE.md,
// "When the host goes away"). The host's network goes away for a while in
// a game of four: its three guests hear nothing, elect the first successor
// and play on there, three of four, a majority. The host's room holds the
// game (one of four is no majority) and says "lost contact with …"; when
// its network is back, the host finds the guests' game (a successor
// answers its probe), gives its own room up to it and rejoins the first
// successor's room with its token: one game, the four of them on one
// hash, rather than a second game of one at the end of the countdown.
// On a busy machine the first successor's answer may be lost and the
// second's come first: the host's room names the second, who only follows
// the first and turns the host away; the host walks the list the others
// walked and finds the first ("first's answer lost"). While its network
// is down, its search finds nobody, and it says so (OthersUnfound).
func TestOldHostCutOffRejoins(t *testing.T) {
	for _, tt := range []struct {
		name      string
		lostFirst int // the old host's dials to the first successor lost once its network is back
	}{
		{"network back", 0},
		{"first's answer lost", 1},
	} {
		t.Run(tt.name, func(t *testing.T) { oldHostCutOff(t, tt.lostFirst) })
	}
}

func oldHostCutOff(t *testing.T, lostFirst int) {
	var r *relay
	m := startMigrationGameAs(t, migrationSetup{
		owner: true,
		via:   func(addr string) string { r = startRelay(t, addr); return r.addr() },
	})
	old := m.players[0]
	firstSlot := int(m.list.List[0].Slot)
	firstAddr := m.list.List[0].Addr.String()
	// The host's network goes: nothing passes the relay, and the host's
	// own dials (its probes of the successors) are lost.
	var mu sync.Mutex
	hostCut := true
	blockDials(t, func(c *Client, addr string) bool {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case c != old:
			return false
		case hostCut:
			return true
		case addr == firstAddr && lostFirst > 0:
			lostFirst--
			return true
		}
		return false
	})
	r.cut.Store(true)
	t0 := time.Now()

	m.wait("the guests to play on at the first successor, and the host's room to hold apart", func() bool {
		if !m.guests[0].Hosting() {
			return false
		}
		for _, g := range m.guests[1:] {
			if n, slot := g.Handovers(); n == 0 || slot != firstSlot {
				return false
			}
		}
		apart := false
		old.Do(func(s *lockstep.Session) { _, apart = s.Apart() })
		return apart
	})
	t.Logf("the guests moved and the host holds apart %v after its network went", time.Since(t0).Round(time.Millisecond))
	if n, _ := old.Handovers(); n != 0 {
		t.Fatalf("the host moved %d times while cut off, want 0", n)
	}

	// Its search for their game finds nobody while its network is down:
	// it says so (the strip: "they do not answer").
	m.wait("the cut-off host to find the others' game cannot be found", old.OthersUnfound)
	for _, g := range m.guests {
		if g.OthersUnfound() {
			t.Error("a guest, in the majority's game, says the others cannot be found")
		}
	}

	mu.Lock()
	hostCut = false // the network is back
	mu.Unlock()
	r.cut.Store(false)
	t1 := time.Now()
	m.wait("the old host to rejoin the first successor's game", func() bool {
		n, slot := old.Handovers()
		ok := false
		old.Do(func(s *lockstep.Session) { ok = s.Phase() == lockstep.Playing && !s.Migrating() })
		return ok && n == 1 && slot == firstSlot
	})
	t.Logf("the old host is back in the game %v after its network returned", time.Since(t1).Round(time.Millisecond))
	if old.OthersUnfound() {
		t.Error("the old host, back in the others' game, still says they cannot be found")
	}
	mu.Lock()
	if lostFirst > 0 {
		t.Errorf("%d dials to the first successor were still to be lost: the test tested nothing", lostFirst)
	}
	mu.Unlock()

	// The four play on in one room and end on one hash.
	var at uint32
	m.guests[0].Do(func(s *lockstep.Session) { at, _ = s.ExecutedTurns() })
	m.wait("the four to play on together", func() bool {
		return all(m.players, func(s *lockstep.Session) bool {
			turn, _ := s.ExecutedTurns()
			return s.Phase() == lockstep.Playing && s.RoomStatus().Vacant == 0 && turn > at+30
		})
	})
	m.guests[0].Do(func(s *lockstep.Session) { s.EndGame() })
	m.wait("the game's end everywhere", func() bool {
		return all(m.players, func(s *lockstep.Session) bool { return s.Phase() == lockstep.Finished })
	})
	var hash uint64
	for i, p := range m.players {
		p.Do(func(s *lockstep.Session) {
			if hh := s.World().Hash(); i == 0 {
				hash = hh
			} else if hh != hash {
				t.Errorf("player %d ended on %x, the old host on %x", i, hh, hash)
			}
			if d := s.Desync(); d != nil {
				t.Errorf("player %d saw a desync at turn %d", i, d.Turn)
			}
		})
	}
}
