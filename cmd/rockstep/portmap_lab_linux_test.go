package main

import (
	"context"
	"net/netip"
	"os"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"rockstep/internal/natlab"
	"rockstep/internal/testwait"
	"rockstep/net/invite"
)

// startInLab runs the command with args in namespace ns of the lab, as
// start does on the machine; a window (-host) keeps the machine's DISPLAY.
func startInLab(t *testing.T, lab *natlab.Lab, ns string, args ...string) *proc {
	t.Helper()
	return startCmd(t, lab.Command(context.Background(), ns, os.Args[0], args...), args[0] == "-host")
}

var (
	portmapOpened = regexp.MustCompile(`time=(\S+) level=INFO msg=portmap verdict=opened proto=(\S+) external=(\S+)`)
	listeningAt   = regexp.MustCompile(`time=(\S+) level=INFO msg=listening`)
	botHash       = regexp.MustCompile(`hash=([0-9a-f]{16}) hash_groups=(\d+) results=([0-9a-f]{16}) result_groups=(\d+)`)
	serverCode    = regexp.MustCompile(`msg="invite code" code=(\S+) addrs="?\[([^\]]*)\]`)
)

// codeWith returns the last invite code the server logged whose addresses
// include addr, or "".
func codeWith(log, addr string) string {
	code := ""
	for _, m := range serverCode.FindAllStringSubmatch(log, -1) {
		if slices.Contains(strings.Fields(m[2]), addr) {
			code = m[1]
		}
	}
	return code
}

// labMappings lists the UDP mappings of the router of ns, as upnpc -l

// TestPortmapLabGame: `rockstep -server -portmap` in a home behind a
// router running miniupnpd (internal/natlab) gets its port opened and
// logs the external address and an invite code that carries it first;
// two bots on the internet and two in the home join with that code (each
// keeps the address that answers with the server's key: the outside one,
// or the LAN one); the four play a game to its end on one hash and one
// results table; after SIGTERM the router holds no mapping.
func TestPortmapLabGame(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a namespace lab and plays 10 seconds of game")
	}
	lab := natlab.Build(t, natlab.Options{})
	srv := startInLab(t, lab, lab.Home, "-server", "-portmap", "-listen", ":7777", "-lan=false", "-record", "off")
	var m []string
	if !testwait.Until(startLimit, func() bool { m = portmapOpened.FindStringSubmatch(srv.stderr()); return m != nil }) {
		t.Fatalf("no port mapping opened within %v:\n%s", startLimit, srv.stderr())
	}
	if l := listeningAt.FindStringSubmatch(srv.stderr()); l != nil {
		t0, err0 := time.Parse(time.RFC3339Nano, l[1])
		t1, err1 := time.Parse(time.RFC3339Nano, m[1])
		if err0 == nil && err1 == nil {
			t.Logf("from listening to the router's verdict: %v (%s)", t1.Sub(t0), m[0])
		}
	}
	external := natlab.External.String() + ":7777"
	if m[3] != external || m[2] != "PCP" {
		t.Fatalf("opened by %s at %s, want by PCP at %s", m[2], m[3], external)
	}
	var code string
	if !testwait.Until(startLimit, func() bool { code = codeWith(srv.stderr(), external); return code != "" }) {
		t.Fatalf("no invite code with %s logged within %v:\n%s", external, startLimit, srv.stderr())
	}
	t.Logf("invite code %s", code)
	if got := lab.Mappings(t, lab.Home); len(got) != 1 || !strings.Contains(got[0], "7777->"+natlab.HomeHost.String()+":7777") {
		t.Fatalf("upnpc -l lists %q, want 7777->%v:7777", got, natlab.HomeHost)
	}
	outside := startInLab(t, lab, lab.Internet, "-bots", "2", "-join", code, "-players", "4", "-ticks", "600", "-seed", "1")
	inside := startInLab(t, lab, lab.Home, "-bots", "2", "-join", code, "-players", "4", "-ticks", "600", "-seed", "2")
	var sums [][]string
	for _, b := range []*proc{outside, inside} {
		if code, _ := b.wait(t, gameLimit); code != 0 {
			t.Fatalf("bots exited %d:\n%s\n%s\nserver:\n%s", code, b.stdout(), b.stderr(), srv.stderr())
		}
		s := botHash.FindStringSubmatch(b.stdout())
		if s == nil || s[2] != "1" || s[4] != "1" {
			t.Fatalf("bots' summary %q: want one hash and one results table", b.stdout())
		}
		t.Logf("bots: %s", strings.TrimSpace(b.stdout()))
		sums = append(sums, s)
	}
	if sums[0][1] != sums[1][1] || sums[0][3] != sums[1][3] {
		t.Fatalf("outside and inside ended on different games: hash %s vs %s, results %s vs %s", sums[0][1], sums[1][1], sums[0][3], sums[1][3])
	}
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code, _ := srv.wait(t, startLimit); code != 0 {
		t.Fatalf("server exited %d after SIGTERM:\n%s", code, srv.stderr())
	}
	if got := lab.Mappings(t, lab.Home); len(got) != 0 {
		t.Fatalf("after SIGTERM upnpc -l lists %q, want no mapping", got)
	}
}

