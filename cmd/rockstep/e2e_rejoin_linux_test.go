package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"rockstep/internal/testwait"
	"rockstep/internal/userdir"
)

// TestCrashedHostRejoinsTwoWindows is issue 46's acceptance with real
// processes (docs/ARCHITECTURE.md, "One host"): host A (-host -listen)
// and guest B, who joins by address, play a co-op game; A's process is
// killed (SIGKILL: no goodbye), B's machine opens the game's room (of two
// players, B alone is no majority: it waits for A's countdown and says
// "lost contact with Ada"), A is started again on the same settings
// folder and presses Rejoin, and B's room plays on. Then
// exactly one player has host powers on both machines (the Esc menu's
// Pause and End), it is B, whose machine runs the room, both rosters name
// B, and a pause from A is refused by B's room (counted). B ends the
// game; both show the same results and, in the lobby, the room the game
// is in: B's address (B's lobby says it hosts) under B's host key.
//
//	xvfb-run -a -s "-screen 0 1280x720x24" go test -run CrashedHostRejoins ./cmd/rockstep/
func TestCrashedHostRejoinsTwoWindows(t *testing.T) {
	if !windowsInNamespace(t, "an end-to-end game", 5*time.Minute, "192.0.2.63") {
		return
	}
	const addr = "127.0.0.1:7791" // the namespace's own loopback: no one else's port
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dirA := filepath.Join(t.TempDir(), "A") // A's settings: its kept session survives the kill
	start := func(name, dir string, args ...string) *liveWindow { return startLive(ctx, t, name, dir, args...) }
	a1 := start("A", dirA, "-host", "-listen", addr, "-portmap=false", "-name", "Ada", "-seed", "46",
		"-autopilot", "setup coop 5 1; ready; start 2; fly 400; linger 120")
	b := start("B", filepath.Join(t.TempDir(), "B"), "-name", "Bo", "-portmap=false",
		"-autopilot", "join "+addr+"; ready; wait-apart; wait-host; log-host; wait-refused; log-host; end-game; play-to-end; rematch; log-lobby; hold-lobby 8; quit")
	defer func() {
		for _, p := range []*liveWindow{a1, b} {
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	}()
	waitLog := func(p *liveWindow, what string) { t.Helper(); waitLogged(t, p, what, a1, b) }
	waitLog(a1, "autopilot: fly 400 done")
	if err := a1.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("kill A: %v", err)
	}
	<-a1.done
	// Of two players, B alone is no majority: its room waits for A's
	// countdown, and says so, rather than play on as if nothing happened.
	waitLog(b, "autopilot: apart: lost contact with Ada: waiting")
	a2 := start("A again", dirA, "-name", "Ada", "-portmap=false",
		"-autopilot", "rejoin; log-host; pause; play-to-end; rematch; log-lobby; quit")
	defer func() { _ = a2.cmd.Process.Kill(); <-a2.done }()
	<-a2.done
	<-b.done
	outA, outB := a2.out.String(), b.out.String()
	for _, p := range []*liveWindow{a2, b} {
		if p.err != nil {
			t.Errorf("%s: %v\n%s", p.name, p.err, p.out.String())
		}
	}
	if t.Failed() {
		t.Logf("the first A:\n%s", a1.out.String())
		return
	}
	defer func() {
		if t.Failed() {
			t.Logf("A back:\n%s\nB:\n%s", outA, outB)
		}
	}()
	hostLine := regexp.MustCompile(`autopilot: host: me=(\d+) powers=(\w+) roster=(-?\d+) (\S*) room-here=(\w+) paused=(\w+)`)
	hostsOf := func(name, out string) [][]string {
		m := hostLine.FindAllStringSubmatch(out, -1)
		if len(m) == 0 {
			t.Fatalf("%s logged no host line:\n%s", name, out)
		}
		return m
	}
	for _, m := range hostsOf("A", outA) {
		if m[2] != "false" || m[4] != "Bo" || m[5] != "false" {
			t.Errorf("A back after its crash: %s; want no host powers, the roster naming Bo, no room here", m[0])
		}
		if m[1] == m[3] {
			t.Errorf("A's roster names A's own slot host: %s", m[0])
		}
	}
	for _, m := range hostsOf("B", outB) {
		if m[2] != "true" || m[4] != "Bo" || m[5] != "true" || m[1] != m[3] {
			t.Errorf("B, whose machine runs the room: %s; want host powers, the roster naming Bo, the room here", m[0])
		}
		if m[6] != "false" {
			t.Errorf("the game is paused on B: %s", m[0])
		}
	}
	if !strings.Contains(outB, "autopilot: news: The host left: you host the game now") {
		t.Errorf("B's window never said it hosts the game once A was back:\n%s", outB)
	}
	if !strings.Contains(outB, "autopilot: room here refused") {
		t.Errorf("B's room did not refuse A's pause:\n%s", outB)
	}
	// The same results on both machines.
	ra, rb := resultsLine.FindStringSubmatch(outA), resultsLine.FindStringSubmatch(outB)
	if ra == nil || rb == nil || ra[0] != rb[0] {
		t.Errorf("the results differ or are missing:\nA: %v\nB: %v", ra, rb)
	}
	// The lobby shows the room the game is in: B's, under B's key.
	lobbyLine := regexp.MustCompile(`autopilot: lobby: where="([^"]*)" key="([^"]*)"`)
	la, lb := lobbyLine.FindStringSubmatch(outA), lobbyLine.FindStringSubmatch(outB)
	if la == nil || lb == nil {
		t.Fatalf("a lobby line is missing:\nA:\n%s\nB:\n%s", outA, outB)
	}
	t.Logf("A's lobby: %s | %s", la[1], la[2])
	t.Logf("B's lobby: %s | %s", lb[1], lb[2])
	if lb[2] == "" || lb[2] != la[2] {
		t.Errorf("the lobbies show host keys %q (B) and %q (A): want B's, the same on both", lb[2], la[2])
	}
	if !strings.HasPrefix(lb[1], "You host this game") {
		t.Errorf("B's lobby says %q: want that B hosts it, and where", lb[1])
	}
	if strings.Contains(la[1], addr) || strings.Contains(lb[1], addr) {
		t.Errorf("a lobby shows the dead room's address %s: A %q, B %q", addr, la[1], lb[1])
	}
	if port := la[1][strings.LastIndex(la[1], ":")+1:]; !strings.Contains(lb[1], ":"+port) {
		t.Errorf("A's lobby says the game is %q; B's room is at %q", la[1], lb[1])
	}
}

