//go:build !linux

package ui

// audioDevice reports whether sound can play here: desktop systems other
// than Linux always have an audio service.
func audioDevice() (bool, string) { return true, "" }
