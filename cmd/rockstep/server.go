package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"net/netip"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"rockstep/net/host"
	"rockstep/net/portmap"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// serverOptions are the flags of `rockstep -server`.
type serverOptions struct {
	listen    string
	name      string
	logFormat string
	metrics   string
	pprof     string // where to serve the Go profiler's endpoints ("": nowhere)
	lan       bool
	maxRooms  int
	maxConns  int      // transport sessions at once (0: transport.LAN's)
	procs     int      // GOMAXPROCS (0: $GOMAXPROCS, else serverProcs)
	record    string   // replay file ("off": none; "": the replays folder)
	handover  bool     // hand running games to their players when stopped
	referee   bool     // run the engine on every room's turns (room.Config.Referee)
	portmap   bool     // ask the router to forward the port (-portmap; off unless asked)
	roomKeys  []string // -room-key: keys a player must give to create a room (none: anyone may)
	keysFile  string   // -room-keys: a file of more such keys, one a line
	fallback  []string // -fallback: [NAME=]ADDR of community servers a running game moves to when no player can carry it on

	web webOptions // -web and its company: the game for browsers (web.go)
}

// stringsFlag is a flag that may be given many times.
type stringsFlag []string

func (f *stringsFlag) String() string     { return strings.Join(*f, ",") }
func (f *stringsFlag) Set(v string) error { *f = append(*f, v); return nil }

// parseFallback reads -fallback values, [NAME=]ADDR each (the port 7777
// if left out): the community servers a game moves to when none of its
// players can carry it on (wire.Successors.Servers).
func parseFallback(vals []string) ([]wire.FallbackServer, error) {
	if len(vals) > wire.MaxFallbackServers {
		return nil, fmt.Errorf("%d servers, at most %d", len(vals), wire.MaxFallbackServers)
	}
	var out []wire.FallbackServer
	for _, v := range vals {
		name, addr, ok := strings.Cut(v, "=")
		if !ok {
			name, addr = "", v
		}
		fs := wire.FallbackServer{Name: strings.TrimSpace(name), Addr: withDefaultPort(strings.TrimSpace(addr))}
		if _, _, err := net.SplitHostPort(fs.Addr); err != nil || len(fs.Addr) > wire.MaxServerAddr || len(fs.Name) > wire.MaxName {
			return nil, fmt.Errorf("%q: want [NAME=]HOST[:PORT], a name of at most %d bytes", v, wire.MaxName)
		}
		out = append(out, fs)
	}
	return out, nil
}

// loadRoomKeys returns the keys of -room-key and those of the -room-keys
// file: one a line, blank lines and lines starting with # skipped, spaces
// around a key trimmed. A key longer than wire.MaxRoomKey bytes could
// never be sent, so it is an error, as is a file with no key at all.
func loadRoomKeys(keys []string, file string) ([]string, error) {
	out := []string{}
	for _, k := range keys {
		if k == "" {
			return nil, errors.New("-room-key: empty key")
		}
		out = append(out, k)
	}
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("-room-keys: %w", err)
		}
		n := 0
		for line := range strings.Lines(string(b)) {
			k := strings.TrimSpace(line)
			if k == "" || strings.HasPrefix(k, "#") {
				continue
			}
			out, n = append(out, k), n+1
		}
		if n == 0 {
			return nil, fmt.Errorf("-room-keys %s: no key in the file", file)
		}
	}
	for _, k := range out {
		if len(k) > wire.MaxRoomKey {
			return nil, fmt.Errorf("a room key of %d bytes: at most %d", len(k), wire.MaxRoomKey)
		}
	}
	return out, nil
}

func newLogger(format string, w io.Writer) (*slog.Logger, error) {
	switch format {
	case "text", "":
		return slog.New(slog.NewTextHandler(w, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, nil)), nil
	}
	return nil, fmt.Errorf("-log-format %q: want text or json", format)
}

// serverProcs is how many processors run a server's Go code at once unless
// -procs or $GOMAXPROCS says otherwise. Every room runs on one loop
// goroutine, fed by one socket reader: a second processor adds no
// throughput, only a scheduler that spins looking for work between
// datagrams (BENCHMARKS.md has the figures).
const serverProcs = 1

// setProcs applies -procs, or serverProcs when neither it nor $GOMAXPROCS
// is given, and returns the processors the server runs on.
func setProcs(flag int, env string) int {
	switch {
	case flag > 0:
		runtime.GOMAXPROCS(flag)
	case env == "":
		runtime.GOMAXPROCS(serverProcs)
	}
	return runtime.GOMAXPROCS(0)
}

