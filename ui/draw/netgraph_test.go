package draw

import (
	"math"
	"testing"
	"time"

	"rockstep/net/lockstep"
)

func TestNetGraphSamplesRatesEveryTenthOfASecond(t *testing.T) {
	var g NetGraph
	st := lockstep.Stats{RTT: 12 * time.Millisecond}
	if g.Sample(0, st) {
		t.Fatal("the first call took a sample; it only sets the baseline")
	}
	if g.Sample(50*time.Millisecond, st) {
		t.Fatal("sampled before 100 ms had passed")
	}
	st.PacketsOut, st.PacketsIn = 3, 5
	st.BytesOut, st.BytesIn = 300, 1000
	st.Resends = 1
	st.Stall = 20 * time.Millisecond
	st.TurnsBuffered, st.Drift = 2, 4*time.Millisecond
	st.Predicted, st.Resims, st.Mispredicted = 3, 6, 2
	if !g.Sample(100*time.Millisecond, st) {
		t.Fatal("no sample at 100 ms")
	}
	got := g.latest()
	want := [numSeries]float64{
		gPing: 12, gPktOut: 30, gPktIn: 50, gLoss: 100.0 / 3, gKbpsOut: 24, gKbpsIn: 80,
		gBuffered: 2, gStall: 200, gDrift: 4,
		gPredicted: 3, gRollbacks: 60, gCorrections: 20,
	}
	for s := range want {
		if math.Abs(got[s]-want[s]) > 1e-9 {
			t.Errorf("%s = %v, want %v", seriesNames[s], got[s], want[s])
		}
	}
	// Ten seconds of history, no more.
	for i := 2; i < 3*graphLen; i++ {
		g.Sample(time.Duration(i)*100*time.Millisecond, st)
	}
	if g.n != graphLen {
		t.Errorf("%d samples held, want %d", g.n, graphLen)
	}
	if got := g.latest()[gPktOut]; got != 0 {
		t.Errorf("rate %v with no new packets, want 0", got)
	}
	if s := formatSeries(gPing, 4.44); s != "4.4 ms" {
		t.Errorf("formatSeries = %q", s)
	}
}

func TestNetGraphCountsNoLossOrStallWhilePaused(t *testing.T) {
	var g NetGraph
	st := lockstep.Stats{}
	g.Sample(0, st)
	// Paused: the session sends little but resends, and waits for turns
	// on purpose.
	g.Paused = true
	st.PacketsOut, st.Resends, st.Stall = 4, 4, 100*time.Millisecond
	if !g.Sample(100*time.Millisecond, st) {
		t.Fatal("no sample at 100 ms")
	}
	if got := g.latest(); got[gLoss] != 0 || got[gStall] != 0 {
		t.Errorf("paused: loss %v %%, stall %v ms/s, want 0 and 0", got[gLoss], got[gStall])
	}
	// Playing again: the same counts are loss and stall.
	g.Paused = false
	st.PacketsOut, st.Resends, st.Stall = 8, 8, 200*time.Millisecond
	g.Sample(200*time.Millisecond, st)
	if got := g.latest(); got[gLoss] != 100 || got[gStall] != 1000 {
		t.Errorf("playing: loss %v %%, stall %v ms/s, want 100 and 1000", got[gLoss], got[gStall])
	}
}
