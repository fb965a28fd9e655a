package bots_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/internal/testwait"
	"rockstep/net/bots"
	"rockstep/net/client"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/lockstep"
	"rockstep/net/replay"
	"rockstep/net/room"
	"rockstep/net/transport"
)

// The player's whole lifecycle, as players meet it, with prediction on:
// join, a versus game played to a confirmed game over with the same
// results on every machine and in the replay; a rematch that starts only
// when the host presses Start; in the second game one player quits (the
// others see them leave, at once), one crashes and comes back as the same
// player with its token, and the host ends the game: everyone ends on one
// hash and one results table, and the replay says the same.
//
// It runs on the simulated network (virtual clock, from no impairment to
// a quarter-second each way) and over the real transport on loopback.

// lcPlayer is one player of a lifecycle test, however it is connected.
type lcPlayer interface {
	do(f func(s *lockstep.Session))
	leave()           // the player chooses to leave
	crash()           // the program dies without a word
	rejoin() lcPlayer // the program starts again with the kept token
}

// lcGame is the players' world: a simulated network on a virtual clock,
// or real sockets in real time.
type lcGame interface {
	run(d time.Duration) // let d pass
	now() time.Duration
	replays(t *testing.T) []string // the games' replays, oldest first
	// patience is how long to wait for what should happen within limit:
	// limit itself on the virtual clock, where it is the protocol's
	// promise; far longer in real time, where a loaded machine is slow.
	patience(limit time.Duration) time.Duration
}

// lcTest drives the scenario.
type lcTest struct {
	t       *testing.T
	g       lcGame
	players []lcPlayer
	gone    []bool
	events  [][]lockstep.Event // per player, everything its session reported
	latency time.Duration      // one way
}

func (lc *lcTest) poll() {
	for i, p := range lc.players {
		if lc.gone[i] {
			continue
		}
		p.do(func(s *lockstep.Session) { lc.events[i] = append(lc.events[i], s.Events()...) })
	}
}

// until runs the game until cond holds for every player still in it, or
// fails after limit.
func (lc *lcTest) until(what string, limit time.Duration, cond func(i int, s *lockstep.Session) bool) {
	lc.t.Helper()
	limit = lc.g.patience(limit)
	deadline := lc.g.now() + limit
	for {
		lc.poll()
		all := true
		for i, p := range lc.players {
			if lc.gone[i] {
				continue
			}
			p.do(func(s *lockstep.Session) {
				if !cond(i, s) {
					all = false
				}
			})
		}
		if all {
			return
		}
		if lc.g.now() > deadline {
			lc.t.Fatalf("%s: not within %v: %s", what, limit, lc.where())
		}
		lc.g.run(20 * time.Millisecond)
	}
}

func (lc *lcTest) where() string {
	var parts []string
	for i, p := range lc.players {
		if lc.gone[i] {
			parts = append(parts, fmt.Sprintf("p%d(gone)", i))
			continue
		}
		p.do(func(s *lockstep.Session) {
			turn, _ := s.ExecutedTurns()
			st := s.Stats()
			parts = append(parts, fmt.Sprintf("p%d(slot %d %s turn %d k %d delay %d room %d/%d vacant %b)", i, s.Slot(), s.Phase(), turn, st.K, st.Delay, s.RoomStatus().State, s.RoomStatus().Child, s.RoomStatus().Vacant))
		})
	}
	return strings.Join(parts, " ")
}

// host returns the index of the player the room lists as host.
func (lc *lcTest) host() int {
	lc.t.Helper()
	for i, p := range lc.players {
		if lc.gone[i] {
			continue
		}
		h := false
		p.do(func(s *lockstep.Session) { h = s.IsHost() })
		if h {
			return i
		}
	}
	lc.t.Fatalf("no host: %s", lc.where())
	return -1
}

// end is where one player's game ended.
type end struct {
	turn    uint32
	hash    uint64
	results uint64
	table   game.Results
}

// ends checks that every player still in the game ended it at the same
// turn with the same hash and results, and returns that end.
func (lc *lcTest) ends() end {
	lc.t.Helper()
	var first end
	have := false
	for i, p := range lc.players {
		if lc.gone[i] {
			continue
		}
		var e end
		p.do(func(s *lockstep.Session) {
			turn, ok := s.Ended()
			r, _ := s.Results()
			if !ok || s.World() == nil {
				lc.t.Fatalf("player %d: the game has not ended: %s", i, lc.where())
			}
			e = end{turn: turn, hash: s.World().Hash(), results: r.Digest(), table: r}
		})
		if !have {
			first, have = e, true
			continue
		}
		if e.turn != first.turn || e.hash != first.hash || e.results != first.results {
			lc.t.Fatalf("player %d ended at turn %d hash %016x results %016x; player 0 at turn %d hash %016x results %016x",
				i, e.turn, e.hash, e.results, first.turn, first.hash, first.results)
		}
	}
	return first
}

