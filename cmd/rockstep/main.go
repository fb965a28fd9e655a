// Command rockstep is Rockstep, a desktop Asteroids for one to eight
// players. For now it opens a window and plays a single-player game.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"

	"rockstep/game"
	"rockstep/ui"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// run runs the command with the given arguments and returns its exit code.
func run(args []string) int {
	fs := flag.NewFlagSet("rockstep", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: rockstep [flags]\n\n"+
			"Opens a window and plays Rockstep, a vector Asteroids.\n"+
			"Keys: arrows or WASD steer and set the thrust level, Space (hold, release) fires,\n"+
			"P pauses, Enter plays again after a game over, Esc quits.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	showVersion := versionFlag(fs)
	seed := fs.Uint64("seed", 0, "seed of the first game, each new game taking the next one; 0 picks one at random")
	wave := fs.Uint("wave", 1, "wave the games start at, 1 to "+strconv.Itoa(game.MaxStartWave))
	var bo botsOptions
	fs.IntVar(&bo.n, "bots", 0, "run `N` headless bot players instead of the game, and print a one-line key=value summary")
	fs.BoolVar(&bo.local, "local", false, "with -bots: play against an in-process room over simulated links")
	fs.StringVar(&bo.join, "join", "", "with -bots: join the server at `ADDR` (host:port)")
	fs.IntVar(&bo.ticks, "ticks", 3000, "with -bots: game ticks every bot plays (60 a second)")
	fs.StringVar(&bo.netsim, "netsim", "", "simulate a bad network on every link: `SPEC` like latency=80ms,jitter=30ms,loss=5%,dup=2%,reorder=2%,bw=1mbps")
	fs.BoolVar(&bo.fast, "fast", false, "with -bots -local: run on a virtual clock as fast as the machine allows")
	fs.IntVar(&bo.perRoom, "per-room", 0, "with -bots -join: put `N` bots in each room, creating rooms on the server (0: all in the default room)")
	fs.IntVar(&bo.players, "players", 0, "with -bots -join: a room starts once it has `N` ready players (default: -per-room, or -bots)")
	fs.StringVar(&bo.tokenDir, "token-dir", "", "with -bots -join: keep each bot's session token in `DIR`, so a restarted bot reclaims its slot")
	ro := replayFlags(fs)
	var so serverOptions
	browse := fs.Bool("browse", false, "print the games found on the LAN, one per line, and exit")
	browseTimeout := fs.Duration("timeout", 2*time.Second, "with -browse: how long to listen")
	server := fs.Bool("server", false, "run a dedicated headless server (no window, no display needed) until SIGINT or SIGTERM")
	fs.StringVar(&so.listen, "listen", fmt.Sprintf(":%d", DefaultPort), "with -server: UDP `ADDR` to listen on")
	fs.StringVar(&so.name, "name", "Rockstep", "with -server: the server's `NAME`, shown in game lists")
	fs.StringVar(&so.logFormat, "log-format", "text", "with -server: log format, text or json")
	fs.StringVar(&so.metrics, "metrics", "", "with -server: serve /healthz and Prometheus /metrics over HTTP on `ADDR`")
	fs.BoolVar(&so.lan, "lan", true, "with -server: advertise the server on the LAN")
	fs.IntVar(&so.maxRooms, "max-rooms", 0, "with -server: rooms at once (default 256)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "rockstep: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	if *showVersion {
		printVersion(os.Stdout)
		return 0
	}

	if ro.file != "" {
		return runReplay(ro, os.Stdout, os.Stderr)
	}
	so.record, bo.record = ro.record, ro.record
	if *server {
		return runServer(so, os.Stderr)
	}
	if *browse {
		return runBrowse(*browseTimeout, os.Stdout, os.Stderr)
	}
	if bo.n != 0 {
		bo.seed = *seed
		if bo.seed == 0 {
			bo.seed = uint64(time.Now().UnixNano())
		}
		return runBots(bo, os.Stdout, os.Stderr)
	}
	if *wave < 1 || *wave > game.MaxStartWave {
		fmt.Fprintf(os.Stderr, "rockstep: -wave %d: want 1 to %d\n", *wave, game.MaxStartWave)
		return 2
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
	}

	err := ui.Run(ui.Options{Seed: *seed, StartWave: uint8(*wave)})
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
