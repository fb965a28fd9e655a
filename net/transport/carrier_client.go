package transport

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// packetConn is what a Client sends and receives datagrams through: its
// connected UDP socket, or a carrierConn.
type packetConn interface {
	Read(b []byte) (int, error)
	Write(b []byte) (int, error)
	SetReadDeadline(t time.Time) error
	Close() error
	LocalAddr() net.Addr
}

// socket returns what Run's reader reads.
func (c *Client) socket() datagramSocket {
	if cc, ok := c.link.(*carrierConn); ok {
		return cc
	}
	return polledSocket{c.conn}
}

// isCarrierURL reports whether addr names a WebSocket endpoint (ws:// or
// wss://) rather than a UDP address.
func isCarrierURL(addr string) bool {
	return strings.HasPrefix(addr, "ws://") || strings.HasPrefix(addr, "wss://")
}

// wsReadLimit is the largest WebSocket message a client reads, bytes: more
// than any datagram (Config.MTU), so that an oversized one is dropped and
// counted as UDP's would be, not taken for a broken connection.
const wsReadLimit = 64 << 10

// dialWebSocket is Dial for a ws:// or wss:// URL (net/web's endpoint): the
// same handshake and session as over UDP, one datagram a binary message.
// It is how a browser tab (GOOS=js) reaches a server at all.
func dialWebSocket(ctx context.Context, url string, cfg Config) (*Client, error) {
	// The connection's opening is bounded as the handshake is: a
	// WebSocket that never opens is a host that does not answer.
	limit := cfg.HandshakeTimeout
	if limit <= 0 {
		limit = LAN().HandshakeTimeout
	}
	dctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	ws, _, err := websocket.Dial(dctx, url, nil)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", url, err)
	}
	ws.SetReadLimit(wsReadLimit)
	return DialCarrier(ctx, url, WebSocketCarrier(ws), cfg)
}

// WebSocketCarrier makes a WebSocket a Carrier: one binary message, one
// datagram. A text message is an error (it is no datagram of ours).
func WebSocketCarrier(ws *websocket.Conn) Carrier { return wsCarrier{ws} }

type wsCarrier struct{ ws *websocket.Conn }

func (w wsCarrier) ReadMessage(ctx context.Context) ([]byte, error) {
	typ, b, err := w.ws.Read(ctx)
	if err != nil {
		return nil, err
	}
	if typ != websocket.MessageBinary {
		return nil, errors.New("a text message: datagrams are binary")
	}
	return b, nil
}

func (w wsCarrier) WriteMessage(ctx context.Context, b []byte) error {
	return w.ws.Write(ctx, websocket.MessageBinary, b)
}

func (w wsCarrier) Close() error { return w.ws.CloseNow() }

// Ping makes a WebSocket carrier a Pinger: its peer's WebSocket answers
// (a browser's network stack, whatever its page is doing).
func (w wsCarrier) Ping(ctx context.Context) error { return w.ws.Ping(ctx) }

// DialCarrier performs the handshake over c, as Dial does over UDP; name
// is the server's for errors. The client owns c from then on.
func DialCarrier(ctx context.Context, name string, c Carrier, cfg Config) (*Client, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("dial %s: %w", name, err)
	}
	cc := newCarrierConn(c)
	cl := &Client{
		cfg:  cfg,
		link: cc,
		obuf: make([]byte, 0, cfg.MTU),
		pbuf: make([]byte, 0, cfg.MTU),
		dlog: dropLog{log: cfg.Log, who: "transport client"},
	}
	if err := cl.handshake(ctx); err != nil {
		cc.Close()
		return nil, fmt.Errorf("dial %s: %w", name, err)
	}
	return cl, nil
}

// carrierConn is a Carrier seen as a client's socket: a reader goroutine
// takes its messages into a small queue (more are dropped, as a full
// socket buffer drops them), and a writer goroutine sends, so that the
// client's loop never waits on the carrier.
type carrierConn struct {
	c      Carrier
	ctx    context.Context
	cancel context.CancelFunc
	in     chan []byte
	out    chan []byte
	done   chan struct{} // closed when the carrier failed or was closed
	once   sync.Once

	mu       sync.Mutex
	deadline time.Time
	kick     chan struct{} // a deadline changed: a waiting Read looks again
}

func newCarrierConn(c Carrier) *carrierConn {
	ctx, cancel := context.WithCancel(context.Background())
	cc := &carrierConn{c: c, ctx: ctx, cancel: cancel,
		in: make(chan []byte, carrierQueue), out: make(chan []byte, carrierQueue),
		done: make(chan struct{}), kick: make(chan struct{}, 1)}
	go cc.readLoop()
	go cc.writeLoop()
	return cc
}

