package ui

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"
)

// controlsSizes are the screens the Controls screen is shot on.
var controlsSizes = shotSizes

// TestControlsScreenshots opens the Controls screen (with a clash from a
// hand-edited file marked) in a real window at each of controlsSizes,
// checks that every widget lies inside the window, and saves a
// screenshot of each size:
//
//	xvfb-run -a -s "-screen 0 1920x1080x24" go test -run ControlsScreenshots ./ui/
//
// Then, at the last size, it shoots a practice game just after a gamepad
// was plugged in (padhint.png), its hint at the top.
//
// With ROCKSTEP_SHOTS=DIR it keeps the PNGs (controls-800x600.png, …) in DIR.
func TestControlsScreenshots(t *testing.T) {
	shots := []string{"padhint"}
	for _, sz := range controlsSizes {
		shots = append(shots, "controls-"+sz.String())
	}
	// The walk checks each shot's size before it saves it.
	windowShots(t, func(t *testing.T) { shootControls(t, os.Getenv(envShotsDir)) }, shots)
}

// controlsShooter resizes the window to each size in turn and shoots the
// Controls screen once a frame of that size has been drawn.
type controlsShooter struct {
	*App
	t       *testing.T
	dir     string
	at      int  // index in controlsSizes
	frames  int  // frames drawn at the current size
	plugged bool // the practice game has seen the gamepad connect
	err     error
}

func shootControls(t *testing.T, dir string) {
	cfg := t.TempDir()
	s := DefaultSettings()
	s.Keys.Fire = []string{"Space", "W"} // W also thrusts: shown as a clash
	if err := SaveSettings(cfg, s); err != nil {
		t.Fatal(err)
	}
	app, err := NewApp(Options{Seed: 7, ConfigDir: cfg, Silent: true})
	if err != nil {
		t.Fatalf("NewApp: %v", err)
	}
	defer app.Close()
	app.input = func(int) *InputState { return &InputState{} }
	app.emit(Intent{Kind: IntentOpenSettings})
	app.emit(Intent{Kind: IntentOpenControls})
	g := &controlsShooter{App: app, t: t, dir: dir}
	runWindow(t, app, g)
	if g.err != nil {
		t.Fatal(g.err)
	}
	if g.at != len(controlsSizes)+1 {
		t.Fatalf("took %d shots of %d", g.at, len(controlsSizes)+1)
	}
}

func (g *controlsShooter) Update() error {
	if g.err != nil || g.at > len(controlsSizes) {
		return ebiten.Termination
	}
	if g.at == len(controlsSizes) {
		if g.App.flow.screen == screenControls {
			g.App.emit(Intent{Kind: IntentBack})
			g.App.emit(Intent{Kind: IntentBack})
			g.App.emit(Intent{Kind: IntentPractice})
			g.plugged = false
		}
		if g.App.flow.screen == screenPractice && !g.plugged {
			g.plugged = true
			next := InputState{Connected: []PadInfo{{Name: "Xbox Wireless Controller", Standard: true}}, Pads: []PadState{{}}}
			g.App.input = func(int) *InputState { st := next; next = InputState{Pads: []PadState{{}}}; return &st }
		}
		return g.App.Update()
	}
	if g.App.frames > 60*20 {
		g.err = fmt.Errorf("the window never became %v", controlsSizes[g.at])
		return ebiten.Termination
	}
	sz := controlsSizes[g.at]
	deviceScale = sz.Scale
	if w, h := ebiten.WindowSize(); w != sz.W || h != sz.H {
		ebiten.SetWindowSize(sz.W, sz.H)
	}
	return g.App.Update()
}

func (g *controlsShooter) Draw(screen *ebiten.Image) {
	g.App.Draw(screen)
	if g.at == len(controlsSizes) && g.plugged {
		if g.frames++; g.frames == 40 {
			g.shoot(screen, "padhint.png")
		}
		return
	}
	if g.at >= len(controlsSizes) || g.App.cur.id() != screenControls {
		return
	}
	b := screen.Bounds()
	if sz := controlsSizes[g.at]; b.Size() != image.Pt(int(float64(sz.W)*sz.Scale), int(float64(sz.H)*sz.Scale)) {
		g.frames = 0
		return
	}
	// A few frames at this size: the layout settles.
	if g.frames++; g.frames < 10 {
		return
	}
	if err := widgetsInside(g.App.cur.root(), b); err != nil {
		g.err = fmt.Errorf("at %v: %w", b.Size(), err)
		return
	}
	g.shoot(screen, fmt.Sprintf("controls-%dx%d.png", b.Dx(), b.Dy()))
}

// shoot saves screen as name and goes on to the next shot.
func (g *controlsShooter) shoot(screen *ebiten.Image, name string) {
	b := screen.Bounds()
	img := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	screen.ReadPixels(img.Pix)
	f, err := os.Create(filepath.Join(g.dir, name))
	if err == nil {
		err = png.Encode(f, img)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		g.err = err
		return
	}
	g.at++
	g.frames = 0
}

// widgetsInside returns an error naming the first visible widget under c that
// is not wholly inside bounds.
func widgetsInside(c *widget.Container, bounds image.Rectangle) error {
	for _, ch := range c.Children() {
		w := ch.GetWidget()
		if w.GetVisibility() != widget.Visibility_Show {
			continue
		}
		if !w.Rect.In(bounds) {
			what := fmt.Sprintf("%T", ch)
			if b, ok := ch.(*widget.Button); ok && b.Text() != nil {
				what += " " + b.Text().Label
			}
			if tx, ok := ch.(*widget.Text); ok {
				what += " " + tx.Label
			}
			return fmt.Errorf("%s at %v is not inside the window %v", what, w.Rect, bounds)
		}
		if cc, ok := ch.(*widget.Container); ok {
			if err := widgetsInside(cc, bounds); err != nil {
				return err
			}
		}
	}
	return nil
}
