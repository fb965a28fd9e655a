package transport

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// arrival is one packet handed out by a Network.
type arrival struct {
	at   time.Duration
	peer PeerID
	data string
}

// collect returns a callback that records arrivals at now into *into.
func collect(now time.Duration, into *[]arrival) func(PeerID, []byte) {
	return func(p PeerID, pkt []byte) { *into = append(*into, arrival{now, p, string(pkt)}) }
}

func TestNetworkOrdering(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name     string
		latency  []time.Duration // per peer, both directions
		up       bool
		sends    []arrival // at, peer, data
		deliver  time.Duration
		wantData []string
	}{
		{"fan-in at one time keeps send order across peers", []time.Duration{10 * ms, 10 * ms, 10 * ms}, true,
			[]arrival{{0, 2, "c"}, {0, 0, "a"}, {0, 1, "b"}, {0, 2, "c2"}}, 10 * ms, []string{"c", "a", "b", "c2"}},
		{"fan-in by delivery time first", []time.Duration{30 * ms, 10 * ms}, true,
			[]arrival{{0, 0, "slow"}, {5 * ms, 1, "fast"}}, 30 * ms, []string{"fast", "slow"}},
		{"fan-out at one time keeps send order", []time.Duration{10 * ms, 10 * ms, 10 * ms}, false,
			[]arrival{{0, 0, "to0"}, {0, 1, "to1"}, {0, 2, "to2"}}, 10 * ms, []string{"to0", "to1", "to2"}},
		{"fan-out by delivery time first", []time.Duration{10 * ms, 1 * ms, 5 * ms}, false,
			[]arrival{{0, 0, "to0"}, {0, 1, "to1"}, {0, 2, "to2"}}, 10 * ms, []string{"to1", "to2", "to0"}},
		{"nothing before it is due", []time.Duration{10 * ms}, true,
			[]arrival{{0, 0, "x"}}, 9 * ms, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := NewNetwork(Impairment{}, 1)
			for _, lat := range tt.latency {
				p := n.AddPeer()
				n.SetImpairment(p, Impairment{Latency: lat}, Impairment{Latency: lat})
			}
			for _, s := range tt.sends {
				if tt.up {
					n.SendUp(s.at, s.peer, []byte(s.data))
				} else {
					n.SendDown(s.at, s.peer, []byte(s.data))
				}
			}
			var got []arrival
			if tt.up {
				n.DeliverUp(tt.deliver, collect(tt.deliver, &got))
			} else {
				n.DeliverDown(tt.deliver, collect(tt.deliver, &got))
			}
			var gotData []string
			for _, a := range got {
				gotData = append(gotData, a.data)
			}
			if !slices.Equal(gotData, tt.wantData) {
				t.Errorf("delivered %q, want %q", gotData, tt.wantData)
			}
		})
	}
}

// TestNetworkPeerAttribution: each packet is reported with its own peer.
func TestNetworkPeerAttribution(t *testing.T) {
	n := NewNetwork(mustParse(t, "latency=20ms,jitter=10ms"), 5)
	for range 4 {
		n.AddPeer()
	}
	for i := range 100 {
		p := PeerID(i % 4)
		now := time.Duration(i) * time.Millisecond
		n.SendUp(now, p, []byte{byte(p)})
		n.SendDown(now, p, []byte{byte(p)})
	}
	var ups, downs int
	n.DeliverUp(time.Second, func(p PeerID, pkt []byte) {
		ups++
		if PeerID(pkt[0]) != p {
			t.Errorf("up packet from peer %d reported as from %d", pkt[0], p)
		}
	})
	n.DeliverDown(time.Second, func(p PeerID, pkt []byte) {
		downs++
		if PeerID(pkt[0]) != p {
			t.Errorf("down packet for peer %d reported as for %d", pkt[0], p)
		}
	})
	if ups != 100 || downs != 100 {
		t.Errorf("delivered %d up and %d down, want 100 each", ups, downs)
	}
	if _, ok := n.NextDue(); ok {
		t.Errorf("NextDue() reports a packet after everything was delivered")
	}
}

// runNetwork drives a network with peers peers on a virtual clock: every
// 10 ms each peer sends up and the host sends down to each peer, for 2 s;
// packets are delivered exactly when due.
func runNetwork(tb testing.TB, n *Network, peers int) []arrival {
	tb.Helper()
	var got []arrival
	step := 10 * time.Millisecond
	end := 2 * time.Second
	next := time.Duration(0)
	for {
		due, ok := n.NextDue()
		if next > end && !ok {
			return got
		}
		if ok && (due <= next || next > end) {
			n.DeliverUp(due, collect(due, &got))
			n.DeliverDown(due, func(p PeerID, pkt []byte) { got = append(got, arrival{due, -1 - p, string(pkt)}) })
			continue
		}
		for p := range peers {
			n.SendUp(next, PeerID(p), fmt.Appendf(nil, "up %d %v", p, next))
			n.SendDown(next, PeerID(p), fmt.Appendf(nil, "down %d %v", p, next))
		}
		next += step
	}
}

