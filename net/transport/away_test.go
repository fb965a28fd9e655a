package transport

import (
	"errors"
	"net/netip"
	"testing"
	"time"
)

// TestClientAwayIsNotServerSilence: a client that was not running (a
// browser tab's one thread busy for seconds, a starved process) does not
// take the span it was away for the server's silence, yet a silent server
// still times out once the client runs, and a client that is never
// scheduled still times out in the end.
func TestClientAwayIsNotServerSilence(t *testing.T) {
	ms := time.Millisecond
	every := func(from, step, until time.Duration) []time.Duration {
		var at []time.Duration
		for d := from; d <= until; d += step {
			at = append(at, d)
		}
		return at
	}
	tests := []struct {
		name        string
		ticks       []time.Duration // since the session began; no datagram arrives
		wantTimeout bool
	}{
		{"running, the server silent past Timeout", every(10*ms, 10*ms, 3100*ms), true},
		{"running, the server silent for less than Timeout", every(10*ms, 10*ms, 2900*ms), false},
		{"away 5 s, then one tick", []time.Duration{10 * ms, 5 * time.Second}, false},
		{"away 5 s, then running while the server stays silent", append([]time.Duration{10 * ms}, every(5*time.Second, 10*ms, 8200*ms)...), true},
		{"away 2 s after 2 s of silence, then 0.5 s", append(every(10*ms, 10*ms, 2000*ms), every(4000*ms, 10*ms, 4500*ms)...), false},
		{"never scheduled: a tick a second", every(time.Second, time.Second, 400*time.Second), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, _ := LAN().withDefaults()
			c := &Client{cfg: cfg, server: netip.MustParseAddrPort("10.0.0.9:7777")}
			client, _ := fuzzChannels(t)
			c.accept(&established{conv: fuzzConv, ch: client}, t0)
			for _, d := range tc.ticks {
				c.tick(t0.Add(d))
				if c.err != nil {
					break
				}
			}
			if got := errors.Is(c.err, ErrTimeout); got != tc.wantTimeout {
				t.Errorf("timed out %v (%v), want %v", got, c.err, tc.wantTimeout)
			}
		})
	}
}
