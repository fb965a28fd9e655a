package transport

import (
	"context"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"

	"rockstep/internal/testwait"
)

// pingedCarrier is the server's end of an in-memory carrier whose peer's
// end answers pings while answers is set (a browser's network stack), and
// whose peer's datagrams are lost while muted is (its page's thread held).
type pingedCarrier struct {
	Carrier
	answers, muted *atomic.Bool
}

func (p pingedCarrier) ReadMessage(ctx context.Context) ([]byte, error) {
	for {
		b, err := p.Carrier.ReadMessage(ctx)
		if err != nil || !p.muted.Load() {
			return b, err
		}
	}
}

func (p pingedCarrier) Ping(ctx context.Context) error {
	if p.answers.Load() {
		return nil
	}
	<-ctx.Done()
	return ctx.Err()
}

// sendingEchoClient keeps what the server echoes, and sends one more
// frame from its Tick (on Run's goroutine, as Send wants) once later is
// set.
type sendingEchoClient struct {
	carriedEchoClient
	c     *Client
	later atomic.Bool
}

func (h *sendingEchoClient) Tick(time.Time) {
	if h.later.CompareAndSwap(true, false) {
		_ = h.c.Send([]byte("after"))
	}
}

// TestAnsweringCarrierIsStalledNotGone: a carried peer silent for longer
// than Timeout keeps its session while its carrier answers pings (a tab
// whose page is held for seconds), and its datagrams flow again after;
// one whose carrier answers nothing times out as any silent peer.
func TestAnsweringCarrierIsStalledNotGone(t *testing.T) {
	for _, answers := range []bool{true, false} {
		name := map[bool]string{true: "answers pings", false: "answers nothing"}[answers]
		t.Run(name, func(t *testing.T) {
			cfg := Config{LinkConfig: LinkConfig{Timeout: 1500 * time.Millisecond}}
			srv, h := startEcho(t, cfg)
			a, b := MemCarriers()
			var ans, muted atomic.Bool
			ans.Store(answers)
			go func() {
				_ = srv.Carry(context.Background(), netip.MustParseAddrPort("192.0.2.8:40000"), pingedCarrier{a, &ans, &muted})
			}()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			c, err := DialCarrier(ctx, "mem", b, Config{LinkConfig: LinkConfig{Timeout: time.Minute}, ClientConfig: ClientConfig{HostFingerprint: Fingerprint(srv.HostKey().pub)}})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Send([]byte("before")); err != nil { // before Run: Send is Run's (or its handler's) then
				t.Fatal(err)
			}
			ec := &sendingEchoClient{c: c}
			runCtx, stop := context.WithCancel(context.Background())
			defer stop()
			go func() { _ = c.Run(runCtx, ec) }()
			if !testwait.Until(10*time.Second, func() bool { return ec.frames() >= 1 }) {
				t.Fatal("no echo over the carrier")
			}
			// Silent for twice the server's Timeout: nothing of the peer's
			// arrives, its carrier answering pings or not.
			muted.Store(true)
			quiet := time.Now()
			testwait.Until(time.Minute, func() bool {
				_, gone := h.count()
				return gone > 0 || time.Since(quiet) > 2*cfg.Timeout
			})
			muted.Store(false)
			_, gone := h.count()
			if answers {
				if gone != 0 {
					t.Fatal("the session of a peer whose carrier answers pings timed out")
				}
				ec.later.Store(true) // sent from its handler's next Tick
				if !testwait.Until(10*time.Second, func() bool { return ec.frames() >= 2 }) {
					t.Fatal("no echo after the stall")
				}
				return
			}
			if !testwait.Until(10*time.Second, func() bool { _, g := h.count(); return g == 1 }) {
				t.Fatal("the session of a silent peer whose carrier answers nothing did not time out")
			}
		})
	}
}

// TestAnsweringBound is the rule on virtual time: silent past Timeout, a
// session is kept only while its carrier answered within Timeout and for
// carrierStallMax of silence at most.
func TestAnsweringBound(t *testing.T) {
	s := &Server{cfg: Config{LinkConfig: LinkConfig{Timeout: 3 * time.Second}}}
	t0 := time.Unix(1000, 0)
	tests := []struct {
		name           string
		silent, answer time.Duration // since the last datagram, since the last answer (-1: never)
		want           bool
	}{
		{"never answered", 4 * time.Second, -1, false},
		{"answered just now", 4 * time.Second, 0, true},
		{"answered a Timeout ago", 10 * time.Second, 3 * time.Second, true},
		{"answered longer ago", 10 * time.Second, 3*time.Second + time.Millisecond, false},
		{"answering, silent to the bound", carrierStallMax, 0, true},
		{"answering, silent past the bound", carrierStallMax + time.Millisecond, 0, false},
	}
	for _, tc := range tests {
		sess := &session{lastRecv: t0}
		now := t0.Add(tc.silent)
		if tc.answer >= 0 {
			sess.aliveAt = now.Add(-tc.answer)
		}
		if got := s.answering(sess, now); got != tc.want {
			t.Errorf("%s: answering = %v, want %v", tc.name, got, tc.want)
		}
	}
}
