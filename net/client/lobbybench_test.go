package client

import (
	"context"
	"testing"

	"rockstep/game"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
)

// Ada's lobby, as the lobby tests play it: Ada hosts in-process (as the
// Host button does, with a window's hand-over), her guests dial over
// loopback with standby ports.

// handoverHost starts a host that hands its rooms over when it goes, its
// default room set up as setup (the zero Setup: the host's default), and
// attaches a pipe for the host's own player.
func handoverHost(t *testing.T, setup game.Setup) (*hosttest.Server, *transport.Pipe) {
	t.Helper()
	hcfg := host.LAN()
	hcfg.Handover = true
	if setup != (game.Setup{}) {
		hcfg.Room.Setup = setup
	}
	hs := hosttest.Start(t, transport.LAN(), hcfg)
	pipe := transport.NewPipe()
	hs.Host.Attach(pipe)
	return hs, pipe
}

// lobbySession is the session settings of a player named name, its player
// id's first byte id, coming back with token (zero: a newcomer).
func lobbySession(name string, id byte, token [16]byte) lockstep.Config {
	sc := lockstep.LAN()
	sc.Name, sc.PlayerID, sc.Token = name, [16]byte{id}, token
	return sc
}

// dialLobby dials the room at addr with o, closed when the test ends.
func dialLobby(t *testing.T, addr string, o Options) *Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), migrationPatience)
	defer cancel()
	c, err := Dial(ctx, addr, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// standbyGuest is the Options of a guest named name (id) with a standby
// port on loopback.
func standbyGuest(name string, id byte) Options {
	return Options{Session: lobbySession(name, id, [16]byte{}), Standby: true, StandbyAddr: "127.0.0.1:0"}
}
