//go:build noui

package main

import (
	"fmt"
	"os"
)

// A build with the noui tag leaves the game's window (and Ebiten) out: a
// fully static server for minimal container images
// (`CGO_ENABLED=0 go build -tags noui ./cmd/rockstep`). Everything headless
// works: -server, -bots, -browse, -replay -verify.

const noWindow = "rockstep: this build has no game window (built with -tags noui); use -server, -bots, -browse or -replay FILE -verify"

func runWindow(windowOptions) int {
	fmt.Fprintln(os.Stderr, noWindow)
	return 2
}

func openReplayWindow(string) int {
	fmt.Fprintln(os.Stderr, noWindow)
	return 2
}
