// Command rockstep is Rockstep, a desktop Asteroids for one to eight
// players on a LAN: the game's window, a dedicated server, LAN browsing and
// headless bots, in one executable.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"

	"rockstep/game"
	"rockstep/internal/userdir"
	"rockstep/net/invite"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// run runs the command with the given arguments and returns its exit code.
func run(args []string) int {
	fs := flag.NewFlagSet("rockstep", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: rockstep [flags]\n\n"+
			"Opens the game at its main menu: host a game, join one from the LAN list or\n"+
			"by address, practise alone. Keys: arrows or WASD steer and set the thrust\n"+
			"level, Space (hold, release) fires, Shift jumps into hyperspace, Esc opens the\n"+
			"in-game menu, F3 shows the network graph, F11 toggles full screen. Settings\n"+
			"(name, volume, keys) are in settings.json under the user's config directory\n"+
			"($%s overrides it).\n\nFlags:\n", userdir.Env)
		fs.PrintDefaults()
	}
	showVersion := versionFlag(fs)
	seed := fs.Uint64("seed", 0, "seed of the first practice game (or of the bots' game), each new game taking the next one; 0 picks one at random")
	wave := fs.Uint("wave", 1, "wave practice games start at, 1 to "+strconv.Itoa(game.MaxStartWave))
	hostNow := fs.Bool("host", false, fmt.Sprintf("open the game and host a game at once (with -listen: where it listens; default :%d, or any free port)", wire.DefaultPort))
	practice := fs.Bool("practice", false, "open the game in a single-player practice game")
	autopilot := fs.String("autopilot", "", "for tests: drive the game with a `SCRIPT` of steps like \"join-lan; ready; fly 1200; quit\" (see ui.Autopilot)")
	var bo botsOptions
	botsFlags(fs, &bo)
	ro := replayFlags(fs)
	po := predictFlags(fs)
	var so serverOptions
	browse := fs.Bool("browse", false, "print the games found on the LAN, one per line, and exit")
	roomsAt := fs.String("rooms", "", fmt.Sprintf("print the rooms the server at `ADDR` (host or host:port, port %d by default, or an invite code) lists, one per line, and exit", wire.DefaultPort))
	browseTimeout := fs.Duration("timeout", 2*time.Second, "with -browse: how long to listen")
	server := fs.Bool("server", false, "run a dedicated headless server (no window, no display needed) until SIGINT or SIGTERM")
	serverFlags(fs, &so)
	addServer := fs.String("add-server", "", fmt.Sprintf("add the community server at `ADDR` (host or host:port, port %d by default; a `rockstep -server`) to the game's known servers, kept in the settings as Settings → Servers adds one: Host offers a room there, Join lists its rooms, and a lobby whose router would not open its port offers to move the room there", wire.DefaultPort))
	portmapFlag := fs.Bool("portmap", true, "ask the home router (PCP, NAT-PMP, UPnP) to open the hosted game's UDP port to the internet, and a guest's standby port (where it would carry the game on if the host left); -portmap=false: not this run (the game asks unless Settings say no; -server asks only with -portmap; -bots N -join with -portmap: each bot asks for its standby port, where it would carry the game on)")
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
		if !ro.verify {
			return watchReplay(ro.file, os.Stderr)
		}
		return runReplay(ro, os.Stdout, os.Stderr)
	}
	so.record, bo.record = ro.record, ro.record
	bo.join, _ = invite.FromLink(bo.join) // https://SERVER/join/CODE: its code
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *server {
		so.portmap = set["portmap"] && *portmapFlag
		return runServer(so, os.Stderr)
	}
	if *roomsAt != "" {
		return runRooms(*roomsAt, os.Stdout, os.Stderr)
	}
	if *browse {
		return runBrowse(*browseTimeout, os.Stdout, os.Stderr)
	}
	if bo.n != 0 {
		bo.portmap = set["portmap"] && *portmapFlag
		bo.predict, bo.syncTest = po.forBots(), po.syncTest
		bo.seed, bo.pprof = *seed, so.pprof
		if n := len(so.roomKeys); n > 0 {
			bo.roomKey = so.roomKeys[n-1]
		}
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
	wo := windowOptions{seed: *seed, wave: uint8(*wave), practice: *practice, host: *hostNow, join: bo.join,
		predict: po.override(), syncTest: po.syncTest, netsim: bo.netsim, autopilot: *autopilot, addServer: *addServer, fault: bo.fault}
	if set["name"] {
		wo.name = so.name
	}
	if set["listen"] {
		wo.listen = so.listen
	}
	if set["portmap"] && !*portmapFlag {
		wo.noPortmap = true
	}
	return runWindow(wo)
}

