package transport

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"slices"
	"testing"
	"time"
)

// send is one scripted Send: packet index at virtual time at, size bytes long.
type send struct {
	at    time.Duration
	index uint32
	size  int
}

// delivery is one packet handed out by a link, at virtual time at.
type delivery struct {
	at    time.Duration
	index uint32
	data  []byte
}

// evenSends returns n sends of size bytes, one every gap from time 0.
func evenSends(n int, gap time.Duration, size int) []send {
	sends := make([]send, n)
	for i := range sends {
		sends[i] = send{at: time.Duration(i) * gap, index: uint32(i), size: max(size, 4)}
	}
	return sends
}

// drive runs a link on a virtual clock: it makes the scripted sends and
// delivers every packet exactly at its due time (before any send at the same
// time), until the link is empty.
func drive(tb testing.TB, l *Link, sends []send) []delivery {
	tb.Helper()
	var out []delivery
	var buf [][]byte
	deliver := func(now time.Duration) {
		buf = l.Deliver(now, buf[:0])
		for _, pkt := range buf {
			out = append(out, delivery{at: now, index: binary.BigEndian.Uint32(pkt), data: pkt})
		}
	}
	for _, s := range sends {
		for due, ok := l.NextDue(); ok && due <= s.at; due, ok = l.NextDue() {
			deliver(due)
		}
		pkt := make([]byte, s.size)
		binary.BigEndian.PutUint32(pkt, s.index)
		l.Send(s.at, pkt)
	}
	for due, ok := l.NextDue(); ok; due, ok = l.NextDue() {
		deliver(due)
	}
	if l.Pending() != 0 {
		tb.Fatalf("after draining, Pending() = %d, want 0", l.Pending())
	}
	checkBalance(tb, l.Stats(), 0)
	return out
}

// checkBalance asserts that every packet sent is accounted for.
func checkBalance(tb testing.TB, s LinkStats, pending int) {
	tb.Helper()
	in := s.Sent + s.Duplicated
	outs := s.Delivered + s.Lost + s.DroppedQueue + s.DroppedDisconnected + pending
	if in != outs {
		tb.Errorf("stats do not balance: Sent+Duplicated = %d, Delivered+Lost+Dropped+pending = %d (%+v, pending %d)", in, outs, s, pending)
	}
}

// outOfOrder counts deliveries of a packet sent before one already delivered.
func outOfOrder(ds []delivery) int {
	n, highest := 0, -1
	for _, d := range ds {
		if int(d.index) < highest {
			n++
		}
		highest = max(highest, int(d.index))
	}
	return n
}

func mustParse(tb testing.TB, spec string) Impairment {
	tb.Helper()
	imp, err := ParseImpairment(spec)
	if err != nil {
		tb.Fatal(err)
	}
	return imp
}

func TestLinkDeterministic(t *testing.T) {
	imp := mustParse(t, "latency=80ms,jitter=30ms,loss=5%,dup=2%,reorder=2%,bw=256kbps")
	sends := evenSends(2000, 5*time.Millisecond, 100)
	a := drive(t, NewLink(imp, 7), sends)
	b := drive(t, NewLink(imp, 7), sends)
	if !slices.EqualFunc(a, b, sameDelivery) {
		t.Errorf("two links with seed 7 delivered differently (%d and %d packets)", len(a), len(b))
	}
	c := drive(t, NewLink(imp, 8), sends)
	if slices.EqualFunc(a, c, sameDelivery) {
		t.Errorf("links with seeds 7 and 8 delivered the same %d packets", len(a))
	}
}

func sameDelivery(a, b delivery) bool {
	return a.at == b.at && a.index == b.index && string(a.data) == string(b.data)
}

// TestLinkPinned pins the exact output for one seed, so an accidental change
// of the simulator (which would change every seeded test run elsewhere) is
// noticed. Update the constant only for a deliberate change.
func TestLinkPinned(t *testing.T) {
	imp := mustParse(t, "latency=80ms,jitter=30ms,loss=5%,dup=2%,reorder=2%,bw=256kbps")
	ds := drive(t, NewLink(imp, 1), evenSends(1000, 3*time.Millisecond, 40))
	h := fnv.New64a()
	for _, d := range ds {
		h.Write(binary.BigEndian.AppendUint64(nil, uint64(d.at)))
		h.Write(d.data)
	}
	const want = 0xbea64762b82676b7
	if got := h.Sum64(); got != want {
		t.Errorf("delivery hash = %#x, want %#x (%d deliveries)", got, uint64(want), len(ds))
	}
}

