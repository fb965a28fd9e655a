package transport

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"hash/maphash"
	"net/netip"
	"time"
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
// or the one before.
func (j *cookieJar) verify(now time.Time, addr netip.AddrPort, nonce, cookie []byte) bool {
	w := window(now)
	for _, w := range [2]uint64{w, w - 1} {
		c := j.make(addr, nonce, w)
		if hmac.Equal(c[:], cookie) {
			return true
		}
	}
	return false
}

// rateTableSize is the number of token buckets of a rateLimiter. Sources
// whose IPs hash alike share a bucket: the table never grows.
const rateTableSize = 4096

// rateLimiter is a fixed table of token buckets indexed by a keyed hash of
// the source IP, refilled at rate tokens per second up to rate tokens.
type rateLimiter struct {
	seed    maphash.Seed
	rate    float64 // tokens per second, and the bucket size
	start   time.Time
	buckets [rateTableSize]bucket
}

type bucket struct {
	tokens float64
	last   time.Duration // since start; 0: never used
}

func newRateLimiter(rate int, start time.Time) *rateLimiter {
	return &rateLimiter{seed: maphash.MakeSeed(), rate: float64(rate), start: start}
}

// allow takes a token from ip's bucket, reporting false if it is empty.
func (r *rateLimiter) allow(now time.Time, ip netip.Addr) bool {
	a := ip.Unmap().As16()
	b := &r.buckets[maphash.Bytes(r.seed, a[:])%rateTableSize]
	t := now.Sub(r.start) + 1 // +1: never 0 once used
	if b.last == 0 {
		b.tokens = r.rate
	} else if t > b.last {
		b.tokens = min(r.rate, b.tokens+(t-b.last).Seconds()*r.rate)
	}
	if t > b.last {
		b.last = t
	}
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