func (cc *carrierConn) readLoop() {
	defer cc.Close()
	for {
		b, err := cc.c.ReadMessage(cc.ctx)
		if err != nil {
			return
		}
		select {
		case cc.in <- b:
		default: // the client is behind: dropped, as by a full buffer
		}
	}
}

func (cc *carrierConn) writeLoop() {
	for {
		select {
		case b := <-cc.out:
			if cc.c.WriteMessage(cc.ctx, b) != nil {
				cc.Close()
				return
			}
		case <-cc.done:
			return
		}
	}
}

// Read waits for one datagram, until the deadline.
func (cc *carrierConn) Read(b []byte) (int, error) {
	for {
		cc.mu.Lock()
		d := cc.deadline
		cc.mu.Unlock()
		var timeout <-chan time.Time
		var t *time.Timer
		if !d.IsZero() {
			wait := time.Until(d)
			if wait <= 0 {
				return 0, os.ErrDeadlineExceeded
			}
			t = time.NewTimer(wait)
			timeout = t.C
		}
		n, err, again := 0, error(nil), false
		select {
		case m := <-cc.in:
			n = copy(b, m)
		case <-cc.done:
			err = net.ErrClosed
		case <-timeout:
			err = os.ErrDeadlineExceeded
		case <-cc.kick:
			again = true
		}
		if t != nil {
			t.Stop()
		}
		if !again {
			return n, err
		}
	}
}

// Write queues a copy of b, or drops it when the carrier is behind.
func (cc *carrierConn) Write(b []byte) (int, error) {
	select {
	case <-cc.done:
		return 0, net.ErrClosed
	case cc.out <- append([]byte(nil), b...):
	default:
	}
	return len(b), nil
}

func (cc *carrierConn) SetReadDeadline(t time.Time) error {
	cc.mu.Lock()
	cc.deadline = t
	cc.mu.Unlock()
	select {
	case cc.kick <- struct{}{}:
	default:
	}
	return nil
}

func (cc *carrierConn) Close() error {
	cc.once.Do(func() {
		close(cc.done)
		cc.cancel()
		cc.c.Close()
	})
	return nil
}

func (cc *carrierConn) LocalAddr() net.Addr { return carrierAddr{} }

// The datagramSocket and batchSocket of Run's reader: one message a read.
func (cc *carrierConn) batches(int) batchSocket { return cc }
func (cc *carrierConn) interrupt()              { cc.Close() }
func (cc *carrierConn) release()                {}
func (cc *carrierConn) localAddr() net.Addr     { return carrierAddr{} }
func (cc *carrierConn) kernelDrops() (uint32, bool) {
	return 0, false
}

func (cc *carrierConn) readBatch(bufs [][]byte, ns []int, from []netip.AddrPort, dst []netip.Addr) (int, error) {
	n, err := cc.Read(bufs[0])
	if err != nil {
		return 0, err
	}
	ns[0], from[0] = n, netip.AddrPort{}
	if dst != nil {
		dst[0] = netip.Addr{} // a carrier has no local address to say
	}
	return 1, nil
}

func (cc *carrierConn) readEach(bufs [][]byte, ns []int, from []netip.AddrPort, dst []netip.Addr, handle func(int)) error {
	return eachBatch(cc, bufs, ns, from, dst, handle)
}

func (cc *carrierConn) writeBatch(bufs [][]byte, _ []netip.Addr, _ []netip.AddrPort) (int, error) {
	for i, b := range bufs {
		if _, err := cc.Write(b); err != nil {
			return i, err
		}
	}
	return len(bufs), nil
}

// carrierAddr is a carried client's local address: it has none of its own.
type carrierAddr struct{}

func (carrierAddr) Network() string { return "carrier" }
func (carrierAddr) String() string  { return "carrier" }

// MemCarriers returns the two ends of an in-memory carrier, for tests and
// for a process that speaks to its own server (net/web's POST /rooms):
// what one writes the other reads, message by message.
func MemCarriers() (a, b Carrier) {
	ab, ba := make(chan []byte, carrierQueue), make(chan []byte, carrierQueue)
	done := make(chan struct{})
	var once sync.Once
	end := func() { once.Do(func() { close(done) }) }
	return &memCarrier{in: ba, out: ab, done: done, end: end}, &memCarrier{in: ab, out: ba, done: done, end: end}
}

type memCarrier struct {
	in, out chan []byte
	done    chan struct{}
	end     func()
}

func (m *memCarrier) ReadMessage(ctx context.Context) ([]byte, error) {
	select {
	case b := <-m.in:
		return b, nil
	case <-m.done:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (m *memCarrier) WriteMessage(ctx context.Context, b []byte) error {
	select {
	case m.out <- append([]byte(nil), b...):
		return nil
	case <-m.done:
		return net.ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (m *memCarrier) Close() error { m.end(); return nil }