func TestNetworkDeterministic(t *testing.T) {
	imp := mustParse(t, "latency=40ms,jitter=20ms,loss=5%,dup=5%,reorder=5%,bw=1mbps")
	build := func(seed uint64, peers int) *Network {
		n := NewNetwork(imp, seed)
		for range peers {
			n.AddPeer()
		}
		return n
	}
	a := runNetwork(t, build(11, 3), 3)
	b := runNetwork(t, build(11, 3), 3)
	if !slices.Equal(a, b) {
		t.Errorf("two networks with seed 11 delivered differently (%d and %d packets)", len(a), len(b))
	}
	if c := runNetwork(t, build(12, 3), 3); slices.Equal(a, c) {
		t.Errorf("networks with seeds 11 and 12 delivered the same %d packets", len(a))
	}

	// A peer's fate depends on the seed and its id, not on how many peers follow.
	only := func(as []arrival, p PeerID) []arrival {
		return slices.DeleteFunc(slices.Clone(as), func(a arrival) bool { return a.peer != p && a.peer != -1-p })
	}
	one := runNetwork(t, build(11, 1), 1)
	if !slices.Equal(only(a, 0), one) {
		t.Errorf("peer 0's deliveries change when peers 1 and 2 are added")
	}
}

func TestNetworkDisconnect(t *testing.T) {
	n := NewNetwork(mustParse(t, "latency=10ms"), 1)
	a, b := n.AddPeer(), n.AddPeer()
	var got []arrival

	// In flight when the peer vanishes: dropped too.
	n.SendUp(0, a, []byte("a-up-early"))
	n.SendDown(0, a, []byte("a-down-early"))
	n.Disconnect(a)
	n.SendUp(1*time.Millisecond, a, []byte("a-up"))
	n.SendDown(1*time.Millisecond, a, []byte("a-down"))
	n.SendUp(1*time.Millisecond, b, []byte("b-up"))
	n.SendDown(1*time.Millisecond, b, []byte("b-down"))
	n.DeliverUp(20*time.Millisecond, collect(20*time.Millisecond, &got))
	n.DeliverDown(20*time.Millisecond, collect(20*time.Millisecond, &got))
	want := []arrival{{20 * time.Millisecond, b, "b-up"}, {20 * time.Millisecond, b, "b-down"}}
	if !slices.Equal(got, want) {
		t.Errorf("while a is disconnected, delivered %v, want %v", got, want)
	}
	up, down := n.Stats(a)
	if up.DroppedDisconnected != 2 || down.DroppedDisconnected != 2 || up.Delivered != 0 || down.Delivered != 0 {
		t.Errorf("stats of a: up %+v, down %+v; want 2 dropped and none delivered each way", up, down)
	}
	checkBalance(t, up, 0)
	checkBalance(t, down, 0)

	n.Reconnect(a)
	got = nil
	n.SendUp(30*time.Millisecond, a, []byte("a-back"))
	n.SendDown(30*time.Millisecond, a, []byte("a-back-down"))
	n.DeliverUp(40*time.Millisecond, collect(40*time.Millisecond, &got))
	n.DeliverDown(40*time.Millisecond, collect(40*time.Millisecond, &got))
	want = []arrival{{40 * time.Millisecond, a, "a-back"}, {40 * time.Millisecond, a, "a-back-down"}}
	if !slices.Equal(got, want) {
		t.Errorf("after Reconnect, delivered %v, want %v", got, want)
	}
}

