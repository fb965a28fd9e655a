package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"rockstep/internal/crash"
	"rockstep/internal/netns"
	"rockstep/internal/userdir"
	"rockstep/net/lan"
)

// envE2ENetns marks the test binary re-run inside a private network
// namespace by TestTwoWindowsFindEachOtherAndAgree.
const envE2ENetns = "ROCKSTEP_E2E_NETNS"

var resultsLine = regexp.MustCompile(`autopilot: results digest=([0-9a-f]{16}) (.*)`)

// windowsInNamespace prepares an end-to-end test with real windows: it
// skips under -short (what names the test's game) and without a display,
// and runs the test again in a private network namespace of its own
// (netns.Isolate, for at most limit) whose loopback carries multicast with
// the address ip. It returns false in the test that started the namespace
// (its child did the work) and true in the child, which goes on.
func windowsInNamespace(t *testing.T, what string, limit time.Duration, ip string) bool {
	t.Helper()
	if testing.Short() {
		t.Skip(what + "; not in -short")
	}
	if os.Getenv("DISPLAY") == "" {
		t.Skip("needs a display (DISPLAY is empty): run under xvfb-run -a -s \"-screen 0 1280x720x24\"")
	}
	if !netns.Isolate(t, envE2ENetns, limit) {
		return false
	}
	if err := netns.SetupLoopback(ip); err != nil {
		t.Skipf("private network namespace has no multicast: %v", err)
	}
	return true
}

// TestTwoWindowsFindEachOtherAndAgree plays a real game between two
// windows, end to end, in a private network namespace: `rockstep -host`,
// and a `rockstep` that finds that game in its LAN list (mDNS over the
// namespace's loopback) and joins it through the join screen, both driven
// by -autopilot through the same intents the buttons emit. The host sets
// up a versus game (one life each), both ready, the host starts, both
// play scripted keys until the game is over, and both windows must show
// the same results table (title, names, scores, lives, kills, read off
// the screen each shows). Then both go back to the lobby, ready, and must
// stay there: a rematch starts only on the host's Start.
//
//	xvfb-run -a -s "-screen 0 1280x720x24" go test -run TwoWindows ./cmd/rockstep/
func TestTwoWindowsFindEachOtherAndAgree(t *testing.T) {
	if !windowsInNamespace(t, "a 30-second end-to-end game", 7*time.Minute, "192.0.2.61") { // two tries of 3 minutes at most
		return
	}
	began := time.Now()
	host, guest := playTwoWindows(t, 3*time.Minute,
		[]string{"-host", "-name", "Hostess", "-seed", "42",
			"-autopilot", "setup versus 1 10; ready; start 2; play-to-end; rematch; hold-lobby 3; wait-alone; quit"},
		[]string{"-name", "Guest",
			"-autopilot", "join-lan; ready; play-to-end; rematch; hold-lobby 2; quit"})
	var tables []string
	for _, p := range []*window{host, guest} {
		out := p.stderr.String()
		if p.err != nil {
			t.Errorf("%s: %v\n%s", p.name, p.err, out)
			continue
		}
		m := resultsLine.FindStringSubmatch(out)
		if m == nil {
			t.Errorf("%s showed no results:\n%s", p.name, out)
			continue
		}
		for _, step := range []string{"ready done", "hold-lobby"} {
			if !strings.Contains(out, "autopilot: "+step) {
				t.Errorf("%s never did %q:\n%s", p.name, step, out)
			}
		}
		t.Logf("%s shows: %s", p.name, m[2])
		tables = append(tables, m[0])
	}
	if !strings.Contains(guest.stderr.String(), "autopilot: joining Hostess") {
		t.Errorf("the guest did not join the host's game from its LAN list:\n%s", guest.stderr.String())
	}
	if len(tables) == 2 {
		if tables[0] != tables[1] {
			t.Errorf("the two windows show different results:\nhost:  %s\nguest: %s", tables[0], tables[1])
		}
		for _, name := range []string{"Hostess", "Guest"} {
			if !strings.Contains(tables[0], name) {
				t.Errorf("the results do not name %s: %s", name, tables[0])
			}
		}
		if !strings.Contains(tables[0], "Versus") {
			t.Errorf("the results are not a versus game's: %s", tables[0])
		}
	}
	t.Logf("whole run: %v", time.Since(began).Round(time.Second))
}

