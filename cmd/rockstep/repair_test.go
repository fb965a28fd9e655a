package main

import (
	"strings"
	"testing"
)

// TestFaultRepairOverSockets: `rockstep -bots 4 -join` a `-server` on
// loopback, one bot's world corrupted (-fault): it is repaired, the bots
// end in step, the summary says repairs=1, and the server logs and counts
// the repair.
func TestFaultRepairOverSockets(t *testing.T) {
	srv, addr := startServer(t)
	bots := start(t, "-bots", "4", "-join", addr, "-ticks", "1200", "-seed", "9", "-fault", "bot=2,flip@400")
	if exit, _ := bots.wait(t, gameLimit); exit != 0 {
		t.Fatalf("bots: exit %d; stdout %s; stderr:\n%s", exit, bots.stdout(), bots.stderr())
	}
	out := bots.stdout()
	for _, want := range []string{" hash_groups=1 ", " result_groups=1 ", " desyncs=0 ", " repairs=1 ", " strayed_out=0 "} {
		if !strings.Contains(out, want) {
			t.Errorf("the bots' summary lacks %q:\n%s", want, out)
		}
	}
	srv.waitMetrics(t, "one repair counted", func(m map[string]float64) bool {
		n := 0.0
		for k, v := range m {
			if strings.HasPrefix(k, "rockstep_repairs_total{") {
				n += v
			}
		}
		return n == 1
	})
	if !strings.Contains(srv.stderr(), "world was repaired") {
		t.Errorf("the server did not log the repair:\n%s", srv.stderr())
	}
}

// TestFaultHashLiarOverSockets: a bot that reports wrong hashes (its world
// honest) strays; the world it sends of that turn does not back its report,
// a lie; at its second it is sent away (repaired once or twice meanwhile);
// the other three finish in step and the run succeeds.
func TestFaultHashLiarOverSockets(t *testing.T) {
	srv, addr := startServer(t)
	bots := start(t, "-bots", "4", "-join", addr, "-ticks", "1200", "-seed", "9", "-fault", "bot=3,hash@300")
	if exit, _ := bots.wait(t, gameLimit); exit != 0 {
		t.Fatalf("bots: exit %d; stdout %s; stderr:\n%s", exit, bots.stdout(), bots.stderr())
	}
	out := bots.stdout()
	for _, want := range []string{" hash_groups=1 ", " result_groups=1 ", " desyncs=0 ", " strayed_out=1 "} {
		if !strings.Contains(out, want) {
			t.Errorf("the bots' summary lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, " repairs=1 ") && !strings.Contains(out, " repairs=2 ") {
		t.Errorf("the bots' summary says neither repairs=1 nor repairs=2:\n%s", out)
	}
	srv.waitMetrics(t, "one player sent away", func(m map[string]float64) bool { return m["rockstep_strayed_out_total"] == 1 })
	if !strings.Contains(srv.stderr(), "sent away") {
		t.Errorf("the server did not log the player sent away:\n%s", srv.stderr())
	}
}

// TestRefereeServerSettlesATwoPlayerLie: on `-server -referee` the room
// runs the engine itself, so one liar of two players (a tie the room
// could not settle otherwise) is sent away and the honest bot finishes.
func TestRefereeServerSettlesATwoPlayerLie(t *testing.T) {
	srv, addr := startServer(t, "-referee")
	if !strings.Contains(srv.stderr(), "referee=true") {
		t.Errorf("the server did not say it referees:\n%s", srv.stderr())
	}
	// Its room list says so to those who look for a server to play on.
	list := start(t, "-rooms", addr)
	if code, _ := list.wait(t, startLimit); code != 0 || !strings.Contains(list.stderr(), "the server referees its games") {
		t.Errorf("-rooms: exit %d, stderr:\n%s\nwant it to say the server referees", code, list.stderr())
	}
	bots := start(t, "-bots", "2", "-join", addr, "-ticks", "1200", "-seed", "9", "-fault", "bot=1,hash@300")
	if exit, _ := bots.wait(t, gameLimit); exit != 0 {
		t.Fatalf("bots: exit %d; stdout %s; stderr:\n%s", exit, bots.stdout(), bots.stderr())
	}
	out := bots.stdout()
	for _, want := range []string{" desyncs=0 ", " rewinds=0 ", " strayed_out=1 "} {
		if !strings.Contains(out, want) {
			t.Errorf("the bots' summary lacks %q:\n%s", want, out)
		}
	}
	srv.waitMetrics(t, "one player sent away", func(m map[string]float64) bool { return m["rockstep_strayed_out_total"] == 1 })
}
