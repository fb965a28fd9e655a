package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"os"
	"os/signal"
	"syscall"

	"rockstep/net/bots"
	"rockstep/net/lockstep"
	"rockstep/net/portmap"
	"rockstep/net/transport"
)

// botsOptions are the flags of `rockstep -bots`.
type botsOptions struct {
	n      int
	local  bool
	join   string
	ticks  int
	netsim string
	seed   uint64
	fast   bool

	perRoom  int
	players  int
	tokenDir string
	record   string
	predict  bool   // every bot's session predicts
	syncTest int    // ticks every bot's session sync-tests (-bots -local)
	share    bool   // each room's bots share one simulation (-bots -join)
	pprof    string // where to serve the Go profiler while the bots run ("": nowhere)
	roomKey  string // the server's room key, for the rooms the bots create (-per-room)
	fault    string // a deliberate fault in one bot (-fault SPEC: bots.ParseFault)
	portmap  bool   // -portmap given: each bot asks its router to open its standby port (-bots -join)
}

// runBots plays a bot game and prints its one-line summary. It exits
// non-zero if the bots did not finish or did not agree.
func runBots(o botsOptions, stdout, stderr io.Writer) int {
	if o.pprof != "" {
		stop, err := serveProfiler(o.pprof, slog.New(slog.NewTextHandler(stderr, nil)))
		if err != nil {
			return 1
		}
		defer stop()
	}
	if o.join != "" {
		return runRemoteBots(o, stdout, stderr)
	}
	if !o.local {
		fmt.Fprintln(stderr, "rockstep: -bots needs -local (an in-process room) or -join ADDR")
		return 2
	}
	imp, err := transport.ParseImpairment(o.netsim)
	if err != nil {
		fmt.Fprintf(stderr, "rockstep: -netsim: %v\n", err)
		return 2
	}
	faultBot, fault, err := botFault(o.fault)
	if err != nil {
		fmt.Fprintf(stderr, "rockstep: -fault: %v\n", err)
		return 2
	}
	rec := o.record
	if rec == "off" {
		rec = ""
	}
	l, err := bots.NewLocal(bots.Config{Bots: o.n, Ticks: o.ticks, Seed: o.seed, Net: imp, Fast: o.fast, Record: rec, Predict: o.predict, SyncTest: o.syncTest, Fault: fault, FaultBot: faultBot})
	if err != nil {
		fmt.Fprintf(stderr, "rockstep: %v\n", err)
		return 2
	}
	s, err := l.Run()
	return report(s, err, stdout, stderr)
}

// botFault reads -fault ("": none).
func botFault(spec string) (int, lockstep.Fault, error) {
	if spec == "" {
		return 0, lockstep.Fault{}, nil
	}
	return bots.ParseFault(spec)
}

// report prints a bot run's summary line and returns the exit code: 1 if
// the run failed or the bots did not end on one hash and one results table.
func report(s bots.Summary, err error, stdout, stderr io.Writer) int {
	fmt.Fprintln(stdout, s)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "rockstep: %v\n", err)
		return 1
	case s.HashGroups != 1 || s.ResultGroups != 1 || s.Desyncs != 0:
		fmt.Fprintln(stderr, "rockstep: the bots did not agree")
		return 1
	}
	return 0
}

func runRemoteBots(o botsOptions, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	pin, room, secret := "", uint32(0), uint64(0)
	code, ok, err := joinCode(o.join)
	if err != nil {
		fmt.Fprintf(stderr, "rockstep: -join %s: %v\n", o.join, err)
		return 2
	}
	if !ok {
		o.join = withDefaultPort(o.join) // -h: port 7777 by default
	}
	if ok {
		addr, err := resolveCode(ctx, code)
		if err != nil {
			fmt.Fprintf(stderr, "rockstep: %v\n", err)
			return 1
		}
		fmt.Fprintf(stderr, "rockstep: invite code %s: the host answers at %s\n", code, addr)
		o.join, pin, room, secret = addr, code.Fingerprint(), code.RoomID, code.Secret
		if room != 0 && o.perRoom > 0 {
			fmt.Fprintf(stderr, "rockstep: -join %s names room %d: -per-room creates rooms of its own; leave one out\n", code, room)
			return 2
		}
	}
	// On loopback, each room's bots dial from their own address, as the
	// machines of a LAN would, so per-IP limits see one machine per room.
	spread := false
	if ap, err := netip.ParseAddrPort(o.join); err == nil && ap.Addr().Is4() && ap.Addr().IsLoopback() && o.perRoom > 0 {
		spread = true
	}
	faultBot, fault, err := botFault(o.fault)
	if err != nil {
		fmt.Fprintf(stderr, "rockstep: -fault: %v\n", err)
		return 2
	}
	s, err := bots.RunRemote(ctx, bots.RemoteConfig{
		Addr: o.join, Bots: o.n, PerRoom: o.perRoom, Players: o.players,
		Ticks: o.ticks, Seed: o.seed, TokenDir: o.tokenDir, SpreadLoopback: spread,
		Predict: o.predict, SyncTest: o.syncTest, Share: o.share, Pin: pin,
		RoomKey: o.roomKey, RoomID: room, RoomSecret: secret, Fault: fault, FaultBot: faultBot,
		// Bots in one room follow a host migration as windows do; a load
		// test's rooms (-per-room) and shared simulations hold no world
		// of their own to carry a game on, and keep no standby port.
		Standby:    o.perRoom == 0 && !o.share,
		StandbyMap: standbyMapper(o.portmap, stderr),
	})
	return report(s, err, stdout, stderr)
}

// standbyMapper returns, with -portmap, how a bot asks its router to open
// its standby port (host migration: "Successors everyone can reach"),
// logging each verdict as `-server -portmap` does; nil without.
func standbyMapper(on bool, stderr io.Writer) func(port uint16) *portmap.Mapper {
	if !on {
		return nil
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	return func(port uint16) *portmap.Mapper {
		return portmap.Start(port, portmap.Config{Log: log, OnChange: func(st portmap.Status) {
			switch st.Verdict {
			case portmap.Asking:
			case portmap.Opened:
				log.Info("standby portmap", "verdict", "opened", "proto", st.Proto.String(), "external", st.External.String(), "port", port)
			default:
				log.Warn("standby portmap", "verdict", verdictName(st.Verdict), "port", port, "say", st.String())
			}
		}})
	}
}