// TestRejoinAfterTheEndTwoWindows: issue 46's "rejoining a game that
// ended while you were away shows its results", with real processes. Host
// A and guest B play; A's process is killed, B's machine opens the game's
// room, which waits for A (no majority alone), and B ends it (End for
// everyone: a side without a majority may end, not play), and stays on the results. A
// starts again and presses Rejoin: it shows the same results table as B
// (digest and lines), says the game ended while it was away, and then the
// lobby, which says so and that Bo hosts the next game.
//
//	xvfb-run -a -s "-screen 0 1280x720x24" go test -run RejoinAfterTheEnd ./cmd/rockstep/
func TestRejoinAfterTheEndTwoWindows(t *testing.T) {
	if !windowsInNamespace(t, "an end-to-end game", 5*time.Minute, "192.0.2.64") {
		return
	}
	const addr = "127.0.0.1:7792" // the namespace's own loopback
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dirA := filepath.Join(t.TempDir(), "A")
	a1 := startLive(ctx, t, "A", dirA, "-host", "-listen", addr, "-portmap=false", "-name", "Ada", "-seed", "47",
		"-autopilot", "setup coop 5 1; ready; start 2; fly 400; linger 120")
	b := startLive(ctx, t, "B", filepath.Join(t.TempDir(), "B"), "-name", "Bo", "-portmap=false",
		"-autopilot", "join "+addr+"; ready; wait-apart; end-game; play-to-end; linger 40; quit")
	defer func() {
		for _, p := range []*liveWindow{a1, b} {
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	}()
	waitLogged(t, a1, "autopilot: fly 400 done", a1, b)
	if err := a1.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("kill A: %v", err)
	}
	<-a1.done
	waitLogged(t, b, "autopilot: results digest=", a1, b)
	a2 := startLive(ctx, t, "A again", dirA, "-name", "Ada", "-portmap=false",
		"-autopilot", "rejoin-ended; rematch; log-lobby; quit")
	defer func() { _ = a2.cmd.Process.Kill(); <-a2.done }()
	<-a2.done
	outA, outB := a2.out.String(), b.out.String()
	if a2.err != nil {
		t.Fatalf("A: %v\n%s\nB:\n%s", a2.err, outA, outB)
	}
	ra, rb := resultsLine.FindStringSubmatch(outA), resultsLine.FindStringSubmatch(outB)
	if ra == nil || rb == nil {
		t.Fatalf("results missing:\nA:\n%s\nB:\n%s", outA, outB)
	}
	t.Logf("A, back after the end, shows: %s", ra[2])
	if ra[0] != rb[0] {
		t.Errorf("the results differ:\nA: %s\nB: %s", ra[0], rb[0])
	}
	if !strings.Contains(outA, "autopilot: results were away's") {
		t.Errorf("A's results were not those of a game that ended while it was away:\n%s", outA)
	}
	lobby := regexp.MustCompile(`autopilot: lobby: where="[^"]*" key="[^"]*" hint="([^"]*)"`).FindStringSubmatch(outA)
	if lobby == nil || !strings.Contains(lobby[1], "ended while you were away") || !strings.Contains(lobby[1], "Bo hosts the next game") {
		t.Errorf("A's lobby after the results: %v; want it to say the game ended while A was away and that Bo hosts the next\n%s", lobby, outA)
	}
}

