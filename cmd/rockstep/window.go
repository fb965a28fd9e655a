//go:build !noui

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"rockstep/net/lockstep"
	"rockstep/net/transport"
	"rockstep/ui"
)

// runWindow opens the game's window with the flags' options.
func runWindow(wo windowOptions) int {
	opt := ui.Options{Seed: wo.seed, StartWave: wo.wave, Practice: wo.practice, Host: wo.host, Join: wo.join,
		Predict: wo.predict, SyncTest: wo.syncTest, Name: wo.name, Listen: wo.listen, NoPortmap: wo.noPortmap, AddServer: wo.addServer}
	imp, err := transport.ParseImpairment(wo.netsim)
	if err != nil {
		fmt.Fprintf(os.Stderr, "rockstep: -netsim: %v\n", err)
		return 2
	}
	opt.Netsim = imp
	if wo.fault != "" {
		if _, err := lockstep.ParseFault(wo.fault); err != nil {
			fmt.Fprintf(os.Stderr, "rockstep: -fault: %v\n", err)
			return 2
		}
		opt.Fault = wo.fault
	}
	if wo.autopilot != "" {
		ap, err := ui.ParseAutopilot(wo.autopilot, os.Stderr)
		if err != nil {
			fmt.Fprintf(os.Stderr, "rockstep: -autopilot: %v\n", err)
			return 2
		}
		opt.Autopilot = ap
	}
	// SIGINT and SIGTERM close the game as its Quit does: a game in
	// progress is left, and the others see the player leave. The network
	// is shut down apart from the window's loop, and the process ends
	// within 3 s even if the loop never runs again (a display gone away:
	// see ui.Options.Exit).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opt.Stop = ctx.Done()
	opt.Exit = func() { os.Exit(0) }
	closeOnDisplayLost() // an X server gone away: as SIGTERM
	err = ui.Run(opt)
	if opt.Autopilot != nil && err == nil {
		err = opt.Autopilot.Err()
	}
	return exitCode(err)
}

// openReplayWindow opens the game's window on a replay.
func openReplayWindow(path string) int {
	return exitCode(ui.Run(ui.Options{Replay: path, Seed: uint64(time.Now().UnixNano())}))
}

// exitCode reports how the game's window ended: 0, or 1 with one line.
func exitCode(err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, ui.ErrNoWindow):
		fmt.Fprintf(os.Stderr, "rockstep: %v (is DISPLAY set?)\n", err)
	default:
		fmt.Fprintf(os.Stderr, "rockstep: %v\n", err)
	}
	return 1
}
