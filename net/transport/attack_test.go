package transport

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// relay stands between a client and a server on loopback, as a NAT or an
// attacker on the path would: the client dials the relay, which forwards
// every datagram both ways, from an upstream socket the server sees as the
// client's address. It keeps a copy of everything it forwards, and it can
// move to a new upstream port (a NAT rebinding, a roaming client).
type relay struct {
	tb     testing.TB
	server netip.AddrPort
	down   *net.UDPConn // the client's side

	mu       sync.Mutex
	up       *net.UDPConn // the server's side; replaced by rebind
	client   netip.AddrPort
	toServer [][]byte // captured, client → server
	toClient [][]byte // captured, server → client

	wg sync.WaitGroup
}

func newRelay(tb testing.TB, server netip.AddrPort) *relay {
	tb.Helper()
	r := &relay{tb: tb, server: server, down: udpSocket(tb)}
	r.up = udpSocket(tb)
	r.wg.Go(r.downstream)
	up := r.up
	r.wg.Go(func() { r.upstream(up) })
	tb.Cleanup(func() {
		r.down.Close()
		r.mu.Lock()
		r.up.Close()
		r.mu.Unlock()
		r.wg.Wait()
	})
	return r
}

func udpSocket(tb testing.TB) *net.UDPConn {
	tb.Helper()
	c, err := net.ListenUDP("udp", net.UDPAddrFromAddrPort(netip.MustParseAddrPort("127.0.0.1:0")))
	if err != nil {
		tb.Fatal(err)
	}
	_ = c.SetReadBuffer(1 << 20)
	return c
}

// Addr is where the client dials.
func (r *relay) Addr() netip.AddrPort { return r.down.LocalAddr().(*net.UDPAddr).AddrPort() }

// UpAddr is the client's address as the server sees it now.
func (r *relay) UpAddr() netip.AddrPort {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.up.LocalAddr().(*net.UDPAddr).AddrPort()
}

// downstream forwards the client's datagrams to the server.
func (r *relay) downstream() {
	buf := make([]byte, 2048)
	for {
		n, from, err := r.down.ReadFromUDPAddrPort(buf)
		if err != nil {
			return
		}
		r.mu.Lock()
		r.client = from
		r.toServer = append(r.toServer, append([]byte(nil), buf[:n]...))
		up := r.up
		r.mu.Unlock()
		_, _ = up.WriteToUDPAddrPort(buf[:n], r.server)
	}
}

// upstream forwards the server's datagrams arriving at up to the client.
func (r *relay) upstream(up *net.UDPConn) {
	buf := make([]byte, 2048)
	for {
		n, _, err := up.ReadFromUDPAddrPort(buf)
		if err != nil {
			return
		}
		r.mu.Lock()
		r.toClient = append(r.toClient, append([]byte(nil), buf[:n]...))
		to := r.client
		r.mu.Unlock()
		_, _ = r.down.WriteToUDPAddrPort(buf[:n], to)
	}
}

// rebind moves the relay's upstream to a new port, as a NAT that forgot
// its mapping does: the server hears the client from a new address, and
// what it sends to the old one is lost.
func (r *relay) rebind() {
	next := udpSocket(r.tb)
	r.mu.Lock()
	old := r.up
	r.up = next
	r.mu.Unlock()
	old.Close()
	r.wg.Go(func() { r.upstream(next) })
}

// captured returns copies of what the relay forwarded so far.
func (r *relay) captured() (toServer, toClient [][]byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][]byte(nil), r.toServer...), append([][]byte(nil), r.toClient...)
}

// sendUp sends pkts to the server from the relay's upstream socket: from
// the client's own address, as the server sees it.
func (r *relay) sendUp(pkts [][]byte) {
	r.mu.Lock()
	up := r.up
	r.mu.Unlock()
	for _, p := range pkts {
		if _, err := up.WriteToUDPAddrPort(p, r.server); err != nil {
			r.tb.Fatal(err)
		}
	}
}

// sendDown sends pkts to the client from the relay: from the server's
// address, as the client sees it.
func (r *relay) sendDown(pkts [][]byte) {
	r.mu.Lock()
	to := r.client
	r.mu.Unlock()
	for _, p := range pkts {
		if _, err := r.down.WriteToUDPAddrPort(p, to); err != nil {
			r.tb.Fatal(err)
		}
	}
}