var (
	portmapSaid = regexp.MustCompile(`autopilot: portmap: (.*) \((\S+) after this step began\)`)
	lobbyCode   = regexp.MustCompile(`autopilot: invite code: (\S+)`)
)

// TestPortmapLabHostButton: the game's window in the home behind
// miniupnpd, opened with -host (the Host button's path), shows in its
// lobby that the router opened the port by PCP with the external address;
// upnpc -l lists the mapping while the lobby is open, and none once the
// player has quit.
func TestPortmapLabHostButton(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a namespace lab and opens a window")
	}
	if os.Getenv("DISPLAY") == "" {
		t.Skip("needs a display (DISPLAY is empty): run under xvfb-run -a -s \"-screen 0 1280x720x24\"")
	}
	lab := natlab.Build(t, natlab.Options{})
	win := startInLab(t, lab, lab.Home, "-host", "-name", "Hostess", "-autopilot", "wait-portmap; hold-lobby 10; quit")
	var m []string
	if !testwait.Until(stepLimit, func() bool { m = portmapSaid.FindStringSubmatch(win.stderr()); return m != nil }) {
		t.Fatalf("the lobby said nothing of the router within %v:\n%s", stepLimit, win.stderr())
	}
	t.Logf("the lobby says, %s after it opened: %s", m[2], m[1])
	if want := "Players on the internet can join with the invite code below (your router opened port 7777 by PCP: " + natlab.External.String() + ":7777)"; !strings.Contains(m[1], want) {
		t.Fatalf("the lobby says %q, want %q", m[1], want)
	}
	c := lobbyCode.FindStringSubmatch(win.stderr())
	if c == nil {
		t.Fatalf("the lobby showed no invite code:\n%s", win.stderr())
	}
	if code, err := invite.Decode(c[1]); err != nil || !slices.Contains(code.Addrs, netip.AddrPortFrom(natlab.External, 7777)) {
		t.Fatalf("the lobby's invite code %s (%v, %v) does not carry the router's outside address", c[1], code.Addrs, err)
	}
	if got := lab.Mappings(t, lab.Home); len(got) != 1 || !strings.Contains(got[0], "7777->"+natlab.HomeHost.String()+":7777") {
		t.Fatalf("upnpc -l lists %q, want 7777->%v:7777", got, natlab.HomeHost)
	}
	if code, _ := win.wait(t, gameLimit); code != 0 {
		t.Fatalf("the window exited %d:\n%s", code, win.stderr())
	}
	if got := lab.Mappings(t, lab.Home); len(got) != 0 {
		t.Fatalf("after Quit upnpc -l lists %q, want no mapping", got)
	}
}
