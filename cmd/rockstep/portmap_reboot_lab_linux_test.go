package main

import (
	"strings"
	"testing"
	"time"

	"rockstep/internal/natlab"
	"rockstep/internal/testwait"
)

// TestPortmapLabRouterRebootMidGame is issue 52's router that forgets, in
// the middle of a game: `-server -portmap` at home, two bots on the
// internet playing through its mapped port, and the home router reboots
// (miniupnpd killed, its rules and connection table flushed, started
// again at once). The server notices (its guests fall silent together,
// and PCP's epoch) and asks the router again; the bots come back through
// the new mapping and the game ends on one hash, with the mapping in the
// router's table again.
func TestPortmapLabRouterRebootMidGame(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a namespace lab, reboots its router mid-game and plays 20 seconds of game")
	}
	lab := natlab.Build(t, natlab.Options{})
	srv, code, mapped, wantMapping := mappedLabServer(t, lab)

	// 1200 ticks: 20 s of game, long enough that the reboot falls well
	// inside it whatever the machine's load.
	bots := startInLab(t, lab, lab.Internet, "-bots", "2", "-join", code, "-players", "2", "-ticks", "1200", "-seed", "3")
	running := func() bool { return strings.Contains(srv.stderr(), "state=running") }
	if !testwait.Until(gameLimit, running) {
		t.Fatalf("the bots' game did not start within %v:\nbots:\n%s\nserver:\n%s", gameLimit, bots.stderr(), srv.stderr())
	}
	lab.StopRouter(t, lab.Router)
	rebooted := time.Now()
	lab.StartRouter(t, lab.Router)
	if !testwait.Until(gameLimit, mapped) {
		t.Fatalf("after the reboot upnpc -l lists %q, want %s\nserver:\n%s", lab.Mappings(t, lab.Home), wantMapping, srv.stderr())
	}
	t.Logf("the mapping was back in the router's table (upnpc -l, itself slow) %v after the reboot", time.Since(rebooted).Round(time.Millisecond))

	if exit, _ := bots.wait(t, gameLimit); exit != 0 {
		t.Fatalf("bots exited %d:\n%s\n%s\nserver:\n%s", exit, bots.stdout(), bots.stderr(), srv.stderr())
	}
	s := botHash.FindStringSubmatch(bots.stdout())
	if s == nil || s[2] != "1" || s[4] != "1" {
		t.Fatalf("bots' summary %q: want one hash and one results table\nbots:\n%s\nserver:\n%s", bots.stdout(), bots.stderr(), srv.stderr())
	}
	if strings.Contains(srv.stderr(), "game handed over") || strings.Contains(srv.stderr(), "given to another successor") {
		t.Fatalf("the server's game moved away over a router reboot:\n%s", srv.stderr())
	}
	t.Logf("one game through the reboot: %s", strings.TrimSpace(bots.stdout()))
}
