package host_test

import (
	"context"
	"math/rand/v2"
	"net"
	"runtime"
	"sync"
	"testing"
	"time"

	"rockstep/net/bots"
	"rockstep/net/host"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// TestHostileTrafficDuringGame: while four bots play, attackers on
// loopback send random bytes, truncated and oversized datagrams, forged
// frames and a flood of handshakes from many source ports. The game goes
// on to the same hash everywhere, no session is created for an attacker,
// no reply exceeds its request, and memory stays bounded.
func TestHostileTrafficDuringGame(t *testing.T) {
	srv := serve(t, host.LAN()).Transport
	addr := net.UDPAddrFromAddrPort(srv.Addr())

	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)

	gameDone := make(chan struct{})
	var summary bots.Summary
	var gameErr error
	go func() {
		defer close(gameDone)
		gctx, gcancel := context.WithTimeout(context.Background(), gameLimit)
		defer gcancel()
		summary, gameErr = bots.RunRemote(gctx, bots.RemoteConfig{Addr: srv.Addr().String(), Bots: 4, Ticks: 360, Seed: 13})
	}()

	var wg sync.WaitGroup
	var mu sync.Mutex
	oversizedReplies := 0
	attack := func(seed uint64, packets func(r *rand.Rand) []byte) {
		defer wg.Done()
		r := rand.New(rand.NewPCG(seed, 1))
		conn, err := net.DialUDP("udp", nil, addr)
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		buf := make([]byte, 2048)
		largest := 0 // the largest request sent so far: a late reply may answer any of them
		for i := 0; i < 300; i++ {
			select {
			case <-gameDone:
				return
			default:
			}
			p := packets(r)
			if _, err := conn.Write(p); err != nil {
				continue
			}
			largest = max(largest, len(p))
			_ = conn.SetReadDeadline(time.Now().Add(2 * time.Millisecond))
			// Only a Hello of at least 65 bytes gets a reply before a
			// session exists, so no reply may be longer than that, nor than
			// anything this socket sent.
			if n, err := conn.Read(buf); err == nil && (n > largest || n > 65) {
				mu.Lock()
				oversizedReplies++
				mu.Unlock()
			}
		}
	}
	join, _ := wire.Append(nil, wire.Join{Name: "intruder"})
	kinds := []func(r *rand.Rand) []byte{
		func(r *rand.Rand) []byte { // random bytes
			b := make([]byte, 1+r.IntN(1500))
			for i := range b {
				b[i] = byte(r.Uint32())
			}
			return b
		},
		func(r *rand.Rand) []byte { // a hello, truncated anywhere
			b := make([]byte, 70)
			b[0], b[1] = 1, 1
			return b[:1+r.IntN(len(b))]
		},
		func(r *rand.Rand) []byte { // oversized
			return make([]byte, 1400+r.IntN(8000))
		},
		func(r *rand.Rand) []byte { // a game frame without a session, as data and as a datagram
			b := append([]byte{9, byte(r.Uint32()), byte(r.Uint32()), byte(r.Uint32()), byte(r.Uint32())}, join...)
			if r.IntN(2) == 0 {
				b[0] = 6
			}
			return b
		},
	}
	for i, k := range kinds {
		wg.Add(1)
		go attack(uint64(i), k)
	}
	// A hello flood from many source ports.
	for port := 0; port < 100; port++ {
		wg.Add(1)
		go attack(uint64(100+port), func(*rand.Rand) []byte {
			b := make([]byte, 80)
			b[0], b[1] = 1, 1
			return b
		})
	}
	<-gameDone
	wg.Wait()

	if gameErr != nil || summary.HashGroups != 1 || summary.Desyncs != 0 {
		t.Fatalf("the game did not survive: %v: %s", gameErr, summary)
	}
	if oversizedReplies != 0 {
		t.Errorf("%d replies were larger than their request", oversizedReplies)
	}
	st := srv.Stats()
	if st.Accepted > 8 {
		t.Errorf("%d sessions accepted, want only the bots' (4, plus reconnects at most)", st.Accepted)
	}
	for _, r := range []transport.DropReason{transport.DropMalformed, transport.DropOversize, transport.DropUnknownSession, transport.DropRate} {
		if st.Dropped[r] == 0 {
			t.Errorf("no %s drops counted", r)
		}
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 32<<20 {
		t.Errorf("heap grew by %d MB under attack", grew>>20)
	}
	t.Logf("%s; transport drops %v", summary, st.Dropped)
}
