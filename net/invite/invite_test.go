package invite

import (
	"errors"
	"net/netip"
	"reflect"
	"strings"
	"testing"

	"rockstep/net/wire"
)

const testFP = "0123456789abcdef0123456789abcdef"

func ap(s string) netip.AddrPort { return netip.MustParseAddrPort(s) }

func mustCode(t testing.TB, fp string, addrs ...string) Code {
	t.Helper()
	var list []netip.AddrPort
	for _, a := range addrs {
		list = append(list, ap(a))
	}
	c, err := New(list, fp)
	if err != nil {
		t.Fatalf("New(%v): %v", addrs, err)
	}
	return c
}

func TestCodeRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name   string
		addrs  []string
		maxLen int // symbols, check symbols included
	}{
		{"LAN only, default port", []string{"192.168.1.20:7777"}, 20},
		{"public and LAN, default port", []string{"203.0.113.7:7777", "192.168.1.20:7777"}, 27},
		{"public on another port", []string{"203.0.113.7:40123", "192.168.1.20:7777"}, 30},
		{"10/8 LAN", []string{"10.1.2.3:7777"}, 20},
		{"loopback", []string{"127.0.0.1:7777"}, 23},
		{"IPv6", []string{"[2001:db8::1]:7777"}, 46},
		{"four addresses", []string{"203.0.113.7:1024", "192.168.0.2:7777", "10.0.0.1:65535", "[fd00::1]:7777"}, 80},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustCode(t, testFP, tc.addrs...)
			s, err := Encode(c)
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			n := len(strings.ReplaceAll(s, "-", ""))
			if n > tc.maxLen {
				t.Errorf("code %s: %d symbols, want at most %d", s, n, tc.maxLen)
			}
			got, err := Decode(s)
			if err != nil {
				t.Fatalf("Decode(%s): %v", s, err)
			}
			if !reflect.DeepEqual(got, c) {
				t.Errorf("Decode(%s) = %+v, want %+v", s, got, c)
			}
			if got.Fingerprint() != testFP[:16] {
				t.Errorf("Fingerprint() = %s, want %s", got.Fingerprint(), testFP[:16])
			}
			// As a player may type it: lower case, spaces for dashes.
			typed := strings.ToLower(strings.ReplaceAll(s, "-", " "))
			if got, err := Decode("  " + typed + " "); err != nil || !reflect.DeepEqual(got, c) {
				t.Errorf("Decode(%q) = %+v, %v; want %+v", typed, got, err, c)
			}
		})
	}
}

func TestCodeAlphabetHasNoLookalikes(t *testing.T) {
	if len(Alphabet) != 31 {
		t.Fatalf("alphabet has %d symbols, want 31", len(Alphabet))
	}
	if strings.ContainsAny(Alphabet, "0O1IL") {
		t.Errorf("alphabet %s holds one of 0, O, 1, I, L", Alphabet)
	}
	s := mustCode(t, testFP, "203.0.113.7:7777", "192.168.1.20:7777").String()
	for i, g := range strings.Split(s, "-") {
		if len(g) > 4 || (len(g) < 4 && i != len(strings.Split(s, "-"))-1) {
			t.Errorf("code %s: group %q, want groups of four", s, g)
		}
	}
}

// Every mistyped symbol and every swap of neighbours is caught by the
// check, whichever position it hits (check symbols included).
func TestCodeCatchesTyposAndSwaps(t *testing.T) {
	s := strings.ReplaceAll(mustCode(t, testFP, "203.0.113.7:40123", "192.168.1.20:7777").String(), "-", "")
	for i := range len(s) {
		for _, r := range Alphabet {
			if byte(r) == s[i] {
				continue
			}
			typo := s[:i] + string(r) + s[i+1:]
			if _, err := Decode(typo); !errors.Is(err, ErrGarbled) {
				t.Errorf("symbol %d %c→%c: Decode(%s) err = %v, want ErrGarbled", i, s[i], r, typo, err)
			}
		}
		if i+1 < len(s) && s[i] != s[i+1] {
			swap := s[:i] + string(s[i+1]) + string(s[i]) + s[i+2:]
			if _, err := Decode(swap); !errors.Is(err, ErrGarbled) {
				t.Errorf("swap %d,%d: Decode(%s) err = %v, want ErrGarbled", i, i+1, swap, err)
			}
		}
	}
	// A symbol left out or typed twice.
	for i := range len(s) {
		short := s[:i] + s[i+1:]
		if _, err := Decode(short); !errors.Is(err, ErrGarbled) {
			t.Errorf("symbol %d left out: Decode(%s) err = %v, want ErrGarbled", i, short, err)
		}
	}
}

