package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"rockstep/internal/testwait"
	"rockstep/internal/userdir"
	"rockstep/net/client"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// proc is the command running in a child process, its output collected.
type proc struct {
	cmd *exec.Cmd
	mu  sync.Mutex
	out bytes.Buffer
	err bytes.Buffer
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func start(t *testing.T, args ...string) *proc {
	t.Helper()
	return startCmd(t, exec.Command(os.Args[0], args...), false)
}

// startCmd starts cmd, a command running this binary's main, with the
// test's own settings folder and no display unless display is set (the
// machine's DISPLAY, or one cmd.Env names); its output is kept, and it is
// killed when the test ends if still running.
func startCmd(t *testing.T, cmd *exec.Cmd, display bool) *proc {
	t.Helper()
	p := &proc{cmd: cmd}
	// The race detector otherwise sleeps a second at exit (atexit_sleep_ms).
	// Replays and settings go to a folder of the test's, not the user's.
	config := t.TempDir()
	env := p.cmd.Env
	if env == nil {
		env = os.Environ()
	}
	p.cmd.Env = append(env, envRunMain+"=1", "GORACE=atexit_sleep_ms=0",
		"XDG_CONFIG_HOME="+config, userdir.Env+"="+filepath.Join(config, "rockstep"))
	if !display {
		p.cmd.Env = append(p.cmd.Env, "DISPLAY=", "WAYLAND_DISPLAY=")
	}
	p.cmd.Stdout = lockedWriter{&p.mu, &p.out}
	p.cmd.Stderr = lockedWriter{&p.mu, &p.err}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Kill()
			_ = p.cmd.Wait()
		}
	})
	return p
}

func (p *proc) stdout() string { p.mu.Lock(); defer p.mu.Unlock(); return p.out.String() }
func (p *proc) stderr() string { p.mu.Lock(); defer p.mu.Unlock(); return p.err.String() }

var listening = regexp.MustCompile(`msg=listening addr=(\S+)`)

// listeningProcs finds the processors the listening line reports.
var listeningProcs = regexp.MustCompile(`msg=listening .* procs=(\d+)`)

// Generous bounds for waits, not budgets: a loaded machine may be slow.
const (
	startLimit = 30 * time.Second  // a process starts and answers
	stepLimit  = 60 * time.Second  // a game reaches the state a test waits for
	gameLimit  = 180 * time.Second // a bot process plays its game to the end
)

var metricsAt = regexp.MustCompile(`msg=metrics addr=(\S+)`)

// startServer runs `rockstep -server` on a loopback port, with no display,
// serving its metrics on another, and returns it with its address.
func startServer(t *testing.T, extra ...string) (*proc, string) {
	t.Helper()
	p := start(t, append([]string{"-server", "-listen", "127.0.0.1:0", "-lan=false", "-metrics", "127.0.0.1:0"}, extra...)...)
	var m []string
	if !testwait.Until(startLimit, func() bool { m = listening.FindStringSubmatch(p.stderr()); return m != nil }) {
		t.Fatalf("server did not start within %v:\n%s", startLimit, p.stderr())
	}
	return p, m[1]
}

// metrics reads the server's /metrics: every sample by its name (labels
// included), or nil if it cannot be read.
func (p *proc) metrics() map[string]float64 {
	m := metricsAt.FindStringSubmatch(p.stderr())
	if m == nil {
		return nil
	}
	resp, err := http.Get("http://" + m[1] + "/metrics")
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	samples := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		i := strings.LastIndexByte(line, ' ')
		if strings.HasPrefix(line, "#") || i < 0 {
			continue
		}
		if v, err := strconv.ParseFloat(line[i+1:], 64); err == nil {
			samples[line[:i]] = v
		}
	}
	return samples
}

// waitMetrics waits until the server's metrics satisfy cond (they are
// published twice a second).
func (p *proc) waitMetrics(t *testing.T, what string, cond func(m map[string]float64) bool) {
	t.Helper()
	var last map[string]float64
	if !testwait.Until(stepLimit, func() bool { last = p.metrics(); return last != nil && cond(last) }) {
		t.Fatalf("%s: not within %v; metrics %v; server stderr:\n%s", what, stepLimit, last, p.stderr())
	}
}

// running: the room's game runs and has played at least turns turns.
func running(turns float64) func(m map[string]float64) bool {
	return func(m map[string]float64) bool {
		return m["rockstep_rooms_running"] == 1 && m["rockstep_turns_total"] >= turns
	}
}

