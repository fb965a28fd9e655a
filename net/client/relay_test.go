package client

import (
	"net"
	"sync"
	"sync/atomic"
	"testing"
)

// relay stands between guests and the host on loopback, as a network and
// a NAT do: each guest socket (a flow) gets its own upstream socket, and
// datagrams are forwarded both ways unless cut. The whole network can be
// cut (cut: every datagram dropped, as when the host's link goes), or only
// the first flow (cutFirst: the guest's connection to the room, as a NAT
// that lost its mapping or a link starved under load), while new flows
// (fresh handshakes) still pass. It counts the datagrams each flow
// carried upstream.
type relay struct {
	pc  *net.UDPConn
	to  *net.UDPAddr
	cut atomic.Bool // the whole network is cut

	mu      sync.Mutex
	up      map[string]*net.UDPConn // by the guest socket's address
	order   []string                // the flows, as first seen
	sent    map[string]int          // datagrams forwarded upstream, by flow
	cutFlow string                  // the one flow cut ("": none)
}

// startRelay forwards datagrams to the host at to until the test ends.
func startRelay(t *testing.T, to string) *relay {
	t.Helper()
	dst, err := net.ResolveUDPAddr("udp", to)
	if err != nil {
		t.Fatal(err)
	}
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	r := &relay{pc: pc, to: dst, up: map[string]*net.UDPConn{}, sent: map[string]int{}}
	t.Cleanup(r.close)
	go r.run()
	return r
}

func (r *relay) addr() string { return r.pc.LocalAddr().String() }

// cutFirst cuts the first flow (the guest's connection to the room).
func (r *relay) cutFirst() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.order) > 0 {
		r.cutFlow = r.order[0]
	}
}

// busiestOther returns the most datagrams a flow other than the first
// carried upstream: a new connection that played, not a probe.
func (r *relay) busiestOther() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	most := 0
	for _, f := range r.order[min(1, len(r.order)):] {
		most = max(most, r.sent[f])
	}
	return most
}

// passes reports whether a datagram of the flow from goes through now.
func (r *relay) passes(from string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return !r.cut.Load() && from != r.cutFlow
}

// run forwards the guests' datagrams until the relay's socket closes.
func (r *relay) run() {
	buf := make([]byte, 64<<10)
	for {
		n, from, err := r.pc.ReadFromUDP(buf)
		if err != nil {
			return
		}
		if up := r.upstream(from); up != nil && r.passes(from.String()) {
			_, _ = up.Write(buf[:n])
		}
	}
}

// upstream returns the socket that speaks to the host for the flow from,
// opening it (and its way back) the first time; nil once closed.
func (r *relay) upstream(from *net.UDPAddr) *net.UDPConn {
	key := from.String()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.up == nil {
		return nil // closed
	}
	if key != r.cutFlow && !r.cut.Load() {
		r.sent[key]++
	}
	if up := r.up[key]; up != nil {
		return up
	}
	up, err := net.DialUDP("udp", nil, r.to)
	if err != nil {
		return nil
	}
	r.up[key] = up
	r.order = append(r.order, key)
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := up.Read(buf)
			if err != nil {
				return // closed
			}
			if r.passes(key) {
				_, _ = r.pc.WriteToUDP(buf[:n], from)
			}
		}
	}()
	return up
}

func (r *relay) close() {
	r.pc.Close()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, up := range r.up {
		up.Close()
	}
	r.up = nil
}
