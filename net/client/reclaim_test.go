package client

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/internal/testwait"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// migrationGame is a four-player co-op game over real sockets on loopback:
// the host plays in-process (players[0]), the three guests keep standby
// ports, and the game runs with the three listed as successors.
type migrationGame struct {
	t       *testing.T
	srv     *transport.Server
	players []*Client
	list    wire.Successors
	guests  []*Client // in the list's order
}

// migrationPatience bounds every wait of these tests.
const migrationPatience = time.Minute

func startMigrationGame(t *testing.T) *migrationGame {
	t.Helper()
	return startMigrationGameWith(t, nil)
}

// startMigrationGameWith starts a migrationGame whose guests' options are
// changed by opts first (if not nil).
func startMigrationGameWith(t *testing.T, opts func(*Options)) *migrationGame {
	t.Helper()
	return startMigrationGameAs(t, migrationSetup{guestOpts: opts})
}

// migrationSetup varies a migrationGame.
type migrationSetup struct {
	guestOpts func(*Options)           // changes the guests' options (nil: none)
	via       func(addr string) string // the address the guests dial for the host's (nil: its own)
	owner     bool                     // the host player is attached as its room's owner (AttachOwner)
	fallback  []wire.FallbackServer    // the host's known community servers (room.Config.Fallback)
}

func startMigrationGameAs(t *testing.T, ms migrationSetup) *migrationGame {
	t.Helper()
	opts := ms.guestOpts
	if testing.Short() {
		t.Skip("a real-socket game of several seconds; not in -short")
	}
	hcfg := host.LAN()
	hcfg.Handover = true
	hcfg.Room.Setup = game.Setup{Mode: game.Coop, Lives: game.MaxLives, StartWave: 1}
	hcfg.Room.Fallback = ms.fallback
	hs := hosttest.Start(t, transport.LAN(), hcfg)
	srv := hs.Transport
	pipe := transport.NewPipe()
	hs.Host.Attach(pipe)

	input := func(i int) func(uint32) game.Input {
		return func(turn uint32) game.Input {
			if (turn/30+uint32(i))%3 == 0 {
				return game.Left | game.Fire
			}
			return game.Up
		}
	}
	m := &migrationGame{t: t, srv: srv}
	hostOpt := Options{Session: migrationSession(0), Input: input(0)}
	if ms.owner {
		m.players = []*Client{AttachOwner(hs.Host, pipe, hostOpt)}
		t.Cleanup(m.players[0].Close)
	} else {
		m.players = []*Client{Attach(pipe, hostOpt)}
	}
	addr := srv.Addr().String()
	if ms.via != nil {
		addr = ms.via(addr)
	}
	for i := 1; i < 4; i++ {
		dctx, cancel := context.WithTimeout(context.Background(), migrationPatience)
		o := Options{Session: migrationSession(i), Input: input(i), Standby: true, StandbyAddr: "127.0.0.1:0"}
		if opts != nil {
			opts(&o)
		}
		c, err := Dial(dctx, addr, o)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		m.players = append(m.players, c)
	}
	m.wait("everyone in the lobby", func() bool {
		return all(m.players, func(s *lockstep.Session) bool { return len(s.SetupState().Players) == 4 })
	})
	m.readyAll()
	for _, p := range m.players { // the host player (the first to join) starts
		p.Do(func(s *lockstep.Session) {
			if s.IsHost() {
				s.RequestStart()
			}
		})
	}
	m.wait("the game running and the three guests listed as successors", func() bool {
		return all(m.players, func(s *lockstep.Session) bool {
			turn, _ := s.ExecutedTurns()
			m.list = s.Successors()
			return s.Phase() == lockstep.Playing && turn > 60 && len(m.list.List) == 3
		})
	})
	bySlot := map[int]*Client{} // slots are given as players join
	for _, p := range m.players {
		p.Do(func(s *lockstep.Session) { bySlot[s.Slot()] = p })
	}
	for _, cand := range m.list.List {
		m.guests = append(m.guests, bySlot[int(cand.Slot)])
	}
	return m
}

