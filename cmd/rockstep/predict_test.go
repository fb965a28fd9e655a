package main

import (
	"flag"
	"io"
	"testing"
)

// TestPredictFlagPrecedence: without -predict the settings decide (no
// override) and bots do not predict; -predict=false or -predict decides
// for this run.
func TestPredictFlagPrecedence(t *testing.T) {
	tests := []struct {
		args     []string
		override string // "nil", "true", "false"
		bots     bool
		syncTest int
	}{
		{nil, "nil", false, 0},
		{[]string{"-predict=false"}, "false", false, 0},
		{[]string{"-predict"}, "true", true, 0},
		{[]string{"-predict=true", "-synctest", "8"}, "true", true, 8},
		{[]string{"-synctest", "4"}, "nil", false, 4},
	}
	for _, tc := range tests {
		fs := flag.NewFlagSet("rockstep", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		o := predictFlags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		got := "nil"
		if p := o.override(); p != nil {
			got = map[bool]string{true: "true", false: "false"}[*p]
		}
		if got != tc.override || o.forBots() != tc.bots || o.syncTest != tc.syncTest {
			t.Errorf("%v: override %s, bots %v, synctest %d; want %s, %v, %d", tc.args, got, o.forBots(), o.syncTest, tc.override, tc.bots, tc.syncTest)
		}
	}
}