// botsFlags registers the flags of -bots (and -join, which the window
// takes too) into bo.
func botsFlags(fs *flag.FlagSet, bo *botsOptions) {
	fs.IntVar(&bo.n, "bots", 0, "run `N` headless bot players instead of the game, and print a one-line key=value summary")
	fs.BoolVar(&bo.local, "local", false, "with -bots: play against an in-process room over simulated links")
	fs.StringVar(&bo.join, "join", "", fmt.Sprintf("open the game and join the game at `ADDR` (host or host:port, port %d by default), or the one an invite code names; with -bots: the server the bots join", wire.DefaultPort))
	fs.IntVar(&bo.ticks, "ticks", 3000, "with -bots: game ticks every bot plays (60 a second)")
	fs.StringVar(&bo.netsim, "netsim", "", "simulate a bad network on every link (the bots'), or on the game's own links: `SPEC` like latency=80ms,jitter=30ms,loss=5%,dup=2%,reorder=2%,bw=1mbps")
	fs.BoolVar(&bo.fast, "fast", false, "with -bots -local: run on a virtual clock as fast as the machine allows")
	fs.IntVar(&bo.perRoom, "per-room", 0, "with -bots -join: put `N` bots in each room, creating rooms on the server (0: all in the default room)")
	fs.BoolVar(&bo.share, "share", false, "with -bots -join: each room's bots simulate their game once between them (a load test's bots; their hashes then agree by construction)")
	fs.IntVar(&bo.players, "players", 0, "with -bots -join: a room starts once it has `N` ready players (default: -per-room, or -bots)")
	fs.StringVar(&bo.fault, "fault", "", "debug: a deliberate fault, to see desync repair work: `SPEC` flip@TICK (this player's world changes after confirmed tick TICK of a network game: it strays and is repaired) or hash@TICK (it reports wrong hashes and digests from TICK on: its world does not back them, and it is sent away); with -bots, bot=N,flip@TICK or bot=N,hash@TICK for bot N (bot 0 if bot= is left out)")
	fs.StringVar(&bo.tokenDir, "token-dir", "", "with -bots -join: keep each bot's session token in `DIR`, so a restarted bot reclaims its slot")
}

// serverFlags registers the flags of -server (and -listen and -name,
// which the window takes too) into so.
func serverFlags(fs *flag.FlagSet, so *serverOptions) {
	fs.StringVar(&so.listen, "listen", fmt.Sprintf(":%d", wire.DefaultPort), "with -server or -host: UDP `ADDR` to listen on")
	fs.StringVar(&so.name, "name", "Rockstep", "the player's `NAME` for this run (default: the settings'); with -server: the server's name, shown in game lists")
	fs.StringVar(&so.logFormat, "log-format", "text", "with -server: log format, text or json")
	fs.StringVar(&so.metrics, "metrics", "", "with -server: serve /healthz and Prometheus /metrics over HTTP on `ADDR`")
	fs.StringVar(&so.pprof, "pprof", "", "with -server or -bots: serve the Go profiler (/debug/pprof/, e.g. profile?seconds=30) over HTTP on `ADDR`; off by default, keep it on loopback")
	fs.BoolVar(&so.lan, "lan", true, "with -server: advertise the server on the LAN")
	fs.IntVar(&so.maxRooms, "max-rooms", 0, "with -server: rooms at once (default 256)")
	fs.IntVar(&so.maxConns, "max-conns", 0, fmt.Sprintf("with -server: connections at once, players and spectators of every room (default %d)", transport.LAN().MaxSessions))
	fs.IntVar(&so.procs, "procs", 0, fmt.Sprintf("with -server: processors running the server's Go code at once (default $GOMAXPROCS if set, else %d: every room runs on one loop)", serverProcs))
	fs.BoolVar(&so.referee, "referee", false, "with -server: run the engine on every room's turns (about one Step a tick a room); the server's world then settles desyncs, ties and two-player games, and is the world repairs and snapshots come from")
	fs.BoolVar(&so.handover, "handover", false, "with -server: on SIGINT or SIGTERM, hand every running game to its players (host migration) instead of ending it, so the server can restart without ending games")
	fs.Var((*stringsFlag)(&so.roomKeys), "room-key", "with -server: open rooms only for players who give this `KEY` (repeatable; hand it to your friends; default: anyone may create rooms; prefer -room-keys FILE: a key on the command line shows in ps); with -bots -join -per-room: the key the bots create rooms with")
	fs.Var((*stringsFlag)(&so.fallback), "fallback", "with -server: a community server (`[NAME=]ADDR`, repeatable, port 7777 by default) that a running game moves to when none of its players can carry it on after the server goes (host migration: give -handover too)")
	webFlags(fs, &so.web)
	fs.StringVar(&so.keysFile, "room-keys", "", "with -server: open rooms only for players who give one of the keys in `FILE` (one a line; # starts a comment line; keep it owner-only): better than -room-key, whose key shows in ps")
}

// windowOptions are the flags the game's window takes.
type windowOptions struct {
	seed      uint64
	wave      uint8
	practice  bool
	host      bool
	join      string
	predict   *bool // nil: the settings decide
	syncTest  int
	name      string // "": the settings'
	listen    string
	netsim    string
	autopilot string
	noPortmap bool // -portmap=false: never ask the router this run, whatever the settings
	// addServer is -add-server: a community server to add to the
	// settings' known servers.
	addServer string
	fault     string // -fault: a deliberate fault in this player's network games (lockstep.ParseFault)
}