// checkReplay re-simulates a replay and compares its end with the players'.
func (lc *lcTest) checkReplay(path string, want end) {
	lc.t.Helper()
	rp, err := replay.ReadFile(path)
	if err != nil {
		lc.t.Fatalf("replay: %v", err)
	}
	res, err := replay.Verify(rp)
	if err != nil {
		lc.t.Fatalf("replay: %v", err)
	}
	if !res.OK() || !res.Ended || res.LastTurn != want.turn || res.FinalHash != want.hash || res.Results.Digest() != want.results {
		lc.t.Fatalf("replay %s: ended %v at turn %d hash %016x results %016x, %d mismatches; the players: turn %d hash %016x results %016x",
			filepath.Base(path), res.Ended, res.LastTurn, res.FinalHash, res.Results.Digest(), len(res.Mismatches), want.turn, want.hash, want.results)
	}
}

func (lc *lcTest) setupAndReady(setup game.Setup) {
	lc.t.Helper()
	h := lc.host()
	lc.players[h].do(func(s *lockstep.Session) { s.ChangeSetup(setup) })
	lc.until("every player sees the setup", 10*time.Second, func(_ int, s *lockstep.Session) bool {
		got := s.SetupState().Setup
		return got.Mode == setup.Mode && got.Lives == setup.Lives && got.StartWave == setup.StartWave
	})
	for i, p := range lc.players {
		if !lc.gone[i] {
			p.do(func(s *lockstep.Session) { s.SetReady(true) })
		}
	}
	lc.until("every player is ready", 10*time.Second, func(_ int, s *lockstep.Session) bool {
		ready := 0
		for _, pl := range s.SetupState().Players {
			if pl.Ready {
				ready++
			}
		}
		return s.Phase() == lockstep.Lobby && ready == len(s.SetupState().Players) && ready > 0
	})
}

func (lc *lcTest) start() {
	lc.t.Helper()
	lc.players[lc.host()].do(func(s *lockstep.Session) { s.RequestStart() })
	lc.until("the game starts", 10*time.Second, func(_ int, s *lockstep.Session) bool { return s.Phase() == lockstep.Playing })
}

// sawEvent reports whether player i's session reported kind for slot.
func (lc *lcTest) sawEvent(i int, kind lockstep.EventKind, slot int) bool {
	for _, e := range lc.events[i] {
		if e.Kind == kind && e.Slot == slot {
			return true
		}
	}
	return false
}

func (lc *lcTest) slotOf(i int) int {
	slot := -1
	lc.players[i].do(func(s *lockstep.Session) { slot = s.Slot() })
	return slot
}

