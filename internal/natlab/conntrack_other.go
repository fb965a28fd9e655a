//go:build !linux

package natlab

import "errors"

// flushConntrack: the lab is Linux only (network namespaces).
func flushConntrack(string) error { return errors.New("natlab: Linux only") }