func TestLinkStatistics(t *testing.T) {
	const n = 20000
	within := func(t *testing.T, what string, got int, want, tol float64) {
		t.Helper()
		if f := float64(got) / n; math.Abs(f-want) > tol {
			t.Errorf("%s = %d of %d (%.4f), want %.3f±%.3f", what, got, n, f, want, tol)
		}
	}
	tests := []struct {
		name  string
		spec  string
		check func(t *testing.T, s LinkStats, ds []delivery)
	}{
		{"loss 5%", "latency=20ms,loss=5%", func(t *testing.T, s LinkStats, ds []delivery) {
			within(t, "Lost", s.Lost, 0.05, 0.01)
			if s.Delivered != n-s.Lost {
				t.Errorf("Delivered = %d, want Sent-Lost = %d", s.Delivered, n-s.Lost)
			}
		}},
		{"dup 2%", "latency=20ms,jitter=5ms,dup=2%", func(t *testing.T, s LinkStats, ds []delivery) {
			within(t, "Duplicated", s.Duplicated, 0.02, 0.005)
			if s.Delivered != n+s.Duplicated {
				t.Errorf("Delivered = %d, want Sent+Duplicated = %d", s.Delivered, n+s.Duplicated)
			}
			if got := outOfOrder(ds); got != 0 {
				t.Errorf("%d deliveries out of order, want 0 without reorder", got)
			}
		}},
		{"jitter keeps order", "latency=50ms,jitter=40ms", func(t *testing.T, s LinkStats, ds []delivery) {
			if got := outOfOrder(ds); got != 0 {
				t.Errorf("%d deliveries out of order, want 0 without reorder", got)
			}
			if s.Reordered != 0 {
				t.Errorf("Reordered = %d, want 0", s.Reordered)
			}
		}},
		{"reorder 2%", "latency=50ms,jitter=10ms,reorder=2%", func(t *testing.T, s LinkStats, ds []delivery) {
			within(t, "Reordered", s.Reordered, 0.02, 0.005)
			if got := outOfOrder(ds); got == 0 {
				t.Errorf("no delivery out of order, want some with reorder=2%%")
			}
		}},
		{"reorder without latency", "reorder=10%", func(t *testing.T, s LinkStats, ds []delivery) {
			if got := outOfOrder(ds); got == 0 {
				t.Errorf("no delivery out of order, want some: the reorder window is at least %v", MinReorderWindow)
			}
		}},
		{"all at once", "latency=80ms,jitter=30ms,loss=5%,dup=2%,reorder=2%", func(t *testing.T, s LinkStats, ds []delivery) {
			within(t, "Lost", s.Lost, 0.05, 0.01)
			within(t, "Duplicated", s.Duplicated, 0.02*0.95, 0.005)
			within(t, "Reordered", s.Reordered, 0.02*0.97, 0.005)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := NewLink(mustParse(t, tt.spec), 42)
			ds := drive(t, l, evenSends(n, time.Millisecond, 8))
			s := l.Stats()
			if s.Sent != n || s.BytesSent != 8*n {
				t.Errorf("Sent = %d (%d bytes), want %d (%d bytes)", s.Sent, s.BytesSent, n, 8*n)
			}
			if len(ds) != s.Delivered || s.BytesDelivered != int64(8*len(ds)) {
				t.Errorf("Delivered = %d (%d bytes), but %d packets came out", s.Delivered, s.BytesDelivered, len(ds))
			}
			tt.check(t, s, ds)
		})
	}
}

