package room_test

import (
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/room"
	"rockstep/net/wire"
)

// setupStates counts the SetupStates the peer was sent, and clears its
// inbox.
func setupStates(p *peer) int {
	n := 0
	for _, m := range p.got {
		if _, ok := m.(wire.SetupState); ok {
			n++
		}
	}
	p.got = p.got[:0]
	return n
}

// readyOf returns whether the room's roster shows slot ready.
func readyOf(r *room.Room, slot uint8) bool {
	for _, p := range r.Roster() {
		if p.Slot == slot {
			return p.Ready
		}
	}
	return false
}

// flood sends n frames from conn, evenly over d of the room's clock in
// 10 ms ticks; frame(i) is the i-th. It returns the SetupStates conn
// watcher was sent meanwhile.
func (b *bench) flood(conn, watcher room.ConnID, n int, d time.Duration, frame func(i int) wire.Message) int {
	b.t.Helper()
	const step = 10 * time.Millisecond
	steps := int(d / step)
	setupStates(b.peer(watcher))
	seen, sent := 0, 0
	for s := 1; s <= steps; s++ {
		for ; sent < n*s/steps; sent++ {
			b.send(conn, frame(sent))
		}
		b.tick(step)
		seen += setupStates(b.peer(watcher))
	}
	return seen
}

// TestReadyAtAPersonsPace: a member toggling Ready at a person's pace has
// every click taken at once; one sending 450 a second in a lobby of 8 is
// held to ReadyPerS (in bursts of ReadyBurst), the rest counted as
// dropped, and the room still ends on its last click.
func TestReadyAtAPersonsPace(t *testing.T) {
	for _, tc := range []struct {
		name    string
		clicks  int           // toggles, the last one to ready
		over    time.Duration // sent evenly over
		maxSeen int           // SetupStates another member is sent meanwhile, at most
		dropped bool
	}{
		{"a person clicking fast", 8, time.Second, 8 + 2, false},
		{"450 a second for two seconds", 900, 2 * time.Second, room.ReadyBurst + 2*room.ReadyPerS + 2 + 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t, nil)
			for c := room.ConnID(1); c <= 8; c++ {
				b.join(c, "p")
			}
			out := b.r.Stats().BytesOut
			seen := b.flood(2, 3, tc.clicks, tc.over, func(i int) wire.Message {
				return wire.Ready{Ready: (tc.clicks-1-i)%2 == 0}
			})
			t.Logf("%d Readys over %v: %d SetupStates to each member, %.1f KB/s to each of 8 members",
				tc.clicks, tc.over, seen, float64(b.r.Stats().BytesOut-out)/8/tc.over.Seconds()/1000)
			if seen > tc.maxSeen {
				t.Errorf("another member was sent %d SetupStates, want at most %d", seen, tc.maxSeen)
			}
			if got := b.r.Stats().Dropped[room.DropReadyRate]; (got > 0) != tc.dropped {
				t.Errorf("ready_rate drops = %d, want some: %v", got, tc.dropped)
			}
			// At most one refill later, the room shows the last click.
			b.tick(time.Duration(float64(time.Second)/room.ReadyPerS) + 10*time.Millisecond)
			if !readyOf(b.r, 1) {
				t.Error("the roster does not show the member's last click (ready)")
			}
		})
	}
}

// TestSetupChangeAtAPersonsPace: a host clicking lives up and down fast
// has every change taken; one sending 450 changes a second is held to
// SetupPerS, and the room ends on the setup of its last click, not an
// older one.
func TestSetupChangeAtAPersonsPace(t *testing.T) {
	for _, tc := range []struct {
		name    string
		changes int
		over    time.Duration
		maxSeen int
		dropped bool
	}{
		{"a person clicking lives fast", 16, 2 * time.Second, 16 + 2, false},
		{"450 a second for two seconds", 900, 2 * time.Second, room.SetupBurst + 2*room.SetupPerS + 2 + 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t, nil)
			for c := room.ConnID(1); c <= 8; c++ {
				b.join(c, "p")
			}
			lives := func(i int) uint8 { return uint8(1 + (tc.changes-1-i)%9) } // the last is 1
			seen := b.flood(1, 2, tc.changes, tc.over, func(i int) wire.Message {
				s := game.DefaultSetup()
				s.Lives = lives(i)
				return wire.SetupChange{Setup: s}
			})
			if seen > tc.maxSeen {
				t.Errorf("another member was sent %d SetupStates, want at most %d", seen, tc.maxSeen)
			}
			if got := b.r.Stats().Dropped[room.DropSetupRate]; (got > 0) != tc.dropped {
				t.Errorf("setup_rate drops = %d, want some: %v", got, tc.dropped)
			}
			b.tick(time.Duration(float64(time.Second)/room.SetupPerS) + 10*time.Millisecond)
			if got := b.r.Setup().Lives; got != lives(tc.changes-1) {
				t.Errorf("lives after the clicks = %d, want the last click's %d", got, lives(tc.changes-1))
			}
		})
	}
}

