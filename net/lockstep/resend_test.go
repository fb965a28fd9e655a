package lockstep_test

import (
	"testing"

	"rockstep/net/bots"
	"rockstep/net/room"
)

// TestSlowAcknowledgementsAreNotResent: with turns of five ticks (83 ms)
// over a 120 ms round trip, an acknowledgement normally comes longer after
// a packet than either side's resend period. Neither the clients nor the
// room send again what the other side simply has not acknowledged yet:
// resends stay a small part of what is sent, and the game is unchanged.
func TestSlowAcknowledgementsAreNotResent(t *testing.T) {
	rc := room.LAN()
	rc.FixedTiming, rc.K, rc.Delay = true, 5, 3
	l := newLocal(t, bots.Config{Bots: 4, Ticks: 3000, Seed: 9, Net: impairment(t, "latency=60ms"), Room: rc, Share: true})
	if _, err := l.Run(); err != nil {
		t.Fatal(err)
	}
	s := agree(t, l)
	var out, resent uint64
	for _, b := range l.Bots {
		st := b.Session.Stats()
		out += st.PacketsOut
		resent += st.Resends
	}
	rs := l.Room.Stats()
	t.Logf("%s; clients resent %d of %d packets; room resent %d master frames for %d turns", s, resent, out, rs.Resends, rs.Turns)
	if resent*10 > out {
		t.Errorf("clients resent %d of %d packets, want under a tenth", resent, out)
	}
	if rs.Resends*10 > rs.Turns*uint64(len(l.Bots)) {
		t.Errorf("room resent %d master frames for %d turns to %d players, want under a tenth", rs.Resends, rs.Turns, len(l.Bots))
	}
}
