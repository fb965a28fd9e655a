package draw

import (
	"image"
	"math"
	"testing"
	"time"

	"rockstep/assets/palette"
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
	st.Repairs, st.Rewinds = 1, 1
	if !g.Sample(100*time.Millisecond, st) {
		t.Fatal("no sample at 100 ms")
	}
	got := g.latest()
	want := [numSeries]float64{
		gPing: 12, gPktOut: 30, gPktIn: 50, gLoss: 100.0 / 3, gKbpsOut: 24, gKbpsIn: 80,
		gBuffered: 2, gStall: 200, gDrift: 4,
		gPredicted: 3, gRollbacks: 60, gCorrections: 20, gRepairs: 2,
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

// The graph stands beside the field where the field keeps three quarters
// of its area so, else over the field's right edge taking at most a
// quarter of it; inside the screen, with text of at least 12 pixels, at
// every size the game is made for.
func TestNetGraphStandsBesideTheField(t *testing.T) {
	g := NetGraph{Shown: true}
	for _, sz := range []struct {
		name string
		w, h int
	}{{"800x600", 800, 600}, {"1280x720", 1280, 720}, {"2560x1440", 2560, 1440}, {"1024x768", 1024, 768}, {"ultrawide", 3440, 1440}} {
		t.Run(sz.name, func(t *testing.T) {
			screen := image.Rect(0, 0, sz.w, sz.h)
			v := FitViewBeside(float64(sz.w), float64(sz.h), g.Room(float64(sz.w), float64(sz.h)))
			pv, panel := panelView(v, screen, g.Over())
			field := image.Rect(int(math.Floor(v.X0)), int(math.Floor(v.Y0)), int(math.Ceil(v.X0+FieldW*v.Scale)), int(math.Ceil(v.Y0+FieldH*v.Scale)))
			full := FitView(float64(sz.w), float64(sz.h)).Scale
			if share := v.Scale * v.Scale / (full * full); share < minFieldShare {
				t.Errorf("the field keeps %.0f %% of its area, want at least %.0f %%", 100*share, 100*minFieldShare)
			}
			fa := float64(field.Dx() * field.Dy())
			switch {
			case !g.Over() && panel.Overlaps(field):
				t.Errorf("the graph at %v overlaps the field at %v", panel, field)
			case g.Over() && float64(panel.Intersect(field).Dx()*panel.Intersect(field).Dy()) > fa/4:
				t.Errorf("the graph at %v over the field at %v covers more than a quarter of it", panel, field)
			}
			if sz.name == "800x600" && !g.Over() {
				t.Error("at 800×600 the graph stands beside the field")
			}
			if !panel.In(screen) {
				t.Errorf("the graph at %v is not inside the screen %v", panel, screen)
			}
			if px := sizeLabel * pv.Scale; px < minLabelPx {
				t.Errorf("the graph's text is %.1f px, want at least %d", px, minLabelPx)
			}
		})
	}
	var hidden NetGraph
	if got := hidden.Width(720); got != 0 {
		t.Errorf("a hidden graph takes %v px, want 0", got)
	}
}

// Zero reads as nothing wrong: loss, stall and corrections at zero are
// written in the neutral colour, not the red of trouble.
func TestNetGraphZeroIsNeutral(t *testing.T) {
	tests := []struct {
		name   string
		series int
		v      float64
		danger bool
	}{
		{"no loss", gLoss, 0, false},
		{"no stall", gStall, 0, false},
		{"no corrections", gCorrections, 0, false},
		{"loss under the rounding", gLoss, 0.04, false},
		{"some loss", gLoss, 2.5, true},
		{"some stall", gStall, 12, true},
		{"some corrections", gCorrections, 0.5, true},
	}
	for _, tt := range tests {
		got := valueColour(tt.series, formatSeries(tt.series, tt.v)) == palette.Danger
		if got != tt.danger {
			t.Errorf("%s (%q): drawn in red %v, want %v", tt.name, formatSeries(tt.series, tt.v), got, tt.danger)
		}
	}
}