// runServer runs a dedicated headless server until SIGINT or SIGTERM. It
// opens no window and needs no display.
func runServer(o serverOptions, stderr io.Writer) int {
	log, err := newLogger(o.logFormat, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "rockstep: %v\n", err)
		return 2
	}
	if o.procs < 0 {
		fmt.Fprintf(stderr, "rockstep: -procs %d: want 1 or more\n", o.procs)
		return 2
	}
	keys, err := loadRoomKeys(o.roomKeys, o.keysFile)
	if err != nil {
		fmt.Fprintf(stderr, "rockstep: %v\n", err)
		return 2
	}
	fallback, err := parseFallback(o.fallback)
	if err != nil {
		fmt.Fprintf(stderr, "rockstep: -fallback: %v\n", err)
		return 2
	}
	procs := setProcs(o.procs, os.Getenv("GOMAXPROCS"))
	tcfg := transport.LAN()
	if tcfg.HostKey, err = host.LoadHostKey(""); err != nil {
		// A key for this run only: players can still join; LAN lists
		// show a new fingerprint.
		log.Warn("cannot keep a host key; using one for this run", "err", err)
	}
	tcfg.Log = log
	if o.maxConns > 0 {
		tcfg.MaxSessions = o.maxConns
	}
	srv, err := transport.Listen(withDefaultPort(o.listen), tcfg) // -listen [::] listens on [::]:7777
	if err != nil {
		log.Error("cannot listen", "addr", o.listen, "err", err)
		return 1
	}
	// With -portmap, every guest silent at once asks the router again
	// (it may have restarted and forgotten the port); nil until started.
	var mapper atomic.Pointer[portmap.Mapper]
	h := host.New(serverHostConfig(o, log, keys, fallback, &mapper))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if o.metrics != "" {
		ln, err := net.Listen("tcp", o.metrics)
		if err != nil {
			log.Error("cannot serve metrics", "addr", o.metrics, "err", err)
			return 1
		}
		hs := &http.Server{Handler: h.MetricsHandler(), ReadHeaderTimeout: 5 * time.Second}
		go func() { _ = hs.Serve(ln) }()
		defer hs.Close()
		log.Info("metrics", "addr", ln.Addr().String())
	}
	if o.web.addr != "" {
		stop, err := serveWeb(o.web, srv, h, log)
		if err != nil {
			log.Error("cannot serve the web face", "addr", o.web.addr, "err", err)
			return 1
		}
		defer stop()
	}
	if o.pprof != "" {
		stop, err := serveProfiler(o.pprof, log)
		if err != nil {
			return 1
		}
		defer stop()
	}
	if o.lan {
		if err := h.AdvertiseLAN(ctx, srv, hostName()); err != nil {
			log.Warn("cannot advertise on the LAN; players can still join by address", "err", err)
		}
	}
	logServerCode(log, srv, netip.AddrPort{}) // before "listening", which tests and scripts wait for
	log.Info("listening", "addr", srv.Addr().String(), "name", o.name, "host_key", transport.FormatFingerprint(srv.HostKey().Fingerprint()), "procs", procs,
		"rooms", roomsOpenTo(len(keys)), "referee", o.referee)
	if o.portmap {
		pm := startPortmap(srv, log)
		mapper.Store(pm)
		// Deleted on the way out: after SIGINT/SIGTERM and the rooms'
		// goodbyes (deferred calls run last in, first out).
		defer pm.Close()
	}
	if err := h.Serve(ctx, srv); err != nil && !errors.Is(err, context.Canceled) {
		log.Error("server stopped", "err", err)
		return 1
	}
	log.Info("stopped")
	return 0
}

// serverHostConfig is the rooms' configuration a server's flags o ask for:
// its name, recording, limits, hand-over, referee, room keys and fallback
// servers; every guest silent at once asks mapper's router again.
func serverHostConfig(o serverOptions, log *slog.Logger, keys []string, fallback []wire.FallbackServer, mapper *atomic.Pointer[portmap.Mapper]) host.Config {
	cfg := host.LAN()
	cfg.Name, cfg.Log = o.name, log
	cfg.Record = o.record != "off"
	if o.record != "off" {
		cfg.RecordFile = o.record
	}
	if o.maxRooms > 0 {
		cfg.MaxRooms = o.maxRooms
	}
	cfg.Handover = o.handover
	cfg.Room.Referee = o.referee
	cfg.RoomKeys = keys
	cfg.Room.Fallback = fallback
	cfg.OnGuestsSilent = func() { mapper.Load().Suspect() }
	return cfg
}

// roomsOpenTo says, for the log, who may create rooms: everyone, or the
// holders of the server's n room keys (never the keys themselves).
func roomsOpenTo(n int) string {
	if n == 0 {
		return "anyone may create rooms"
	}
	return fmt.Sprintf("rooms only for holders of one of %d room keys", n)
}

// startPortmap asks the router for a mapping of the server's UDP port, in
// the background, and logs each verdict with the external address.
func startPortmap(srv *transport.Server, log *slog.Logger) *portmap.Mapper {
	port := srv.Addr().Port()
	return portmap.Start(port, portmap.Config{Log: log, OnChange: func(st portmap.Status) {
		switch st.Verdict {
		case portmap.Asking:
			log.Info("portmap", "verdict", "asking", "port", port)
		case portmap.Opened:
			log.Info("portmap", "verdict", "opened", "proto", st.Proto.String(), "external", st.External.String(), "port", port, "say", st.String())
			logServerCode(log, srv, st.External)
		default:
			log.Warn("portmap", "verdict", verdictName(st.Verdict), "port", port, "say", st.String())
		}
	}})
}

// verdictName is a port mapping verdict as a log value.
func verdictName(v portmap.Verdict) string {
	switch v {
	case portmap.NoAnswer:
		return "no_answer"
	case portmap.Refused:
		return "refused"
	case portmap.DoubleNAT:
		return "double_nat"
	case portmap.NoRouter:
		return "no_router"
	case portmap.Off:
		return "off"
	}
	return "asking"
}

// hostName is the machine's name as LAN lists show it.
func hostName() string {
	if n, err := os.Hostname(); err == nil && n != "" {
		return n
	}
	return "server"
}

// serveProfiler serves the Go profiler on addr until stop is called.
func serveProfiler(addr string, log *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		log.Error("cannot serve the profiler", "addr", addr, "err", err)
		return nil, err
	}
	hs := &http.Server{Handler: profilerHandler(), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	log.Warn("profiler", "addr", ln.Addr().String(), "note", "anyone who reaches this address can profile this process: keep it on loopback")
	return func() { _ = hs.Close() }, nil
}

// profilerHandler serves the Go profiler's endpoints under /debug/pprof/
// (a CPU profile: /debug/pprof/profile?seconds=30), for operators who want
// to see where a loaded server's time goes. It is its own handler, on its
// own address, never the metrics one.
func profilerHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}
