// Package invite is Rockstep's invite code: a short text a host reads out
// or pastes to a friend, which carries the addresses to try for the game
// and the first 64 bits of the host key's fingerprint, so that the joining
// game reaches that host and no other (see docs/ARCHITECTURE.md, "Identity
// and safety").
//
// # Format
//
// A code is written in an alphabet of 31 symbols that people can read
// aloud and that has no 0/O or 1/I/L to confuse: 2–9 and A–Z without I, L
// and O. Input is case-insensitive; spaces and dashes are ignored, and
// codes are shown in groups of four ("K7QM-…").
//
// The symbols, but the last two, are a number in base 31 (most significant
// first, as few symbols as it takes), whose bits, from the least
// significant, are the payload:
//
//	3 bits   format: 0, a host's code (its default room); 1, a room on a
//	         server (`rockstep -server`), whose id follows; 2, an unlisted
//	         room on a server, whose secret follows; 3–7 are for later
//	         formats: this version refuses them with ErrNewer, and a later
//	         one still reads formats 0 to 2 (a version before format 2
//	         refuses it with ErrNewer too)
//	format 1 only:
//	  2 bits the room id's bytes, less one (1 to 4: as few as it takes)
//	  8–32 bits the room id, never 0 and below wire.UnlistedRooms (2³¹),
//	         most significant first
//	format 2 only:
//	  64 bits the room's secret (wire.RoomCreated.Secret), never 0, most
//	         significant first; the room's id is wire.SecretRoom of it
//	2 bits   the number of addresses, less one (1 to 4)
//	per address, in the order the host prefers them:
//	  2 bits kind: 0 an IPv4 in 192.168.0.0/16 (16 bits follow: the low
//	         ones), 1 an IPv4 in 10.0.0.0/8 (24 bits), 2 any other IPv4 (32
//	         bits), 3 an IPv6 (128 bits)
//	  1 bit  1: the port is wire.DefaultPort; 0: a 16-bit port follows
//	64 bits  the host key's fingerprint: its first 8 bytes (see
//	         transport.Fingerprint), most significant first (a server's
//	         key, in format 1)
//
// Then come two check symbols. The first makes Σ wᵢ·xᵢ ≡ 0 (mod 31) over
// every symbol up to and including it, xᵢ being a symbol's value and wᵢ =
// (i mod 30) + 1: as 31 is prime and the weights are nonzero and differ
// between neighbours, every mistyped symbol and every swap of two
// neighbours is caught. The second is a hash of the others, so that a
// code garbled worse passes only one time in 961.
//
// A host code with a public IPv4 address and a LAN address in
// 192.168.0.0/16, both on the default port, is 25 to 27 symbols (seven
// groups); with a LAN address only, 18 to 20; each further IPv4 address
// adds 4 to 7, an IPv6 one about 26. An address, its port and 64 bits of
// key do not fit in the 16 symbols once hoped for. A server room's code
// with one public IPv4 address on the default port is 24 to 25 symbols
// (a room id of one byte); an unlisted room's, at most 36: its 64-bit
// secret is what keeps strangers out, and cannot be shorter.
package invite

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"net/netip"
	"strings"

	"rockstep/net/wire"
)

// Alphabet is the code's symbols, in order of value.
const Alphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

const base = len(Alphabet) // 31, a prime: see the package comment

// Sizes of a code.
const (
	MaxAddrs  = 4   // addresses in one code
	PinBytes  = 8   // bytes of the host key's fingerprint in a code (64 bits)
	checkSyms = 2   // check symbols at the end
	groupLen  = 4   // symbols per group as shown
	maxInput  = 200 // symbols (spaces and dashes not counted) a decoder reads: four IPv6 addresses take about 130
)

// Formats: a host's code (addresses and a key pin, the default room), and
// a server room's (a room id too).
const (
	formatHost       = 0
	formatServerRoom = 1
	formatSecretRoom = 2
)

// Address kinds (2 bits).
const (
	kind192 = iota // 192.168.0.0/16: 16 bits
	kind10         // 10.0.0.0/8: 24 bits
	kind4          // any other IPv4: 32 bits
	kind6          // IPv6: 128 bits
)

