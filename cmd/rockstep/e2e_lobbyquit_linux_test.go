package main

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestLobbyHostQuitsTwoWindows: issue 52's lobby whose host presses Quit,
// with real processes (docs/ARCHITECTURE.md, "When the host goes away"):
// host A (-host -listen) sets up a versus game; guest B joins by address
// and presses Ready. Once a successor is named, A says a line (once B is
// in: a room sends no chat from before a player joined) and quits from
// its lobby (the Leave the Quit button and the window's close take).
// B is not sent to the main menu: its window carries the lobby on at
// once, with A's setup and chat, B hosting and still ready, A gone (it
// left by choice: no seat held), the title "Ada’s game · hosted by Bo",
// and B reads "The host left: you host the room now.", never "Waiting for
// the host…" (A said it was going).
//
//	xvfb-run -a -s "-screen 0 1280x720x24" go test -run LobbyHostQuitsTwoWindows ./cmd/rockstep/
func TestLobbyHostQuitsTwoWindows(t *testing.T) {
	if !windowsInNamespace(t, "an end-to-end lobby", 5*time.Minute, "192.0.2.66") {
		return
	}
	const addr = "127.0.0.1:7794" // the namespace's own loopback
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	a := startLive(ctx, t, "A", filepath.Join(t.TempDir(), "A"), "-host", "-listen", addr, "-portmap=false", "-name", "Ada", "-seed", "52",
		"-autopilot", "setup versus 5 2; wait-successor; say see_you_soon; hold-lobby 2; quit")
	b := startLive(ctx, t, "B", filepath.Join(t.TempDir(), "B"), "-name", "Bo", "-portmap=false",
		"-autopilot", "join "+addr+"; ready; wait-chat; wait-lobby-moved; log-room; hold-lobby 2; log-room; quit")
	defer func() {
		for _, p := range []*liveWindow{a, b} {
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	}()
	waitLogged(t, b, "autopilot: lobby moved:", a, b)
	<-a.done
	<-b.done
	outA, outB := a.out.String(), b.out.String()
	defer func() {
		if t.Failed() {
			t.Logf("A:\n%s\nB:\n%s", outA, outB)
		}
	}()
	if a.err != nil || b.err != nil {
		t.Errorf("A: %v, B: %v", a.err, b.err)
	}
	lines := regexp.MustCompile(`autopilot: (?:lobby moved|room): (.*)`).FindAllStringSubmatch(outB, -1)
	if len(lines) < 3 {
		t.Fatalf("B logged %d lobby lines, want 3", len(lines))
	}
	moved, first, later := lines[0][1], lines[1][1], lines[2][1]
	t.Logf("B's lobby after A quit: %s", moved)
	for _, want := range []string{
		`title="Ada’s game · hosted by Bo"`, // the room keeps its name, and says who hosts it
		"setup=versus/5/2",                  // A's setup
		`chat="see you soon"`,               // A's line
		"roster=1:Bo:true:true:true hint=",  // B alone, hosting, ready as it pressed; A's seat not held
	} {
		if !strings.Contains(moved, want) {
			t.Errorf("B's lobby after A quit lacks %s", want)
		}
	}
	const said = `moved="The host left: you host the room now."` // B is the successor
	if !strings.Contains(first, said) {
		t.Errorf("B's lobby after A quit did not say %s: %s", said, first)
	}
	if !strings.Contains(later, "roster=1:Bo:true:true:true hint=") {
		t.Errorf("B's lobby two seconds on: %s; want B alone, hosting", later)
	}
	if strings.Contains(outB, "Waiting for the host") || strings.Contains(outB, "connection to the game was lost") {
		t.Error("B waited for a host that said it was going, or lost the room")
	}
}
