package main

import (
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"rockstep/internal/natlab"
	"rockstep/internal/testwait"
)

var (
	metricsListen = regexp.MustCompile(`msg=metrics addr=127\.0\.0\.1:(\d+)`)
	turnsTotal    = regexp.MustCompile(`(?m)^rockstep_turns_total (\d+)`)
	connCount     = regexp.MustCompile(`(?m)^rockstep_connections (\d+)`)
	botFinal      = regexp.MustCompile(`turn=(\d+) hash=([0-9a-f]{16}) hash_groups=(\d+)`)
	botStall      = regexp.MustCompile(`stall_ms_max=(\d+)`)
)

// TestCutApartLabHostKilled: issue 52's "never two games" across NATs, in
// the namespace lab (internal/natlab, as root). The host is a `-server
// -handover -portmap` in the home behind miniupnpd (its port mapped); one
// bot player (`-bots 1 -join CODE`, a window's migration) sits behind a
// NAT without mapping (home2), one behind a port-randomising NAT
// (`masquerade fully-random`), one on the internet with an address of its
// own. Nobody reaches the standby ports behind the NATs; both guests
// there reach the one on the internet, so the room lists it first
// (room.Room's majority-reach order). The host is killed mid-game: the
// three meet at that successor, exactly one game goes on, and every
// player ends it at the same turn on the same hash. Logged: each player's
// longest stall (the loss of the host to play at the successor, with the
// silence that detects it).
func TestCutApartLabHostKilled(t *testing.T) {
	cutApartLab(t, sendHost(syscall.SIGKILL))
}

// TestCutApartLabHostQuits: the same lab, the host stopped with SIGTERM
// (`-server -handover` hands its game over, as a host's window closing
// does): the players go to the first successor at once, one game.
func TestCutApartLabHostQuits(t *testing.T) {
	cutApartLab(t, sendHost(syscall.SIGTERM))
}

// TestCutApartLabRouterFlushed: the same lab, the host's router loses its
// rules and connection table (nft flush, conntrack -F: what a reboot
// does) while the host runs: the players lose it, meet at the player
// on the internet and play one game.
func TestCutApartLabRouterFlushed(t *testing.T) {
	cutApartLab(t, func(t *testing.T, lab *natlab.Lab, _ *proc) {
		for _, cmd := range [][]string{{"nft", "flush", "ruleset"}, {"conntrack", "-F"}} {
			if out, err := lab.Output(lab.Router, cmd[0], cmd[1:]...); err != nil {
				t.Fatalf("%v in the host's router: %v: %s", cmd, err, out)
			}
		}
	})
}

// sendHost is a cut that sends the host's process sig.
func sendHost(sig syscall.Signal) func(*testing.T, *natlab.Lab, *proc) {
	return func(t *testing.T, _ *natlab.Lab, srv *proc) {
		if err := srv.cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		_ = srv.cmd.Wait()
	}
}

// cutApartLab plays the lab's game and cuts the host away from its
// players with cut at turn 300.
func cutApartLab(t *testing.T, cut func(*testing.T, *natlab.Lab, *proc)) {
	if testing.Short() {
		t.Skip("builds a namespace lab and plays a game of 30 s")
	}
	lab := natlab.Build(t, natlab.Options{})
	random := lab.AddRandomHome(t)
	public := lab.AddPublicHost(t)
	srv := startInLab(t, lab, lab.Home, "-server", "-handover", "-portmap", "-listen", ":7777", "-lan=false", "-record", "off", "-metrics", "127.0.0.1:0")
	external := natlab.External.String() + ":7777"
	var code string
	if !testwait.Until(startLimit, func() bool { code = codeWith(srv.stderr(), external); return code != "" }) {
		t.Fatalf("no invite code with %s logged within %v:\n%s", external, startLimit, srv.stderr())
	}
	metric := func(re *regexp.Regexp) int {
		m := metricsListen.FindStringSubmatch(srv.stderr())
		if m == nil {
			return 0
		}
		out, err := lab.Output(lab.Home, "curl", "-s", "http://127.0.0.1:"+m[1]+"/metrics")
		if err != nil {
			return 0
		}
		n := re.FindStringSubmatch(out)
		if n == nil {
			return 0
		}
		v, _ := strconv.Atoi(n[1])
		return v
	}
	turns := func() int { return metric(turnsTotal) }
	// The players behind NATs join first and take the lowest slots: by
	// slot alone the first successor would be one nobody can reach.
	players := map[string]*proc{}
	for i, home := range []struct{ name, ns string }{{"behind a NAT without mapping", lab.Home2}, {"behind a port-randomising NAT", random}, {"on the internet", public}} {
		if i == 2 && !testwait.Until(startLimit, func() bool { return metric(connCount) == 2 }) {
			t.Fatalf("the players behind NATs did not connect within %v:\nserver:\n%s", startLimit, srv.stderr())
		}
		players[home.name] = startInLab(t, lab, home.ns, "-bots", "1", "-join", code, "-players", "3", "-ticks", "1800", "-seed", strconv.Itoa(i+1))
	}
	// Ten seconds of game: every player's standby probed the others' many
	// times, and the room ordered the successors by what they reached.
	if !testwait.Until(gameLimit, func() bool { return turns() >= 300 }) {
		t.Fatalf("the game did not reach turn 300 within %v:\nserver:\n%s", gameLimit, srv.stderr())
	}
	cut(t, lab, srv)
	var game oneGame
	for name, p := range players {
		code, _ := p.wait(t, gameLimit)
		game.check(t, name, code, p.stdout(), p.stderr())
	}
	logPlayersOnFailure(t, players)
}

// oneGame gathers the turn and hash each bot player of a lab game ended
// on: every player checked must have ended on the first one's.
type oneGame struct{ turn, hash string }

// check reads one bot player's exit code and summary line (botFinal):
// it must have exited 0 with hash_groups=1, on the turn and hash of the
// players checked before it. Its longest stall is logged.
func (g *oneGame) check(t *testing.T, name string, code int, out, log string) {
	t.Helper()
	if code != 0 {
		t.Errorf("the player %s exited %d:\n%s\n%s", name, code, out, log)
		return
	}
	m := botFinal.FindStringSubmatch(out)
	if m == nil || m[3] != "1" {
		t.Errorf("the player %s: summary %q", name, out)
		return
	}
	if s := botStall.FindStringSubmatch(out); s != nil {
		t.Logf("%s: ended at turn %s on hash %s; longest stall %s ms (the host's loss to play at the successor)", name, m[1], m[2], s[1])
	}
	if g.hash == "" {
		g.turn, g.hash = m[1], m[2]
	} else if m[1] != g.turn || m[2] != g.hash {
		t.Errorf("two games: %s ended at turn %s on %s, another player at turn %s on %s", name, m[1], m[2], g.turn, g.hash)
	}
}

// logPlayersOnFailure logs every player's log when the test failed.
func logPlayersOnFailure(t *testing.T, players map[string]*proc) {
	t.Helper()
	if t.Failed() {
		for name, p := range players {
			t.Logf("%s's log:\n%s", name, strings.TrimSpace(p.stderr()))
		}
	}
}
