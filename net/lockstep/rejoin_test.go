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
	for _, rejoin := range []bool{true, false} {
		cfg := lockstep.LAN()
		cfg.RoomID, cfg.RoomSecret = 7, 0x5ec2e7
		s := lockstep.New(cfg)
		s.Update(0, nil)
		succ := wire.Successors{List: []wire.Successor{{Slot: 2, Addr: netip.MustParseAddrPort("127.0.0.1:4000")}}}
		for _, m := range []wire.Message{wire.Welcome{RoomID: 7, Slot: 1, State: wire.StateSetup, Token: [16]byte{9}}, wire.Start{Setup: fuzzSetup, K: 2, Delay: 1}, succ} {
			s.Receive(0, frame(t, m))
		}
		flush(t, s)
		ok := s.Migrate
		if rejoin {
			ok = s.Rejoin
		}
		if !ok() {
			t.Fatalf("rejoin %v: nothing to carry on", rejoin)
		}
		j := sentJoin(s)
		switch {
		case j == nil:
			t.Fatalf("rejoin %v: no Join sent", rejoin)
		case j.Token != [16]byte{9} || !j.Resuming:
			t.Errorf("rejoin %v: Join %+v, want the token, resuming", rejoin, *j)
		case rejoin && (j.RoomID != 7 || j.Secret != 0x5ec2e7):
			t.Errorf("rejoin: Join names room %d with secret %x, want room 7 with its secret", j.RoomID, j.Secret)
		case !rejoin && (j.RoomID != 0 || j.Secret != 0):
			t.Errorf("migrate: Join names room %d with secret %x, want the host's default room", j.RoomID, j.Secret)
		}
		s.Receive(time.Millisecond, frame(t, wire.Refuse{Reason: wire.RefuseBadToken}))
		if s.TurnedAway() != rejoin {
			t.Errorf("rejoin %v: a refused token turns the session away: %v", rejoin, s.TurnedAway())
		}
	}
}