// startLive starts a game window with the settings folder dir.
func startLive(ctx context.Context, t *testing.T, name, dir string, args ...string) *liveWindow {
	t.Helper()
	p := &liveWindow{name: name}
	p.cmd = exec.CommandContext(ctx, os.Args[0], noRouter(args)...)
	p.cmd.Env = append(os.Environ(), envRunMain+"=1", userdir.Env+"="+dir, "XDG_CONFIG_HOME="+dir)
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	p.done = make(chan struct{})
	go func() { p.err = p.cmd.Wait(); close(p.done) }()
	return p
}

// waitLogged waits (2 minutes at most) until p logged what, or exited;
// it fails the test with every window's log if p did not log it.
func waitLogged(t *testing.T, p *liveWindow, what string, all ...*liveWindow) {
	t.Helper()
	testwait.Until(2*time.Minute, func() bool { return strings.Contains(p.out.String(), what) || p.exited() })
	if strings.Contains(p.out.String(), what) {
		return
	}
	var b strings.Builder
	for _, w := range all {
		fmt.Fprintf(&b, "\n%s:\n%s", w.name, w.out.String())
	}
	t.Fatalf("%s never logged %q:%s", p.name, what, b.String())
}

// liveWindow is a game window whose output the test reads while it runs.
type liveWindow struct {
	name string
	cmd  *exec.Cmd
	out  lockedBuffer
	done chan struct{}
	err  error
}

func (p *liveWindow) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// lockedBuffer is a bytes.Buffer a process writes while the test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRejoinAfterTheRematchTwoWindows: as TestRejoinAfterTheEndTwoWindows,
// but B, whose room holds the game A's crash left it (alone, B is no
// majority), ends it while A's countdown runs and presses Back to lobby
// before A comes back (B must not wait for "you host the game now": that
// comes only once A's countdown is over and A dropped, with no way back): the room (B's) is in setup
// for the rematch, and A's vacant seat was given up. A's Rejoin still
// lands in that lobby, in its seat, with the results of the game that
// ended while it was away (the same table as B's), not with "Cannot join".
//
//	xvfb-run -a -s "-screen 0 1280x720x24" go test -run RejoinAfterTheRematch ./cmd/rockstep/
func TestRejoinAfterTheRematchTwoWindows(t *testing.T) {
	if !windowsInNamespace(t, "an end-to-end game", 5*time.Minute, "192.0.2.65") {
		return
	}
	const addr = "127.0.0.1:7793" // the namespace's own loopback
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dirA := filepath.Join(t.TempDir(), "A")
	a1 := startLive(ctx, t, "A", dirA, "-host", "-listen", addr, "-portmap=false", "-name", "Ada", "-seed", "48",
		"-autopilot", "setup coop 5 1; ready; start 2; fly 400; linger 120")
	b := startLive(ctx, t, "B", filepath.Join(t.TempDir(), "B"), "-name", "Bo", "-portmap=false",
		"-autopilot", "join "+addr+"; ready; wait-apart; end-game; play-to-end; rematch; linger 5; linger 60; quit")
	defer func() {
		for _, p := range []*liveWindow{a1, b} {
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	}()
	waitLogged(t, a1, "autopilot: fly 400 done", a1, b)
	if err := a1.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("kill A: %v", err)
	}
	<-a1.done
	// The room holds a rematch's Ready until every member has the game's
	// end, SilenceTimeout (3 s) at most: after 5 s it is in setup.
	waitLogged(t, b, "autopilot: linger 5 done", a1, b)
	a2 := startLive(ctx, t, "A again", dirA, "-name", "Ada", "-portmap=false",
		"-autopilot", "rejoin-ended; rematch; log-lobby; quit")
	defer func() { _ = a2.cmd.Process.Kill(); <-a2.done }()
	<-a2.done
	outA, outB := a2.out.String(), b.out.String()
	if a2.err != nil {
		t.Fatalf("A: %v\n%s\nB:\n%s", a2.err, outA, outB)
	}
	if strings.Contains(outA, "Cannot join") {
		t.Fatalf("A's Rejoin was refused:\n%s", outA)
	}
	ra, rb := resultsLine.FindStringSubmatch(outA), resultsLine.FindStringSubmatch(outB)
	if ra == nil || rb == nil {
		t.Fatalf("results missing:\nA:\n%s\nB:\n%s", outA, outB)
	}
	t.Logf("A, back after the rematch's lobby opened, shows: %s", ra[2])
	if ra[0] != rb[0] {
		t.Errorf("the results differ:\nA: %s\nB: %s", ra[0], rb[0])
	}
	lobby := regexp.MustCompile(`autopilot: lobby: where="[^"]*" key="[^"]*" hint="([^"]*)"`).FindStringSubmatch(outA)
	if lobby == nil || !strings.Contains(lobby[1], "ended while you were away") {
		t.Errorf("A's lobby after the results: %v; want it to say the game ended while A was away\n%s", lobby, outA)
	}
}