func TestNetworkPerPeerOverride(t *testing.T) {
	n := NewNetwork(mustParse(t, "latency=5ms"), 1)
	fast, slow, deaf := n.AddPeer(), n.AddPeer(), n.AddPeer()
	n.SetImpairment(slow, mustParse(t, "latency=200ms"), mustParse(t, "latency=5ms"))
	n.SetImpairment(deaf, mustParse(t, "latency=5ms"), mustParse(t, "loss=100%"))
	for _, p := range []PeerID{fast, slow, deaf} {
		n.SendUp(0, p, []byte{byte(p)})
		n.SendDown(0, p, []byte{byte(p)})
	}
	var got []arrival
	n.DeliverUp(100*time.Millisecond, collect(100*time.Millisecond, &got))
	n.DeliverDown(100*time.Millisecond, collect(100*time.Millisecond, &got))
	want := []arrival{
		{100 * time.Millisecond, fast, "\x00"}, {100 * time.Millisecond, deaf, "\x02"}, // up
		{100 * time.Millisecond, fast, "\x00"}, {100 * time.Millisecond, slow, "\x01"}, // down
	}
	if !slices.Equal(got, want) {
		t.Errorf("by 100ms delivered %v, want %v", got, want)
	}
	if due, ok := n.NextDue(); !ok || due != 200*time.Millisecond {
		t.Errorf("NextDue() = %v, %v; want the slow peer's packet at 200ms", due, ok)
	}
	if _, down := n.Stats(deaf); down.Lost != 1 {
		t.Errorf("deaf peer's down link lost %d, want 1", down.Lost)
	}
}

// TestNetworkCallbacks: callbacks may send and disconnect; what they send
// waits for a later call, so an echo with no latency cannot loop.
func TestNetworkCallbacks(t *testing.T) {
	n := NewNetwork(Impairment{}, 1)
	a, b := n.AddPeer(), n.AddPeer()
	n.SendUp(0, a, []byte("ping"))
	n.SendUp(0, b, []byte("ping"))
	n.SendUp(0, b, []byte("ping again"))
	calls := 0
	n.DeliverUp(0, func(p PeerID, pkt []byte) {
		calls++
		n.SendUp(0, p, pkt)   // same direction: would loop if delivered by this call
		n.SendDown(0, p, pkt) // other direction
		if p == b {
			n.Disconnect(b) // b's second packet, already due, is dropped too
		}
	})
	if calls != 2 {
		t.Errorf("callback ran %d times, want 2 (a's ping, b's ping)", calls)
	}
	if up, _ := n.Stats(b); up.DroppedDisconnected != 1 {
		t.Errorf("b's up link DroppedDisconnected = %d, want 1", up.DroppedDisconnected)
	}
	// The echoes are due now and come out on the next calls; b's are dropped.
	var got []arrival
	n.DeliverUp(0, collect(0, &got))
	n.DeliverDown(0, collect(0, &got))
	if want := []arrival{{0, a, "ping"}, {0, a, "ping"}}; !slices.Equal(got, want) {
		t.Errorf("echoes delivered %v, want %v", got, want)
	}
	if due, ok := n.NextDue(); ok {
		t.Errorf("NextDue() = %v, want nothing left", due)
	}
}

// TestNetworkNestedDeliver: a callback may itself deliver; each packet is
// still handed out once.
func TestNetworkNestedDeliver(t *testing.T) {
	n := NewNetwork(Impairment{}, 1)
	p := n.AddPeer()
	for i := range 3 {
		n.SendUp(0, p, []byte{byte(i)})
	}
	var got []byte
	n.DeliverUp(0, func(_ PeerID, pkt []byte) {
		got = append(got, pkt[0])
		n.SendUp(0, p, []byte{10 + pkt[0]})
		n.DeliverUp(0, func(_ PeerID, pkt []byte) { got = append(got, pkt[0]) })
	})
	if want := []byte{0, 10, 1, 11, 2, 12}; !slices.Equal(got, want) {
		t.Errorf("delivered %v, want %v", got, want)
	}
}

func TestNetworkUnknownPeer(t *testing.T) {
	n := NewNetwork(Impairment{}, 1)
	for _, p := range []PeerID{-1, 0, 5} {
		n.SendUp(0, p, []byte("x"))
		n.SendDown(0, p, []byte("x"))
		n.Disconnect(p)
		n.Reconnect(p)
		n.SetImpairment(p, Impairment{}, Impairment{})
		if up, down := n.Stats(p); up != (LinkStats{}) || down != (LinkStats{}) {
			t.Errorf("Stats(%d) of an unknown peer = %+v, %+v; want zero", p, up, down)
		}
	}
	if _, ok := n.NextDue(); ok {
		t.Errorf("NextDue() reports a packet sent to an unknown peer")
	}
	n.DeliverUp(time.Second, nil)
}

func BenchmarkNetworkSendDeliver(b *testing.B) {
	n := NewNetwork(mustParse(b, "latency=2ms,jitter=1ms,loss=1%"), 1)
	for range 8 {
		n.AddPeer()
	}
	pkt := make([]byte, 16)
	sink := func(PeerID, []byte) {}
	var now time.Duration
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		now += 100 * time.Microsecond
		n.SendUp(now, PeerID(i%8), pkt)
		n.DeliverUp(now, sink)
		i++
	}
}
