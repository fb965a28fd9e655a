package ui

import (
	"errors"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/game"
	"rockstep/game/fixed"
	"rockstep/ui/draw"
)

// Environment of TestWindowScreenshot.
const (
	envShotPath  = "ROCKSTEP_SCREENSHOT"       // where to write the PNG; default: a temporary directory
	envShotFrame = "ROCKSTEP_SCREENSHOT_FRAME" // update after which to capture; default: defaultShotFrame
	envShotSeed  = "ROCKSTEP_SCREENSHOT_SEED"  // seed of the game; default: defaultShotSeed
	envShotWave  = "ROCKSTEP_SCREENSHOT_WAVE"  // starting wave; default: defaultShotWave
)

const (
	defaultShotFrame = 150
	defaultShotSeed  = 2
	defaultShotWave  = 4

	// The allocations of App.Draw, measured by testing.AllocsPerRun in a
	// settled game: drawFrom is the first frame measured, drawFrames the
	// frames measured one after another, drawRuns the draws of each. The
	// first frames grow Ebiten's command queue to hold the repeated draws
	// (the measurement's own allocations): only the last drawChecked count.
	drawFrom, drawFrames, drawRuns, drawChecked = 120, 8, 20, 4
	maxDrawAllocs                               = 5 // allocations per App.Draw
)

// capture runs an App and grabs the screen once the app has updated
// frames times and the picture shows the most: an explosion spreading and
// the ship on the field charging a shot (or, failing that, ten seconds
// later); then it ends the game.
type capture struct {
	*App
	frames int
	boom   int // update at which the wanted picture was first seen, 0 before
	shot   *image.RGBA
	fps    float64 // frames drawn per second when the shot was taken
	tps    float64 // updates per second then

	allocs []float64 // allocations per App.Draw, at each frame measured
}

// ready reports whether the next frame is the one to capture.
func (c *capture) ready() bool {
	if c.App.frames < c.frames {
		return false
	}
	s, ok := c.App.practice()
	if !ok || c.App.frames >= c.frames+10*game.TicksPerSecond {
		return true
	}
	sh := &s.world.Ships[me]
	if c.boom == 0 && s.fx.Len() > 30 && sh.Alive && sh.Invuln == 0 && sh.Charge >= 12 {
		c.boom = c.App.frames
	}
	// Let the explosion spread for a few ticks.
	return c.boom > 0 && c.App.frames >= c.boom+6
}

func (c *capture) Update() error {
	if c.shot != nil {
		return ebiten.Termination
	}
	return c.App.Update()
}

func (c *capture) Draw(screen *ebiten.Image) {
	// Count the allocations of drawing a frame of a settled game, and
	// nothing else.
	if c.App.frames >= drawFrom && len(c.allocs) < drawFrames {
		c.allocs = append(c.allocs, testing.AllocsPerRun(drawRuns, func() { c.App.Draw(screen) }))
	}
	c.App.Draw(screen)
	if c.shot == nil && c.ready() {
		b := screen.Bounds()
		img := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		screen.ReadPixels(img.Pix)
		c.shot = img
		c.fps, c.tps = ebiten.ActualFPS(), ebiten.ActualTPS()
	}
}

// pilot returns a script that flies the ship of the scene the app is on:
// it sets a low thrust level, turns toward the nearest rock and fires
// charged shots at it, some at full power.
func pilot(app *App, shots *int) func(n int) Intents {
	return func(n int) Intents {
		s, ok := app.practice()
		if !ok {
			return Intents{}
		}
		w := &s.world
		for _, e := range w.LastEvents() {
			if e.Kind == game.ShotFired {
				*shots++
			}
		}
		sh := &w.Ships[me]
		var in game.Input
		if n == 20 || n == 60 {
			in |= game.Up
		}
		if !sh.Alive {
			return Intents{Ship: in}
		}
		best, bx, by := int64(math.MaxInt64), fixed.Num(0), fixed.Num(0)
		for _, r := range w.LiveRocks() {
			dx := fixed.WrapDelta(r.Pos.X, sh.Pos.X, game.FieldW)
			dy := fixed.WrapDelta(r.Pos.Y, sh.Pos.Y, game.FieldH)
			if d := int64(dx)*int64(dx) + int64(dy)*int64(dy); d < best {
				best, bx, by = d, dx, dy
			}
		}
		if best == math.MaxInt64 {
			return Intents{Ship: in}
		}
		want := fixed.Angle(int64(math.Atan2(float64(by), float64(bx)) / (2 * math.Pi) * fixed.Turn))
		switch diff := int16(want - sh.Angle); {
		case diff > int16(game.RotateSpeed):
			in |= game.Right
		case diff < -int16(game.RotateSpeed):
			in |= game.Left
		}
		// Three quick shots, then one held to full charge.
		const quick, full = 22, game.MaxCharge + 16 // ticks per shot
		switch m := n % (3*quick + full); {
		case m < 3*quick:
			if m%quick < 10 {
				in |= game.Fire
			}
		case m < 3*quick+game.MaxCharge+6:
			in |= game.Fire
		}
		return Intents{Ship: in}
	}
}