func TestLinkDelays(t *testing.T) {
	tests := []struct {
		name           string
		spec           string
		lowest, latest time.Duration // bounds of every packet's delay
	}{
		{"no impairment", "none", 0, 0},
		{"latency only", "latency=80ms", 80 * time.Millisecond, 80 * time.Millisecond},
		{"jitter", "latency=80ms,jitter=30ms", 50 * time.Millisecond, 110 * time.Millisecond},
		{"jitter clipped at zero", "latency=10ms,jitter=30ms", 0, 40 * time.Millisecond},
		{"reorder adds up to latency/2+jitter", "latency=80ms,jitter=30ms,reorder=20%", 50 * time.Millisecond, 110*time.Millisecond + 70*time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Close sends test the order-keeping rule never pushes a delay
			// past the bound; spaced sends (farther apart than any delay)
			// test that the whole range is used, not just its middle.
			for _, gap := range []time.Duration{time.Millisecond, 200 * time.Millisecond} {
				sends := evenSends(5000, gap, 8)
				ds := drive(t, NewLink(mustParse(t, tt.spec), 3), sends)
				if len(ds) != len(sends) {
					t.Fatalf("gap %v: %d packets delivered, want %d", gap, len(ds), len(sends))
				}
				lo, hi := time.Duration(math.MaxInt64), time.Duration(0)
				for _, d := range ds {
					delay := d.at - sends[d.index].at
					lo, hi = min(lo, delay), max(hi, delay)
				}
				if lo < tt.lowest || hi > tt.latest {
					t.Errorf("gap %v: delays span [%v, %v], want within [%v, %v]", gap, lo, hi, tt.lowest, tt.latest)
				}
				if slack := (tt.latest - tt.lowest) / 20; gap > tt.latest && (lo > tt.lowest+slack || hi < tt.latest-slack) {
					t.Errorf("gap %v: delays span [%v, %v], want close to [%v, %v]", gap, lo, hi, tt.lowest, tt.latest)
				}
			}
		})
	}
}

func TestLinkBandwidth(t *testing.T) {
	t.Run("10 packets of 1000 B at 10 KB/s take 1 s", func(t *testing.T) {
		l := NewLink(mustParse(t, "bw=10KB/s"), 1)
		ds := drive(t, l, evenSends(10, 0, 1000))
		for i, d := range ds {
			if want := time.Duration(i+1) * 100 * time.Millisecond; d.at != want || d.index != uint32(i) {
				t.Errorf("delivery %d: packet %d at %v, want packet %d at %v", i, d.index, d.at, i, want)
			}
		}
	})
	t.Run("latency is added after the bottleneck", func(t *testing.T) {
		ds := drive(t, NewLink(mustParse(t, "latency=50ms,bw=10KB/s"), 1), evenSends(10, 0, 1000))
		if got, want := ds[len(ds)-1].at, 1050*time.Millisecond; got != want {
			t.Errorf("last delivery at %v, want %v", got, want)
		}
	})
	t.Run("more than 1 s of data is dropped", func(t *testing.T) {
		l := NewLink(mustParse(t, "bw=10KB/s"), 1)
		ds := drive(t, l, evenSends(15, 0, 1000))
		if s := l.Stats(); len(ds) != 10 || s.DroppedQueue != 5 {
			t.Errorf("%d delivered, DroppedQueue = %d; want 10 and 5", len(ds), s.DroppedQueue)
		}
	})
	t.Run("more than 1024 packets are dropped", func(t *testing.T) {
		l := NewLink(mustParse(t, "bw=1MB/s"), 1)
		drive(t, l, evenSends(2000, 0, 4))
		if s := l.Stats(); s.Delivered != MaxQueuePackets || s.DroppedQueue != 2000-MaxQueuePackets {
			t.Errorf("Delivered = %d, DroppedQueue = %d; want %d and %d", s.Delivered, s.DroppedQueue, MaxQueuePackets, 2000-MaxQueuePackets)
		}
	})
	t.Run("an oversized packet passes an empty queue", func(t *testing.T) {
		ds := drive(t, NewLink(mustParse(t, "bw=1KB/s"), 1), evenSends(1, 0, 3000))
		if len(ds) != 1 || ds[0].at != 3*time.Second {
			t.Errorf("got %d deliveries (%v), want one at 3s", len(ds), ds)
		}
	})
	t.Run("throughput is capped over time", func(t *testing.T) {
		// Offer 20 KB/s for 10 s to a 10 KB/s link.
		l := NewLink(mustParse(t, "bw=10KB/s"), 1)
		sends := evenSends(200, 50*time.Millisecond, 1000)
		ds := drive(t, l, sends)
		last := ds[len(ds)-1].at
		if rate := float64(l.Stats().BytesDelivered) / last.Seconds(); rate > 10000 || rate < 9000 {
			t.Errorf("delivered %.0f B/s, want just under 10000", rate)
		}
		for _, d := range ds {
			if delay := d.at - sends[d.index].at; delay > MaxQueueDelay+100*time.Millisecond {
				t.Fatalf("packet %d waited %v, more than the queue allows", d.index, delay)
			}
		}
	})
}

