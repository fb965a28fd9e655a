package room_test

import (
	"net/netip"
	"slices"
	"testing"
	"time"

	"rockstep/net/room"
	"rockstep/net/wire"
)

// TestSuccessorNoMajorityReachesIsPassedOver (issue 52, "successors
// everyone can reach"): a candidate the others probed and could not
// reach, so that no strict majority of the members can, is flagged
// Unreached and listed last (still probed, never taken alone); one they
// have not probed yet keeps its place after those a majority reaches;
// with nobody reachable every candidate is flagged (no reachable
// successor: the game cannot move to a player).
func TestSuccessorNoMajorityReachesIsPassedOver(t *testing.T) {
	for _, tc := range []struct {
		name          string
		reach, probed []uint8 // by slot (conn slot+1)
		want          []uint8
		unreached     []uint8
	}{
		{"two behind NATs, one on the internet, all probed", []uint8{0b100, 0b100, 0}, []uint8{0b110, 0b101, 0b011}, []uint8{2, 0, 1}, []uint8{0, 1}},
		{"two behind NATs, one on the internet, not probed yet", []uint8{0b100, 0b100, 0}, []uint8{0b100, 0b100, 0}, []uint8{2, 0, 1}, nil},
		{"no reachable successor", []uint8{0, 0, 0}, []uint8{0b110, 0b101, 0b011}, []uint8{0, 1, 2}, []uint8{0, 1, 2}},
		{"one of two reached it: a majority with itself", []uint8{0b110, 0b001, 0b001}, []uint8{0b110, 0b101, 0b011}, []uint8{0, 1, 2}, nil},
		{"a player that says nothing of its probes is waited for", []uint8{0b100, 0b100, 0}, []uint8{0b110, 0, 0}, []uint8{2, 0, 1}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t, addrPerConn)
			b.startGame(len(tc.reach))
			b.tick(10 * time.Millisecond)
			for i := range tc.reach {
				c := room.ConnID(i + 1)
				b.send(c, wire.Standby{Port: 7000 + uint16(c), Key: [16]byte{byte(c)}, Reach: tc.reach[i], Probed: tc.probed[i]})
			}
			sc, ok := last[wire.Successors](b.peer(1))
			if !ok {
				t.Fatal("no successor list was sent")
			}
			var got, unreached []uint8
			for _, s := range sc.List {
				got = append(got, s.Slot)
				if s.Unreached {
					unreached = append(unreached, s.Slot)
				}
			}
			if !slices.Equal(got, tc.want) || !slices.Equal(unreached, tc.unreached) {
				t.Errorf("successors = %v, unreached %v; want %v, unreached %v", got, unreached, tc.want, tc.unreached)
			}
		})
	}
}

// TestSuccessorOutsideAddress: the port a player's router mapped for its
// standby (Standby.Outside) is listed beside the observed address, at the
// address the player plays from or at another public one (a router whose
// outside link is numbered apart, as the NAT lab's); one naming a
// private address other than its own, or an address another player holds
// there, is not.
func TestSuccessorOutsideAddress(t *testing.T) {
	shared := func(c *room.Config) {
		c.AddrOf = func(c room.ConnID) netip.Addr {
			if c == 3 {
				return netip.AddrFrom4([4]byte{10, 0, 0, 2}) // behind one NAT with conn 2
			}
			return netip.AddrFrom4([4]byte{10, 0, 0, byte(c)})
		}
	}
	b := newBench(t, shared)
	b.startGame(4)
	b.tick(10 * time.Millisecond)
	b.send(1, wire.Standby{Port: 7001, Key: [16]byte{1}, Reach: 0b1110, Outside: netip.MustParseAddrPort("10.0.0.1:41001")})
	b.send(2, wire.Standby{Port: 7002, Key: [16]byte{2}, Reach: 0b1101, Outside: netip.MustParseAddrPort("192.168.5.9:41002")})
	b.send(3, wire.Standby{Port: 7003, Key: [16]byte{3}, Reach: 0b1011, Outside: netip.MustParseAddrPort("10.0.0.2:7002")})
	b.send(4, wire.Standby{Port: 7004, Key: [16]byte{4}, Reach: 0b0111, Outside: netip.MustParseAddrPort("203.0.113.7:41004")})
	sc, ok := last[wire.Successors](b.peer(1))
	if !ok || len(sc.List) != 4 {
		t.Fatalf("successors %+v, want four", sc.List)
	}
	want := map[uint8]netip.AddrPort{0: netip.MustParseAddrPort("10.0.0.1:41001"), 3: netip.MustParseAddrPort("203.0.113.7:41004")}
	for _, s := range sc.List {
		if s.Outside != want[s.Slot] {
			t.Errorf("slot %d outside %v, want %v", s.Slot, s.Outside, want[s.Slot])
		}
	}
}
