package draw

import (
	"image"
	"image/color"
	"math"
	"strconv"
	"strings"
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
	gRepairs            // times this world was out of step and repaired (or rewound), this game and before
	numSeries
)

var seriesNames = [numSeries]string{"ping", "sent", "received", "loss ≈", "upload", "download", "turns buffered", "stall", "clock drift", "predicted", "rollbacks", "corrections", "repairs"}
var seriesUnits = [numSeries]string{" ms", " pkt/s", " pkt/s", " %", " kbit/s", " kbit/s", "", " ms/s", " ms", " ticks", " /s", " /s", ""}

// NetGraph keeps the history of the graph. Sampling is pure: stats and
// time in, values out.
type NetGraph struct {
	Shown bool          // drawn: F3 toggles it
	over  bool          // it lies over the field (Room)
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
	face   text.GoTextFace // the panel's, sized for its scale
	rect   image.Rectangle // where the panel was last drawn, pixels

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
	v[gRepairs] = float64(st.Repairs + st.Rewinds)
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

// The graph's panel, in its own units (scaled by panelScale): it stands
// beside the field where the field keeps at least minFieldShare of its
// area so, so the ships it would hide stay in sight (docs/ARCHITECTURE.md,
// the HUD); on a narrower screen (800×600) it lies over the field's right
// edge instead, under a quarter of the field's area.
const (
	panelW   = 230.0 // units
	panelH   = 40 + rowH*numSeries
	rowH     = 40.0
	sparkW   = 90.0 // width of a sparkline, units
	panelGap = 8.0  // pixels between the field and the panel

	// minFieldShare is the least share of its area (without the graph)
	// the field keeps with the graph beside it.
	minFieldShare = 0.75
)

// panelScale returns the panel's pixels per unit on a screen h pixels
// high: the scale the field would have there, but never so small that its
// text (15 units) falls under 12 pixels, nor so large that it crowds the
// field.
func panelScale(h float64) float64 { return min(max(h/(FieldH+HUDTop+hudBottom), 0.8), 1.4) }

// Width returns the pixels the graph takes at the right of a screen h
// pixels high while it is shown, 0 while it is hidden: what the field's
// view leaves free for it (see FitViewBeside).
func (g *NetGraph) Width(h float64) float64 {
	if !g.Shown {
		return 0
	}
	return panelW*panelScale(h) + 2*panelGap
}

// Room returns the pixels the graph takes at the right of a w×h screen:
// Width(h) when the field, beside it, keeps minFieldShare of its area;
// else 0, and the graph lies over the field's right edge (Over).
func (g *NetGraph) Room(w, h float64) float64 {
	g.over = false
	right := g.Width(h)
	if right == 0 {
		return 0
	}
	full, beside := FitView(w, h).Scale, FitViewBeside(w, h, right).Scale
	if beside*beside < minFieldShare*full*full {
		g.over = true
		return 0
	}
	return right
}

// Over reports whether the graph lies over the field (see Room).
func (g *NetGraph) Over() bool { return g.over }

// FitViewBeside returns the view of the field on a screen of w×h pixels
// with right pixels kept free at its right for a panel: the field and the
// HUD's bands as large as fit in the rest, and the field and the panel
// centred together.
func FitViewBeside(w, h, right float64) View {
	if right <= 0 || right >= w {
		return FitView(w, h)
	}
	return FitView(w-right, h)
}

// Rect returns the screen rectangle, in pixels, the graph was last drawn
// in (empty before it is drawn).
func (g *NetGraph) Rect() image.Rectangle { return g.rect }

// Draw draws the graph as a panel at the right of the field of view v,
// on the screen dst (see FitViewBeside for the room it needs).
func (g *NetGraph) Draw(dst *ebiten.Image, r *Renderer, h *HUD, v View) {
	if !g.Shown {
		g.rect = image.Rectangle{}
		return
	}
	pv, rect := panelView(v, dst.Bounds(), g.over)
	g.face.Source = h.label.Source
	g.face.Size = max(sizeLabel*pv.Scale, minLabelPx)
	r.hud.reset()
	px, py := pv.pt(0, 0)
	r.hud.Rect(px, py, pv.px(panelW), pv.px(panelH), Tint(palette.Bars, 0.78))
	r.hud.Rect(px, py, pv.px(panelW), 1, Tint(palette.Border, 1))
	g.rect = rect
	latest := g.latest()
	for s := 0; s < numSeries; s++ {
		y := 36 + float64(s)*rowH
		// The line's scale: at least a small floor, so that noise
		// around zero stays flat.
		peak := seriesFloor(s)
		for i := 0; i < g.n; i++ {
			peak = math.Max(peak, g.at(i)[s])
		}
		sx := panelW - sparkW - 12
		bx, by := pv.pt(sx, y+rowH-14)
		r.hud.Rect(bx, by, pv.px(sparkW), 1, Tint(palette.Border, 1))
		col := seriesColour(s)
		var lx, ly float32
		for i := 0; i < g.n; i++ {
			val := g.at(i)[s]
			qx, qy := pv.pt(sx+sparkW*float64(graphLen-g.n+i)/float64(graphLen-1), y+rowH-14-(rowH-22)*math.Max(0, val)/peak)
			if i > 0 {
				r.hud.line(lx, ly, qx, qy, max(1.2, pv.px(1.5)), Tint(col, 0.9))
			}
			lx, ly = qx, qy
		}
		g.texts[s] = formatSeries(s, latest[s])
	}
	r.hud.flush(dst, r.white, ebiten.BlendSourceOver)
	title := "NETWORK  (F3 hides)"
	if g.Paused {
		title = "NETWORK  ·  PAUSED  (F3 hides)"
	}
	g.text(dst, pv, &g.title, title, 12, 10, palette.Dim)
	for s := 0; s < numSeries; s++ {
		y := 36 + float64(s)*rowH
		g.text(dst, pv, &g.labels[s], seriesNames[s], 12, y+2, palette.Dim)
		g.text(dst, pv, &g.values[s], g.texts[s], 12, y+20, valueColour(s, g.texts[s]))
	}
}

// panelView returns the view of the graph's panel (its units onto
// pixels) beside the field of view v on screen, and the panel's rectangle
// in pixels: right of the field, centred in the screen's height.
func panelView(v View, screen image.Rectangle, over bool) (View, image.Rectangle) {
	ps := panelScale(float64(screen.Dy()))
	pv := View{
		Scale: ps,
		X0:    math.Ceil(v.X0 + FieldW*v.Scale + panelGap),
		Y0:    math.Round(float64(screen.Min.Y) + (float64(screen.Dy())-panelH*ps)/2),
	}
	if over {
		// Over the field's right edge, centred on the field's height.
		pv.X0 = math.Floor(v.X0 + FieldW*v.Scale - panelW*ps - panelGap)
		pv.Y0 = math.Round(v.Y0 + (FieldH*v.Scale-panelH*ps)/2)
	}
	px, py := pv.pt(0, 0)
	w, h := pv.px(panelW), pv.px(panelH)
	return pv, image.Rect(int(math.Floor(float64(px))), int(math.Floor(float64(py))),
		int(math.Ceil(float64(px+w))), int(math.Ceil(float64(py+h))))
}

// text draws s through label l in the graph's face at panel point (x, y).
// The graph keeps a face of its own: the HUD's are sized for the field,
// whose scale is not the panel's.
func (g *NetGraph) text(dst *ebiten.Image, pv View, l *Label, s string, x, y float64, c color.RGBA) {
	sx, sy := pv.pt(x, y)
	l.draw(dst, s, &g.face, sx, sy, text.AlignStart, c, 1)
}

// valueColour is the colour of series s's value as written (shown): its
// own colour, but a value that reads as zero is neutral, never the red of
// loss, stall or corrections, which would read as trouble.
func valueColour(s int, shown string) color.RGBA {
	num := strings.TrimSuffix(shown, seriesUnits[s])
	if v, err := strconv.ParseFloat(num, 64); err == nil && v == 0 {
		return palette.Dim
	}
	return seriesColour(s)
}

// seriesFloor is the least full scale of series s's sparkline.
func seriesFloor(s int) float64 {
	switch s {
	case gPing, gDrift, gStall:
		return 20
	case gLoss:
		return 5
	case gBuffered, gPredicted, gRepairs:
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
	case gLoss, gStall, gCorrections, gRepairs:
		return palette.Danger
	case gPredicted, gRollbacks:
		return palette.Players[4]
	}
	return palette.Text
}

// formatSeries formats a value of series s with its unit.
func formatSeries(s int, v float64) string {
	prec := 0
	if v < 10 && s != gPktOut && s != gPktIn && s != gBuffered && s != gPredicted && s != gRepairs {
		prec = 1
	}
	return strconv.FormatFloat(v, 'f', prec, 64) + seriesUnits[s]
}
