package client

// OthersUnfound reports whether this player's room is deserted by more
// than half of the game's members and none of the successors they walked
// answers its probes (migrate.Machine.Unfound): the old host cut off,
// whose search for the others' game finds nobody. The screens say so.
func (c *Client) OthersUnfound() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		return false
	}
	return c.m.Unfound(c.view())
}