// sealedOnly keeps the sealed datagrams of pkts (the handshake's are
// answered by design, and are tested elsewhere).
func sealedOnly(pkts [][]byte) [][]byte {
	var out [][]byte
	for _, p := range pkts {
		if len(p) > 0 && sealedKind(p[0]) {
			out = append(out, p)
		}
	}
	return out
}

// sample keeps the first 8 and the last 56 of pkts: datagrams older than
// the replay window and inside it.
func sample(pkts [][]byte) [][]byte {
	if len(pkts) <= 64 {
		return pkts
	}
	return append(pkts[:8:8], pkts[len(pkts)-56:]...)
}

// forgeries returns datagrams for conv that look sealed but are not:
// a Close, a Ping, a frame (a turn, a hash) and KCP data, each with a
// sequence number ahead of the peer's, so that only the tag betrays them.
func forgeries(conv uint32, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		kind := []byte{kindClose, kindPing, kindDgram, kindData}[i%4]
		b := []byte{kind}
		b = binary.LittleEndian.AppendUint32(b, conv)
		b = binary.LittleEndian.AppendUint32(b, 1<<31+uint32(i))
		switch kind {
		case kindClose:
			b = append(b, CloseNormal)
		case kindDgram:
			b = append(b, "forged hash 0123456789abcdef"...)
		case kindData:
			b = append(b, make([]byte, segmentHead)...)
		}
		out[i] = append(b, make([]byte, tagSize)...)
	}
	return out
}

