package host_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
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
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// Generous bounds for waits, not budgets: a loaded machine may be slow.
const (
	stepLimit = 30 * time.Second // a condition the test waits for
	gameLimit = 2 * time.Minute  // bots play a game to its end
)

// serve starts a host with cfg on a loopback port until the test ends.
func serve(t *testing.T, cfg host.Config) *hosttest.Server {
	t.Helper()
	return hosttest.Start(t, transport.LAN(), cfg)
}

func TestBotsPlayOverLoopback(t *testing.T) {
	addr := serve(t, host.LAN()).Addr()
	ctx, cancel := context.WithTimeout(context.Background(), gameLimit)
	defer cancel()
	s, err := bots.RunRemote(ctx, bots.RemoteConfig{Addr: addr, Bots: 4, Ticks: 300, Seed: 2})
	t.Log(s)
	if err != nil {
		t.Fatal(err)
	}
	if s.HashGroups != 1 || s.Desyncs != 0 {
		t.Fatalf("bots disagree: %s", s)
	}
}

// TestRoomsAndPipe: a client creates a room by message, bots play in it,
// while an in-process client plays in the default room through a pipe.
func TestRoomsAndPipe(t *testing.T) {
	hs := serve(t, host.LAN())
	h, addr := hs.Host, hs.Addr()
	ctx, cancel := context.WithTimeout(context.Background(), gameLimit)
	defer cancel()
	// The in-process player: the Host button's own client.
	p := transport.NewPipe()
	h.Attach(p)
	sc := lockstep.LAN()
	sc.Name = "host player"
	var final atomic.Uint64
	sc.OnTurnEnd = func(turn uint32, hash uint64, w *game.World) {
		if w.Tick >= 300 && final.Load() == 0 {
			final.Store(hash | 1)
		}
	}
	local := client.Attach(p, client.Options{Session: sc, Input: func(uint32) game.Input { return game.Fire }})
	defer local.Close()
	waitFor(t, "the in-process player's game starts", func() bool {
		started := false
		local.Do(func(s *lockstep.Session) {
			if s.Phase() == lockstep.Lobby && s.IsHost() {
				s.SetReady(true)
				s.RequestStart()
			}
			started = s.Phase() == lockstep.Playing
		})
		return started
	})
	// Meanwhile bots fill two rooms of their own, created by message.
	s, err := bots.RunRemote(ctx, bots.RemoteConfig{Addr: addr, Bots: 4, PerRoom: 2, Ticks: 300, Seed: 9})
	if err != nil || s.HashGroups != 1 {
		t.Fatalf("bots in created rooms: %v: %s", err, s)
	}
	waitFor(t, "the in-process player reaches tick 300", func() bool { return final.Load() != 0 })
	st := h.Stats()
	if st.Rooms < 3 {
		t.Errorf("rooms = %d, want the default and two created", st.Rooms)
	}
}

// TestShutdownTellsClients: cancelling the host's context tells every
// client why (a server's words, or those of the player who hosts), and
// Serve returns nil. (How soon, a fraction of a second on an idle machine,
// is the dedicated server's budget: BENCHMARKS.md.)
func TestShutdownTellsClients(t *testing.T) {
	for _, goodbye := range []string{"", "Ada left"} {
		t.Run(goodbye, func(t *testing.T) {
			cfg, want := host.LAN(), "the server is shutting down"
			if goodbye != "" {
				cfg.Goodbye, want = goodbye, goodbye
			}
			shutdownTellsClients(t, cfg, want)
		})
	}
}

func shutdownTellsClients(t *testing.T, cfg host.Config, want string) {
	hs := serve(t, cfg)
	addr := hs.Addr()
	sc := lockstep.LAN()
	c, err := client.Dial(context.Background(), addr, client.Options{Session: sc})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	waitFor(t, "the client is in the lobby", func() bool {
		ok := false
		c.Do(func(s *lockstep.Session) { ok = s.Phase() == lockstep.Lobby })
		return ok
	})
	if err := hs.Stop(); err != nil {
		t.Fatalf("stopping the host: %v; want Serve to return nil on shutdown", err)
	}
	var l wire.Leave
	waitFor(t, "the client is told the host shut down", func() bool {
		c.Do(func(s *lockstep.Session) { l = s.LeaveMessage() })
		return l.Reason == wire.LeaveShutdown
	})
	if l.Text != want {
		t.Errorf("the client is told %q, want %q", l.Text, want)
	}
}

