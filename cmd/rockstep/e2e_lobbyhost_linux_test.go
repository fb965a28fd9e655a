package main

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"rockstep/net/invite"
)

// TestLobbySurvivesItsHostTwoWindows is issue 52's "one killed in the
// lobby: the room lives on at a successor with its setup and chat; the
// old host Rejoins it", with real processes (docs/ARCHITECTURE.md, "When
// the host goes away"): host A (-host -listen) sets up a versus game and
// says a line; guest B joins by address and presses Ready. Once a
// successor is named, A's process is killed (SIGKILL: no goodbye) in the
// lobby. B's window carries the lobby on: the same setup and chat, B
// hosting, B still ready, A's seat held, the title naming who hosts. A is
// started again on the same settings folder and presses Rejoin: it is back
// in its seat in B's lobby, a guest, with the same setup and chat.
//
//	xvfb-run -a -s "-screen 0 1280x720x24" go test -run LobbySurvivesItsHost ./cmd/rockstep/
func TestLobbySurvivesItsHostTwoWindows(t *testing.T) {
	if !windowsInNamespace(t, "an end-to-end lobby", 5*time.Minute, "192.0.2.65") {
		return
	}
	const addr = "127.0.0.1:7793" // the namespace's own loopback
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dirA := filepath.Join(t.TempDir(), "A") // A's settings: its kept seat survives the kill
	a1 := startLive(ctx, t, "A", dirA, "-host", "-listen", addr, "-portmap=false", "-name", "Ada", "-seed", "52",
		"-autopilot", "setup versus 5 2; say see_you_soon; wait-successor; hold-lobby 50")
	b := startLive(ctx, t, "B", filepath.Join(t.TempDir(), "B"), "-name", "Bo", "-portmap=false",
		"-autopilot", "join "+addr+"; ready; wait-chat; wait-lobby-moved; wait-players 2; log-room; hold-lobby 2; quit")
	defer func() {
		for _, p := range []*liveWindow{a1, b} {
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	}()
	waitLogged(t, a1, "autopilot: successor named", a1, b)
	waitLogged(t, b, "autopilot: chat: see you soon", a1, b)
	if err := a1.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("kill A: %v", err)
	}
	<-a1.done
	waitLogged(t, b, "autopilot: lobby moved:", a1, b)
	a2 := startLive(ctx, t, "A again", dirA, "-name", "Ada", "-portmap=false",
		"-autopilot", "rejoin-lobby; ready; log-room; hold-lobby 6; quit")
	defer func() { _ = a2.cmd.Process.Kill(); <-a2.done }()
	<-b.done
	outA, outB := a2.out.String(), b.out.String()
	if b.err != nil {
		t.Errorf("B: %v", b.err)
	}
	defer func() {
		if t.Failed() {
			t.Logf("the first A:\n%s\nA back:\n%s\nB:\n%s", a1.out.String(), outA, outB)
		}
	}()
	line := func(out, what string) string {
		t.Helper()
		m := regexp.MustCompile(`autopilot: ` + what + `: (.*)`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no %q line", what)
		}
		return m[1]
	}
	moved := line(outB, "lobby moved")
	t.Logf("B's lobby after the kill: %s", moved)
	for _, want := range []string{
		`title="Ada’s game · hosted by Bo"`, // the room keeps its name, and says who hosts it
		"setup=versus/5/2",                  // A's setup
		`chat="see you soon"`,               // A's line
		"0:Ada:false:false:false",           // A's seat held: not host, not ready (A never pressed it), not connected
		"1:Bo:true:true:true",               // B hosts, ready as it pressed
	} {
		if !strings.Contains(moved, want) {
			t.Errorf("B's lobby after the kill lacks %s", want)
		}
	}
	// B's lobby offers B's own invite code: B's addresses and port, B's key
	// (not the dead room's port, nor a wildcard address).
	code := regexp.MustCompile(`code="([^"]*)"`).FindStringSubmatch(moved)
	if code == nil || code[1] == "" {
		t.Errorf("B's lobby shows no invite code after the move")
	} else if c, err := invite.Decode(code[1]); err != nil {
		t.Errorf("B's invite code %q: %v", code[1], err)
	} else {
		for _, a := range c.Addrs {
			if a.Addr().IsUnspecified() || a.Port() == 7793 {
				t.Errorf("B's invite code names %v: want B's own address and standby port", a)
			}
		}
	}
	back := line(outA, "lobby back")
	t.Logf("A back: %s", back)
	for _, want := range []string{"me=0", "setup=versus/5/2", "0:Ada:false:", "1:Bo:true:true:true"} {
		if !strings.Contains(back, want) {
			t.Errorf("A back in the lobby lacks %s", want)
		}
	}
	if roomA := line(outA, "room"); !strings.Contains(roomA, `chat="see you soon"`) {
		t.Errorf("A, back on a new program, lacks the lobby's chat: %s", roomA)
	}
	room := line(outB, "room")
	if !strings.Contains(room, "0:Ada:false:true:true") || !strings.Contains(room, "1:Bo:true:true:true") {
		t.Errorf("B's lobby with A back: %s; want A connected and ready, a guest, B hosting", room)
	}
}
