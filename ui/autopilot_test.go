package ui

import (
	"strings"
	"testing"

	"rockstep/game"
)

func TestParseAutopilot(t *testing.T) {
	ap, err := ParseAutopilot("join-lan; ready ;fly 1200;linger 2; quit", nil)
	if err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, s := range ap.steps {
		ops = append(ops, s.op)
	}
	if strings.Join(ops, ",") != "join-lan,ready,fly,linger,quit" || ap.steps[2].n != 1200 {
		t.Errorf("steps %+v", ap.steps)
	}
	for _, bad := range []string{"", "fly", "fly x", "start 0", "dance", "join"} {
		if _, err := ParseAutopilot(bad, nil); err == nil {
			t.Errorf("ParseAutopilot(%q) accepted", bad)
		}
	}
	// The hash is logged at the first turn that ends at or past the tick.
	var w game.World
	ap.hashTick = 100
	w.Tick = 98
	ap.turnEnd(49, 1, &w)
	w.Tick = 101
	ap.turnEnd(50, 0xabc, &w)
	w.Tick = 104
	ap.turnEnd(51, 2, &w)
	if ap.hashLine != "hash tick=101 turn=50 hash=0000000000000abc" {
		t.Errorf("hash line %q", ap.hashLine)
	}
}
