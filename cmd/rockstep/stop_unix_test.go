//go:build unix

package main

import (
	"strings"
	"syscall"
	"testing"
)

// TestStoppedBotRejoins: a bot process stopped for longer than the
// transport's silence timeout (SIGSTOP, as a machine that froze) is sent
// away; when it runs again it rejoins with its token as the same player,
// and both bots end on the same hash and results.
func TestStoppedBotRejoins(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 15 seconds of game")
	}
	t.Parallel()
	srv, a, b, _ := startTwoBotGame(t, 900, 900)
	if err := b.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	// Past the 3 s silence timeout, the server lets the frozen bot go.
	srv.waitMetrics(t, "the server lets the frozen bot's connection go", connections(1))
	if err := b.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	var hashes, results []string
	for name, p := range map[string]*proc{"a": a, "b": b} {
		code, _ := p.wait(t, gameLimit)
		out := p.stdout()
		if code != 0 {
			t.Fatalf("bot %s: exit %d\n%s\n%s", name, code, out, p.stderr())
		}
		if name == "b" && !strings.Contains(out, "rejoins=1") {
			t.Errorf("the stopped bot did not rejoin with its token: %s", out)
		}
		hashes = append(hashes, hashField.FindString(out))
		results = append(results, resultsField.FindString(out))
	}
	if hashes[0] != hashes[1] || results[0] != results[1] || hashes[0] == "" {
		t.Errorf("the bots ended apart: %v %v", hashes, results)
	}
}
