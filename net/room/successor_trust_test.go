package room_test

import (
	"net/netip"
	"slices"
	"testing"
	"time"

	"rockstep/net/room"
	"rockstep/net/wire"
)

// successorSlots returns the slots of the successor list conn was last
// sent, in order.
func successorSlots(t *testing.T, b *bench, conn room.ConnID) []uint8 {
	t.Helper()
	sc, ok := last[wire.Successors](b.peer(conn))
	if !ok {
		t.Fatalf("conn %d was sent no successor list", conn)
	}
	var out []uint8
	for _, s := range sc.List {
		out = append(out, s.Slot)
	}
	return out
}

// addrPerConn gives every connection an address of its own.
func addrPerConn(c *room.Config) {
	c.AddrOf = func(c room.ConnID) netip.Addr { return netip.AddrFrom4([4]byte{10, 0, 0, byte(c)}) }
}

// TestSuccessorOrderComesFromTheOthers: a candidate's place in the
// successor list comes from the others' word that they reached it, never
// from its own: first those a strict majority of the members reach, then
// the rest; within each, most links both ends confirm first, then the
// one more of the others reached (less those it denies). A Standby
// claiming it reached nobody (Reach = 0) does not push the candidates it
// denies below itself, and so is not first unless the others'
// confirmations put it there.
func TestSuccessorOrderComesFromTheOthers(t *testing.T) {
	all := func(n int) []uint8 {
		r := make([]uint8, n)
		for i := range r {
			r[i] = uint8(1<<n - 1)
		}
		return r
	}
	for _, tc := range []struct {
		name  string
		reach []uint8 // by slot (conn slot+1)
		want  []uint8
	}{
		{"everyone reaches everyone", all(3), []uint8{0, 1, 2}},
		{"the last slot claims it reached nobody", []uint8{0b111, 0b111, 0}, []uint8{0, 1, 2}},
		{"the first slot claims it reached nobody", []uint8{0, 0b111, 0b111}, []uint8{1, 2, 0}},
		{"a liar denies only the first slot", []uint8{0b1111, 0b1111, 0b1111, 0b1110}, []uint8{1, 2, 0, 3}},
		{"a port nobody reaches goes last", []uint8{0b101, 0b111, 0b101}, []uint8{0, 2, 1}},
		// One way only between two (a NAT lets the first's probes out and
		// nothing in; or the second lies): the one the other reached
		// comes first, as the others' word alone decides.
		{"two candidates, only the first reached the second", []uint8{0b11, 0b10}, []uint8{1, 0}},
		// Issue 52: guests behind NATs without a mapping reach the player
		// on the internet, which reaches neither: it comes first, so they
		// all meet there.
		{"two behind NATs reach the one on the internet", []uint8{0b101, 0b110, 0b100}, []uint8{2, 0, 1}},
		{"a liar alone cannot pass over one the others vouch for", []uint8{0b111, 0b111, 0b100}, []uint8{0, 1, 2}},
		// Issue 52 item 2: a guest behind a plain NAT (its path punched:
		// the mapped one reaches it and it the mapped one), one behind a
		// port-randomising NAT (it reaches only the mapped port) and one
		// with its port mapped: as many links each for the first and the
		// last, but more of the others reached the mapped one (and the
		// first denies the randomising one as much as it does), so it
		// comes first and all three meet there.
		{"a punched path and a mapped port: the one everyone reached first", []uint8{0b101, 0b110, 0b101}, []uint8{2, 0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t, addrPerConn)
			n := len(tc.reach)
			b.startGame(n)
			b.tick(10 * time.Millisecond)
			for i, reach := range tc.reach {
				c := room.ConnID(i + 1)
				b.send(c, wire.Standby{Port: 7000 + uint16(c), Key: [16]byte{byte(c)}, Reach: reach})
			}
			if got := successorSlots(t, b, 1); !slices.Equal(got, tc.want) {
				t.Errorf("successors = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestStandbyIsBoundToTheSession: a standby entry is at the address of the
// connection that sent it, and one naming a port another slot's player
// already holds there is refused and counted: players behind one address
// cannot list themselves at each other's standby ports. A shared host key
// is not refused (two windows of one install share theirs; a port that
// cannot prove its key fails every probe and goes last).
func TestStandbyIsBoundToTheSession(t *testing.T) {
	oneAddr := func(c *room.Config) {
		c.AddrOf = func(room.ConnID) netip.Addr { return netip.AddrFrom4([4]byte{10, 0, 0, 9}) }
	}
	key := func(c byte) [16]byte { return [16]byte{c} }
	for _, tc := range []struct {
		name      string
		claim     wire.Standby // slot 2's, after slots 0 and 1 said theirs
		wantSlots []uint8
		refused   bool
	}{
		{"a port of its own", wire.Standby{Port: 7003, Key: key(3), Reach: 0b111}, []uint8{0, 1, 2}, false},
		{"another player's port", wire.Standby{Port: 7001, Key: key(3), Reach: 0b111}, []uint8{0, 1}, true},
		{"another player's port and key", wire.Standby{Port: 7002, Key: key(2), Reach: 0b111}, []uint8{0, 1}, true},
		{"another player's key at a port of its own", wire.Standby{Port: 7003, Key: key(1), Reach: 0b111}, []uint8{0, 1, 2}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t, oneAddr)
			b.startGame(3)
			b.tick(10 * time.Millisecond)
			for c := room.ConnID(1); c <= 2; c++ {
				b.send(c, wire.Standby{Port: 7000 + uint16(c), Key: key(byte(c)), Reach: 0b111})
			}
			before := b.r.Stats().Dropped[room.DropSpoof]
			b.send(3, tc.claim)
			b.r.SetListing([8]byte{1}) // a change: the list is sent again
			b.flush()
			sc, ok := last[wire.Successors](b.peer(1))
			if !ok {
				t.Fatal("no successor list")
			}
			var slots []uint8
			for _, s := range sc.List {
				slots = append(slots, s.Slot)
				if want := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, 0, 9}), 7001+uint16(s.Slot)); s.Slot < 2 && s.Addr != want {
					t.Errorf("slot %d listed at %v, want %v", s.Slot, s.Addr, want)
				}
			}
			if !slices.Equal(slots, tc.wantSlots) {
				t.Errorf("successors = %v, want %v", slots, tc.wantSlots)
			}
			if got := b.r.Stats().Dropped[room.DropSpoof] - before; (got != 0) != tc.refused {
				t.Errorf("spoof drops for the claim = %d, want refused %v", got, tc.refused)
			}
		})
	}
}

