//go:build !linux

package netns

import (
	"errors"
	"testing"
	"time"
)

// Isolate skips: private network namespaces exist only on Linux, and these
// tests never multicast on a machine's real interfaces.
func Isolate(t *testing.T, env string, timeout time.Duration) bool {
	t.Helper()
	t.Skip("needs a Linux private network namespace")
	return false
}

// SetupLoopback is not supported outside Linux.
func SetupLoopback(string) error { return errors.ErrUnsupported }

// IP is not supported outside Linux.
func IP(...string) error { return errors.ErrUnsupported }
