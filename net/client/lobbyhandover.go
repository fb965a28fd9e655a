package client

import (
	"context"

	"rockstep/net/host"
	"rockstep/net/lockstep"
)

// takeOverLobby carries the lobby on here, on the standby port: a room in
// setup with the lobby as this player's session last saw it (setup,
// roster, ready marks), every seat held for its token, the crashed host's
// too; the session joins it over a pipe, and the others with their tokens
// (docs/ARCHITECTURE.md, "When the host goes away").
func (c *Client) takeOverLobby(st lockstep.LobbyState) func(context.Context) error {
	h := host.NewResumedLobby(c.successorHostConfig(), host.LobbyHandoverOf(st))
	return c.serveAdopted(h, st.Successors.Listing, 0)
}
