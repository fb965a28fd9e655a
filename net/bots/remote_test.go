package bots_test

import (
	"context"
	"strings"
	"testing"

	"rockstep/net/bots"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/transport"
)

// serve runs a dedicated server on loopback with room for maxRooms rooms
// (the default room among them) until the test ends.
func serve(t *testing.T, maxRooms int) string {
	t.Helper()
	hc := host.LAN()
	hc.MaxRooms = maxRooms
	return hosttest.Start(t, transport.LAN(), hc).Addr()
}

// TestLoadRoomsOfWhatIsLeft: 6 bots in rooms of 4 make two rooms, the last
// of 2 players, which starts with the 2 it has; both games end, every room
// in agreement, each simulated once by its bots.
func TestLoadRoomsOfWhatIsLeft(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two games in real time over loopback")
	}
	addr := serve(t, 8)
	s, err := bots.RunRemote(context.Background(), bots.RemoteConfig{Addr: addr, Bots: 6, PerRoom: 4, Ticks: 120, Seed: 3, Share: true})
	if err != nil {
		t.Fatalf("%v\n%s", err, s)
	}
	if s.HashGroups != 1 || s.ResultGroups != 1 || s.Desyncs != 0 || s.RoomsFailed != 0 {
		t.Fatalf("rooms disagree or failed: %s", s)
	}
	if s.SharedTicks == 0 {
		t.Fatalf("the rooms' bots simulated alone: %s", s)
	}
}

// TestLoadRoomThatFailsIsCounted: a server with room for one more room
// refuses the second; the run goes on with the room it has, and the
// summary and the error say what failed.
func TestLoadRoomThatFailsIsCounted(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game in real time over loopback")
	}
	addr := serve(t, 2) // the default room and one more
	s, err := bots.RunRemote(context.Background(), bots.RemoteConfig{Addr: addr, Bots: 8, PerRoom: 4, Ticks: 120, Seed: 4})
	if err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("err = %v, want the refused room", err)
	}
	if s.RoomsFailed != 1 || s.HashGroups != 1 || s.ResultGroups != 1 || s.Played == 0 {
		t.Fatalf("want one failed room and one game played to its end: %s", s)
	}
}