func TestCodeDecodeErrors(t *testing.T) {
	good := mustCode(t, testFP, "192.168.1.20:7777").String()
	newer := func() string {
		var w bitWriter
		w.put(3, 3) // a format after an unlisted room's
		w.putBytes([]byte("a later format"))
		return group(withChecks(digits(&w.v)))
	}()
	for _, tc := range []struct {
		name, code string
		want       error
		say        string // in the message
	}{
		{"empty", "", ErrGarbled, "too short"},
		{"dashes only", "----", ErrGarbled, "too short"},
		{"letter O", strings.Replace(good, good[:1], "O", 1), ErrGarbled, "no 0, O, 1, I or L"},
		{"digit 1", "1" + good, ErrGarbled, "no 0, O, 1, I or L"},
		{"an address", "192.168.1.20:7777", ErrGarbled, "no 0, O, 1, I or L"},
		{"a host name", "gamebox", ErrGarbled, "no 0, O, 1, I or L"},
		{"punctuation", good + "!", ErrGarbled, `'!' is not a character`},
		{"too long", strings.Repeat("A", maxInput+1), ErrGarbled, "too long"},
		{"extra symbol", good + "A", ErrGarbled, "garbled"},
		{"newer format", newer, ErrNewer, "newer Rockstep"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(tc.code)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Decode(%q) err = %v, want %v", tc.code, err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.say) {
				t.Errorf("Decode(%q) err = %q, want it to say %q", tc.code, err, tc.say)
			}
		})
	}
}

// TestServerRoomCode: a code may name a room on a server (format 1): it
// round-trips with its room id in as few symbols as the id takes, a host
// code (room 0) stays format 0, and a format 1 code naming room 0 is
// refused as garbled.
func TestServerRoomCode(t *testing.T) {
	host := mustCode(t, testFP, "203.0.113.7:7777")
	for _, tc := range []struct {
		name   string
		room   uint32
		maxLen int // symbols
	}{
		{"room 2", 2, 24},
		{"room 255", 255, 24},
		{"room 256", 256, 26},
		{"room 70000", 70000, 28},
		{"the largest listed id", wire.UnlistedRooms - 1, 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := host
			c.RoomID = tc.room
			s, err := Encode(c)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(strings.ReplaceAll(s, "-", "")); n > tc.maxLen {
				t.Errorf("code %s: %d symbols, want at most %d", s, n, tc.maxLen)
			}
			got, err := Decode(s)
			if err != nil || !reflect.DeepEqual(got, c) {
				t.Fatalf("Decode(%s) = %+v, %v; want %+v", s, got, err, c)
			}
			if s == host.String() {
				t.Errorf("room %d's code is the host's", tc.room)
			}
		})
	}
	var w bitWriter
	w.put(formatServerRoom, 3)
	w.put(0, 2)
	w.putBytes([]byte{0})
	w.put(0, 2)
	w.put(kind4, 2)
	w.putBytes([]byte{203, 0, 113, 7})
	w.put(1, 1)
	w.putBytes(host.Pin[:])
	if c, err := Decode(group(withChecks(digits(&w.v)))); !errors.Is(err, ErrGarbled) {
		t.Errorf("a format 1 code of room 0: %+v, %v; want %v", c, err, ErrGarbled)
	}
}

func TestCodeNewRefuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		addrs []netip.AddrPort
		fp    string
	}{
		{"short fingerprint", []netip.AddrPort{ap("10.0.0.1:7777")}, "0123"},
		{"not hex", []netip.AddrPort{ap("10.0.0.1:7777")}, strings.Repeat("zz", 16)},
		{"no address", nil, testFP},
		{"unspecified only", []netip.AddrPort{ap("0.0.0.0:7777"), ap("[::]:7777")}, testFP},
		{"port 0", []netip.AddrPort{ap("10.0.0.1:0")}, testFP},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if c, err := New(tc.addrs, tc.fp); err == nil {
				t.Errorf("New(%v, %q) = %+v, want an error", tc.addrs, tc.fp, c)
			}
		})
	}
	if _, err := Encode(Code{Addrs: []netip.AddrPort{ap("[fe80::1%eth0]:7777")}}); err == nil {
		t.Error("Encode of an address with a zone: no error")
	}
}