// TestHostWindowClosesGameGoesOn: the host closes its window mid-game
// (a co-op game, two windows found over the LAN as above). The guest's
// window keeps playing: it hosts the game now and says so, and a LAN list
// shows the game move to it under the same id and name.
//
//	xvfb-run -a -s "-screen 0 1280x720x24" go test -run HostWindowCloses ./cmd/rockstep/
func TestHostWindowClosesGameGoesOn(t *testing.T) {
	if !windowsInNamespace(t, "an end-to-end game", 5*time.Minute, "192.0.2.62") {
		return
	}
	// A LAN list beside the windows: it must show the game move.
	ctx, stopBrowsing := context.WithCancel(context.Background())
	defer stopBrowsing()
	br, err := lan.Browse(ctx, lan.BrowseOptions{Interval: 250 * time.Millisecond})
	if err != nil {
		t.Fatalf("browse the namespace's LAN: %v", err)
	}
	var seenMu sync.Mutex
	var seen []lan.Game // each (id, address) once, in the order first seen
	browsed := make(chan struct{})
	go func() {
		defer close(browsed)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			seenMu.Lock()
			for _, g := range br.Games() {
				if !slices.ContainsFunc(seen, func(o lan.Game) bool { return o.ID == g.ID && o.Addr == g.Addr }) {
					seen = append(seen, g)
				}
			}
			seenMu.Unlock()
		}
	}()
	host, guest := playTwoWindows(t, 2*time.Minute,
		[]string{"-host", "-name", "Hostess", "-seed", "7",
			"-autopilot", "setup coop 5 1; ready; start 2; linger 6; quit"},
		[]string{"-name", "Guest",
			"-autopilot", "join-lan; ready; wait-host; linger 6; quit"})
	stopBrowsing()
	<-browsed
	for _, p := range []*window{host, guest} {
		if p.err != nil {
			t.Errorf("%s: %v\n%s", p.name, p.err, p.stderr.String())
		}
	}
	out := guest.stderr.String()
	for _, want := range []string{"autopilot: news: The host left: you host the game now", "autopilot: linger 6 done"} {
		if !strings.Contains(out, want) {
			t.Errorf("the guest's window never said %q:\n%s\nthe host's:\n%s", want, out, host.stderr.String())
		}
	}
	// The LAN list showed the game at the host's address, then under the
	// same id and name at the guest's.
	seenMu.Lock()
	defer seenMu.Unlock()
	for _, g := range seen {
		t.Logf("LAN list: %s", g)
	}
	moved := false
	for i, a := range seen {
		for _, b := range seen[i+1:] {
			if a.ID == b.ID && a.Addr != b.Addr && a.Name == b.Name && strings.Contains(b.Name, "Hostess") {
				moved = true
			}
		}
	}
	if !moved {
		t.Errorf("the LAN list never showed the game move to the guest under the same id and name (%d sightings, above)", len(seen))
	}
}

// window is one game window of an end-to-end test: a child process.
type window struct {
	name   string
	cmd    *exec.Cmd
	stderr bytes.Buffer
	err    error
}

// playTwoWindows runs a host's and a guest's window with the given
// arguments, each with its own settings folder, until both exit (or
// limit passes). A window that died inside the GL driver (Mesa, under
// Xvfb, on a loaded machine) is not the game's failure: both play once
// more, and the test says so.
func playTwoWindows(t *testing.T, limit time.Duration, hostArgs, guestArgs []string) (host, guest *window) {
	play := func() (host, guest *window, crashed string) {
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		defer cancel()
		start := func(name string, args []string) *window {
			p := &window{name: name}
			p.cmd = exec.CommandContext(ctx, os.Args[0], noRouter(args)...)
			config := filepath.Join(t.TempDir(), name)
			p.cmd.Env = append(os.Environ(), envRunMain+"=1", userdir.Env+"="+config, "XDG_CONFIG_HOME="+config)
			p.cmd.Stdout, p.cmd.Stderr = &p.stderr, &p.stderr
			if err := p.cmd.Start(); err != nil {
				t.Fatalf("start %s: %v", name, err)
			}
			return p
		}
		host = start("host", hostArgs)
		guest = start("guest", guestArgs)
		var wg sync.WaitGroup
		var mu sync.Mutex
		for _, p := range []*window{host, guest} {
			wg.Go(func() {
				err := p.cmd.Wait()
				mu.Lock()
				defer mu.Unlock()
				p.err = err
				if sig, ok := crash.InNativeCode(err, p.stderr.Bytes()); ok && crashed == "" {
					crashed = fmt.Sprintf("the %s's window died of %s inside the GL driver:\n%s", p.name, sig, p.stderr.String())
					cancel() // the other window has no one to play with
				}
			})
		}
		wg.Wait()
		return host, guest, crashed
	}
	host, guest, crashed := play()
	if crashed != "" {
		t.Logf("%s\nplaying once more", crashed)
		host, guest, _ = play()
	}
	return host, guest
}
