// Package crash tells a test whether a child process it ran died inside
// native code (for the window tests: the GL driver, Mesa's software
// renderer under Xvfb, which on a loaded machine now and then dies with
// SIGSEGV) rather than in Go or by a failed test. It is for tests only: a
// window test runs such a child once more, and says so.
package crash

import (
	"errors"
	"os/exec"
	"regexp"
	"syscall"
)

// native is what the Go runtime prints when a fatal signal arrives while
// the process runs C code (cgo or purego calls, or a thread the driver
// started).
var native = regexp.MustCompile(`(?m)^(SIG[A-Z]+): .*\n(?:.*\n){0,3}?signal arrived during (?:cgo|external code) execution`)

// InNativeCode reports whether a child that ended with err and wrote
// output died of a fatal signal in native code, and names the signal. A Go
// panic, a failed test or an ordinary exit is not that: a nil pointer in
// Go code says so in its panic, never "signal arrived during cgo
// execution".
func InNativeCode(err error, output []byte) (signal string, ok bool) {
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return "", false
	}
	// Killed by a signal the Go runtime did not catch (a driver's own
	// handler, or a crash while the runtime could not handle it).
	if ws, isWS := exit.Sys().(syscall.WaitStatus); isWS && ws.Signaled() {
		switch s := ws.Signal(); s {
		case syscall.SIGSEGV, syscall.SIGBUS, syscall.SIGILL, syscall.SIGABRT, syscall.SIGFPE:
			return s.String(), true
		}
		return "", false
	}
	if m := native.FindSubmatch(output); m != nil {
		return string(m[1]), true
	}
	return "", false
}
