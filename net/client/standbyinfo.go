package client

import (
	"encoding/hex"

	"rockstep/net/host"
)

// Accessors for the ui's lobby and the end-to-end test after a host
// migration (docs/ARCHITECTURE.md, "One host"). They read what the
// migration set up and decide nothing.

// StandbyKey returns the fingerprint of the host key this player's standby
// socket proves (transport.Fingerprint): the key of the room it runs once
// it took the game over, the one a Rejoin and the lobby's "Host key" name.
// "" without a standby.
func (c *Client) StandbyKey() string {
	if c.standby == nil {
		return ""
	}
	k := c.standby.Key()
	if k == ([16]byte{}) {
		return ""
	}
	return hex.EncodeToString(k[:])
}

// HostedStats returns the counters of the host this player runs since it
// took the game over (ok false if it does not): what its room refused,
// by reason, among them.
func (c *Client) HostedStats() (st host.Stats, ok bool) {
	c.mu.Lock()
	h := c.adopted
	c.mu.Unlock()
	if h == nil {
		return host.Stats{}, false
	}
	return h.Stats(), true
}