// TestStandbyFollowsTheSessionsAddress: the address a successor is listed
// at is its connection's as the host knows it now, not as it was when its
// Standby came (a session the transport moved after validating the new
// address).
func TestStandbyFollowsTheSessionsAddress(t *testing.T) {
	at := map[room.ConnID]netip.Addr{}
	b := newBench(t, func(c *room.Config) {
		c.AddrOf = func(c room.ConnID) netip.Addr { return at[c] }
	})
	for c := room.ConnID(1); c <= 2; c++ {
		at[c] = netip.AddrFrom4([4]byte{10, 0, 0, byte(c)})
	}
	b.startGame(2)
	b.tick(10 * time.Millisecond)
	for c := room.ConnID(1); c <= 2; c++ {
		b.send(c, wire.Standby{Port: 7000, Key: [16]byte{byte(c)}, Reach: 0b11})
	}
	at[2] = netip.AddrFrom4([4]byte{10, 0, 1, 2})
	sc := b.r.Successors()
	if len(sc.List) != 2 || sc.List[1].Addr != netip.AddrPortFrom(at[2], 7000) {
		t.Fatalf("successors after conn 2 moved = %+v, want slot 1 at %v", sc.List, netip.AddrPortFrom(at[2], 7000))
	}
	// Moved to the address whose port 7000 slot 0 claimed first: slot 0
	// keeps it.
	at[2] = at[1]
	sc = b.r.Successors()
	if len(sc.List) != 1 || sc.List[0].Slot != 0 {
		t.Fatalf("successors after conn 2 moved onto slot 0's port = %+v, want slot 0 alone", sc.List)
	}
}
