package bots_test

import (
	"strings"
	"testing"

	"rockstep/net/bots"
	"rockstep/net/transport"
)

func run(t *testing.T, seed uint64, spec string) bots.Summary {
	t.Helper()
	imp, err := transport.ParseImpairment(spec)
	if err != nil {
		t.Fatal(err)
	}
	l, err := bots.NewLocal(bots.Config{Bots: 3, Ticks: 1200, Seed: seed, Fast: true, Net: imp})
	if err != nil {
		t.Fatal(err)
	}
	s, err := l.Run()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSameSeedSameRun: on the virtual clock, a seed fixes everything, bad
// network included.
func TestSameSeedSameRun(t *testing.T) {
	const spec = "latency=40ms,jitter=30ms,loss=10%,dup=5%,reorder=5%"
	a, b := run(t, 21, spec), run(t, 21, spec)
	if a.Hash != b.Hash || a.Turn != b.Turn || a.StallMax != b.StallMax || a.UpBytesPerS != b.UpBytesPerS {
		t.Fatalf("same seed, different runs:\n%s\n%s", a, b)
	}
	if c := run(t, 22, spec); c.Hash == a.Hash {
		t.Error("a different seed gave the same game")
	}
}

func TestSummaryLine(t *testing.T) {
	s := run(t, 1, "")
	line := s.String()
	for _, key := range []string{"bots=3 ", "ticks=1200 ", "played=", "hash=", "hash_groups=1 ", "results=", "result_groups=1 ", "desyncs=0 ", "stall_ms_max=", "rtt_ms_p50=", "up_bytes_per_s=", "down_bytes_per_s=", "game_s=", "speed="} {
		if !strings.Contains(line, key) {
			t.Errorf("summary %q lacks %q", line, key)
		}
	}
	if strings.Contains(line, "\n") {
		t.Error("the summary must be one line")
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []bots.Config{{Bots: 0, Ticks: 10}, {Bots: 9, Ticks: 10}, {Bots: 2, Ticks: 0}} {
		if _, err := bots.NewLocal(c); err == nil {
			t.Errorf("NewLocal(%+v) accepted a bad config", c)
		}
	}
}

func TestPilotIsDeterministic(t *testing.T) {
	a, b := bots.NewPilot(5), bots.NewPilot(5)
	changes := 0
	prev := a.Next()
	b.Next()
	for i := 0; i < 1000; i++ {
		x, y := a.Next(), b.Next()
		if x != y {
			t.Fatalf("tick %d: %v vs %v", i, x, y)
		}
		if x != prev {
			changes++
		}
		prev = x
	}
	if changes < 20 {
		t.Errorf("the pilot changed its input %d times in 1000 ticks: too idle to exercise the game", changes)
	}
}