func TestHostAddrs(t *testing.T) {
	ifaces := []netip.Addr{
		netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("::1"),
		netip.MustParseAddr("fe80::1"), netip.MustParseAddr("2001:db8::5"),
		netip.MustParseAddr("198.51.100.9"), netip.MustParseAddr("192.168.1.20"),
		netip.MustParseAddr("10.0.0.3"),
	}
	for _, tc := range []struct {
		name     string
		listen   string
		external netip.AddrPort
		want     []netip.AddrPort
	}{
		{"all interfaces", "[::]:7777", netip.AddrPort{}, []netip.AddrPort{ap("192.168.1.20:7777"), ap("10.0.0.3:7777"), ap("198.51.100.9:7777")}},
		{"router address first", "[::]:7777", ap("203.0.113.7:40000"), []netip.AddrPort{ap("203.0.113.7:40000"), ap("192.168.1.20:7777"), ap("10.0.0.3:7777")}},
		{"one listen address", "192.168.1.20:5000", netip.AddrPort{}, []netip.AddrPort{ap("192.168.1.20:5000")}},
		{"loopback listen address", "127.0.0.1:5000", netip.AddrPort{}, []netip.AddrPort{ap("127.0.0.1:5000")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := HostAddrs(ap(tc.listen), ifaces, tc.external)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("HostAddrs(%s, …, %v) = %v, want %v", tc.listen, tc.external, got, tc.want)
			}
		})
	}
}

func TestCodeLooks(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"K7QM-XXXX-ABCD-EF", true},
		{"k7qm xxxx abcd ef", true},
		{"K7QM-XXXX-AB", false},
		{"192.168.1.20", false},
		{"game-box", false},
		{"my-game-host-name", false},
		{"abcd-efgh-ijkl-mnop.lan", false},
	} {
		if got := Looks(tc.s); got != tc.want {
			t.Errorf("Looks(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
	if s := mustCode(t, testFP, "203.0.113.7:7777").String(); !Looks(s) {
		t.Errorf("Looks(%s) = false for a code", s)
	}
}

// TestUnlistedRoomCode: an unlisted room's code (format 2) carries its
// 64-bit secret, from which the room's id follows (wire.SecretRoom); a
// code of an id in the unlisted range without its secret, or of a secret
// and another room's id, is not made; a format 2 code of secret 0 is
// garbled; and a Rockstep that knows only formats 0 and 1 (their bits are
// the same) refuses it as newer rather than joining some other room.
func TestUnlistedRoomCode(t *testing.T) {
	host := mustCode(t, testFP, "203.0.113.7:7777")
	widest := mustCode(t, strings.Repeat("f", 16), "255.255.255.255:7777") // the longest code of one such address
	for i, secret := range []uint64{1, 0x8000_0000_0000_0000, 0xFFFF_FFFF_FFFF_FFFF, 0x0123_4567_89AB_CDEF} {
		c := host
		if i == 2 {
			c = widest
		}
		c.Secret = secret
		s, err := Encode(c)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(strings.ReplaceAll(s, "-", "")); n > 36 {
			t.Errorf("code %s: %d symbols, want at most 36", s, n)
		}
		got, err := Decode(s)
		c.RoomID = wire.SecretRoom(secret)
		if err != nil || !reflect.DeepEqual(got, c) {
			t.Fatalf("Decode(%s) = %+v, %v; want %+v", s, got, err, c)
		}
		if again, err := Encode(got); err != nil || again != s {
			t.Errorf("Encode(%+v) = %s, %v; want %s", got, again, err, s)
		}
	}
	for _, tc := range []struct {
		name   string
		room   uint32
		secret uint64
	}{
		{"an unlisted id without its secret", wire.SecretRoom(7), 0},
		{"a secret and another room's id", 5, 7 << 32},
	} {
		c := host
		c.RoomID, c.Secret = tc.room, tc.secret
		if s, err := Encode(c); err == nil {
			t.Errorf("%s: code %s, want none", tc.name, s)
		}
	}
	var w bitWriter
	w.put(formatSecretRoom, 3)
	w.putBytes(make([]byte, 8))
	w.put(0, 2)
	w.put(kind4, 2)
	w.putBytes([]byte{203, 0, 113, 7})
	w.put(1, 1)
	w.putBytes(host.Pin[:])
	if c, err := Decode(group(withChecks(digits(&w.v)))); !errors.Is(err, ErrGarbled) {
		t.Errorf("a format 2 code of secret 0: %+v, %v; want %v", c, err, ErrGarbled)
	}
}
