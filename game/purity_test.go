package game_test

import (
	"os/exec"
	"strings"
	"testing"
)

// forbidden are standard packages the engine must not reach, directly or
// through another package: clocks, files, the network, concurrency,
// randomness not seeded by the world, and anything that escapes the type
// system.
var forbidden = []string{"time", "os", "net", "sync", "math/rand", "math/rand/v2", "runtime/cgo", "syscall", "io", "fmt"}

// forbiddenDirect may be reached through the runtime but never imported by
// the engine itself.
var forbiddenDirect = []string{"unsafe", "reflect", "sync/atomic"}

// TestEngineImportsOnlyPureStdlib fails when any package under game/
// depends, however indirectly, on a package outside the standard library
// (other than the engine's own) or on an impure part of it.
func TestEngineImportsOnlyPureStdlib(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go tool is not on PATH; cannot list dependencies")
	}
	// One line per package under game/: its path, then all its dependencies.
	out, err := exec.Command(goTool, "list", "-deps=false", "-f",
		`{{.ImportPath}}{{range .Deps}} {{.}}{{end}}{{range .Imports}} direct:{{.}}{{end}}`, "rockstep/game/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	stdOut, err := exec.Command(goTool, "list", "std").Output()
	if err != nil {
		t.Fatalf("go list std: %v", err)
	}
	std := map[string]bool{}
	for _, p := range strings.Fields(string(stdOut)) {
		std[p] = true
	}
	bad := map[string]bool{}
	for _, p := range forbidden {
		bad[p] = true
	}
	for _, p := range forbiddenDirect {
		bad["direct:"+p] = true
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 3 {
		t.Fatalf("go list found %d engine packages, want game, game/fixed and game/rng", len(lines))
	}
	for _, line := range lines {
		f := strings.Fields(line)
		pkg, deps := f[0], f[1:]
		for _, d := range deps {
			switch {
			case strings.HasPrefix(d, "rockstep/game"), strings.HasPrefix(d, "direct:rockstep/game"):
			case bad[d]:
				t.Errorf("%s depends on %s: the engine must stay pure (docs/ARCHITECTURE.md §4)", pkg, d)
			case strings.HasPrefix(d, "direct:"):
				if !std[strings.TrimPrefix(d, "direct:")] {
					t.Errorf("%s imports %s, which is not in the standard library", pkg, d)
				}
			case !std[d] && !strings.HasPrefix(d, "internal/") && !strings.HasPrefix(d, "vendor/"):
				t.Errorf("%s depends on %s, which is not in the standard library", pkg, d)
			}
		}
	}
}
