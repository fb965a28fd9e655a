package transport

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"testing"
	"time"

	"rockstep/internal/testwait"
	"rockstep/net/wire"
)

// Loopback tests: real UDP sockets on 127.0.0.0/8 only, every wait bounded.

// testFrame is frame seq of a numbered stream: its size varies from 4 bytes
// to wire.MaxFrame (so some take two KCP segments) and its bytes follow from seq.
func testFrame(buf []byte, seq int) []byte {
	size := 4 + seq%300
	if seq%97 == 0 {
		size = wire.MaxFrame
	}
	b := binary.LittleEndian.AppendUint32(buf[:0], uint32(seq))
	for i := 4; i < size; i++ {
		b = append(b, byte(seq+i))
	}
	return b
}

// checkFrame returns an error unless frame is testFrame(seq).
func checkFrame(frame []byte, seq int) error {
	var want [wire.MaxFrame]byte
	w := testFrame(want[:], seq)
	if len(frame) < 4 {
		return fmt.Errorf("frame %d: %d bytes", seq, len(frame))
	}
	if got := int(binary.LittleEndian.Uint32(frame)); got != seq {
		return fmt.Errorf("frame %d: got frame %d", seq, got)
	}
	if string(frame) != string(w) {
		return fmt.Errorf("frame %d: %d bytes, want %d, or wrong content", seq, len(frame), len(w))
	}
	return nil
}

// stream sends n numbered frames as fast as the queue allows and checks
// that the frames received are the numbered stream, in order.
type stream struct {
	n, sent, got int
	err          error
	buf          [wire.MaxFrame]byte
}

// pump sends frames while send succeeds and queued stays under limit.
func (s *stream) pump(send func([]byte) error, queued func() int, limit int) {
	for s.sent < s.n && queued() < limit {
		if err := send(testFrame(s.buf[:], s.sent)); err != nil {
			if !errors.Is(err, ErrQueueFull) && s.err == nil {
				s.err = err
			}
			return
		}
		s.sent++
	}
}

func (s *stream) receive(frame []byte) {
	if s.err == nil {
		s.err = checkFrame(frame, s.got)
	}
	s.got++
}

// streamServer is a ServerHandler that runs a stream with every client.
type streamServer struct {
	srv *Server
	n   int // frames to send to each client; 0: none

	mu           sync.Mutex
	streams      map[ConnID]*stream
	addrs        map[ConnID]netip.AddrPort
	disconnected map[ConnID]error
	ticks        int
	closeReq     []closeReq
}

func newStreamServer(n int) *streamServer {
	return &streamServer{n: n, streams: map[ConnID]*stream{}, addrs: map[ConnID]netip.AddrPort{}, disconnected: map[ConnID]error{}}
}

func (h *streamServer) Connected(c ConnID, addr netip.AddrPort) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.streams[c] = &stream{n: h.n}
	h.addrs[c] = addr
}

func (h *streamServer) Message(c ConnID, frame []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.streams[c].receive(frame)
}

func (h *streamServer) Disconnected(c ConnID, why error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.disconnected[c] = why
}

func (h *streamServer) Tick(time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ticks++
	for _, r := range h.closeReq {
		h.srv.CloseConn(r.c, r.reason)
	}
	h.closeReq = nil
	for c, s := range h.streams {
		if _, gone := h.disconnected[c]; gone {
			continue
		}
		s.pump(func(f []byte) error { return h.srv.Send(c, f) },
			func() int { return h.srv.Queued(c) }, h.srv.cfg.MaxQueue/2)
	}
}

// view runs fn with the handler's state locked.
func (h *streamServer) view(fn func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	fn()
}

// streamClient is a ClientHandler that runs a stream with the server.
type streamClient struct {
	cl *Client
	mu sync.Mutex
	s  stream
}

func (h *streamClient) Message(frame []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.s.receive(frame)
}

func (h *streamClient) Tick(time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.s.pump(h.cl.Send, h.cl.Queued, h.cl.cfg.MaxQueue/2)
}

func (h *streamClient) view(fn func(s *stream)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	fn(&h.s)
}

