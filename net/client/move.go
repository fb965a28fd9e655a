package client

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"rockstep/net/lockstep"
	"rockstep/net/migrate"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// A server as the last successor, the client's side (net/migrate,
// server.go; the server's: net/host, move.go). The machine's Move is
// carried out here: connect to the community server (proving the key the
// host pinned for it, if any), ask it for the game's room under the
// game's move key, and leave the connection to the Join that follows, as
// after a successor's Dial.

// serverDialWait bounds the connection to a community server: it is over
// the internet, farther than the players' standby ports (ElectTimeout).
const serverDialWait = 3 * time.Second

// moveToServer connects to a.Server and sends the game's MoveGame: the
// session's game if it plays one here, else (catching up, no world to
// describe) an ask that only finds a room the others opened.
func (c *Client) moveToServer(ctx context.Context, a migrate.Action) (*transport.Client, error) {
	var fp string
	if a.Server.Key != ([16]byte{}) {
		fp = hex.EncodeToString(a.Server.Key[:])
	}
	c.mu.Lock()
	mg := c.moveAsk(a)
	c.mu.Unlock()
	frame, err := wire.Append(nil, mg)
	if err != nil {
		return nil, fmt.Errorf("move the game to %s: %w", a.Server.Label(), err)
	}
	tc, err := c.dialKeyed(ctx, a.Server.Addr, fp, serverDialWait)
	if err != nil {
		return nil, err
	}
	if err := tc.Send(frame); err != nil {
		tc.Close()
		return nil, err
	}
	return tc, nil
}

// moveAsk is the MoveGame of this player's game, or of its lobby; c.mu
// is held.
func (c *Client) moveAsk(a migrate.Action) wire.MoveGame {
	mg := wire.MoveGame{Key: a.Key, State: c.s.SetupState()}
	mg.State.RoomID = 0
	st, ok := c.s.State()
	if lst, inLobby := c.s.LobbyState(); !ok && inLobby {
		return lobbyMoveAsk(a, lst)
	}
	if !ok {
		mg.Tokens = c.s.Successors().Tokens // with Present zero the server only finds the room
		return mg
	}
	var present uint8
	for i, t := range st.Successors.Tokens {
		if t != ([16]byte{}) {
			present |= 1 << i
		}
	}
	mg.State = wire.SetupState{Game: st.Game, Name: st.Room, Revision: st.Revision, Setup: st.Setup, Players: st.Roster}
	mg.Names, mg.Tokens, mg.Present, mg.Expected = st.Names, st.Successors.Tokens, present, a.Expected&present
	mg.Next, mg.K, mg.Delay = st.Next, st.K, st.Delay
	mg.PendingAt, mg.PendingK, mg.PendingDelay = st.PendingAt, st.PendingK, st.PendingDelay
	return mg
}

// lobbyMoveAsk is the MoveGame of a lobby: its setup, its roster with the
// ready marks as the players pressed them, the seats' token hashes and
// its last chat lines; no turn and no timing (K zero: no game runs),
// which makes the server's room a resumed lobby (net/host, move.go). A
// server from before lobbies moved refuses it as no game (the player
// walks on, as before).
func lobbyMoveAsk(a migrate.Action, st lockstep.LobbyState) wire.MoveGame {
	mg := wire.MoveGame{Key: a.Key, State: st.Setup, Tokens: st.Successors.Tokens}
	mg.State.RoomID = 0
	for _, p := range st.Setup.Players {
		if int(p.Slot) < len(mg.Names) {
			mg.Names[p.Slot] = p.Name
		}
	}
	for i, t := range mg.Tokens {
		if t != ([16]byte{}) {
			mg.Present |= 1 << i
		}
	}
	mg.Expected = a.Expected & mg.Present
	// The last lines, as many as fit one frame (a line is up to
	// wire.MaxChat bytes, a frame wire.MaxFrame): for a player who comes
	// back on a new program.
	mg.Chat = st.Chat[max(len(st.Chat)-wire.MaxMoveChat, 0):]
	for len(mg.Chat) > 0 {
		if _, err := wire.Append(nil, mg); err == nil {
			break
		}
		mg.Chat = mg.Chat[1:]
	}
	return mg
}

// onServer is the handler of the connection to the server's room after a
// Move: the server's answer to the MoveGame (RoomCreated) is not the
// session's, which would count it as malformed, but the client's: it
// names the room the game moved to and its secret (ServerRoom);
// everything else is the session's.
type onServer struct{ *netHandler }

func (h onServer) Message(f []byte) {
	if t, _, err := wire.Peek(f); err == nil && t == wire.TypeRoomCreated {
		if m, err := wire.Decode(f); err == nil {
			if rc, ok := m.(wire.RoomCreated); ok {
				(*Client)(h.netHandler).serverRoom.Store(&serverRoom{id: rc.RoomID, secret: rc.Secret})
			}
		}
		return
	}
	h.netHandler.Message(f)
}

// serverRoom is the room a community server opened for the moved game
// (its RoomCreated answer to the MoveGame).
type serverRoom struct {
	id     uint32
	secret uint64
}

// ServerRoom returns the room on the community server the game moved to
// and that room's secret (it is unlisted: every Join to it must carry the
// secret), while the game is there (Server); 0, 0 otherwise. A Rejoin
// after a crash goes there with the player's token: this player's own
// Joins after the move are routed to it by the MoveGame that preceded
// them, but a fresh client, from a restarted window, has no such ask and
// must name the room (lockstep.Config.RoomID and RoomSecret).
func (c *Client) ServerRoom() (id uint32, secret uint64) {
	if _, ok := c.Server(); !ok {
		return 0, 0
	}
	r := c.serverRoom.Load()
	if r == nil {
		return 0, 0
	}
	return r.id, r.secret
}

// ErrNoMovedGame matches RejoinMoved's error when the server holds no room
// for the game's move key: the game has not moved there (yet: its players
// go a few seconds after the host went away), went elsewhere, or ended.
var ErrNoMovedGame = errors.New("the game is not on that server")

// RejoinMoved connects to the community server at addr, finds the room its
// game moved to by the game's move key (migrate.MoveKey: a MoveGame that
// describes no game only finds the room the players opened), and joins it
// as opt.Session says, with its token: a player whose machine died before
// the move (the host, whose death moved the game) comes back to the game
// it never saw move, whose room's id and secret it was never told. It
// returns the running session and the room's id (its secret is then
// RoomSecret). opt.Session.RoomID is ignored.
func RejoinMoved(ctx context.Context, addr string, key [16]byte, opt Options) (*Client, uint32, error) {
	frame, err := wire.Append(nil, wire.MoveGame{Key: key})
	if err != nil {
		return nil, 0, fmt.Errorf("rejoin the moved game: %w", err)
	}
	c, id, err := askRoom(ctx, []string{addr}, frame, "rejoin the moved game", opt)
	var refused *RoomRefusedError
	if errors.As(err, &refused) && refused.Reason == wire.RefuseNoRoom {
		return nil, 0, fmt.Errorf("rejoin the moved game at %s: %w", addr, ErrNoMovedGame)
	}
	return c, id, err
}

// Server returns the community server the game moved to, by its name (its
// address if it has none), and whether it moved to one: the lobby's and
// the news' "The game moved to the server NAME.".
func (c *Client) Server() (string, bool) {
	m := c.moved.Load()
	return m.server, m.server != ""
}

// MovedText is what a player is told when its game moved to the
// community server named name.
func MovedText(name string) string { return "The game moved to the server " + name + "." }
