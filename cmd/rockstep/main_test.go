package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// envRunMain makes the test binary run the command instead of the tests,
// so that a test can watch a whole run from outside: exit code and output.
const envRunMain = "ROCKSTEP_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(envRunMain) == "1" {
		os.Exit(run(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// runCommand runs the command with args in a child process under env
// (added to this process's environment) and returns its exit code, stdout
// and stderr.
func runCommand(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), envRunMain+"=1"), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, stdout.String(), stderr.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), stdout.String(), stderr.String()
	}
	t.Fatalf("run %v: %v", args, err)
	return 0, "", ""
}

func TestWithoutDisplayExitsWithOneClearLine(t *testing.T) {
	code, stdout, stderr := runCommand(t, []string{"DISPLAY=", "WAYLAND_DISPLAY="}, "-seed", "7")
	if code != 1 {
		t.Errorf("exit code %d, want 1; stderr:\n%s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout %q, want nothing", stdout)
	}
	if lines := strings.Count(stderr, "\n"); lines != 1 {
		t.Errorf("stderr has %d lines, want 1:\n%s", lines, stderr)
	}
	for _, want := range []string{"rockstep: cannot open a window: ", "DISPLAY"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q does not say %q", stderr, want)
		}
	}
	if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine") {
		t.Errorf("stderr shows a panic:\n%s", stderr)
	}
}

func TestFlags(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string // in stderr
	}{
		{"help", []string{"-h"}, 0, "-seed"},
		{"help lists the wave", []string{"-help"}, 0, "-wave"},
		{"help prefers a file of room keys", []string{"-h"}, 0, "prefer -room-keys FILE: a key on the command line shows in ps"},
		{"unknown flag", []string{"-bogus"}, 2, "flag provided but not defined"},
		{"stray argument", []string{"play"}, 2, `unexpected argument "play"`},
		{"wave zero", []string{"-wave", "0"}, 2, "-wave 0"},
		{"wave too high", []string{"-wave", "21"}, 2, "-wave 21"},
		{"seed not a number", []string{"-seed", "x"}, 2, "invalid value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// No display: a case that wrongly got past the flags fails fast.
			code, _, stderr := runCommand(t, []string{"DISPLAY=", "WAYLAND_DISPLAY="}, tc.args...)
			if code != tc.wantCode {
				t.Errorf("rockstep %v: exit code %d, want %d; stderr:\n%s", tc.args, code, tc.wantCode, stderr)
			}
			if !strings.Contains(stderr, tc.wantErr) {
				t.Errorf("rockstep %v: stderr does not say %q:\n%s", tc.args, tc.wantErr, stderr)
			}
		})
	}
}

// noRouter returns the arguments of a program started by a test, with
// -portmap=false added where it starts a game window (not -server, -bots,
// -replay or -web, and not already saying -portmap): a window asks the
// router to open its room's port and, as a guest, its standby's, and a
// test outside the namespace lab must not ask the machine's real router.
func noRouter(args []string) []string {
	for _, a := range args {
		switch {
		case a == "-server", a == "-bots", a == "-replay", a == "-web", strings.HasPrefix(a, "-portmap"):
			return args
		}
	}
	return append(append([]string(nil), args...), "-portmap=false")
}
