//go:build !linux

package transport

import "testing"

// clientRuns are the ways a client may run: here only on goroutines of its
// own (this system has no Loop).
func clientRuns(testing.TB) []clientRun { return []clientRun{{name: "own"}} }
