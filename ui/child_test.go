package ui

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"rockstep/internal/crash"
)

// envWindowChild names the test a child process runs with a window.
const envWindowChild = "ROCKSTEP_WINDOW_CHILD"

// inWindowProcess runs the calling test in a process of its own, since
// Ebiten opens one window per process and no image may be made after it
// closes. In that child it returns true and the caller runs the test; in
// the parent it runs the child, passes on its result and log, and returns
// false. It skips without a display.
//
// A child that died inside native code (the GL driver: Mesa's software
// renderer under Xvfb now and then dies with SIGSEGV on a loaded machine)
// is run once more, and the test log says so; a second such death fails
// the test.
func inWindowProcess(t *testing.T) bool {
	t.Helper()
	if os.Getenv(envWindowChild) == t.Name() {
		return true
	}
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		t.Skip("needs a display (DISPLAY is empty): run under xvfb-run -a -s \"-screen 0 1280x720x24\"")
	}
	out, err := runWindowChild(t)
	if sig, ok := crash.InNativeCode(err, out); ok {
		t.Logf("the child died of %s inside native code (the GL driver), not in the test; running it once more. It said:\n%s", sig, excerpt(out))
		out, err = runWindowChild(t)
	}
	if strings.Contains(string(out), "--- SKIP: "+t.Name()) {
		t.Skipf("in the child:\n%s", out)
	}
	if err != nil {
		t.Fatalf("in the child: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "window_test.go") || strings.HasPrefix(l, "frame_test.go") || strings.HasPrefix(l, "screens_test.go") || strings.HasPrefix(l, "replayscreens_test.go") || strings.HasPrefix(l, "slowkeys_test.go") {
			t.Log(l)
		}
	}
	return false
}

// childTimeout bounds one window child. The screenshot walk at 2560×1440
// under -race on a loaded 2-core machine has taken more than 3 minutes
// (CI of 2026-11-28, beside other builds); a hung child still ends well
// inside make test's 25 minutes.
const childTimeout = "6m"

func runWindowChild(t *testing.T) ([]byte, error) {
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1", "-test.timeout="+childTimeout)
	cmd.Env = append(os.Environ(), envWindowChild+"="+t.Name())
	return cmd.CombinedOutput()
}

// excerpt returns the lines of a crashed child's output that show where
// it died: from the runtime's "SIG…" line on, or the last lines.
func excerpt(out []byte) string {
	const n = 12
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	from := max(0, len(lines)-n)
	for i, l := range lines {
		if strings.HasPrefix(l, "SIG") && strings.Contains(l, ": ") {
			from = i
			break
		}
	}
	return strings.Join(lines[from:min(len(lines), from+n)], "\n")
}
