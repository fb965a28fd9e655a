//go:build !linux && !noui

package main

// closeOnDisplayLost does nothing where the window does not use Xlib
// (see xlost_linux.go).
func closeOnDisplayLost() {}
