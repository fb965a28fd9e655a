//go:build unix

package main

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestBotsFollowAMigration: issue 52's "bots follow a migration exactly as
// windows do". Three bots (`-bots 3 -join`, one process, each with its own
// standby port) play on a `-server -handover` process, which is killed
// (SIGKILL: no word) mid-game. The bots walk their successor list as a
// window's player does, the game goes on at the first successor, and they
// end it together: hash_groups=1.
func TestBotsFollowAMigration(t *testing.T) {
	if testing.Short() {
		t.Skip("a real-socket game of several seconds")
	}
	srv, addr := startServer(t, "-handover")
	bots := start(t, "-bots", "3", "-join", addr, "-ticks", "1500", "-seed", "11")
	srv.waitMetrics(t, "the bots' game a few seconds in", func(m map[string]float64) bool {
		return m["rockstep_rooms_running"] == 1 && m["rockstep_turns_total"] >= 200
	})
	if err := srv.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = srv.cmd.Wait()
	code, took := bots.wait(t, 3*time.Minute)
	out := bots.stdout()
	if code != 0 {
		t.Fatalf("the bots exited %d after the host was killed (%v):\nstdout: %s\nstderr:\n%s", code, took, out, bots.stderr())
	}
	if !strings.Contains(out, "hash_groups=1") {
		t.Fatalf("the bots did not end on one hash:\n%s\nstderr:\n%s", out, bots.stderr())
	}
	if m := regexp.MustCompile(`bots=(\d+)`).FindStringSubmatch(out); m == nil || m[1] != "3" {
		t.Errorf("summary %q: want the three bots in it", out)
	}
	t.Logf("after the host was killed the bots ended in %v: %s", took.Round(time.Millisecond), strings.TrimSpace(out))
}
