package draw

import (
	"image/color"
	"math"
	"strconv"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"rockstep/assets/palette"
	"rockstep/net/lockstep"
)

// The network graph (F3): the session's measurements as scrolling
// sparklines over the last ten seconds, sampled every 100 ms.

const (
	graphEvery = 100 * time.Millisecond // between samples
	graphLen   = 100                    // samples kept: 10 s
)

// Series of the graph.
const (
	gPing        = iota // ms, smoothed round trip
	gPktOut             // packets sent per second
	gPktIn              // packets received per second
	gLoss               // % of sent frames that were resends: an estimate of loss
	gKbpsOut            // kbit/s sent
	gKbpsIn             // kbit/s received
	gBuffered           // master turns held, not yet executed
	gStall              // ms per second spent waiting for a master turn
	gDrift              // ms execution is behind the session's clock
	gPredicted          // ticks the displayed world is ahead of the confirmed one
	gRollbacks          // predictions rebuilt per second (re-simulations)
	gCorrections        // confirmed ticks per second that differed from the prediction
	numSeries
)

var seriesNames = [numSeries]string{"ping", "sent", "received", "loss ≈", "upload", "download", "turns buffered", "stall", "clock drift", "predicted", "rollbacks", "corrections"}
var seriesUnits = [numSeries]string{" ms", " pkt/s", " pkt/s", " %", " kbit/s", " kbit/s", "", " ms/s", " ms", " ticks", " /s", " /s"}

// NetGraph keeps the history of the graph. Sampling is pure: stats and
// time in, values out.
type NetGraph struct {
	Shown bool          // drawn: F3 toggles it
	next  time.Duration // when the next sample is due
	prev  lockstep.Stats
	prevT time.Duration
	have  bool
	ring  [graphLen][numSeries]float64
	n     int // samples held, up to graphLen
	head  int // index of the next sample to write

	labels [numSeries]Label
	values [numSeries]Label
	texts  [numSeries]string
	title  Label

	// Paused says the game is paused: the session waits on purpose, so
	// its samples count no loss and no stall (the few frames it sends
	// then are mostly resends of the last one, which would read as loss).
	Paused bool
}