func (lc *lcTest) scenario() {
	t := lc.t
	lc.until("every player is in the lobby", 10*time.Second, func(_ int, s *lockstep.Session) bool {
		return s.Phase() == lockstep.Lobby && len(s.SetupState().Players) == len(lc.players)
	})

	// Game 1: versus, one life each, to a confirmed game over.
	lc.setupAndReady(game.Setup{Mode: game.Versus, Lives: 1, StartWave: 6})
	lc.start()
	lc.until("game 1 reaches game over, confirmed", 3*time.Minute, func(_ int, s *lockstep.Session) bool {
		return s.Phase() == lockstep.Finished
	})
	first := lc.ends()
	if !first.table.Over {
		t.Fatalf("game 1 ended without a game over: %+v", first.table)
	}
	for _, l := range first.table.Table() {
		if !strings.HasPrefix(l.Name, "bot") {
			t.Errorf("results line without the player's name: %+v", l)
		}
	}

	// The rematch: everyone back to the lobby, ready; the host's start
	// request of game 1 must not start it.
	for _, p := range lc.players {
		p.do(func(s *lockstep.Session) { s.SetReady(true) })
	}
	lc.until("everyone is back in the lobby, ready", 10*time.Second, func(_ int, s *lockstep.Session) bool {
		ready := 0
		for _, pl := range s.SetupState().Players {
			if pl.Ready {
				ready++
			}
		}
		return s.Phase() == lockstep.Lobby && s.SetupState().Game == 2 && ready == len(lc.players)
	})
	lc.g.run(2 * time.Second)
	lc.until("nobody started the rematch but the host", time.Second, func(_ int, s *lockstep.Session) bool {
		return s.Phase() == lockstep.Lobby
	})

	// Game 2: co-op, long enough for what follows; the host starts it.
	lc.setupAndReady(game.Setup{Mode: game.Coop, Lives: game.MaxLives, StartWave: 1})
	lc.start()
	lc.g.run(3 * time.Second)
	h := lc.host()
	quitter, crasher := (h+1)%len(lc.players), (h+2)%len(lc.players)

	// One player quits: everyone else sees them leave, not vanish.
	qslot := lc.slotOf(quitter)
	left := lc.g.now()
	lc.players[quitter].leave()
	lc.gone[quitter] = true
	lc.until("the others see the player leave", 2*lc.latency+2*time.Second, func(i int, _ *lockstep.Session) bool {
		return lc.sawEvent(i, lockstep.EvQuit, qslot)
	})
	t.Logf("the others saw the player leave after %v", lc.g.now()-left)
	for i := range lc.players {
		if !lc.gone[i] && lc.sawEvent(i, lockstep.EvVacant, qslot) {
			t.Errorf("player %d saw the leaver's slot held for a reconnect", i)
		}
	}

	// One player crashes and comes back, as itself.
	lc.g.run(2 * time.Second)
	cslot := lc.slotOf(crasher)
	lc.players[crasher].crash()
	lc.gone[crasher] = true
	lc.until("the others hold the crashed player's slot", 10*time.Second, func(i int, _ *lockstep.Session) bool {
		return lc.sawEvent(i, lockstep.EvVacant, cslot)
	})
	lc.players[crasher] = lc.players[crasher].rejoin()
	lc.gone[crasher] = false
	lc.events[crasher] = nil
	lc.until("the crashed player plays again in its slot", 20*time.Second, func(i int, s *lockstep.Session) bool {
		if i == crasher {
			return s.Phase() == lockstep.Playing && s.Slot() == cslot && s.World() != nil
		}
		return lc.sawEvent(i, lockstep.EvRejoined, cslot)
	})

	// The host ends the game.
	lc.g.run(2 * time.Second)
	lc.players[lc.host()].do(func(s *lockstep.Session) { s.EndGame() })
	lc.until("game 2 ends, confirmed", 20*time.Second, func(_ int, s *lockstep.Session) bool {
		return s.Phase() == lockstep.Finished
	})
	second := lc.ends()
	if second.table.Over {
		t.Errorf("game 2 ended in a game over, not by the host: %+v", second.table)
	}
	for _, l := range second.table.Table() {
		if (int(l.Slot) == qslot) != l.Left {
			t.Errorf("results line %+v: only slot %d left", l, qslot)
		}
	}

	// The replays tell the same story.
	paths := lc.g.replays(t)
	if len(paths) != 2 {
		t.Fatalf("%d replays, want one a game: %v", len(paths), paths)
	}
	lc.checkReplay(paths[0], first)
	lc.checkReplay(paths[1], second)
	for i, p := range lc.players {
		if !lc.gone[i] {
			p.leave()
		}
	}
}

// The simulated network, on a virtual clock.

type simGame struct {
	l    *bots.Local
	dir  string
	path string
}

func (g *simGame) run(d time.Duration) {
	end := g.l.Now() + d
	for g.l.Now() < end {
		g.l.Step()
	}
}
func (g *simGame) now() time.Duration                         { return g.l.Now() }
func (g *simGame) patience(limit time.Duration) time.Duration { return limit }
func (g *simGame) replays(t *testing.T) []string {
	if err := g.l.CloseReplays(); err != nil {
		t.Fatal(err)
	}
	return []string{g.l.ReplayPath(1), g.l.ReplayPath(2)}
}

type simPlayer struct {
	g *simGame
	i int
}

func (p *simPlayer) do(f func(*lockstep.Session)) { f(p.g.l.Bots[p.i].Session) }
func (p *simPlayer) leave()                       { p.g.l.Leave(p.i) }
func (p *simPlayer) crash()                       { p.g.l.Vanish(p.i) }
func (p *simPlayer) rejoin() lcPlayer {
	p.g.l.Return(p.i)
	return p
}

