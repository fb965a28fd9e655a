package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"rockstep/net/host"
	"rockstep/net/lan"
	"rockstep/net/wire"
)

// lanInfo is how a LAN list shows the host's default room.
func lanInfo(id, hostName string, st host.Stats) lan.Info {
	state := lan.StateSetup
	switch st.RoomState {
	case wire.StateRunning:
		state = lan.StateRunning
	case wire.StateFinished:
		state = lan.StateFinished
	}
	return lan.Info{ID: id, Name: st.Name, Host: hostName, Players: st.RoomPlayers, Max: st.RoomMax, State: state}
}

// advertise publishes the host's default room on the LAN until ctx ends,
// updating the listing as players come and go and games start and end.
// Failing to advertise is logged, not fatal: joining by address still works.
func advertise(ctx context.Context, h *host.Host, port uint16, hostName string, log *slog.Logger) {
	id := lan.NewGameID()
	info := lanInfo(id, hostName, h.Stats())
	adv, err := lan.Advertise(info, int(port))
	if err != nil {
		log.Warn("cannot advertise on the LAN; players can still join by address", "err", err)
		return
	}
	log.Info("advertising on the LAN", "service", lan.Service, "id", id)
	go func() {
		defer adv.Close()
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if next := lanInfo(id, hostName, h.Stats()); next != info {
					info = next
					adv.Update(info)
				}
			}
		}
	}()
}

// runBrowse prints the LAN games found within timeout, one per line.
func runBrowse(timeout time.Duration, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	counted := &countingWriter{w: stdout}
	if err := lan.PrintGames(ctx, counted, timeout); err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "rockstep: browse: %v\n", err)
		return 1
	}
	if counted.lines == 0 {
		fmt.Fprintf(stderr, "rockstep: no games found on the LAN in %v\n", timeout)
	}
	return 0
}

type countingWriter struct {
	w     io.Writer
	lines int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	for _, b := range p {
		if b == '\n' {
			c.lines++
		}
	}
	return c.w.Write(p)
}