func TestLinkBounded(t *testing.T) {
	tests := []struct {
		name string
		spec string
	}{
		{"slow path", "latency=1s"},
		{"duplicating path", "latency=1s,dup=100%"},
		{"slow and narrow path", "latency=1s,bw=1mbps"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const n = 100_000
			l := NewLink(mustParse(t, tt.spec), 9)
			pkt := make([]byte, 16)
			for i := range n {
				l.Send(time.Duration(i)*time.Microsecond, pkt)
				if l.Pending() > MaxPending {
					t.Fatalf("after %d sends, Pending() = %d, want at most %d", i+1, l.Pending(), MaxPending)
				}
			}
			s := l.Stats()
			if s.DroppedQueue == 0 {
				t.Errorf("DroppedQueue = 0 after a flood of %d packets", n)
			}
			if len(l.own.items) > MaxPending || len(l.departs) > 2*MaxQueuePackets {
				t.Errorf("memory grew: %d packets scheduled, %d departures kept", len(l.own.items), len(l.departs))
			}
			checkBalance(t, s, l.Pending())
		})
	}
}

// TestLinkTies: packets due at the same time come out in send order.
func TestLinkTies(t *testing.T) {
	l := NewLink(mustParse(t, "latency=10ms"), 1)
	ds := drive(t, l, evenSends(100, 0, 4))
	for i, d := range ds {
		if d.index != uint32(i) || d.at != 10*time.Millisecond {
			t.Fatalf("delivery %d: packet %d at %v, want packet %d at 10ms", i, d.index, d.at, i)
		}
	}
}

// TestLinkDeliverPartial: Deliver hands out only what is due, and the copy
// it hands out is not the sender's buffer.
func TestLinkDeliverPartial(t *testing.T) {
	l := NewLink(mustParse(t, "latency=10ms"), 1)
	pkt := []byte{1, 2, 3}
	l.Send(0, pkt)
	l.Send(5*time.Millisecond, pkt)
	pkt[0] = 99
	if got := l.Deliver(9*time.Millisecond, nil); len(got) != 0 {
		t.Errorf("Deliver(9ms) = %v, want nothing", got)
	}
	if due, ok := l.NextDue(); !ok || due != 10*time.Millisecond {
		t.Errorf("NextDue() = %v, %v; want 10ms, true", due, ok)
	}
	got := l.Deliver(12*time.Millisecond, nil)
	if len(got) != 1 || got[0][0] != 1 {
		t.Errorf("Deliver(12ms) = %v, want one packet starting with 1", got)
	}
	if l.Pending() != 1 {
		t.Errorf("Pending() = %d, want 1", l.Pending())
	}
	checkBalance(t, l.Stats(), l.Pending())
}

// TestNewLinkClamps: a hand-made impairment out of range neither panics nor
// misbehaves.
func TestNewLinkClamps(t *testing.T) {
	imp := Impairment{Latency: -time.Second, Jitter: math.MaxInt64, Loss: math.NaN(), Dup: -1, Reorder: 7, Bandwidth: -5}
	l := NewLink(imp, 1)
	if want := (Impairment{Jitter: MaxDelay, Reorder: 1}); l.imp != want {
		t.Errorf("clamped to %+v, want %+v", l.imp, want)
	}
	ds := drive(t, l, evenSends(100, time.Millisecond, 4))
	if len(ds) != 100 {
		t.Errorf("%d delivered, want 100", len(ds))
	}
}

func BenchmarkLinkSendDeliver(b *testing.B) {
	l := NewLink(mustParse(b, "latency=2ms,jitter=1ms,loss=1%,dup=1%,reorder=1%"), 1)
	pkt := make([]byte, 16)
	buf := make([][]byte, 0, 64)
	var now time.Duration
	b.ReportAllocs()
	for b.Loop() {
		now += 100 * time.Microsecond
		l.Send(now, pkt)
		buf = l.Deliver(now, buf[:0])
	}
}