// Errors of Decode, to test with errors.Is. Every one of them means the
// code cannot be used; their texts say why in a player's words.
var (
	// ErrGarbled: the code is mistyped (a wrong or unknown symbol, two
	// swapped, one missing or one too many) or is not an invite code.
	ErrGarbled = errors.New("this invite code is garbled: a character is wrong, missing or swapped; check it with the host")
	// ErrNewer: the code is of a format this version does not know.
	ErrNewer = errors.New("this invite code was made by a newer Rockstep: update the game to join")
)

// Code is what an invite code carries.
type Code struct {
	// Addrs are the host's addresses, to try all at once; 1 to MaxAddrs,
	// each with a port, no zone.
	Addrs []netip.AddrPort
	// Pin is the first PinBytes bytes of the host key's fingerprint.
	Pin [PinBytes]byte
	// RoomID, if not 0, names a room on a server (format 1): joining the
	// code joins that room, not the server's default one.
	RoomID uint32
	// Secret, if not 0, is the secret of an unlisted room on a server
	// (format 2), whose id RoomID is then wire.SecretRoom(Secret): a Join
	// to it carries the secret (wire.Join.Secret).
	Secret uint64
}

// New makes the code of a host reached at addrs (the first MaxAddrs
// valid ones; IPv4-mapped IPv6 addresses taken as IPv4) whose host key
// has fingerprint (see transport.Fingerprint).
func New(addrs []netip.AddrPort, fingerprint string) (Code, error) {
	var c Code
	fp, err := hex.DecodeString(fingerprint)
	if err != nil || len(fp) < PinBytes {
		return c, fmt.Errorf("invite code: host key fingerprint %q: want at least %d hex digits", fingerprint, 2*PinBytes)
	}
	copy(c.Pin[:], fp)
	for _, a := range addrs {
		if len(c.Addrs) == MaxAddrs {
			break
		}
		a = netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
		if encodable(a) {
			c.Addrs = append(c.Addrs, a)
		}
	}
	if len(c.Addrs) == 0 {
		return c, fmt.Errorf("invite code: no address to put in it among %v", addrs)
	}
	return c, nil
}

// roomIDBytes is how many bytes a room id takes, 1 to 4.
func roomIDBytes(id uint32) int {
	n := 1
	for id > 0xff {
		id >>= 8
		n++
	}
	return n
}

// encodable reports whether a can be written in a code: a valid unicast
// address with no zone, and a port.
func encodable(a netip.AddrPort) bool {
	ip := a.Addr()
	return ip.IsValid() && !ip.IsUnspecified() && !ip.IsMulticast() && ip.Zone() == "" && !ip.Is4In6() && a.Port() != 0
}

// Fingerprint returns the pin as the hex prefix of a fingerprint, the form
// transport.Config.HostFingerprint takes as a pin.
func (c Code) Fingerprint() string { return hex.EncodeToString(c.Pin[:]) }

// Targets returns the addresses as "host:port" strings, to dial.
func (c Code) Targets() []string {
	out := make([]string, len(c.Addrs))
	for i, a := range c.Addrs {
		out[i] = a.String()
	}
	return out
}

// String returns the code, grouped, or "" if c cannot be encoded.
func (c Code) String() string {
	s, err := Encode(c)
	if err != nil {
		return ""
	}
	return s
}

// Encode returns c's code, in groups of four symbols joined by dashes.
func Encode(c Code) (string, error) {
	if len(c.Addrs) == 0 || len(c.Addrs) > MaxAddrs {
		return "", fmt.Errorf("invite code: %d addresses, want 1 to %d", len(c.Addrs), MaxAddrs)
	}
	var w bitWriter
	switch {
	case c.Secret != 0:
		if c.RoomID != 0 && c.RoomID != wire.SecretRoom(c.Secret) {
			return "", fmt.Errorf("invite code: room %d is not the room of its secret (%d)", c.RoomID, wire.SecretRoom(c.Secret))
		}
		w.put(formatSecretRoom, 3)
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], c.Secret)
		w.putBytes(b[:])
	case c.RoomID >= wire.UnlistedRooms:
		return "", fmt.Errorf("invite code: room %d is unlisted: its code needs the room's secret", c.RoomID)
	case c.RoomID == 0:
		w.put(formatHost, 3)
	default:
		w.put(formatServerRoom, 3)
		n := roomIDBytes(c.RoomID)
		w.put(uint64(n-1), 2)
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], c.RoomID)
		w.putBytes(b[4-n:])
	}
	w.put(uint64(len(c.Addrs)-1), 2)
	for _, a := range c.Addrs {
		if !encodable(a) {
			return "", fmt.Errorf("invite code: address %v cannot be in a code", a)
		}
		ip := a.Addr()
		b := ip.As16()
		switch {
		case ip.Is4() && b[12] == 192 && b[13] == 168:
			w.put(kind192, 2)
			w.putBytes(b[14:])
		case ip.Is4() && b[12] == 10:
			w.put(kind10, 2)
			w.putBytes(b[13:])
		case ip.Is4():
			w.put(kind4, 2)
			w.putBytes(b[12:])
		default:
			w.put(kind6, 2)
			w.putBytes(b[:])
		}
		if a.Port() == wire.DefaultPort {
			w.put(1, 1)
		} else {
			w.put(0, 1)
			w.put(uint64(a.Port()), 16)
		}
	}
	w.putBytes(c.Pin[:])
	return group(withChecks(digits(&w.v))), nil
}