// playOnTogether waits until every guest plays, turns past where from
// was, with none of the successors listed as vacant.
func (m *migrationGame) playOnTogether(what string, from *Client, turns uint32) {
	m.t.Helper()
	var at uint32
	from.Do(func(s *lockstep.Session) { at, _ = s.ExecutedTurns() })
	m.wait(what, func() bool {
		return all(m.guests, func(s *lockstep.Session) bool {
			turn, _ := s.ExecutedTurns()
			vacant := s.RoomStatus().Vacant
			for _, cand := range m.list.List {
				if vacant&(1<<cand.Slot) != 0 {
					return false
				}
			}
			return s.Phase() == lockstep.Playing && turn > at+turns
		})
	})
}

// wait polls cond until it holds, and fails the test with every player's
// state after migrationPatience.
func (m *migrationGame) wait(what string, cond func() bool) {
	m.t.Helper()
	if testwait.Until(migrationPatience, cond) {
		return
	}
	for i, p := range m.players {
		p.Do(func(s *lockstep.Session) {
			turn, _ := s.ExecutedTurns()
			n, hs := p.Handovers()
			m.t.Logf("player %d: phase %v turn %d, %d handovers, hosted by %d, migration %v (%v), migrating %v", i, s.Phase(), turn, n, hs, p.m.Phase(), p.m.Why(), s.Migrating())
		})
	}
	m.t.Fatalf("waited %v for %s", migrationPatience, what)
}

// killHost makes the host's machine die: its socket and its player fall
// silent at once.
func (m *migrationGame) killHost() {
	m.srv.Abandon()
	m.players[0].Abandon()
}

// playOnInOneRoom waits until every guest plays in the first successor's
// room, plays 30 more turns with it, ends the game there, and checks that
// all ended on one hash with no desync. It logs how long after since (the
// moment called what) the one room was there.
func (m *migrationGame) playOnInOneRoom(since time.Time, what string) {
	m.t.Helper()
	m.inOneRoom(since, what)
	m.endTogether()
}

// inOneRoom waits until every guest plays in the first successor's room,
// and logs how long after since (the moment called what) it was there.
func (m *migrationGame) inOneRoom(since time.Time, what string) {
	m.t.Helper()
	first, firstSlot := m.guests[0], int(m.list.List[0].Slot)
	m.wait("one room: the first successor's, with every guest in it", func() bool {
		if !first.Hosting() {
			return false
		}
		for _, g := range m.guests[1:] {
			if n, slot := g.Handovers(); g.Hosting() || n == 0 || slot != firstSlot {
				return false
			}
		}
		return all(m.guests, func(s *lockstep.Session) bool { return s.Phase() == lockstep.Playing && !s.Migrating() })
	})
	m.t.Logf("one room, the first successor's, %v after %s", time.Since(since).Round(time.Millisecond), what)
}

// endTogether plays 30 more turns in the first successor's room, ends the
// game there, and checks that every guest (m.guests, with any player
// that came back) ended on one hash with no desync.
func (m *migrationGame) endTogether() {
	m.t.Helper()
	m.playOnTogether("every player to play on together", m.guests[0], 30)
	m.endOnOneHash(m.guests)
}

// endOnOneHash ends the game at its room's host among ps and checks that
// every one of ps ended it on one hash with no desync (each is logged).
func (m *migrationGame) endOnOneHash(ps []*Client) {
	m.t.Helper()
	for _, p := range ps {
		p.Do(func(s *lockstep.Session) {
			if s.IsHost() {
				s.EndGame()
			}
		})
	}
	m.wait("the game's end everywhere", func() bool {
		return all(ps, func(s *lockstep.Session) bool { return s.Phase() == lockstep.Finished })
	})
	var hash uint64
	for i, p := range ps {
		p.Do(func(s *lockstep.Session) {
			turn, _ := s.Ended()
			hh := s.World().Hash()
			m.t.Logf("player %d: hash %016x at turn %d", i, hh, turn)
			if i == 0 {
				hash = hh
			} else if hh != hash {
				m.t.Errorf("player %d ended on %x, the first on %x: two games", i, hh, hash)
			}
			if d := s.Desync(); d != nil {
				m.t.Errorf("player %d saw a desync at turn %d", i, d.Turn)
			}
		})
	}
}

// migrationSession is player i's session in the migration tests: named
// p<i>, its id i+1, predicting.
func migrationSession(i int) lockstep.Config {
	sc := lockstep.LAN()
	sc.Name, sc.PlayerID, sc.Predict = fmt.Sprintf("p%d", i), [16]byte{byte(i + 1)}, true
	return sc
}