// streamPair runs a server and a client streaming to each other, the
// client dialled through a relay. It returns the relay, the handlers and
// a function that waits for more frames to arrive both ways, failing the
// test if either stream broke.
func streamPair(t *testing.T) (*Server, *relay, *streamServer, *streamClient, func(more int)) {
	cfg := LAN()
	srv := listen(t, cfg)
	sh, _ := serveStreams(t, srv, 1<<30)
	r := newRelay(t, srv.Addr())
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	cl, err := Dial(ctx, r.Addr().String(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ch := &streamClient{cl: cl, s: stream{n: 1 << 30}}
	var clientErr atomic.Pointer[error]
	start(t, func(ctx context.Context) error {
		err := cl.Run(ctx, ch)
		clientErr.Store(&err)
		return err
	})
	got := func() (client, server int) {
		ch.view(func(s *stream) {
			if s.err != nil {
				t.Fatalf("client stream: %v", s.err)
			}
			client = s.got
		})
		sh.view(func() {
			for c, s := range sh.streams {
				if s.err != nil {
					t.Fatalf("server stream: %v", s.err)
				}
				if why, gone := sh.disconnected[c]; gone {
					t.Fatalf("session %d ended: %v", c, why)
				}
				server = s.got
			}
		})
		if p := clientErr.Load(); p != nil {
			t.Fatalf("client ended: %v", *p)
		}
		return client, server
	}
	flowing := func(more int) {
		t.Helper()
		c0, s0 := got()
		eventually(t, "both streams move on", func() bool {
			c, s := got()
			return c >= c0+more && s >= s0+more
		})
	}
	return srv, r, sh, ch, flowing
}

// TestRoaming: a client whose source port changes mid-stream (the NAT
// between it and the server rebinds) keeps its session and its stream: the
// server challenges the new address, the client answers from there, and
// the session moves, once per rebinding.
func TestRoaming(t *testing.T) {
	srv, r, sh, _, flowing := streamPair(t)
	flowing(100)
	before := r.UpAddr()
	for range 2 {
		r.rebind()
		flowing(200)
	}
	st := srv.Stats()
	if st.Sessions != 1 || st.Accepted != 1 || st.Migrated != 2 || st.Challenges < 2 {
		t.Errorf("after two rebinds: %d sessions, %d accepted, %d migrations, %d challenges; want 1, 1, 2, 2 or more", st.Sessions, st.Accepted, st.Migrated, st.Challenges)
	}
	if r.UpAddr() == before {
		t.Fatalf("the relay did not move")
	}
	sh.view(func() {
		if len(sh.streams) != 1 || len(sh.disconnected) != 0 {
			t.Errorf("%d sessions seen, %d ended; want 1, 0", len(sh.streams), len(sh.disconnected))
		}
	})
}

// TestAttacksOnPath: an attacker that sees every datagram of a session
// (the relay's capture) replays them, from its own address and from the
// client's, to both ends, and forges datagrams with the session's conv
// (a Close, a turn, a hash, KCP data). No datagram of it is taken: the
// session keeps its address, nobody is closed, the streams go on, and
// every forged or replayed datagram is counted by reason.
func TestAttacksOnPath(t *testing.T) {
	srv, r, sh, ch, flowing := streamPair(t)
	flowing(300)
	var conv uint32
	sh.view(func() {
		for c := range sh.streams {
			conv = uint32(c)
		}
	})
	home := r.UpAddr()
	atk := udpSocket(t)
	defer atk.Close()
	toServer, toClient := r.captured()
	toServer, toClient = sample(sealedOnly(toServer)), sample(sealedOnly(toClient))
	if len(toServer) < 10 || len(toClient) < 10 {
		t.Fatalf("captured %d and %d sealed datagrams, want a few", len(toServer), len(toClient))
	}

	// check sends pkts with send while the streams are paused, 16 at a time
	// (under 40 KB in a socket buffer), waits until the server (or client)
	// has counted each 16 as drops of reason, and checks that they are all
	// the drops there were.
	check := func(name string, stats func() [NumDropReasons]uint64, reason DropReason, pkts [][]byte, send func([][]byte)) {
		t.Helper()
		resume := pauseStreams(t, sh, ch)
		before := stats()
		for sent := 0; sent < len(pkts); {
			batch := pkts[sent:min(sent+16, len(pkts))]
			send(batch)
			sent += len(batch)
			eventually(t, name+": drops counted", func() bool { return stats()[reason]-before[reason] >= uint64(sent) })
		}
		after := stats()
		var total uint64
		for i := range after {
			total += after[i] - before[i]
		}
		if got := after[reason] - before[reason]; got != uint64(len(pkts)) || total != uint64(len(pkts)) {
			t.Errorf("%s: %d %v drops and %d in all, want %d: %v", name, got, reason, total, len(pkts), after)
		}
		resume()
		flowing(50)
	}
	server := func() [NumDropReasons]uint64 { return srv.Stats().Dropped }
	client := func() [NumDropReasons]uint64 { return ch.cl.Stats().Dropped }
	fromElsewhere := func(pkts [][]byte) {
		for _, p := range pkts {
			if _, err := atk.WriteToUDPAddrPort(p, srv.Addr()); err != nil {
				t.Fatal(err)
			}
		}
	}

	check("captured turns replayed to the server from elsewhere", server, DropReplay, toServer, fromElsewhere)
	check("captured turns replayed from the client's own address", server, DropReplay, toServer, r.sendUp)
	check("forged Close, turn, hash and data from the client's address", server, DropForged, forgeries(conv, 40), r.sendUp)
	check("forged Close, turn, hash and data from elsewhere", server, DropForged, forgeries(conv, 40), fromElsewhere)
	check("the server's datagrams replayed to the client", client, DropReplay, toClient, r.sendDown)
	check("forged Close, turn, hash and data to the client", client, DropForged, forgeries(conv, 40), r.sendDown)

	st := srv.Stats()
	if st.Sessions != 1 || st.Accepted != 1 || st.Migrated != 0 {
		t.Errorf("after the attacks: %d sessions, %d accepted, %d migrations; want 1, 1, 0", st.Sessions, st.Accepted, st.Migrated)
	}
	if r.UpAddr() != home {
		t.Errorf("the relay moved")
	}
	// The attacker's socket heard nothing from the server.
	_ = atk.SetReadDeadline(deadlineSoon())
	if n, _, err := atk.ReadFromUDPAddrPort(make([]byte, 2048)); err == nil {
		t.Errorf("the attacker got a %d-byte datagram", n)
	} else if !isTimeout(err) && !errors.Is(err, net.ErrClosed) {
		t.Errorf("attacker's read: %v", err)
	}
}

// deadlineSoon is a read deadline for "nothing arrives": short, since a
// datagram that was sent is already there or nearly.
func deadlineSoon() time.Time { return time.Now().Add(50 * time.Millisecond) }
