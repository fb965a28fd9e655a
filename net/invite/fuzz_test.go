package invite

import (
	"reflect"
	"testing"
)

// FuzzDecode: no text makes Decode panic, and whatever decodes re-encodes
// to the same code (as Encode writes it) and decodes again to an equal
// value.
func FuzzDecode(f *testing.F) {
	for _, addrs := range [][]string{
		{"192.168.1.20:7777"},
		{"203.0.113.7:40123", "192.168.1.20:7777"},
		{"10.1.2.3:7777", "[2001:db8::1]:9"},
	} {
		f.Add(mustCode(f, testFP, addrs...).String())
	}
	for _, room := range []uint32{2, 300, 1<<31 - 1} {
		c := mustCode(f, testFP, "203.0.113.7:7777", "192.168.1.20:7777")
		c.RoomID = room
		f.Add(c.String())
	}
	for _, secret := range []uint64{1, 1 << 63, 0x0123_4567_89AB_CDEF} {
		c := mustCode(f, testFP, "203.0.113.7:7777")
		c.Secret = secret
		f.Add(c.String())
	}
	f.Add("k7qm xxxx")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Decode(s)
		if err != nil {
			return
		}
		again, err := Encode(c)
		if err != nil {
			t.Fatalf("Decode(%q) = %+v, which does not encode: %v", s, c, err)
		}
		syms, _ := symbols(s)
		if again != group(syms) {
			t.Fatalf("Decode(%q) re-encodes to %s", s, again)
		}
		c2, err := Decode(again)
		if err != nil || !reflect.DeepEqual(c2, c) {
			t.Fatalf("Decode(%s) = %+v, %v; want %+v", again, c2, err, c)
		}
	})
}
