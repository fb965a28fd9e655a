// Package tokenbucket is the token bucket that the transport's handshake
// limits and the LAN responder's unicast limit are made of.
package tokenbucket

import "time"

// Bucket holds tokens that refill at a rate a second up to a size. Its
// clock is the time since its limiter started, plus one so that it is never
// 0. The zero Bucket is unused: full at its first Take.
type Bucket struct {
	tokens float64
	last   time.Duration // the clock at the latest Take; 0: never taken from
}

// Take takes a token at t on the bucket's clock, reporting false if there
// is none, after refilling rate tokens a second since the latest Take, up
// to size.
func (b *Bucket) Take(t time.Duration, rate, size float64) bool {
	if b.last == 0 {
		b.tokens = size
	} else if t > b.last {
		b.tokens = min(size, b.tokens+(t-b.last).Seconds()*rate)
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
