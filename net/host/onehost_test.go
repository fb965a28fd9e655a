package host

import (
	"testing"

	"rockstep/game"
	"rockstep/net/room"
	"rockstep/net/transport"
)

// TestWhoHostsEachRoom: a room's Config.Hosts names its host player's
// connection: in the default room the in-process pipe (the player whose
// machine runs it, Host button or successor), in a created room its
// creator; a network connection in the default room is nobody's host (a
// dedicated server: the lowest non-vacant slot stands in).
func TestWhoHostsEachRoom(t *testing.T) {
	h := New(LAN())
	const (
		pipe    room.ConnID = 11
		remote  room.ConnID = 12
		creator room.ConnID = 13
		other   room.ConnID = 14 // a second pipe (a test's guest in the same process)
	)
	h.conns[pipe] = &conn{pipe: transport.NewPipe()}
	h.conns[other] = &conn{pipe: transport.NewPipe()}
	h.ownPipe = pipe // attached first
	h.conns[remote] = &conn{}
	h.conns[creator] = &conn{}
	created := h.openRoom("made", game.Setup{}, 0)
	h.rooms[created].askedOn = creator
	tests := []struct {
		name string
		room uint32
		conn room.ConnID
		want bool
	}{
		{"default room, in-process player", DefaultRoom, pipe, true},
		{"default room, a network player", DefaultRoom, remote, false},
		{"default room, a pipe attached later", DefaultRoom, other, false},
		{"default room, a connection gone", DefaultRoom, 99, false},
		{"created room, its creator", created, creator, true},
		{"created room, the in-process player", created, pipe, false},
		{"created room, another player", created, remote, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := h.hostsOf(tc.room)(tc.conn); got != tc.want {
				t.Errorf("hostsOf(%d)(%d) = %v, want %v", tc.room, tc.conn, got, tc.want)
			}
		})
	}
}