func TestMetrics(t *testing.T) {
	hs := serve(t, host.LAN())
	h, addr := hs.Host, hs.Addr()
	ctx, cancel := context.WithTimeout(context.Background(), gameLimit)
	defer cancel()
	if _, err := bots.RunRemote(ctx, bots.RemoteConfig{Addr: addr, Bots: 2, Ticks: 120, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	// Stats are published twice a second: wait for the game's turns.
	var body string
	waitFor(t, "the metrics count the game's turns", func() bool {
		rec := httptest.NewRecorder()
		h.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		body = rec.Body.String()
		return strings.Contains(body, "rockstep_turns_total ") && !strings.Contains(body, "rockstep_turns_total 0\n")
	})
	for _, want := range []string{
		"rockstep_rooms 1", "rockstep_turns_total ", `rockstep_dropped_total{reason="malformed"}`, "rockstep_transport_packets_in_total ",
		"# TYPE rockstep_turns_total counter", "# TYPE rockstep_players gauge", `rockstep_repairs_total{slot="0"} 0`,
		// What operators expect of a Go service: the runtime's and the
		// process's own metrics.
		"go_goroutines ", "go_memstats_heap_alloc_bytes ", "go_gc_duration_seconds", "process_cpu_seconds_total ", "process_resident_memory_bytes ",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	rec := httptest.NewRecorder()
	h.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	if rec.Code != 200 || rec.Body.String() != "ok\n" {
		t.Errorf("healthz = %d %q", rec.Code, rec.Body.String())
	}
}

// waitFor polls cond until it holds, failing the test after stepLimit.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	if !testwait.Until(stepLimit, cond) {
		t.Fatalf("%s: not within %v", what, stepLimit)
	}
}

// TestClientNetsim: -netsim makes a client's own links slow; its measured
// round trip shows it.
func TestClientNetsim(t *testing.T) {
	addr := serve(t, host.LAN()).Addr()
	imp, err := transport.ParseImpairment("latency=30ms")
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.Dial(context.Background(), addr, client.Options{Session: lockstep.Config{Name: "far"}, Netsim: imp, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	waitFor(t, "the round trip shows the 30 ms each way", func() bool {
		var rtt time.Duration
		c.Do(func(s *lockstep.Session) { rtt = s.Stats().RTT })
		return rtt >= 55*time.Millisecond
	})
}

// TestHostRecordsGames: a host with recording on writes a replay of the
// game that verifies to the players' final hash.
func TestHostRecordsGames(t *testing.T) {
	cfg := host.LAN()
	cfg.Record, cfg.RecordFile = true, filepath.Join(t.TempDir(), "game.rsrp")
	hs := serve(t, cfg)
	addr := hs.Addr()
	ctx, stop := context.WithTimeout(context.Background(), gameLimit)
	defer stop()
	s, err := bots.RunRemote(ctx, bots.RemoteConfig{Addr: addr, Bots: 2, Ticks: 240, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	hs.Stop() // the host closes the replay as it stops
	rp, err := replay.ReadFile(cfg.RecordFile)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := replay.NewSim(rp)
	if err != nil {
		t.Fatal(err)
	}
	var hash uint64
	for !sim.Done() {
		if tr := sim.Step(); tr.Turn == s.Turn {
			hash = sim.World().Hash()
		}
	}
	if hash != s.Hash {
		t.Fatalf("replayed hash at turn %d = %016x, bots ended on %016x", s.Turn, hash, s.Hash)
	}
	if res, err := replay.Verify(rp); err != nil || !res.OK() {
		t.Fatalf("verify: %v %+v", err, res.Mismatches)
	}
}

// TestStatsFollowTheDefaultRoomAtOnce: the stats a LAN listing is made
// from count a player in the same Tick that lets the player in, not at the
// next twice-a-second refresh: a new game is never listed as empty.
func TestStatsFollowTheDefaultRoomAtOnce(t *testing.T) {
	h := host.New(host.LAN())
	if n := h.Stats().RoomPlayers; n != 0 {
		t.Fatalf("players before anyone joined = %d, want 0", n)
	}
	p := transport.NewPipe()
	h.Attach(p)
	local := client.Attach(p, client.Options{Session: lockstep.Config{Name: "host player"}})
	defer local.Close()
	inLobby := func() bool {
		in := false
		local.Do(func(s *lockstep.Session) { in = s.Phase() == lockstep.Lobby })
		return in
	}
	players := 0
	if !testwait.Until(stepLimit, func() bool {
		// The room answers the join within this Tick; the client reads
		// the answer on its own goroutine.
		h.Tick(time.Now())
		players = h.Stats().RoomPlayers
		return inLobby()
	}) {
		t.Fatalf("the in-process player did not reach the lobby within %v", stepLimit)
	}
	if players != 1 {
		t.Fatalf("the player is in the lobby, but the stats count %d players, want 1", players)
	}
}