// connections: the server holds n connections (a player whose connection
// it has given up on is no longer one, though its slot may be held).
func connections(n float64) func(m map[string]float64) bool {
	return func(m map[string]float64) bool { return m["rockstep_connections"] == n }
}

func (p *proc) wait(t *testing.T, limit time.Duration) (int, time.Duration) {
	t.Helper()
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
		return p.cmd.ProcessState.ExitCode(), time.Since(start)
	case <-time.After(limit):
		_ = p.cmd.Process.Kill()
		t.Fatalf("process did not exit within %v; stderr:\n%s", limit, p.stderr())
	}
	return -1, 0
}

// TestServerStopsOnSIGTERM: a headless server with no display serves a
// client; SIGTERM tells the client why and the process exits 0. (How soon
// it exits, a second on an idle machine, is in BENCHMARKS.md with its
// command: this test logs it.)
func TestServerStopsOnSIGTERM(t *testing.T) {
	srv, addr := startServer(t)
	c, err := client.Dial(context.Background(), addr, client.Options{Session: lockstep.Config{Name: "watcher"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	waitUntil(t, stepLimit, func() bool {
		ok := false
		c.Do(func(s *lockstep.Session) { ok = s.Phase() == lockstep.Lobby })
		return ok
	})
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	code, took := srv.wait(t, startLimit)
	if code != 0 {
		t.Errorf("exit %d, want 0; stderr:\n%s", code, srv.stderr())
	}
	t.Logf("exited %v after SIGTERM", took.Round(time.Millisecond))
	waitUntil(t, stepLimit, func() bool {
		var l wire.Leave
		c.Do(func(s *lockstep.Session) { l = s.LeaveMessage() })
		return l.Reason == wire.LeaveShutdown
	})
}

var hashField = regexp.MustCompile(`\bhash=([0-9a-f]{16})\b`)

// TestKilledBotReclaimsSlot: four bot processes play on a server; one is
// killed mid-game, the others see its slot vacant and go on; restarted, it
// reclaims the slot with its token, catches up, and all four end on the
// same hash.
func TestKilledBotReclaimsSlot(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 12 seconds of game")
	}
	srv, addr := startServer(t)
	const ticks = "720"
	dirs := make([]string, 4)
	bots := make([]*proc, 4)
	for i := range bots {
		dirs[i] = t.TempDir()
		bots[i] = start(t, "-bots", "1", "-join", addr, "-players", "4", "-ticks", ticks, "-token-dir", dirs[i], "-seed", string(rune('1'+i)))
	}
	srv.waitMetrics(t, "the game starts and runs a while", running(60))
	if _, err := os.Stat(dirs[3] + "/bot-0.token"); err != nil {
		t.Fatalf("bot 3 kept no token: %v", err)
	}
	_ = bots[3].cmd.Process.Kill() // SIGKILL: no goodbye
	_ = bots[3].cmd.Wait()
	// Past the 3 s silence timeout the server lets the connection go and
	// holds the slot.
	srv.waitMetrics(t, "the server lets the killed bot's connection go", connections(3))
	bots[3] = start(t, "-bots", "1", "-join", addr, "-players", "4", "-ticks", ticks, "-token-dir", dirs[3], "-seed", "4")
	var hashes []string
	for i, b := range bots {
		code, _ := b.wait(t, gameLimit)
		out := b.stdout()
		m := hashField.FindStringSubmatch(out)
		if code != 0 || m == nil {
			t.Fatalf("bot %d: exit %d\nstdout: %s\nstderr: %s", i, code, out, b.stderr())
		}
		hashes = append(hashes, m[1])
		if i < 3 && !strings.Contains(out, "vacancies_seen=1") {
			t.Errorf("bot %d did not see the vacancy: %s", i, out)
		}
	}
	for i := range hashes {
		if hashes[i] != hashes[0] {
			t.Fatalf("final hashes differ: %v", hashes)
		}
	}
}

// waitUntil polls cond until it holds, failing the test after limit.
func waitUntil(t *testing.T, limit time.Duration, cond func() bool) {
	t.Helper()
	if !testwait.Until(limit, cond) {
		t.Fatalf("condition not met within %v", limit)
	}
}

// startTwoBotGame starts a server and two bot processes, a (seed 1) and b
// (seed 2), each with a token directory of its own, that play a two-player
// game on it for ticksA and ticksB ticks, and waits until the game runs. It
// returns the server, the bots and a's token directory.
func startTwoBotGame(t *testing.T, ticksA, ticksB int) (srv, a, b *proc, dirA string) {
	t.Helper()
	srv, addr := startServer(t)
	dirA, dirB := t.TempDir(), t.TempDir()
	bot := func(ticks int, dir, seed string) *proc {
		return start(t, "-bots", "1", "-join", addr, "-players", "2", "-ticks", strconv.Itoa(ticks), "-token-dir", dir, "-seed", seed)
	}
	a, b = bot(ticksA, dirA, "1"), bot(ticksB, dirB, "2")
	srv.waitMetrics(t, "the game starts", running(30))
	return srv, a, b, dirA
}

// TestLeavingBotIsSeenToLeave: of two bot processes in a game, one gets
// SIGTERM: it leaves, its Leave delivered before it exits, so the other
// sees it leave (not vanish and be held for a reconnect) and plays its game
// to the end alone.
func TestLeavingBotIsSeenToLeave(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 10 seconds of game")
	}
	t.Parallel()
	_, a, b, dirA := startTwoBotGame(t, 600, 100000)
	if err := b.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	b.wait(t, stepLimit)
	if code, _ := a.wait(t, gameLimit); code != 0 {
		t.Fatalf("the bot that stayed: exit %d\n%s\n%s", code, a.stdout(), a.stderr())
	}
	out := a.stdout()
	if !strings.Contains(out, "leaves_seen=1") || !strings.Contains(out, "vacancies_seen=0") {
		t.Errorf("the bot that stayed did not see the other leave (it must not see a vacancy): %s", out)
	}
	if _, err := os.Stat(dirA + "/bot-0.token"); !os.IsNotExist(err) {
		t.Errorf("the token of a finished game was kept: %v", err)
	}
}

var resultsField = regexp.MustCompile(`\bresults=[0-9a-f]{16}\b`)

var profilerAddr = regexp.MustCompile(`msg=profiler addr=(\S+)`)

// TestServerProfiler: -pprof serves the Go profiler on its own address,
// and a CPU profile of the running server comes back from it.
func TestServerProfiler(t *testing.T) {
	srv, _ := startServer(t, "-pprof", "127.0.0.1:0")
	var addr string
	waitUntil(t, 10*time.Second, func() bool {
		m := profilerAddr.FindStringSubmatch(srv.stderr())
		if m != nil {
			addr = m[1]
		}
		return m != nil
	})
	resp, err := http.Get("http://" + addr + "/debug/pprof/profile?seconds=1")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || len(body) < 2 || body[0] != 0x1f || body[1] != 0x8b {
		t.Fatalf("profile: status %d, %d bytes (want a gzipped profile)", resp.StatusCode, len(body))
	}
}

// TestServerMaxConns: -max-conns bounds the connections the server holds;
// one more is refused as full, and says so.
func TestServerMaxConns(t *testing.T) {
	_, addr := startServer(t, "-max-conns", "2")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for i := range 3 {
		c, err := transport.Dial(ctx, addr, transport.LAN())
		if i < 2 {
			if err != nil {
				t.Fatalf("connection %d of 2: %v", i+1, err)
			}
			defer c.Close()
			continue
		}
		if !errors.Is(err, transport.ErrRefused) || !strings.Contains(err.Error(), "full") {
			t.Fatalf("a third connection: %v, want refused as full", err)
		}
	}
}

// TestServerProcs: a server runs its Go code on one processor unless
// -procs or $GOMAXPROCS says otherwise, logs how many, and refuses a
// -procs below one.
func TestServerProcs(t *testing.T) {
	for _, c := range []struct {
		env  string
		args []string
		want string
	}{
		{"", nil, "procs=1"},
		{"", []string{"-procs", "2"}, "procs=2"},
		{"3", nil, "procs=3"},
		{"3", []string{"-procs", "2"}, "procs=2"},
	} {
		t.Setenv("GOMAXPROCS", c.env)
		p, _ := startServer(t, c.args...)
		m := listeningProcs.FindStringSubmatch(p.stderr())
		if m == nil || "procs="+m[1] != c.want {
			t.Errorf("GOMAXPROCS=%q %v: %q, want %s", c.env, c.args, p.stderr(), c.want)
		}
	}
	t.Setenv("GOMAXPROCS", "")
	p := start(t, "-server", "-listen", "127.0.0.1:0", "-lan=false", "-procs", "-1")
	err := p.cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(p.stderr(), "-procs -1") {
		t.Errorf("-procs -1: %v, %q; want exit 2 naming the flag", err, p.stderr())
	}
}
