package crash

import (
	"os/exec"
	"runtime"
	"testing"
)

// The Go runtime's words for a crash in C code (from a cgo program whose C
// function writes through a null pointer).
const cgoCrash = `SIGSEGV: segmentation violation
PC=0x48b3f0 m=0 sigcode=1 addr=0x0
signal arrived during cgo execution

goroutine 1 gp=0x3d824bd0c1e0 m=0 mp=0x55b480 [syscall]:
runtime.cgocall(0x48b3f0, 0x3d824bd55f38)
`

// A nil pointer in Go code: a bug of ours, never retried.
const goPanic = `panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x48b2ba]

goroutine 1 [running]:
main.main()
`

const failedTest = `=== RUN   TestScreens
    screens_test.go:200: stage lobby: not done in 20 s
--- FAIL: TestScreens (21.02s)
FAIL
`

func TestInNativeCode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses sh and POSIX signals")
	}
	tests := []struct {
		name       string
		script     string // run by sh -c for the exit status
		output     string
		wantSignal string
		want       bool
	}{
		{"a crash in cgo", "exit 2", cgoCrash, "SIGSEGV", true},
		{"a crash on the driver's own thread", "kill -SEGV $$", "", "segmentation fault", true},
		{"abort in the driver", "kill -ABRT $$", "", "aborted", true},
		{"a Go panic", "exit 2", goPanic, "", false},
		{"a failed test", "exit 1", failedTest, "", false},
		{"killed by the test's timeout", "kill -KILL $$", "", "", false},
		{"terminated", "kill -TERM $$", "", "", false},
		{"passed", "exit 0", "PASS\n", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := exec.Command("sh", "-c", tc.script).Run()
			sig, ok := InNativeCode(err, []byte(tc.output))
			if ok != tc.want || sig != tc.wantSignal {
				t.Errorf("InNativeCode(%v, …) = %q, %v; want %q, %v", err, sig, ok, tc.wantSignal, tc.want)
			}
		})
	}
}
