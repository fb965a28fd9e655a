package ui

import (
	"slices"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/game"
	"rockstep/net/wire"
)

// Frames measured by TestFrameCost, after a warm-up.
const (
	frameWarmup   = 60
	frameMeasured = 240

	// maxNetDrawAllocs bounds the allocations of App.Draw for the standard
	// scene on the network screen with the graph, counted as the fewest of
	// the frames checked: the scene's explosions grow buffers now and then
	// (a frame counted 25 or 36 where the next counted 23). It is over the
	// budget of a practice frame (maxDrawAllocs): 21 to 23 were counted when
	// the check was written, most of them in Ebiten's command queue for the
	// many draws of eight players' HUD and the graph. The bound keeps it
	// from growing while it is brought down.
	maxNetDrawAllocs = 28
)

// TestFrameCost draws the standard scene (game.StandardScene: 8 ships, 40
// rocks, 64 bullets) in a network game: the renderer, particles, the HUD
// of eight players and the network graph, in a real window. Without the
// race detector (which allocates in Ebiten's drawing: `make test-allocs`)
// it checks that App.Draw allocates at most maxNetDrawAllocs times a
// frame. It logs the CPU time per frame (the whole process: Go, and the GL
// driver, which under Xvfb is Mesa's software rasteriser) and the time
// spent in Draw, which BENCHMARKS.md keeps; times are not asserted (a
// loaded machine must not fail it).
//
//	xvfb-run -a -s "-screen 0 1280x720x24" go test -run FrameCost -v ./ui/
func TestFrameCost(t *testing.T) {
	if inWindowProcess(t) {
		measureFrames(t)
	}
}

// frameMeter runs the standard scene on the network play screen.
type frameMeter struct {
	app    *App
	world  *game.World
	frames int
	draw   time.Duration // in Draw, measured frames
	cpu0   time.Duration
	wall0  time.Time
	cpu    time.Duration
	wall   time.Duration
	fps    float64
	allocs []float64 // allocations per App.Draw, at each frame counted
}

func (m *frameMeter) Update() error {
	if m.frames == frameWarmup {
		m.cpu0, m.wall0 = cpuTime(), time.Now()
	}
	if m.frames == frameWarmup+frameMeasured {
		m.cpu, m.wall, m.fps = cpuTime()-m.cpu0, time.Since(m.wall0), ebiten.ActualFPS()
	}
	if m.frames >= frameWarmup+frameMeasured+drawFrames {
		return ebiten.Termination
	}
	var in [game.MaxPlayers]game.Input
	for i := range in {
		in[i] = apKeys(m.frames + 37*i)
	}
	m.world.Step(in)
	nv := &m.app.nv
	nv.world = *m.world
	nv.events = append(nv.events[:0], m.world.LastEvents()...)
	nv.stats.RTT, nv.stats.K, nv.stats.Delay = 3*time.Millisecond, 2, 1
	nv.stats.PacketsOut += 2
	nv.stats.PacketsIn += 3
	return m.app.cur.update(Intents{})
}

func (m *frameMeter) Draw(screen *ebiten.Image) {
	// Count the allocations of the frames after the timed ones, so that
	// the count's extra draws do not weigh on the times.
	if m.frames >= frameWarmup+frameMeasured && len(m.allocs) < drawFrames {
		m.allocs = append(m.allocs, testing.AllocsPerRun(drawRuns, func() { m.app.Draw(screen) }))
	}
	start := time.Now()
	m.app.Draw(screen)
	if m.frames >= frameWarmup && m.frames < frameWarmup+frameMeasured {
		m.draw += time.Since(start)
	}
	m.frames++
}

func (m *frameMeter) Layout(w, h int) (int, int) { return m.app.Layout(w, h) }

func measureFrames(t *testing.T) {
	app, err := NewApp(Options{Seed: 1, ConfigDir: t.TempDir(), Silent: true})
	if err != nil {
		t.Fatal(err)
	}
	w := game.StandardScene(1)
	nv := &app.nv
	nv.ok, nv.hasWorld, nv.world, nv.slot = true, true, *w, 0
	nv.phase = 3 // playing
	for i := 0; i < game.MaxPlayers; i++ {
		nv.setup.Players = append(nv.setup.Players, wire.Player{Slot: uint8(i), Colour: uint8(i), Connected: true, Name: "Player " + string(rune('1'+i))})
	}
	app.flow.screen = screenPlay
	s := newNetPlayScreen(app)
	s.graph.Shown = true
	app.cur = s
	app.ui.Container = s.root()
	m := &frameMeter{app: app, world: w}
	runWindow(t, app, m)
	if m.wall == 0 {
		t.Fatal("the run ended before the measurement")
	}
	if !raceEnabled {
		if len(m.allocs) < drawChecked {
			t.Fatalf("counted the allocations of %d frames, want %d", len(m.allocs), drawChecked)
		}
		if a := slices.Min(m.allocs[len(m.allocs)-drawChecked:]); a > maxNetDrawAllocs {
			t.Errorf("App.Draw allocates %.1f times a frame, at most %d allowed (counted: %v)", a, maxNetDrawAllocs, m.allocs)
		}
	}
	per := func(d time.Duration) time.Duration { return d / frameMeasured }
	t.Logf("frame cost, standard scene, network HUD and graph: %v CPU/frame (whole process), %v in Draw/frame, %.0f FPS over %d frames (%v)",
		per(m.cpu).Round(10*time.Microsecond), per(m.draw).Round(10*time.Microsecond), float64(frameMeasured)/m.wall.Seconds(), frameMeasured, m.wall.Round(time.Millisecond))
}
