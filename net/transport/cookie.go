package transport

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"hash/maphash"
	"net/netip"
	"time"

	"rockstep/internal/tokenbucket"
)

// cookieWindow is the life of a cookie: one made in window w verifies in
// windows w and w+1, so a cookie lives between 10 and 20 seconds.
const cookieWindow = 10 * time.Second

// cookieJar makes and checks the stateless handshake cookies of one server.
type cookieJar struct {
	secret []byte    // random, per server; never changes
	mac    hash.Hash // HMAC-SHA256 keyed by secret
	sum    []byte    // scratch for mac.Sum
	in     [16 + 2 + nonceSize + 8]byte
}

func newCookieJar(secret []byte) *cookieJar {
	return &cookieJar{secret: secret, mac: hmac.New(sha256.New, secret), sum: make([]byte, 0, sha256.Size)}
}

func window(now time.Time) uint64 { return uint64(now.UnixNano() / int64(cookieWindow)) }

func (j *cookieJar) make(addr netip.AddrPort, nonce []byte, w uint64) [cookieSize]byte {
	ip := addr.Addr().Unmap().As16()
	b := j.in[:0]
	b = append(b, ip[:]...)
	b = binary.LittleEndian.AppendUint16(b, addr.Port())
	b = append(b, nonce...)
	b = binary.LittleEndian.AppendUint64(b, w)
	j.mac.Reset()
	j.mac.Write(b)
	j.sum = j.mac.Sum(j.sum[:0])
	var c [cookieSize]byte
	copy(c[:], j.sum)
	return c
}

// verify reports whether cookie was made for addr and nonce in now's window
// or the one before, and in which.
func (j *cookieJar) verify(now time.Time, addr netip.AddrPort, nonce, cookie []byte) (made uint64, ok bool) {
	w := window(now)
	for _, w := range [2]uint64{w, w - 1} {
		c := j.make(addr, nonce, w)
		if hmac.Equal(c[:], cookie) {
			return w, true
		}
	}
	return 0, false
}

// usedCookies remembers the cookies whose Connect made a session, for as
// long as they verify (their window and the next), so that a Connect is
// accepted once: a captured one replayed from its own address makes no
// second session. Its size is bounded by the Connect rate
// (Config.MaxHandshakeRate) times two windows.
type usedCookies struct {
	w    uint64                        // the window of cur
	cur  map[[cookieSize]byte]struct{} // cookies made in window w
	prev map[[cookieSize]byte]struct{} // made in window w-1
}

// roll forgets the cookies that no longer verify at window w.
func (u *usedCookies) roll(w uint64) {
	switch {
	case w == u.w && u.cur != nil:
		return
	case w == u.w+1 && u.cur != nil:
		u.prev, u.cur = u.cur, make(map[[cookieSize]byte]struct{})
	default:
		u.prev, u.cur = make(map[[cookieSize]byte]struct{}), make(map[[cookieSize]byte]struct{})
	}
	u.w = w
}

// set returns the set of the cookies made in window made (now's window w
// or the one before), nil for any other.
func (u *usedCookies) set(w, made uint64) map[[cookieSize]byte]struct{} {
	u.roll(w)
	switch made {
	case w:
		return u.cur
	case w - 1:
		return u.prev
	}
	return nil
}

// seen reports whether cookie, made in window made, has made a session.
func (u *usedCookies) seen(w, made uint64, cookie [cookieSize]byte) bool {
	_, ok := u.set(w, made)[cookie]
	return ok
}

// use records that cookie, made in window made, has made a session.
func (u *usedCookies) use(w, made uint64, cookie [cookieSize]byte) {
	if m := u.set(w, made); m != nil {
		m[cookie] = struct{}{}
	}
}

// subnetOf returns the network a source address is counted in: its /24
// for IPv4 (and IPv4-mapped IPv6), its /64 for IPv6. An attacker holds
// many addresses of one network far more easily than many networks.
func subnetOf(ip netip.Addr) netip.Prefix {
	ip = ip.Unmap().WithZone("")
	bits := 64
	if ip.Is4() {
		bits = 24
	}
	p, _ := ip.Prefix(bits) // valid for every valid address
	return p
}

// rateTableSize is the number of token buckets of a rateLimiter. Keys that
// hash alike share a bucket: the table never grows.
const rateTableSize = 4096

// rateLimiter is a fixed table of token buckets indexed by a keyed hash of
// a source (an address and port, or a network), refilled at rate tokens
// per second up to rate tokens.
type rateLimiter struct {
	seed    maphash.Seed
	rate    float64 // tokens per second, and the bucket size
	start   time.Time
	buckets [rateTableSize]tokenbucket.Bucket
}

func newRateLimiter(rate int, start time.Time) *rateLimiter {
	return &rateLimiter{seed: maphash.MakeSeed(), rate: float64(rate), start: start}
}

// allowSource takes a token from the bucket of an address and port.
func (r *rateLimiter) allowSource(now time.Time, ap netip.AddrPort) bool {
	var k [18]byte
	a := ap.Addr().Unmap().As16()
	copy(k[:], a[:])
	binary.LittleEndian.PutUint16(k[16:], ap.Port())
	return r.buckets[maphash.Bytes(r.seed, k[:])%rateTableSize].Take(r.since(now), r.rate, r.rate)
}

// allowSubnet takes a token from the bucket of a network (see subnetOf).
func (r *rateLimiter) allowSubnet(now time.Time, p netip.Prefix) bool {
	var k [17]byte
	a := p.Addr().As16()
	copy(k[:], a[:])
	k[16] = byte(p.Bits())
	return r.buckets[maphash.Bytes(r.seed, k[:])%rateTableSize].Take(r.since(now), r.rate, r.rate)
}

func (r *rateLimiter) since(now time.Time) time.Duration { return now.Sub(r.start) + 1 } // +1: never 0 once used

// globalLimiter is one token bucket for every source together.
type globalLimiter struct {
	rate  float64
	start time.Time
	b     tokenbucket.Bucket
}

func newGlobalLimiter(rate int, start time.Time) *globalLimiter {
	return &globalLimiter{rate: float64(rate), start: start}
}

func (g *globalLimiter) allow(now time.Time) bool {
	return g.b.Take(now.Sub(g.start)+1, g.rate, g.rate)
}