// gameCounter is a Recorder that counts the games started.
type gameCounter struct{ started *int }

func (g gameCounter) Started(game.Setup, string, [game.MaxPlayers]string, int, int) { *g.started++ }
func (gameCounter) Turn(*wire.MasterTurn, room.TurnLog)                             {}
func (gameCounter) Hash(uint32, int, uint32)                                        {}
func (gameCounter) Desync(*room.DesyncInfo)                                         {}
func (gameCounter) Snapshot(int, uint32, []byte)                                    {}
func (gameCounter) Finished(uint32, int)                                            {}

// TestGamesAtAPersonsPace: a room's only player starting and ending games
// in a loop, with recording on, plays at most GameBurst games and then
// GamesPerS; a start beyond the rate is counted and held while everyone
// stays ready, then taken; a person's quick rematches all start at once.
func TestGamesAtAPersonsPace(t *testing.T) {
	for _, tc := range []struct {
		name    string
		loops   int
		over    time.Duration
		maxGame int // games recorded at most
		dropped bool
	}{
		{"a person's quick rematches", 3, 3 * time.Second, 3, false},
		{"a start and end loop for a second", 1000, time.Second, room.GameBurst + 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			games := 0
			b := newBench(t, func(c *room.Config) {
				c.NewRecorder = func(game.Setup, string) room.Recorder { return gameCounter{&games} }
			})
			b.join(1, "solo")
			step := tc.over / time.Duration(tc.loops)
			for i := 0; i < tc.loops; i++ {
				b.send(1, wire.Ready{Ready: true}) // a rematch, once finished
				b.send(1, wire.StartGame{Game: b.r.Game()})
				if st, _ := b.r.State(); st == wire.StateRunning {
					b.send(1, wire.EndGame{})
					b.playIdle(b.r.Turn(), 1)
					b.ack(1) // the end arrived: the rematch is not held (rematch.go)
				}
				b.now += step
			}
			if games > tc.maxGame {
				t.Errorf("%d games recorded in %v, want at most %d", games, tc.over, tc.maxGame)
			}
			if got := b.r.Stats().Dropped[room.DropStartRate]; (got > 0) != tc.dropped {
				t.Errorf("start_rate drops = %d, want some: %v", got, tc.dropped)
			}
			if !tc.dropped {
				if games != tc.loops {
					t.Errorf("%d games recorded, want every one of the %d asked", games, tc.loops)
				}
				return
			}
			// The last start asked is held while the player stays ready, and
			// taken once the rate allows: no one has to ask again.
			if st, _ := b.r.State(); st != wire.StateSetup {
				t.Fatalf("state after the loop = %d, want setup (the start held)", st)
			}
			for i := 0; i < 1000; i++ {
				b.send(1, wire.Ping{}) // the player is still there
				b.tick(10 * time.Millisecond)
				if st, _ := b.r.State(); st == wire.StateRunning {
					break
				}
			}
			if st, _ := b.r.State(); st != wire.StateRunning {
				t.Fatal("the held start was never taken")
			}
		})
	}
}

// TestHeldStartIsOffWhenSomeoneIsNotReady: a start held back by the game
// rate is not taken once a player is no longer ready.
func TestHeldStartIsOffWhenSomeoneIsNotReady(t *testing.T) {
	b := newBench(t, nil)
	b.join(1, "a")
	b.join(2, "b")
	for i := 0; i < room.GameBurst; i++ {
		b.send(1, wire.Ready{Ready: true})
		b.send(2, wire.Ready{Ready: true})
		b.send(1, wire.StartGame{Game: b.r.Game()})
		b.r.EndGame()
		b.playIdle(b.r.Turn(), 2)
		b.ack(1)
		b.ack(2)
		b.tick(10 * time.Millisecond)
	}
	b.send(1, wire.Ready{Ready: true})
	b.send(2, wire.Ready{Ready: true})
	b.send(1, wire.StartGame{Game: b.r.Game()})
	if st, _ := b.r.State(); st != wire.StateSetup {
		t.Fatalf("state = %d, want setup: the start is beyond the game rate", st)
	}
	b.send(2, wire.Ready{Ready: false})
	for i := 0; i < int(1/room.GamesPerS)+1; i++ { // past a refill, the players still there
		b.send(1, wire.Ping{})
		b.send(2, wire.Ping{})
		b.tick(time.Second)
	}
	if st, _ := b.r.State(); st != wire.StateSetup {
		t.Fatal("a held start was taken after a player had withdrawn its Ready")
	}
	b.send(2, wire.Ready{Ready: true})
	if st, _ := b.r.State(); st != wire.StateSetup {
		t.Fatal("a held start was taken after a player had withdrawn its Ready")
	}
}
