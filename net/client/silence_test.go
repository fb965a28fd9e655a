package client

import (
	"testing"
	"time"

	"rockstep/net/transport"
)

// TestSilentHostMovesTheGame: the host's machine dies in a flowing game,
// and the guests' transports would take two minutes to call it gone: the
// room's silence (migrate.PlaySilence) moves the game, to the first
// successor's room with every guest in it, long before (within the test's
// patience of a minute, which is shorter than that timeout).
func TestSilentHostMovesTheGame(t *testing.T) {
	m := startMigrationGameWith(t, func(o *Options) {
		o.Transport = transport.LAN()
		o.Transport.Timeout = 2 * migrationPatience
	})
	t0 := time.Now()
	m.killHost()
	m.playOnInOneRoom(t0, "the host died")
}
