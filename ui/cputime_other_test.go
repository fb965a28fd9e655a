//go:build !unix

package ui

import "time"

// cpuTime is the CPU time this process has used: not measured here (the
// frame cost test reports 0).
func cpuTime() time.Duration { return 0 }
