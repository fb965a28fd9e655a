//go:build !linux

package lan

import (
	"errors"
	"testing"
)

// isolate skips: private network namespaces exist only on Linux, and mDNS
// tests never multicast on a machine's real interfaces.
func isolate(t *testing.T) bool {
	t.Helper()
	t.Skip("mDNS tests need a Linux private network namespace")
	return false
}

func setupNetns() error { return errors.ErrUnsupported }