func TestLifecycleSimulatedNetwork(t *testing.T) {
	specs := []struct {
		name    string
		spec    string
		latency time.Duration
	}{
		{"lan", "", 0},
		{"50ms", "latency=50ms", 50 * time.Millisecond},
		{"120ms", "latency=120ms", 120 * time.Millisecond},
		{"250ms", "latency=250ms", 250 * time.Millisecond},
		{"jitter", "latency=20ms,jitter=130ms", 150 * time.Millisecond},
		{"loss", "loss=10%", 0},
	}
	for _, sp := range specs {
		t.Run(sp.name, func(t *testing.T) {
			imp, err := transport.ParseImpairment(sp.spec)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			l, err := bots.NewLocal(bots.Config{Bots: 4, Ticks: 1 << 30, Seed: 7, Fast: true, Predict: true, Manual: true, Net: imp,
				Record: filepath.Join(dir, "game.rsrp")})
			if err != nil {
				t.Fatal(err)
			}
			g := &simGame{l: l, dir: dir}
			lc := &lcTest{t: t, g: g, latency: sp.latency}
			for i := range l.Bots {
				lc.players = append(lc.players, &simPlayer{g: g, i: i})
			}
			lc.gone = make([]bool, len(lc.players))
			lc.events = make([][]lockstep.Event, len(lc.players))
			lc.scenario()
		})
	}
}

// The real transport, on loopback, in real time.

type realGame struct {
	addr string
	dir  string
	t0   time.Time
	seed uint64
}

// realPatience is the least a real-time wait allows: generous, since a
// loaded machine may be slow; these are not budgets.
const realPatience = time.Minute

func (g *realGame) run(d time.Duration)                        { time.Sleep(d) }
func (g *realGame) now() time.Duration                         { return time.Since(g.t0) }
func (g *realGame) patience(limit time.Duration) time.Duration { return max(limit, realPatience) }
func (g *realGame) replays(t *testing.T) []string {
	var paths []string
	// A replay is closed a moment after its game (the host's recorder
	// flushes on its loop): wait for both to be whole.
	testwait.Until(realPatience, func() bool {
		paths, _ = filepath.Glob(filepath.Join(g.dir, "*.rsrp"))
		slices.Sort(paths)
		whole := len(paths) == 2
		for _, p := range paths {
			if rp, err := replay.ReadFile(p); err != nil || rp.EndReason == 0 {
				whole = false
			}
		}
		return whole
	})
	return paths
}

type realPlayer struct {
	g     *realGame
	i     int
	c     *client.Client
	pilot *bots.Pilot
	mu    sync.Mutex
}

func (p *realPlayer) dial(token [16]byte) {
	sc := lockstep.LAN()
	sc.Name = fmt.Sprintf("bot%d", p.i)
	sc.PlayerID = [16]byte{byte(p.i + 1)}
	sc.Token, sc.Predict = token, true
	ctx, cancel := context.WithTimeout(context.Background(), realPatience)
	defer cancel()
	c, err := client.Dial(ctx, p.g.addr, client.Options{Session: sc, Input: func(uint32) game.Input {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.pilot.Next()
	}})
	if err != nil {
		panic(fmt.Sprintf("player %d: dial: %v", p.i, err))
	}
	p.c = c
}

func (p *realPlayer) do(f func(*lockstep.Session)) { p.c.Do(f) }
func (p *realPlayer) leave()                       { p.c.Close() }
func (p *realPlayer) crash()                       { p.c.Abandon() }
func (p *realPlayer) rejoin() lcPlayer {
	var tok [16]byte
	p.c.Do(func(s *lockstep.Session) { tok = s.Token() })
	np := &realPlayer{g: p.g, i: p.i, pilot: p.pilot}
	np.dial(tok)
	return np
}

func TestLifecycleRealTransport(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two games in real time over loopback")
	}
	dir := t.TempDir()
	hc := host.LAN()
	hc.Record, hc.RecordDir = true, dir
	hc.Room = room.LAN()
	hs := hosttest.Start(t, transport.LAN(), hc)
	defer hs.Stop()
	g := &realGame{addr: hs.Addr(), dir: dir, t0: time.Now()}
	lc := &lcTest{t: t, g: g}
	for i := 0; i < 4; i++ {
		p := &realPlayer{g: g, i: i, pilot: bots.NewPilot(uint64(100 + i))}
		p.dial([16]byte{})
		lc.players = append(lc.players, p)
	}
	lc.gone = make([]bool, len(lc.players))
	lc.events = make([][]lockstep.Event, len(lc.players))
	lc.scenario()
	if entries, _ := os.ReadDir(dir); len(entries) < 2 {
		t.Errorf("the host recorded %d files", len(entries))
	}
}
