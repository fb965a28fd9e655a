package lockstep_test

import (
	"net/netip"
	"testing"
	"time"

	"rockstep/net/lockstep"
	"rockstep/net/wire"
)

// TestRejoinNamesTheRoomItLost: a player whose own link failed while the
// host lives joins the same room again (net/migrate, rejoin.go): its Join
// names that room with the secret the session was given for it (a
// successor's room is its host's default one: a Migrate names none), and
// any refusal turns it away (the place was given up), where a Migrate is
// turned away only by a successor that does not host.
func TestRejoinNamesTheRoomItLost(t *testing.T) {
	for _, tc := range []struct {
		name       string
		rejoin     bool
		secret     uint64 // given to Rejoin
		room       uint32 // the room's id, from its Welcome
		wantRoom   uint32
		wantSecret uint64
	}{
		{"rejoin the configured room", true, 0, 7, 7, 0x5ec2e7},
		// The room a game moved to on a server: its secret came from the
		// server's answer to the move (net/client ServerRoom).
		{"rejoin a moved room", true, 0x5ec2e8, 9, 9, 0x5ec2e8},
		{"migrate", false, 0, 7, 0, 0},
	} {
		cfg := lockstep.LAN()
		cfg.RoomID, cfg.RoomSecret = 7, 0x5ec2e7
		s := lockstep.New(cfg)
		s.Update(0, nil)
		succ := wire.Successors{List: []wire.Successor{{Slot: 2, Addr: netip.MustParseAddrPort("127.0.0.1:4000")}}}
		for _, m := range []wire.Message{wire.Welcome{RoomID: tc.room, Slot: 1, State: wire.StateSetup, Token: [16]byte{9}}, wire.Start{Setup: fuzzSetup, K: 2, Delay: 1}, succ} {
			s.Receive(0, frame(t, m))
		}
		flush(t, s)
		ok := s.Migrate
		if tc.rejoin {
			ok = func() bool { return s.Rejoin(tc.secret) }
		}
		if !ok() {
			t.Fatalf("%s: nothing to carry on", tc.name)
		}
		j := sentJoin(s)
		switch {
		case j == nil:
			t.Fatalf("%s: no Join sent", tc.name)
		case j.Token != [16]byte{9} || !j.Resuming:
			t.Errorf("%s: Join %+v, want the token, resuming", tc.name, *j)
		case j.RoomID != tc.wantRoom || j.Secret != tc.wantSecret:
			t.Errorf("%s: Join names room %d with secret %x, want room %d with secret %x", tc.name, j.RoomID, j.Secret, tc.wantRoom, tc.wantSecret)
		}
		s.Receive(time.Millisecond, frame(t, wire.Refuse{Reason: wire.RefuseBadToken}))
		if s.TurnedAway() != tc.rejoin {
			t.Errorf("%s: a refused token turns the session away: %v", tc.name, s.TurnedAway())
		}
	}
}
