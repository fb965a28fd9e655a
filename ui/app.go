// Package ui is the Ebiten front end of Rockstep: the window, its scenes,
// the keyboard mapping, the renderer and the HUD.
//
// Scenes receive the player's Intents, never keys, and draw the engine's
// worlds without changing them; everything the UI adds (interpolation,
// explosions, stars) is cosmetic.
package ui

import (
	"errors"
	"fmt"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"rockstep/assets"
	"rockstep/game"
)

// Options configure the game window.
type Options struct {
	Seed      uint64 // seed of the first game; each new game takes the next one
	StartWave uint8  // wave the games start at, 1..game.MaxStartWave; 0 means 1
}

// ErrNoWindow reports that the window could not be opened at all, for
// example on a machine with no display.
var ErrNoWindow = errors.New("cannot open a window")

// Default window size, in device-independent pixels: the field at 1:1.
const (
	windowW = 1280
	windowH = 720
)

// Scene is one screen of the game.
type Scene interface {
	// Update advances the scene by one tick (1/60 s) given the player's
	// intents, and returns the scene to show from now on: itself to stay.
	Update(in Intents) (Scene, error)
	// Draw draws the scene on screen under view v, a fraction t ∈ [0, 1]
	// of a tick after its last Update.
	Draw(screen *ebiten.Image, v view, t float64)
}

// env is what every scene shares: the loaded assets and the drawing state
// that lives as long as the window.
type env struct {
	assets *assets.Assets
	draw   *renderer
	hud    *hud
}

// App is the ebiten.Game of Rockstep: it reads intents, runs the current
// scene and lays the field out in the window.
type App struct {
	env     *env
	scene   Scene
	started bool      // Update has run: the window is open
	last    time.Time // of the last Update, for interpolation

	// script, when set, replaces the keyboard: it returns the intents of
	// update number n (from 0). Tests drive the game with it.
	script func(n int) Intents
	frames int
}

// NewApp loads the assets and returns the app at the start of a game.
func NewApp(opt Options) (*App, error) {
	a, err := assets.Load()
	if err != nil {
		return nil, fmt.Errorf("ui: %w", err)
	}
	e := &env{assets: a, draw: newRenderer(), hud: newHUD(a.Fonts)}
	play, err := newPlayScene(e, opt.Seed, opt.StartWave)
	if err != nil {
		return nil, fmt.Errorf("ui: %w", err)
	}
	return &App{env: e, scene: play}, nil
}

// Run opens the window and plays until the player quits, which returns nil.
// If the window cannot be opened the error wraps ErrNoWindow.
func Run(opt Options) error {
	app, err := NewApp(opt)
	if err != nil {
		return err
	}
	return app.run()
}

func (a *App) run() error {
	return a.runGame(a)
}

// runGame opens the window and runs g, which is a or wraps it.
func (a *App) runGame(g ebiten.Game) error {
	ebiten.SetWindowTitle("Rockstep")
	ebiten.SetWindowSize(windowW, windowH)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetTPS(game.TicksPerSecond)
	if err := ebiten.RunGame(g); err != nil {
		if !a.started {
			return fmt.Errorf("%w: %w", ErrNoWindow, err)
		}
		return err
	}
	return nil
}

// Update implements ebiten.Game: one engine tick per call.
func (a *App) Update() error {
	a.started = true
	var in Intents
	if a.script != nil {
		in = a.script(a.frames)
	} else {
		in = ReadIntents(ebiten.IsKeyPressed, inpututil.IsKeyJustPressed)
	}
	a.frames++
	if in.Quit {
		return ebiten.Termination
	}
	next, err := a.scene.Update(in)
	if err != nil {
		return err
	}
	a.scene = next
	a.last = time.Now()
	return nil
}

// Draw implements ebiten.Game.
func (a *App) Draw(screen *ebiten.Image) {
	b := screen.Bounds()
	v := fitView(float64(b.Dx()), float64(b.Dy()))
	a.scene.Draw(screen, v, tickFraction(time.Since(a.last)))
}

// tickFraction returns how far into the next tick a frame drawn elapsed
// after the last Update is, clamped to [0, 1].
func tickFraction(elapsed time.Duration) float64 {
	t := float64(elapsed) / float64(time.Second/game.TicksPerSecond)
	switch {
	case t < 0 || t != t:
		return 0
	case t > 1:
		return 1
	}
	return t
}

// Layout implements ebiten.Game; LayoutF is used instead.
func (a *App) Layout(outsideW, outsideH int) (int, int) { return outsideW, outsideH }

// LayoutF implements ebiten.LayoutFer: the screen has the window's size in
// device pixels, so outlines and text stay sharp at any size and on HiDPI
// displays; the field is fitted into it by fitView.
func (a *App) LayoutF(outsideW, outsideH float64) (float64, float64) {
	s := ebiten.Monitor().DeviceScaleFactor()
	if s <= 0 {
		s = 1
	}
	return outsideW * s, outsideH * s
}