// Looks reports whether s is written as a code is: groups of four
// letters or digits joined by dashes or spaces, at least four of them.
// Where a code or an address may be given (-join, the join screen's
// address field), text that looks like a code is read as one, and said to
// be garbled if it does not decode, rather than looked up as a host name.
func Looks(s string) bool {
	groups := strings.FieldsFunc(strings.TrimSpace(s), func(r rune) bool { return r == '-' || r == ' ' })
	if len(groups) < 4 {
		return false
	}
	for i, g := range groups {
		if len(g) > groupLen || (len(g) < groupLen && i < len(groups)-1) {
			return false
		}
		for _, r := range g {
			if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
				return false
			}
		}
	}
	return true
}

// Decode reads a code as a player typed or pasted it: any case, with or
// without spaces and dashes. Its errors say what is wrong in a player's
// words and match ErrGarbled or ErrNewer.
func Decode(s string) (Code, error) {
	syms, err := symbols(s)
	if err != nil {
		return Code{}, err
	}
	if len(syms) < 1+checkSyms {
		return Code{}, fmt.Errorf("%w (it is too short)", ErrGarbled)
	}
	if !checksOK(syms) {
		return Code{}, ErrGarbled
	}
	data := syms[:len(syms)-checkSyms]
	var v big.Int
	bb := big.NewInt(int64(base))
	for _, d := range data {
		v.Mul(&v, bb)
		v.Add(&v, big.NewInt(int64(d)))
	}
	r := bitReader{v: &v}
	var c Code
	switch format := r.get(3); format {
	case formatHost:
	case formatServerRoom:
		var b [4]byte
		n := int(r.get(2)) + 1
		r.getBytes(b[4-n:])
		c.RoomID = binary.BigEndian.Uint32(b[:])
		if c.RoomID == 0 { // a host's code is format 0; Encode never writes this
			return Code{}, ErrGarbled
		}
	case formatSecretRoom:
		var b [8]byte
		r.getBytes(b[:])
		c.Secret = binary.BigEndian.Uint64(b[:])
		if c.Secret == 0 { // Encode never writes this
			return Code{}, ErrGarbled
		}
		c.RoomID = wire.SecretRoom(c.Secret)
	default:
		return Code{}, fmt.Errorf("%w (format %d)", ErrNewer, format)
	}
	c.Addrs = make([]netip.AddrPort, r.get(2)+1)
	for i := range c.Addrs {
		var b [16]byte
		var ip netip.Addr
		switch r.get(2) {
		case kind192:
			b[0], b[1] = 192, 168
			r.getBytes(b[2:4])
			ip = netip.AddrFrom4([4]byte(b[:4]))
		case kind10:
			b[0] = 10
			r.getBytes(b[1:4])
			ip = netip.AddrFrom4([4]byte(b[:4]))
		case kind4:
			r.getBytes(b[:4])
			ip = netip.AddrFrom4([4]byte(b[:4]))
		default:
			r.getBytes(b[:])
			ip = netip.AddrFrom16(b)
		}
		port := uint16(wire.DefaultPort)
		if r.get(1) == 0 {
			port = uint16(r.get(16))
		}
		c.Addrs[i] = netip.AddrPortFrom(ip, port)
	}
	r.getBytes(c.Pin[:])
	// Bits beyond the payload, or a payload written otherwise than Encode
	// writes it (an IPv4 address as IPv6, the default port spelt out, a
	// leading zero symbol): not a code this program made.
	if v.BitLen() > r.n {
		return Code{}, fmt.Errorf("%w (it is too long)", ErrGarbled)
	}
	again, err := Encode(c)
	if err != nil || again != group(syms) {
		return Code{}, ErrGarbled
	}
	return c, nil
}