// readyAll has every player press Ready and waits until every roster
// shows them all ready.
func (m *migrationGame) readyAll() {
	m.t.Helper()
	for _, p := range m.players {
		p.Do(func(s *lockstep.Session) { s.SetReady(true) })
	}
	m.wait("everyone ready", func() bool {
		return all(m.players, func(s *lockstep.Session) bool {
			for _, pl := range s.SetupState().Players {
				if !pl.Ready {
					return false
				}
			}
			return true
		})
	})
}

// all reports whether f holds for every player's session.
func all(ps []*Client, f func(s *lockstep.Session) bool) bool {
	for _, p := range ps {
		ok := false
		p.Do(func(s *lockstep.Session) { ok = f(s) })
		if !ok {
			return false
		}
	}
	return true
}

// blockDials makes some of the test's clients' dials fail as out of reach
// while cut reports true for them; undone at the test's end.
func blockDials(t *testing.T, cut func(c *Client, addr string) bool) {
	unreachable.Store(&cut)
	t.Cleanup(func() { unreachable.Store(nil) })
}

// TestEarlierSuccessorWins: the host's machine dies at the moment the
// network splits so that the second successor cannot reach the first.
// Both take the game (the first is first for itself; the second passed
// over the first), and the third joins the first. When the second can
// reach the first again, it gives its game to it: in the end one room
// runs, the first successor's, with all three players in it, and they end
// on one hash.
func TestEarlierSuccessorWins(t *testing.T) {
	m := startMigrationGame(t)
	first, second := m.guests[0], m.guests[1]
	firstAddr := m.list.List[0].Addr.String()

	// The split: the second successor cannot reach the first; and the
	// host's machine dies.
	var mu sync.Mutex
	split := true
	blockDials(t, func(c *Client, addr string) bool {
		mu.Lock()
		defer mu.Unlock()
		return split && c == second && addr == firstAddr
	})
	t0 := time.Now()
	m.killHost()

	m.wait("two rooms: the first successor's and the second's", func() bool {
		return first.Hosting() && second.Hosting()
	})
	t.Logf("both successors host the game %v after the host went", time.Since(t0).Round(time.Millisecond))
	mu.Lock()
	split = false // the network heals
	mu.Unlock()
	m.playOnInOneRoom(time.Now(), "the network healed")
	if n, _ := second.Handovers(); n != 2 {
		t.Errorf("the second successor moved %d times, want 2 (it hosted, then went to the first)", n)
	}
}

// TestTurnedAwayPlayerTriesAgain: when the host dies, the third successor's
// first dial to the first successor is lost (on a loaded machine it may
// not complete in time), so it goes to the second. The second plays on
// under the first, and turns it away; the third walks the list again and
// joins the first: one room, nobody left behind. (Before the refusal, the
// second left it unanswered, and it gave up after ten seconds.)
func TestTurnedAwayPlayerTriesAgain(t *testing.T) {
	m := startMigrationGame(t)
	third := m.guests[2]
	firstAddr := m.list.List[0].Addr.String()
	// From the host's death until the third has gone to another
	// successor, the third's dials to the first (its election's, and its
	// probes) are lost.
	var mu sync.Mutex
	armed, retried := false, false
	blockDials(t, func(c *Client, addr string) bool {
		mu.Lock()
		defer mu.Unlock()
		if !armed || c != third || addr != firstAddr {
			return false
		}
		c.mu.Lock()
		moving := c.s.Migrating()
		c.mu.Unlock()
		// Or it went elsewhere already: on a busy machine the second may
		// have taken the game itself (it could not reach the first in
		// time either) and given it to the first since (a yield); the
		// third follows to the first then, and must get there.
		if n, _ := c.Handovers(); n > 0 {
			moving = true
		}
		retried = retried || moving
		return !moving
	})
	t0 := time.Now()
	mu.Lock()
	armed = true
	mu.Unlock()
	m.killHost()
	m.playOnInOneRoom(t0, "the host died")
	mu.Lock()
	defer mu.Unlock()
	if !retried {
		t.Fatalf("the third successor never dialled the first after it went elsewhere: the test tested nothing")
	}
	if n, _ := third.Handovers(); n != 1 {
		t.Errorf("the third successor moved %d times, want 1 (the second turned it away before it was in)", n)
	}
}
