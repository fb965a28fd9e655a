package lockstep_test

import (
	"testing"
	"time"

	"rockstep/net/lockstep"
	"rockstep/net/wire"
)

// TestApart: a session says its side of the game lacks a majority when
// the room holds half of the roster's players or more vacant, and names
// them; a minority away is a vacancy the game plays through.
func TestApart(t *testing.T) {
	roster := func(n int) wire.SetupState {
		var st wire.SetupState
		for i := range n {
			st.Players = append(st.Players, wire.Player{Slot: uint8(i), Connected: true})
		}
		return st
	}
	cases := []struct {
		name    string
		players int
		vacant  uint8
		apart   bool
	}{
		{"everyone here", 3, 0, false},
		{"majority: one of three away", 3, 0b100, false},
		{"minority: two of three away", 3, 0b110, true},
		{"tie: two of four away", 4, 0b1100, true},
		{"two players: the other away", 2, 0b10, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := lockstep.New(lockstep.LAN())
			s.Update(0, nil)
			for _, m := range []wire.Message{
				wire.Welcome{Slot: 0, State: wire.StateSetup},
				roster(tc.players),
				wire.Start{Setup: fuzzSetup, K: 2, Delay: 1},
				wire.RoomStatus{State: wire.StateRunning, Child: wire.ChildVacancy, Vacant: tc.vacant, VacancyMs: 30000},
			} {
				s.Receive(0, frame(t, m))
			}
			absent, apart := s.Apart()
			if apart != tc.apart || apart && absent != tc.vacant {
				t.Fatalf("Apart() = %08b, %v; want %08b, %v", absent, apart, tc.vacant, tc.apart)
			}
			// A room holding the game for a majority says so once a
			// second: that is no silence (no "waiting for the host", no
			// move), where a game that should flow is silent.
			s.Update(2*time.Second, nil)
			if silent := s.RoomSilence() > 0; silent == tc.apart {
				t.Errorf("RoomSilence() = %v two seconds after the status, apart %v", s.RoomSilence(), tc.apart)
			}
		})
	}
	if got, want := lockstep.ApartText([]string{"Bea", "Cy"}, 30), "lost contact with Bea and Cy: waiting 30 s for them"; got != want {
		t.Errorf("ApartText = %q, want %q", got, want)
	}
	if got, want := lockstep.ApartText([]string{"Ada", "Bea", "Cy"}, 5), "lost contact with Ada, Bea and Cy: waiting 5 s for them"; got != want {
		t.Errorf("ApartText = %q, want %q", got, want)
	}
}