// Sample records st at time now if a sample is due, and reports whether
// it did. The first call only sets the baseline for rates.
func (g *NetGraph) Sample(now time.Duration, st lockstep.Stats) bool {
	if g.have && now < g.next {
		return false
	}
	g.next = now + graphEvery
	if !g.have {
		g.prev, g.prevT, g.have = st, now, true
		return false
	}
	dt := (now - g.prevT).Seconds()
	if dt <= 0 {
		return false
	}
	p := g.prev
	var v [numSeries]float64
	v[gPing] = ms(st.RTT)
	v[gPktOut] = float64(st.PacketsOut-p.PacketsOut) / dt
	v[gPktIn] = float64(st.PacketsIn-p.PacketsIn) / dt
	if sent := st.PacketsOut - p.PacketsOut; sent > 0 && !g.Paused {
		v[gLoss] = 100 * float64(st.Resends-p.Resends) / float64(sent)
	}
	v[gKbpsOut] = float64(st.BytesOut-p.BytesOut) * 8 / 1000 / dt
	v[gKbpsIn] = float64(st.BytesIn-p.BytesIn) * 8 / 1000 / dt
	v[gBuffered] = float64(st.TurnsBuffered)
	if !g.Paused {
		v[gStall] = ms(st.Stall-p.Stall) / dt
	}
	v[gDrift] = ms(st.Drift)
	v[gPredicted] = float64(st.Predicted)
	v[gRollbacks] = float64(st.Resims-p.Resims) / dt
	v[gCorrections] = float64(st.Mispredicted-p.Mispredicted) / dt
	g.ring[g.head] = v
	g.head = (g.head + 1) % graphLen
	g.n = min(g.n+1, graphLen)
	g.prev, g.prevT = st, now
	return true
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// at returns sample i, oldest first, of the ones held.
func (g *NetGraph) at(i int) *[numSeries]float64 {
	return &g.ring[(g.head-g.n+i+graphLen)%graphLen]
}

// latest returns the newest sample, or zeros.
func (g *NetGraph) latest() [numSeries]float64 {
	if g.n == 0 {
		return [numSeries]float64{}
	}
	return *g.at(g.n - 1)
}

// Draw draws the graph as a panel at the right of the field.
func (g *NetGraph) Draw(dst *ebiten.Image, r *Renderer, h *HUD, v View) {
	if !g.Shown {
		return
	}
	h.rescale(v)
	const (
		panelW = 300.0 // world units
		rowH   = 40.0
		top    = 70.0
		spark  = 140.0 // width of a sparkline, units
	)
	x0 := FieldW - panelW - 16
	r.hud.reset()
	px, py := v.pt(x0, top)
	r.hud.Rect(px, py, v.px(panelW), v.px(rowH*numSeries+40), Tint(palette.Bars, 0.78))
	r.hud.Rect(px, py, v.px(panelW), 1, Tint(palette.Border, 1))
	latest := g.latest()
	for s := 0; s < numSeries; s++ {
		y := top + 36 + float64(s)*rowH
		// The line's scale: at least a small floor, so that noise
		// around zero stays flat.
		peak := seriesFloor(s)
		for i := 0; i < g.n; i++ {
			peak = math.Max(peak, g.at(i)[s])
		}
		sx := x0 + panelW - spark - 12
		bx, by := v.pt(sx, y+rowH-14)
		r.hud.Rect(bx, by, v.px(spark), 1, Tint(palette.Border, 1))
		col := seriesColour(s)
		var lx, ly float32
		for i := 0; i < g.n; i++ {
			val := g.at(i)[s]
			qx, qy := v.pt(sx+spark*float64(graphLen-g.n+i)/float64(graphLen-1), y+rowH-14-(rowH-22)*math.Max(0, val)/peak)
			if i > 0 {
				r.hud.line(lx, ly, qx, qy, max(1.2, v.px(1.5)), Tint(col, 0.9))
			}
			lx, ly = qx, qy
		}
		t := formatSeries(s, latest[s])
		g.texts[s] = t
	}
	r.hud.flush(dst, r.white, ebiten.BlendSourceOver)
	title := "NETWORK  (F3 hides)"
	if g.Paused {
		title = "NETWORK  ·  PAUSED  (F3 hides)"
	}
	h.text(dst, v, &g.title, title, &h.label, x0+12, top+10, text.AlignStart, palette.Dim, 1)
	for s := 0; s < numSeries; s++ {
		y := top + 36 + float64(s)*rowH
		h.text(dst, v, &g.labels[s], seriesNames[s], &h.label, x0+12, y+2, text.AlignStart, palette.Dim, 1)
		h.text(dst, v, &g.values[s], g.texts[s], &h.label, x0+12, y+20, text.AlignStart, seriesColour(s), 1)
	}
}

// seriesFloor is the least full scale of series s's sparkline.
func seriesFloor(s int) float64 {
	switch s {
	case gPing, gDrift, gStall:
		return 20
	case gLoss:
		return 5
	case gBuffered, gPredicted:
		return 4
	case gKbpsOut, gKbpsIn:
		return 16
	}
	return 40
}

func seriesColour(s int) color.RGBA {
	switch s {
	case gPing, gDrift:
		return palette.Players[0]
	case gPktOut, gKbpsOut:
		return palette.Players[2]
	case gPktIn, gKbpsIn:
		return palette.Players[3]
	case gLoss, gStall, gCorrections:
		return palette.Danger
	case gPredicted, gRollbacks:
		return palette.Players[4]
	}
	return palette.Text
}

// formatSeries formats a value of series s with its unit.
func formatSeries(s int, v float64) string {
	prec := 0
	if v < 10 && s != gPktOut && s != gPktIn && s != gBuffered && s != gPredicted {
		prec = 1
	}
	return strconv.FormatFloat(v, 'f', prec, 64) + seriesUnits[s]
}