func envInt(t testing.TB, name string, def int) int {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, s, err)
	}
	return n
}

// TestWindowScreenshot plays a scripted game in a real window and checks
// the picture. Run it under a display, for example:
//
//	xvfb-run -a -s "-screen 0 1280x720x24" go test -race -run Window ./ui/
//
// With ROCKSTEP_SCREENSHOT=/some/file.png it keeps the screenshot there.
func TestWindowScreenshot(t *testing.T) {
	if !inWindowProcess(t) {
		return
	}
	app, err := NewApp(Options{
		Practice:  true,
		ConfigDir: t.TempDir(),
		Silent:    true,
		Seed:      uint64(envInt(t, envShotSeed, defaultShotSeed)),
		StartWave: uint8(envInt(t, envShotWave, defaultShotWave)),
	})
	if err != nil {
		t.Fatalf("NewApp: %v", err)
	}
	shots := 0
	app.script = pilot(app, &shots)
	c := &capture{App: app, frames: envInt(t, envShotFrame, defaultShotFrame)}
	if err := app.runGame(c); err != nil {
		if errors.Is(err, ErrNoWindow) {
			t.Skipf("no window on DISPLAY=%q: %v", os.Getenv("DISPLAY"), err)
		}
		t.Fatalf("run: %v", err)
	}
	if c.shot == nil {
		t.Fatal("the game ended without a screenshot")
	}

	path := os.Getenv(envShotPath)
	if path == "" {
		path = filepath.Join(t.TempDir(), "play.png")
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, c.shot); err != nil {
		f.Close()
		t.Fatalf("encode %s: %v", path, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	s, _ := app.practice()
	t.Logf("screenshot at update %d (engine tick %d, score %d), %d particles, %.0f FPS, %.0f TPS, written to %s", app.frames, s.world.Tick, s.world.Ships[me].Score, s.fx.Len(), c.fps, c.tps, path)
	if s.world.Tick < uint32(c.frames) {
		t.Errorf("engine at tick %d after %d updates", s.world.Tick, c.frames)
	}
	// Drawing reuses its buffers and labels. The race detector adds
	// allocations of its own to Ebiten's, so the count is checked without
	// it (make test-allocs).
	if !raceEnabled {
		if len(c.allocs) < drawFrames {
			t.Errorf("drawing measured at %d frames, want %d (from frame %d)", len(c.allocs), drawFrames, drawFrom)
		} else if worst := slices.Max(c.allocs[drawFrames-drawChecked:]); worst > maxDrawAllocs {
			t.Errorf("App.Draw allocates %.1f times (per frame, at frames %d to %d: %v), want at most %d", worst, drawFrom, drawFrom+drawFrames-1, c.allocs, maxDrawAllocs)
		}
	}
	if shots == 0 {
		t.Error("the scripted pilot never fired")
	}

	b := c.shot.Bounds()
	if b.Dx() < 320 || b.Dy() < 180 {
		t.Fatalf("screenshot is %v, want at least 320×180", b.Size())
	}
	bright, ship := 0, 0
	cyan := draw.PlayerColour(me)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			p := c.shot.RGBAAt(x, y)
			if max(p.R, p.G, p.B) > 120 {
				bright++
			}
			if absDiff(p.R, cyan.R) < 40 && absDiff(p.G, cyan.G) < 40 && absDiff(p.B, cyan.B) < 40 {
				ship++
			}
		}
	}
	total := b.Dx() * b.Dy()
	if bright < 1000 || bright > total/4 {
		t.Errorf("%d of %d pixels are bright, want outlines on a dark field (1000 to %d); see %s", bright, total, total/4, path)
	}
	if ship < 30 {
		t.Errorf("%d pixels in the player's colour, want the ship or its lives drawn (≥ 30); see %s", ship, path)
	}
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}
