package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"rockstep/internal/netns"
	"rockstep/internal/testwait"
	"rockstep/internal/userdir"
	"rockstep/net/client"
	"rockstep/net/lockstep"
	"rockstep/net/wire"
)

// TestHostWindowEndsOnSIGTERMWithoutDisplay: a `-host` window plays a game
// with a guest; its X server goes away, killed (a crashed desktop) or
// frozen (a hung one, which leaves the window's render thread waiting for
// it forever), and then the window gets SIGTERM. The process is gone
// within a generous deadline (the time is logged: the 3 s goal is in
// BENCHMARKS.md), and the guest was told the host is going (the hand-over,
// LeaveHandover, or a Leave), not left to find a silence. The window runs
// with -portmap=false: no router is asked, so none keeps a mapping.
//
// The test makes its own X server (Xvfb, which must be installed) in a
// private network namespace, whatever DISPLAY says.
func TestHostWindowEndsOnSIGTERMWithoutDisplay(t *testing.T) {
	if testing.Short() {
		t.Skip("a window and its X server in a private namespace; not in -short")
	}
	if _, err := exec.LookPath("Xvfb"); err != nil {
		t.Skipf("needs Xvfb (Debian: apt-get install -y xvfb): %v", err)
	}
	if !netns.Isolate(t, envE2ENetns, 10*time.Minute) {
		return
	}
	if err := netns.SetupLoopback("192.0.2.64"); err != nil {
		t.Skipf("private network namespace: %v", err)
	}
	for _, tc := range []struct {
		name string
		sig  syscall.Signal // what happens to the X server
		port string
	}{
		{"killed", syscall.SIGKILL, "7777"},
		{"frozen", syscall.SIGSTOP, "7778"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			xvfb, display := startXvfb(t)
			addr := "127.0.0.1:" + tc.port
			win := &proc{cmd: exec.Command(os.Args[0], "-host", "-listen", addr, "-portmap=false", "-name", "Hostess", "-seed", "5",
				"-autopilot", "setup coop 5 1; ready; start 2; linger 600")}
			config := filepath.Join(t.TempDir(), "host")
			win.cmd.Env = append(os.Environ(), envRunMain+"=1", "DISPLAY="+display, "WAYLAND_DISPLAY=", "GORACE=atexit_sleep_ms=0",
				"XDG_CONFIG_HOME="+config, userdir.Env+"="+config)
			win.cmd.Stdout = lockedWriter{&win.mu, &win.out}
			win.cmd.Stderr = lockedWriter{&win.mu, &win.err}
			if err := win.cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() { _ = win.cmd.Wait(); close(exited) }()
			t.Cleanup(func() {
				_ = win.cmd.Process.Kill()
				<-exited
			})
			// The guest: a client of this test, ready at once.
			var c *client.Client
			if !testwait.Until(startLimit, func() bool {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				var err error
				c, err = client.Dial(ctx, addr, client.Options{Session: lockstep.Config{Name: "Guest"}})
				return err == nil
			}) {
				t.Fatalf("the host window did not answer at %s within %v:\n%s", addr, startLimit, win.stderr())
			}
			defer c.Close()
			phase := func() (p lockstep.Phase) { c.Do(func(s *lockstep.Session) { p = s.Phase() }); return p }
			// The guest is ready, and again after each change of the setup
			// (which clears a guest's Ready), until the host starts. A
			// window's first frames under software rendering on a loaded
			// machine can take long: the generous bound of a whole game.
			var readyAt time.Time
			if !testwait.Until(gameLimit, func() bool {
				playing := false
				c.Do(func(s *lockstep.Session) {
					playing = s.Phase() == lockstep.Playing
					if s.Phase() != lockstep.Lobby || time.Since(readyAt) < 500*time.Millisecond {
						return
					}
					for _, p := range s.SetupState().Players {
						if int(p.Slot) == s.Slot() && !p.Ready {
							s.SetReady(true)
							readyAt = time.Now()
						}
					}
				})
				return playing
			}) {
				var l wire.Leave
				c.Do(func(s *lockstep.Session) { l = s.LeaveMessage() })
				t.Fatalf("the game did not start within %v (guest %v, %+v):\n%s", gameLimit, phase(), l, win.stderr())
			}
			// The guest watches for the word that the host is going.
			told := make(chan wire.LeaveReason, 1)
			go func() {
				for {
					var l wire.Leave
					c.Do(func(s *lockstep.Session) { l = s.LeaveMessage() })
					if n, _ := c.Handovers(); l.Reason != 0 || n > 0 {
						told <- l.Reason
						return
					}
					select {
					case <-c.Done():
						told <- 0
						return
					case <-time.After(5 * time.Millisecond):
					}
				}
			}()
			if err := xvfb.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			if tc.sig == syscall.SIGSTOP {
				t.Cleanup(func() { _ = xvfb.Process.Signal(syscall.SIGCONT) })
			}
			// A moment for the window to meet the loss, as a desktop that
			// died a while ago would; the test holds either way.
			time.Sleep(time.Second)
			select {
			case <-exited:
				t.Logf("the window ended by itself when its X server was %s:\n%s", tc.name, win.stderr())
			default:
				sent := time.Now()
				if err := win.cmd.Process.Signal(syscall.SIGTERM); err != nil {
					t.Fatal(err)
				}
				select {
				case <-exited:
					t.Logf("X server %s: the window exited %v after SIGTERM (%v)", tc.name, time.Since(sent).Round(time.Millisecond), win.cmd.ProcessState)
				case <-time.After(stepLimit):
					t.Fatalf("X server %s: the window still runs %v after SIGTERM:\n%s", tc.name, stepLimit, win.stderr())
				}
			}
			select {
			case r := <-told:
				if r == 0 {
					t.Errorf("the guest was not told the host left: its connection ended without a word")
				} else {
					t.Logf("the guest was told: leave reason %d", r)
				}
			case <-time.After(stepLimit):
				t.Errorf("the guest heard nothing of the host within %v", stepLimit)
			}
		})
	}
}

// startXvfb starts an X server of the test's own on a free display and
// returns it and its DISPLAY.
func startXvfb(t *testing.T) (*exec.Cmd, string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	x := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x720x24", "-nolisten", "tcp")
	x.ExtraFiles = []*os.File{w}
	if err := x.Start(); err != nil {
		t.Skipf("cannot start Xvfb: %v", err)
	}
	w.Close()
	t.Cleanup(func() {
		_ = x.Process.Signal(syscall.SIGCONT)
		_ = x.Process.Kill()
		_ = x.Wait()
	})
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		r.Close()
		got <- strings.TrimSpace(line)
	}()
	select {
	case n := <-got:
		if n == "" {
			t.Skip("Xvfb said no display number")
		}
		return x, ":" + n
	case <-time.After(startLimit):
		t.Skipf("Xvfb did not start within %v", startLimit)
	}
	return nil, ""
}
