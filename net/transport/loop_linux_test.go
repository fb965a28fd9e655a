//go:build linux

package transport

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"net/netip"
	"slices"
	"testing"
	"time"
)

// clientRuns are the ways a client may run: on goroutines of its own, and
// in a Loop with another client's worth of company.
func clientRuns(tb testing.TB) []clientRun {
	l, err := NewLoop(2)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(l.Close)
	return []clientRun{{name: "own"}, {name: "loop", loop: l}}
}

// TestLoopClients: clients in one Loop each stream frames both ways with a
// server, in order and complete; then each ends its own way, and the Loop's
// Close ends the rest, telling the server.
func TestLoopClients(t *testing.T) {
	const clients, n = 6, 2000
	l, err := NewLoop(2)
	if err != nil {
		t.Fatal(err)
	}
	cfg := LAN()
	srv := listen(t, cfg)
	sh, sr := serveStreams(t, srv, n)
	ccfg := cfg
	ccfg.Loop = l
	chs := make([]*streamClient, clients)
	crs := make([]running, clients)
	for i := range clients {
		chs[i], crs[i] = streamTo(t, srv, ccfg, n)
	}
	eventually(t, "2,000 frames each way for every client", func() bool {
		done := true
		for _, ch := range chs {
			ch.view(func(s *stream) {
				if s.err != nil {
					t.Fatalf("client: %v", s.err)
				}
				done = done && s.got == n && s.sent == n
			})
		}
		sh.view(func() {
			for _, s := range sh.streams {
				if s.err != nil {
					t.Fatalf("server: %v", s.err)
				}
				done = done && s.got == n && s.sent == n
			}
			done = done && len(sh.streams) == clients
		})
		return done
	})
	ids := map[netip.AddrPort]ConnID{}
	sh.view(func() {
		for id, a := range sh.addrs {
			ids[a] = id
		}
	})
	idOf := func(i int) ConnID {
		id, ok := ids[chs[i].cl.LocalAddr()]
		if !ok {
			t.Fatalf("client %d (%v): no connection on the server", i, chs[i].cl.LocalAddr())
		}
		return id
	}
	disconnected := func(i int) error {
		var why error
		eventually(t, "Disconnected on the server", func() bool {
			sh.view(func() { why = sh.disconnected[idOf(i)] })
			return why != nil
		})
		return why
	}

	// Client 0 leaves: its context ends.
	crs[0].cancel()
	if err := crs[0].wait(t); err != nil {
		t.Errorf("client 0: Run returned %v, want nil after its context ended", err)
	}
	if why := disconnected(0); !isClose(CloseNormal, true)(why) {
		t.Errorf("client 0 left: server saw %v", why)
	}
	// Client 1 is closed by the server.
	sh.closeConn(idOf(1), CloseApp+1)
	if err := crs[1].wait(t); !isClose(CloseApp+1, true)(err) {
		t.Errorf("client 1: Run returned %v, want the server's close", err)
	}
	// The rest stop with the Loop, which tells the server.
	l.Close()
	for i := 2; i < clients; i++ {
		if err := crs[i].wait(t); !isClose(CloseNormal, false)(err) {
			t.Errorf("client %d: Run returned %v after the Loop closed", i, err)
		}
		if why := disconnected(i); !isClose(CloseNormal, true)(why) {
			t.Errorf("client %d: server saw %v", i, why)
		}
	}
	// A client that comes to a closed Loop is told so at once.
	late := dialT(t, srv, "", ccfg)
	if err := late.Run(context.Background(), &streamClient{cl: late}); !errors.Is(err, net.ErrClosed) {
		t.Errorf("Run in a closed Loop returned %v", err)
	}
	sr.cancel()
	if err := sr.wait(t); err != nil {
		t.Errorf("server Run: %v", err)
	}
}

// TestLoopWakeUps: a shard's wake-ups come out soonest first, superseded
// ones are dropped, and compacting keeps the order.
func TestLoopWakeUps(t *testing.T) {
	s := &loopShard{byFD: map[int32]*loopClient{}}
	r := rand.New(rand.NewPCG(1, 2))
	base := time.Now()
	lcs := make([]*loopClient, 50)
	for i := range lcs {
		lcs[i] = &loopClient{shard: s, fd: i}
		s.byFD[int32(i)] = lcs[i]
	}
	var want []time.Time
	for range 5 {
		want = want[:0]
		for _, lc := range lcs {
			at := base.Add(time.Duration(r.IntN(1000)) * time.Millisecond)
			lc.arm(at) // supersedes the last round's
			want = append(want, at)
		}
	}
	s.compact()
	if len(s.timers) != len(lcs) {
		t.Fatalf("%d wake-ups after compacting, want %d", len(s.timers), len(lcs))
	}
	slices.SortFunc(want, func(a, b time.Time) int { return a.Compare(b) })
	for i, w := range want {
		got := s.pop()
		if !got.at.Equal(w) || got.gen != got.lc.gen {
			t.Fatalf("wake-up %d at %v (gen %d of %d), want %v", i, got.at.Sub(base), got.gen, got.lc.gen, w.Sub(base))
		}
	}
}
