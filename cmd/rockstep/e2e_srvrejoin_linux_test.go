package main

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServerRoomRejoinTwoWindows is issue 44's follow-up with real
// processes (docs/ARCHITECTURE.md, "One host"): a crashed player of a room
// on a server comes back to that room, not the server's default one. A
// `rockstep -server` listens on the namespace's loopback; window A, which
// knows it (-add-server) and whose namespace has no router (the lobby's
// verdict: no router), takes the lobby's offer and moves its room there,
// then window B joins with the server room's invite code. They play a
// co-op game; A's process is killed (SIGKILL: no goodbye) and started
// again on the same settings folder, and its autopilot presses Rejoin on
// the main menu. A must be back in the same server room (its id), in the
// same slot, B's window must say A is back, and the game goes on to a
// confirmed end: one hash at the same tick on both, and one results
// table.
//
//	xvfb-run -a -s "-screen 0 1280x720x24" go test -run ServerRoomRejoin ./cmd/rockstep/
func TestServerRoomRejoinTwoWindows(t *testing.T) {
	if !windowsInNamespace(t, "an end-to-end game", 5*time.Minute, "192.0.2.65") {
		return
	}
	const server = "127.0.0.1:7793" // the namespace's own loopback: no one else's port
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	srv := startLive(ctx, t, "server", filepath.Join(t.TempDir(), "S"), "-server", "-listen", server, "-lan=false", "-record", "off")
	defer func() { _ = srv.cmd.Process.Kill(); <-srv.done }()
	waitLogged(t, srv, "msg=listening", srv)

	// The hash tick is well after A is back (A dies at tick 400 and a
	// window starts in seconds; 60 ticks a second), so that both windows
	// log the hash of the same tick.
	dirA := filepath.Join(t.TempDir(), "A") // A's settings: its kept session survives the kill
	// -portmap: the router's verdict is what offers the move (the
	// namespace has no router: "no router"); startLive turns it off
	// for windows that do not say.
	a1 := startLive(ctx, t, "A", dirA, "-host", "-portmap", "-add-server", server, "-name", "Ada", "-seed", "44",
		"-autopilot", "wait-portmap; move-to-server; setup coop 5 1; ready; start 2; log-host; fly 400; linger 120")
	all := []*liveWindow{srv, a1}
	defer func() {
		for _, p := range all {
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	}()
	waitLogged(t, a1, "autopilot: move-to-server done", all...)
	moved := movedToServer.FindStringSubmatch(a1.out.String())
	codes := lobbyCode.FindAllStringSubmatch(a1.out.String(), -1)
	if moved == nil || len(codes) == 0 {
		t.Fatalf("A logged no move or no invite code:\n%s", a1.out.String())
	}
	roomID, code := moved[1], codes[len(codes)-1][1] // the server room's code, shown after the move
	t.Logf("%s; invite code %s", moved[0], code)

	// B reads its roster a second after the news that A is back: the news
	// comes in the turn's datagram at once, the roster that makes A the
	// host again in a reliable frame at the transport's next flush (the
	// screens agree within a round trip, not within a frame).
	b := startLive(ctx, t, "B", filepath.Join(t.TempDir(), "B"), "-name", "Bo",
		"-autopilot", "join "+code+"; ready; wait-back; linger 1; log-host; fly 2400; play-to-end; quit")
	all = append(all, b)
	waitLogged(t, a1, "autopilot: fly 400 done", all...)
	if err := a1.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("kill A: %v", err)
	}
	<-a1.done
	a2 := startLive(ctx, t, "A again", dirA, "-name", "Ada",
		"-autopilot", "rejoin; log-host; fly 2400; end-at 2500; play-to-end; quit")
	all = append(all, a2)
	<-a2.done
	<-b.done
	outA1, outA, outB := a1.out.String(), a2.out.String(), b.out.String()
	defer func() {
		if t.Failed() {
			t.Logf("the first A:\n%s\nA back:\n%s\nB:\n%s\nserver:\n%s", outA1, outA, outB, srv.out.String())
		}
	}()
	for _, p := range []*liveWindow{a2, b} {
		if p.err != nil {
			t.Errorf("%s: %v", p.name, p.err)
		}
	}
	if t.Failed() {
		return
	}
	hostLine := regexp.MustCompile(`autopilot: host: me=(\d+) powers=(\w+) roster=(-?\d+) (\S*) room-here=(\w+) paused=\w+ \(roster revision \d+ room (\d+):`)
	first, back, other := hostLine.FindStringSubmatch(outA1), hostLine.FindStringSubmatch(outA), hostLine.FindStringSubmatch(outB)
	if first == nil || back == nil || other == nil {
		t.Fatalf("a host line is missing: A %v, A back %v, B %v", first, back, other)
	}
	t.Logf("A before: %s", first[0])
	t.Logf("A back:   %s", back[0])
	t.Logf("B:        %s", other[0])
	if first[6] != roomID || back[6] != roomID || other[6] != roomID {
		t.Errorf("the rosters name rooms %s (A), %s (A back), %s (B): want the server room %s on all", first[6], back[6], other[6], roomID)
	}
	if back[1] != first[1] {
		t.Errorf("A came back in slot %s, it played in slot %s", back[1], first[1])
	}
	if back[2] != "true" || back[4] != "Ada" || other[4] != "Ada" {
		t.Errorf("A, who created the room, back: %s; B: %s; want A to host it again, on both rosters", back[0], other[0])
	}
	if back[5] != "false" {
		t.Errorf("A back says the room runs on its machine: %s", back[0])
	}
	if !strings.Contains(outA, "autopilot: rejoining ") || !strings.Contains(outA, " at "+server) {
		t.Errorf("A did not rejoin at the server %s:\n%s", server, outA)
	}
	if !strings.Contains(outB, "autopilot: news: Ada is back") {
		t.Errorf("B's window never said A is back")
	}
	hashLine := regexp.MustCompile(`autopilot: hash tick=(\d+) turn=\d+ hash=([0-9a-f]{16})`)
	ha, hb := hashLine.FindStringSubmatch(outA), hashLine.FindStringSubmatch(outB)
	if ha == nil || hb == nil || ha[1] != hb[1] || ha[2] != hb[2] {
		t.Errorf("the hashes differ or are missing: A back %v, B %v", ha, hb)
	} else {
		t.Logf("both: %s", ha[0])
	}
	ra, rb := resultsLine.FindStringSubmatch(outA), resultsLine.FindStringSubmatch(outB)
	if ra == nil || rb == nil || ra[0] != rb[0] {
		t.Errorf("the results differ or are missing:\nA: %v\nB: %v", ra, rb)
	} else {
		t.Logf("both show: %s", ra[2])
	}
	if strings.Contains(srv.out.String(), "refus") {
		t.Errorf("the server refused something:\n%s", srv.out.String())
	}
}
