package main

import (
	"fmt"
	"net/netip"
	"os"
	"regexp"
	"strings"
	"testing"

	"rockstep/internal/natlab"
	"rockstep/internal/testwait"
	"rockstep/net/invite"
)

var (
	movedToServer = regexp.MustCompile(`autopilot: moved to server: room (\d+) at (\S+)`)
	labResults    = regexp.MustCompile(`autopilot: results digest=([0-9a-f]{16}) (.*)`)
	rematchDone   = "autopilot: rematch done"
)

// TestServerLabMoveRoom: the game's window in home2, whose router runs no
// miniupnpd (internal/natlab), hosts a game, and its lobby says the router
// did not answer; it offers to move the room to the server it knows
// (-add-server), a `rockstep -server` in the internet namespace, and the
// host takes the offer: the room opens there, the window plays in it as
// its host, and the lobby shows the server room's invite code. Two guests
// join with that code, a bot on the internet and one behind the double NAT
// of home3; the three play to a confirmed end on one hash and one results
// table (the bots' summaries and the window's results). Back in the lobby
// for a rematch, a new guest joins and is ready with the host, and the
// rematch waits (hold-lobby) until the creator presses Start.
func TestServerLabMoveRoom(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a namespace lab, opens a window and plays two games")
	}
	if os.Getenv("DISPLAY") == "" {
		t.Skip("needs a display (DISPLAY is empty): run under xvfb-run -a -s \"-screen 0 1280x720x24\"")
	}
	lab := natlab.Build(t, natlab.Options{})
	// The server has one address of its own, as a server on the internet
	// does, bound: the internet namespace is on three links, and a
	// socket on all of them answers a guest from the address of the link
	// the answer leaves by, which a NAT in front of that guest drops.
	server := netip.MustParseAddrPort("203.0.113.77:7777")
	if out, err := lab.Output(lab.Internet, "ip", "addr", "add", server.Addr().String()+"/32", "dev", "lo"); err != nil {
		t.Fatalf("natlab: %v: %s", err, out)
	}
	srv := startInLab(t, lab, lab.Internet, "-server", "-listen", server.String(), "-lan=false", "-record", "off")
	if !testwait.Until(startLimit, func() bool { return listeningAt.MatchString(srv.stderr()) }) {
		t.Fatalf("the server did not start within %v:\n%s", startLimit, srv.stderr())
	}
	// The host reads the results for 3 s before Back to lobby, as a
	// player does: a Ready that comes before the guests have seen the end
	// confirmed returns the room to setup under them (net/room takeReady),
	// and a bot then never sees its game finish.
	win := startInLab(t, lab, lab.Home2, "-host", "-name", "Hostess", "-add-server", server.String(), "-autopilot",
		"wait-portmap; move-to-server; ready; start 3; end-at 600; play-to-end; linger 3; rematch; wait-players 2; hold-lobby 5; start 2; end-at 300; play-to-end; quit")
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf(format+"\nwindow:\n%s\nserver:\n%s", append(args, win.stderr(), srv.stderr())...)
	}
	var said []string
	if !testwait.Until(stepLimit, func() bool { said = portmapSaid.FindStringSubmatch(win.stderr()); return said != nil }) {
		fail("the lobby said nothing of the router within %v", stepLimit)
	}
	if !strings.Contains(said[1], "your router did not answer") {
		fail("the lobby says %q, want that the router did not answer", said[1])
	}
	var moved []string
	if !testwait.Until(stepLimit, func() bool { moved = movedToServer.FindStringSubmatch(win.stderr()); return moved != nil }) {
		fail("the room did not move to the server within %v", stepLimit)
	}
	codes := lobbyCode.FindAllStringSubmatch(win.stderr(), -1)
	code := codes[len(codes)-1][1] // the server room's, shown after the move
	c, err := invite.Decode(code)
	if err != nil || c.RoomID == 0 || len(c.Addrs) != 1 || c.Addrs[0] != server {
		fail("the lobby's code %s after the move is %+v (%v): want room %s on %v", code, c, err, moved[1], server)
	}
	t.Logf("%s; invite code %s", moved[0], code)

	guests := []*proc{
		startInLab(t, lab, lab.Internet, "-bots", "1", "-join", code, "-players", "3", "-ticks", "600", "-seed", "1"),
		startInLab(t, lab, lab.Home3, "-bots", "1", "-join", code, "-players", "3", "-ticks", "600", "-seed", "2"),
	}
	sums := botSums(t, guests, fail)
	if !testwait.Until(stepLimit, func() bool { return strings.Contains(win.stderr(), rematchDone) }) {
		fail("the window did not go back to the lobby for a rematch within %v", stepLimit)
	}
	first := labResults.FindAllStringSubmatch(win.stderr(), -1)
	if len(first) != 1 || first[0][1] != sums[0][3] {
		fail("the window's results %q, the bots' results digest %s: want one table", first, sums[0][3])
	}
	t.Logf("first game: %s", first[0][0])

	late := startInLab(t, lab, lab.Internet, "-bots", "1", "-join", code, "-players", "2", "-ticks", "300", "-seed", "3")
	if code, _ := win.wait(t, gameLimit); code != 0 {
		fail("the window exited %d", code)
	}
	again := botSums(t, []*proc{late}, fail)
	out := win.stderr()
	held, started := strings.Index(out, "autopilot: hold-lobby 5 done"), strings.LastIndex(out, "autopilot: starting with 2 players")
	if held < 0 || started < held {
		fail("the rematch did not wait for the creator's Start (hold-lobby at %d, start at %d)", held, started)
	}
	both := labResults.FindAllStringSubmatch(out, -1)
	if len(both) != 2 || both[1][1] != again[0][3] {
		fail("the window's results %q, the rematch bot's digest %s: want two games, the second the bot's", both, again[0][3])
	}
	t.Logf("rematch: %s", both[1][0])
}

// botSums waits for each bots process to exit 0 and returns their summary
// lines' matches, failing unless each says one hash and one results table
// and all say the same.
func botSums(t *testing.T, bots []*proc, fail func(string, ...any)) [][]string {
	t.Helper()
	codes := make([]int, len(bots))
	for i, b := range bots {
		codes[i], _ = b.wait(t, gameLimit)
	}
	var sums [][]string
	for i, b := range bots {
		if codes[i] != 0 {
			var all strings.Builder
			for j, o := range bots {
				fmt.Fprintf(&all, "bots %d exited %d:\n%s%s\n", j, codes[j], o.stdout(), o.stderr())
			}
			fail("%s", all.String())
		}
		s := botHash.FindStringSubmatch(b.stdout())
		if s == nil || s[2] != "1" || s[4] != "1" {
			fail("bots' summary %q: want one hash and one results table", b.stdout())
		}
		t.Logf("bots: %s", strings.TrimSpace(b.stdout()))
		if len(sums) > 0 && (s[1] != sums[0][1] || s[3] != sums[0][3]) {
			fail("the guests ended on different games: hash %s vs %s, results %s vs %s", s[1], sums[0][1], s[3], sums[0][3])
		}
		sums = append(sums, s)
	}
	return sums
}
