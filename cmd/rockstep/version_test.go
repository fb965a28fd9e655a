package main

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
)

func TestPrintVersionShowsTheStampedVersion(t *testing.T) {
	defer func(v string) { version = v }(version)
	version = "v1.2.3-4-gabcdef0"
	var b bytes.Buffer
	printVersion(&b)
	want := "rockstep v1.2.3-4-gabcdef0 " + runtime.GOOS + "/" + runtime.GOARCH + " "
	if got := b.String(); !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "\n") {
		t.Errorf("printVersion = %q, want a line starting %q", got, want)
	}
}

func TestVersionStringFallsBackWhenUnstamped(t *testing.T) {
	defer func(v string) { version = v }(version)
	version = ""
	if got := versionString(); got != "devel" && !strings.HasPrefix(got, "devel+") {
		t.Errorf("versionString() = %q, want devel or devel+REV", got)
	}
}

func TestVersionFlagPrintsAndExitsZero(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	code := run([]string{"-version"})
	os.Stdout = stdout
	w.Close()
	out, _ := io.ReadAll(r)
	if code != 0 || !strings.HasPrefix(string(out), "rockstep ") {
		t.Errorf("run(-version) = %d, printed %q; want 0 and a version line", code, out)
	}
}

func TestWantsServer(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want bool
	}{
		{"none", nil, false},
		{"server", []string{"-server"}, true},
		{"double dash", []string{"--server", "-listen", ":7777"}, true},
		{"explicit true", []string{"-server=true"}, true},
		{"explicit false", []string{"-server=false"}, false},
		{"after terminator", []string{"--", "-server"}, false},
		{"other flag", []string{"-servers"}, false},
		{"game", []string{"-seed", "3"}, false},
	} {
		if got := wantsServer(tc.args); got != tc.want {
			t.Errorf("%s: wantsServer(%q) = %v, want %v", tc.name, tc.args, got, tc.want)
		}
	}
}