// pauseStreams stops the streams of sh and ch where they are, waits until
// what they sent has arrived, and returns a function that lets them run
// on. A test that counts what becomes of datagrams it sends to a socket
// pauses the streams first: a stream at full window fills the socket's
// buffer whenever its reader falls behind (on a busy machine), and the
// kernel then drops the test's datagrams before the transport sees them.
func pauseStreams(t *testing.T, sh *streamServer, ch *streamClient) (resume func()) {
	t.Helper()
	var cN int
	sN := map[*stream]int{}
	ch.view(func(s *stream) { cN, s.n = s.n, s.sent })
	sh.view(func() {
		for _, s := range sh.streams {
			sN[s], s.n = s.n, s.sent
		}
	})
	eventually(t, "the streams settle", func() bool {
		var cSent, cGot, sSent, sGot int
		ch.view(func(s *stream) { cSent, cGot = s.sent, s.got })
		sh.view(func() {
			for _, s := range sh.streams {
				sSent, sGot = sSent+s.sent, sGot+s.got
			}
		})
		return cGot == sSent && sGot == cSent
	})
	return func() {
		ch.view(func(s *stream) { s.n = cN })
		sh.view(func() {
			for s, n := range sN {
				s.n = n
			}
		})
	}
}

// running is a Run in progress; wait returns its result.
type running struct {
	cancel context.CancelFunc
	done   chan error
}

// waitLimit bounds every wait of these tests. It is generous, since a
// loaded machine may be slow, and it is not a budget: how fast things
// happen is for benchmarks (BENCHMARKS.md).
const waitLimit = 30 * time.Second

func (r running) wait(tb testing.TB) error {
	tb.Helper()
	select {
	case err := <-r.done:
		r.done <- err // for the cleanup
		return err
	case <-time.After(waitLimit):
		tb.Fatalf("Run did not return within %v", waitLimit)
		return nil
	}
}

func start(tb testing.TB, run func(ctx context.Context) error) running {
	ctx, cancel := context.WithCancel(context.Background())
	r := running{cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- run(ctx) }()
	tb.Cleanup(func() {
		cancel()
		select {
		case <-r.done:
		case <-time.After(waitLimit):
			tb.Errorf("Run still running %v after its context ended", waitLimit)
		}
	})
	return r
}

// serveStreams runs srv with a stream server that sends n frames to each
// client.
func serveStreams(tb testing.TB, srv *Server, n int) (*streamServer, running) {
	sh := newStreamServer(n)
	sh.srv = srv
	return sh, start(tb, func(ctx context.Context) error { return srv.Run(ctx, sh) })
}

// streamTo dials srv and runs a client that sends it n frames.
func streamTo(tb testing.TB, srv *Server, cfg Config, n int) (*streamClient, running) {
	cl := dialT(tb, srv, "", cfg)
	ch := &streamClient{cl: cl, s: stream{n: n}}
	return ch, start(tb, func(ctx context.Context) error { return cl.Run(ctx, ch) })
}

