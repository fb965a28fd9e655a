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
// from its own: a Standby claiming it reached nobody (Reach = 0) does not
// push the candidates it denies below itself, and so is not first unless
// the others' confirmations put it there.
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
		{"two candidates, the second denies the first", []uint8{0b11, 0b10}, []uint8{0, 1}},
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