// symbols returns the values of the symbols of s, skipping spaces and
// dashes; an unknown character is an error naming it.
func symbols(s string) ([]int, error) {
	var out []int
	for _, r := range s {
		switch {
		case r == '-' || r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\u2010' || r == '\u2013':
			continue
		case r == '0' || r == 'o' || r == 'O' || r == '1' || r == 'i' || r == 'I' || r == 'l' || r == 'L':
			return nil, fmt.Errorf("%w (invite codes have no %q: no 0, O, 1, I or L at all)", ErrGarbled, r)
		}
		if len(out) == maxInput {
			return nil, fmt.Errorf("%w (it is too long)", ErrGarbled)
		}
		i := -1
		if r < 128 {
			i = strings.IndexByte(Alphabet, byte(r))
			if i < 0 && r >= 'a' && r <= 'z' {
				i = strings.IndexByte(Alphabet, byte(r-'a'+'A'))
			}
		}
		if i < 0 {
			return nil, fmt.Errorf("%w (%q is not a character of invite codes)", ErrGarbled, r)
		}
		out = append(out, i)
	}
	return out, nil
}

// digits returns v in base 31, most significant first, as few symbols as
// it takes (one for zero).
func digits(v *big.Int) []int {
	var out []int
	x := new(big.Int).Set(v)
	bb := big.NewInt(int64(base))
	m := new(big.Int)
	for x.Sign() > 0 {
		x.QuoRem(x, bb, m)
		out = append(out, int(m.Int64()))
	}
	if len(out) == 0 {
		out = append(out, 0)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// weight is the weight of the symbol at position i in the first check.
func weight(i int) int { return i%(base-1) + 1 }

// withChecks appends the two check symbols to data.
func withChecks(data []int) []int {
	sum := 0
	for i, d := range data {
		sum += weight(i) * d
	}
	// c such that sum + w·c ≡ 0: c = −sum · w⁻¹, w⁻¹ = w^(31−2) (Fermat).
	w := weight(len(data))
	inv := 1
	for range base - 2 {
		inv = inv * w % base
	}
	c1 := (base - sum%base) % base * inv % base
	out := append(data, c1)
	return append(out, hashCheck(out))
}

// checksOK reports whether syms ends in the check symbols of the rest.
func checksOK(syms []int) bool {
	n := len(syms)
	sum := 0
	for i, d := range syms[:n-1] {
		sum += weight(i) * d
	}
	return sum%base == 0 && hashCheck(syms[:n-1]) == syms[n-1]
}

// hashCheck is the second check symbol of syms (the data and the first).
func hashCheck(syms []int) int {
	h := sha256.New()
	h.Write([]byte("rockstep invite code"))
	for _, d := range syms {
		h.Write([]byte{byte(d)})
	}
	sum := h.Sum(nil)
	return int(uint16(sum[0])<<8|uint16(sum[1])) % base
}

// group writes symbols in groups of groupLen joined by dashes.
func group(syms []int) string {
	var b strings.Builder
	for i, d := range syms {
		if i > 0 && i%groupLen == 0 {
			b.WriteByte('-')
		}
		b.WriteByte(Alphabet[d])
	}
	return b.String()
}

// bitWriter appends fields to a number, from its least significant bit.
type bitWriter struct {
	v big.Int
	n int // bits written
}

func (w *bitWriter) put(x uint64, bits int) {
	for i := range bits {
		w.v.SetBit(&w.v, w.n, uint(x>>i&1))
		w.n++
	}
}

// putBytes writes b most significant byte first, as one big-endian field
// of 8·len(b) bits.
func (w *bitWriter) putBytes(b []byte) {
	for i := len(b) - 1; i >= 0; i-- {
		w.put(uint64(b[i]), 8)
	}
}

// bitReader reads what bitWriter wrote; past the end of v it reads zeros.
type bitReader struct {
	v *big.Int
	n int // bits read
}

func (r *bitReader) get(bits int) uint64 {
	var x uint64
	for i := range bits {
		x |= uint64(r.v.Bit(r.n)) << i
		r.n++
	}
	return x
}

func (r *bitReader) getBytes(b []byte) {
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = byte(r.get(8))
	}
}