func listen(tb testing.TB, cfg Config) *Server {
	tb.Helper()
	s, err := Listen("127.0.0.1:0", cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func dialT(tb testing.TB, s *Server, local string, cfg Config) *Client {
	tb.Helper()
	var la *net.UDPAddr
	if local != "" {
		la = net.UDPAddrFromAddrPort(netip.MustParseAddrPort(local))
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c, err := dial(ctx, la, s.Addr().String(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// eventually polls cond until it holds, failing after waitLimit.
func eventually(tb testing.TB, what string, cond func() bool) {
	tb.Helper()
	if !testwait.Until(waitLimit, cond) {
		tb.Fatalf("after %v: %s", waitLimit, what)
	}
}

func TestExchangeInOrder(t *testing.T) {
	const n = 10000
	cfg := LAN()
	srv := listen(t, cfg)
	sh, sr := serveStreams(t, srv, n)

	ch, cr := streamTo(t, srv, cfg, n)

	begin := time.Now()
	eventually(t, "10,000 frames each way", func() bool {
		done := false
		ch.view(func(s *stream) {
			if s.err != nil {
				t.Fatalf("client: %v", s.err)
			}
			done = s.got == n && s.sent == n
		})
		sh.view(func() {
			for _, s := range sh.streams {
				if s.err != nil {
					t.Fatalf("server: %v", s.err)
				}
				done = done && s.got == n && s.sent == n
			}
			done = done && len(sh.streams) == 1
		})
		return done
	})
	t.Logf("%d frames each way in %v", n, time.Since(begin).Round(time.Millisecond))

	cr.cancel()
	if err := cr.wait(t); err != nil {
		t.Fatalf("client Run: %v, want nil after its context ended", err)
	}
	var why error
	eventually(t, "Disconnected on the server", func() bool {
		sh.view(func() {
			for _, err := range sh.disconnected {
				why = err
			}
		})
		return why != nil
	})
	var ce *CloseError
	if !errors.As(why, &ce) || !ce.ByPeer || ce.Reason != CloseNormal {
		t.Errorf("Disconnected(%v), want closed by peer, reason normal", why)
	}
	if st := srv.Stats(); st.Sessions != 0 || st.Accepted != 1 {
		t.Errorf("stats %+v: want 0 sessions, 1 accepted", st)
	}
	sr.cancel()
	if err := sr.wait(t); err != nil {
		t.Errorf("server Run: %v", err)
	}
}

// TestSessionEnd: how each end learns the session is over. (The timeout
// is long enough that a loaded machine does not time a healthy session
// out; how soon each end knows is not asserted.)
func TestSessionEnd(t *testing.T) {
	cfg := LAN()
	cfg.Heartbeat = 100 * time.Millisecond
	cfg.Timeout = 2 * time.Second
	tests := []struct {
		name       string
		end        func(e ends)
		wantServer func(error) bool // the server's Disconnected reason
		wantClient func(error) bool // the client's Run result
	}{
		{
			name:       "client leaves",
			end:        func(e ends) { e.cr.cancel() },
			wantServer: isClose(CloseNormal, true),
			wantClient: func(err error) bool { return err == nil },
		},
		{
			name:       "server stops",
			end:        func(e ends) { e.sr.cancel() },
			wantServer: isClose(CloseShutdown, false),
			wantClient: isClose(CloseShutdown, true),
		},
		{
			name:       "server closes the conn",
			end:        func(e ends) { e.sh.closeConn(e.c, CloseApp+1) },
			wantServer: isClose(CloseApp+1, false),
			wantClient: isClose(CloseApp+1, true),
		},
		{
			name: "client socket dies",
			end: func(e ends) {
				e.cl.conn.Close() // no Close datagram: the server must notice the silence
			},
			wantServer: func(err error) bool { return errors.Is(err, ErrTimeout) },
			wantClient: func(err error) bool { return errors.Is(err, net.ErrClosed) },
		},
		{
			name: "server socket dies",
			end: func(e ends) {
				e.srv.sock.interrupt() // no Close datagram: the client must notice the silence
			},
			wantServer: isClose(CloseShutdown, false),
			wantClient: func(err error) bool { return errors.Is(err, ErrTimeout) },
		},
	}
	for _, run := range clientRuns(t) {
		for _, tc := range tests {
			if run.loop != nil && tc.name == "client socket dies" {
				continue // in a Loop the socket is out of Go's poller: conn.Close does not end it
			}
			t.Run(run.name+"/"+tc.name, func(t *testing.T) {
				srv := listen(t, cfg)
				sh, sr := serveStreams(t, srv, 1<<30) // keep data flowing to the client
				ccfg := cfg
				ccfg.Loop = run.loop
				ch, cr := streamTo(t, srv, ccfg, 1<<30)
				cl := ch.cl
				var c ConnID
				eventually(t, "data flowing both ways", func() bool {
					got := 0
					ch.view(func(s *stream) { got = s.got })
					sh.view(func() {
						for id, s := range sh.streams {
							c = id
							got = min(got, s.got)
						}
					})
					return got > 100
				})

				tc.end(ends{srv: srv, sh: sh, sr: sr, cl: cl, cr: cr, c: c})
				clientErr := cr.wait(t)
				var serverWhy error
				eventually(t, "Disconnected on the server", func() bool {
					sh.view(func() { serverWhy = sh.disconnected[c] })
					return serverWhy != nil
				})
				if !tc.wantServer(serverWhy) {
					t.Errorf("server: Disconnected(%v)", serverWhy)
				}
				if !tc.wantClient(clientErr) {
					t.Errorf("client: Run returned %v", clientErr)
				}
				ch.view(func(s *stream) {
					if s.err != nil {
						t.Errorf("client stream: %v", s.err)
					}
				})
			})
		}
	}
}

// clientRun is a way a client may run: Loop nil, on goroutines of its own.
type clientRun struct {
	name string
	loop *Loop
}

// ends is what a TestSessionEnd case may act on.
type ends struct {
	srv    *Server
	sh     *streamServer
	sr, cr running
	cl     *Client
	c      ConnID
}

func isClose(reason byte, byPeer bool) func(error) bool {
	return func(err error) bool {
		var ce *CloseError
		return errors.As(err, &ce) && ce.Reason == reason && ce.ByPeer == byPeer && errors.Is(err, ErrClosed)
	}
}

// closeConn makes the server's loop call CloseConn at its next Tick, as a
// handler would: the test goroutine may not call it directly.
func (h *streamServer) closeConn(c ConnID, reason byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closeReq = append(h.closeReq, closeReq{c, reason})
}

type closeReq struct {
	c      ConnID
	reason byte
}

// TestLimits makes limitCases' connections over real sockets, each from
// its own address on loopback.
func TestLimits(t *testing.T) {
	cfg := limitConfig()
	srv := listen(t, cfg)
	serveStreams(t, srv, 0)
	parent := t
	for _, tc := range limitCases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
			defer cancel()
			local := net.UDPAddrFromAddrPort(netip.AddrPortFrom(netip.MustParseAddr(tc.from), 0))
			c, err := dial(ctx, local, srv.Addr().String(), cfg)
			if tc.want == 0 {
				if err != nil {
					t.Fatalf("dial: %v", err)
				}
				parent.Cleanup(func() { c.Close() }) // the session counts until the test ends
				return
			}
			var re *RefusedError
			if !errors.As(err, &re) || re.Reason != tc.want || !errors.Is(err, ErrRefused) {
				t.Fatalf("dial: %v, want refused with reason %d", err, tc.want)
			}
		})
	}
	if st := srv.Stats(); st.Sessions != 5 || st.Dropped[DropOverLimit] != 3 {
		t.Errorf("stats %+v: want 5 sessions, 3 over_limit drops", st)
	}
}

func TestDialTimeout(t *testing.T) {
	// A socket that never answers.
	mute, err := net.ListenUDP("udp", net.UDPAddrFromAddrPort(netip.MustParseAddrPort("127.0.0.1:0")))
	if err != nil {
		t.Fatal(err)
	}
	defer mute.Close()
	cfg := LAN()
	cfg.HandshakeTimeout = 600 * time.Millisecond
	begin := time.Now()
	_, err = Dial(context.Background(), mute.LocalAddr().String(), cfg)
	took := time.Since(begin)
	if !errors.Is(err, ErrTimeout) {
		t.Errorf("dial: %v, want ErrTimeout", err)
	}
	if took < cfg.HandshakeTimeout {
		t.Errorf("gave up after %v, before its %v", took, cfg.HandshakeTimeout)
	}
	// Hellos were repeated every 250 ms, no more: at least twice in 600 ms,
	// and on a slow machine no more often than that in the time it took.
	_ = mute.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	hellos := 0
	buf := make([]byte, 2048)
	for range 100 {
		n, _, err := mute.ReadFromUDPAddrPort(buf)
		if err != nil {
			break
		}
		if n >= helloSize && buf[0] == kindHello {
			hellos++
		}
	}
	if most := int(took/(250*time.Millisecond)) + 1; hellos < 2 || hellos > most {
		t.Errorf("%d Hellos in %v, want 2 to %d (every 250 ms)", hellos, took, most)
	}

	// A cancelled context ends the dial, long before its handshake timeout.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	cfg.HandshakeTimeout = time.Hour
	done := make(chan error, 1)
	go func() {
		_, err := Dial(ctx, mute.LocalAddr().String(), cfg)
		done <- err
	}()
	select {
	case err := <-done:
		// The context's deadline, seen as the context's error or as the
		// handshake's own deadline (the earlier of the two).
		if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, ErrTimeout) {
			t.Errorf("dial with a 50 ms context: %v, want its deadline", err)
		}
	case <-time.After(waitLimit):
		t.Errorf("dial with a 50 ms context still running after %v", waitLimit)
	}
}

func TestIPv6Loopback(t *testing.T) {
	srv, err := Listen("[::1]:0", LAN())
	if err != nil {
		t.Skipf("no IPv6 loopback here: %v", err)
	}
	serveStreams(t, srv, 100)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	cl, err := Dial(ctx, srv.Addr().String(), LAN())
	if err != nil {
		t.Fatal(err)
	}
	ch := &streamClient{cl: cl, s: stream{n: 100}}
	start(t, func(ctx context.Context) error { return cl.Run(ctx, ch) })
	eventually(t, "100 frames each way over ::1", func() bool {
		got := 0
		ch.view(func(s *stream) { got = s.got })
		return got == 100
	})
	if a := cl.LocalAddr(); !a.Addr().Is6() || !a.Addr().IsLoopback() {
		t.Errorf("client address %v, want on ::1", a)
	}
}
