package main

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"rockstep/internal/natlab"
	"rockstep/internal/testwait"
)

// TestPortmapLabRouterRestart: `rockstep -server -portmap` in the home
// behind miniupnpd gets its port opened and logs an invite code with the
// router's outside address; the router then loses power (miniupnpd
// killed, its nft rules, connection table and leases gone) and comes back
// after 3 s. The server asks it again on its own (the router announces
// its restart): the mapping is back in the router's table, and two bots
// on the internet join by the server's old invite code and play a game
// to one hash and one results table (issue 52, "a router that forgets").
func TestPortmapLabRouterRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a namespace lab, restarts its router and plays 10 seconds of game")
	}
	lab := natlab.Build(t, natlab.Options{})
	srv, code, mapped, wantMapping := mappedLabServer(t, lab)
	if !mapped() {
		t.Fatalf("upnpc -l lists %q, want %s", lab.Mappings(t, lab.Home), wantMapping)
	}

	lab.StopRouter(t, lab.Router)
	<-time.After(3 * time.Second) // the outage itself: the router is down (a real reboot takes a minute)
	back := time.Now()
	lab.StartRouter(t, lab.Router)
	if !testwait.Until(gameLimit, mapped) {
		t.Fatalf("after the router came back upnpc -l lists %q, want %s\nserver:\n%s", lab.Mappings(t, lab.Home), wantMapping, srv.stderr())
	}
	t.Logf("the mapping was back in the router's table (upnpc -l, itself slow) %v after the router was started again", time.Since(back).Round(time.Millisecond))

	bots := startInLab(t, lab, lab.Internet, "-bots", "2", "-join", code, "-players", "2", "-ticks", "600", "-seed", "1")
	if exit, _ := bots.wait(t, gameLimit); exit != 0 {
		t.Fatalf("bots exited %d:\n%s\n%s\nserver:\n%s", exit, bots.stdout(), bots.stderr(), srv.stderr())
	}
	s := botHash.FindStringSubmatch(bots.stdout())
	if s == nil || s[2] != "1" || s[4] != "1" {
		t.Fatalf("bots' summary %q: want one hash and one results table", bots.stdout())
	}
	t.Logf("bots joined by the old code %s: %s", code, strings.TrimSpace(bots.stdout()))
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if exit, _ := srv.wait(t, startLimit); exit != 0 {
		t.Fatalf("server exited %d after SIGTERM:\n%s", exit, srv.stderr())
	}
	if got := lab.Mappings(t, lab.Home); len(got) != 0 {
		t.Fatalf("after SIGTERM upnpc -l lists %q, want no mapping", got)
	}
}

// mappedLabServer starts `-server -portmap` in lab's home and waits for its
// invite code with the router's outside address. mapped reports whether
// the router's table (upnpc -l) holds the server's one mapping, wantMapping.
func mappedLabServer(t *testing.T, lab *natlab.Lab) (srv *proc, code string, mapped func() bool, wantMapping string) {
	t.Helper()
	srv = startInLab(t, lab, lab.Home, "-server", "-portmap", "-listen", ":7777", "-lan=false", "-record", "off")
	external := natlab.External.String() + ":7777"
	if !testwait.Until(startLimit, func() bool { code = codeWith(srv.stderr(), external); return code != "" }) {
		t.Fatalf("no invite code with %s logged within %v:\n%s", external, startLimit, srv.stderr())
	}
	wantMapping = "7777->" + natlab.HomeHost.String() + ":7777"
	mapped = func() bool {
		m := lab.Mappings(t, lab.Home)
		return len(m) == 1 && strings.Contains(m[0], wantMapping)
	}
	return srv, code, mapped, wantMapping
}
