package ui

import (
	"image"
	"time"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/assets/palette"
	"rockstep/game"
	"rockstep/ui/draw"
)

// menuScreen is the main menu: Host, Join, Practice, Settings, Quit, over
// rocks drifting by.
type menuScreen struct {
	a    *App
	top  *widget.Container
	name *widget.Text

	title, subtitle *widget.Text // drawn over a clear band (titleBand)

	rejoin      *widget.Button // back into the game this player crashed out of, or nil (rejoin.go)
	rejoinLabel string         // its label, with the seconds left (tickRejoin)

	// Quit answers only once the player has moved the pointer or pressed
	// a key since the menu opened: a menu opened by a click elsewhere
	// (Leave, Back) may have Quit under the resting pointer, and a double
	// click must not end the game.
	opened PointerState // the pointer when the menu opened
	armed  bool
}

// quit emits Quit if the menu is armed.
func (s *menuScreen) quit() {
	if s.armed {
		s.a.emit(Intent{Kind: IntentQuit})
	}
}

// menuNoticeWidth is where the menu's notice (why a game ended) wraps, in
// design pixels.
const menuNoticeWidth = 480

func newMenuScreen(a *App) *menuScreen {
	t := a.theme()
	s := &menuScreen{a: a}
	col := t.vbox(14, nil)
	s.title = t.text("ROCKSTEP", &t.titleFace, palette.Text, centred())
	s.subtitle = t.dim("Asteroids for one to eight players, on your network or over the internet", centred())
	col.AddChild(s.title, s.subtitle)
	col.AddChild(widget.NewContainer(widget.ContainerOpts.WidgetOpts(t.size(1, 18))))
	buttons := t.vbox(12, nil, widget.ContainerOpts.WidgetOpts(centred()))
	if sv := a.saved; sv != nil {
		// The game this player crashed out of is still running: back in.
		s.rejoinLabel = sv.rejoinLabel(time.Now())
		s.rejoin = t.button(s.rejoinLabel, a.emit, Intent{Kind: IntentRejoin, Addr: sv.Addr, Lobby: sv.Lobby}, stretchRow(), t.size(280, 0))
		buttons.AddChild(s.rejoin)
	}
	s.opened = a.pointer
	for _, b := range []struct {
		label string
		kind  IntentKind
	}{
		{"Host game", IntentHost},
		{"Join game", IntentOpenJoin},
		{"Practice", IntentPractice},
		{"Replays", IntentOpenReplays},
		{"High scores", IntentOpenScores},
		{"Settings", IntentOpenSettings},
		{"Quit", IntentQuit},
	} {
		if inBrowser && (b.kind == IntentHost || b.kind == IntentQuit) {
			continue // a tab can host no room, and closes itself (browser.go)
		}
		if b.kind == IntentQuit {
			buttons.AddChild(t.buttonFunc(b.label, s.quit, stretchRow(), t.size(280, 0)))
			continue
		}
		buttons.AddChild(t.button(b.label, a.emit, Intent{Kind: b.kind}, stretchRow(), t.size(280, 0)))
		if b.kind == IntentHost {
			hostOnServerButtons(a, buttons) // Host: on this machine, or on a known server
		}
	}
	col.AddChild(buttons)
	s.name = t.dim("playing as "+a.settings.Name, centred())
	col.AddChild(s.name)
	if a.flow.notice != "" {
		col.AddChild(t.para(a.flow.notice, &t.smallFace, colWarn, menuNoticeWidth, centred()))
	}
	s.top = t.screenRoot(col, false)
	return s
}

func (s *menuScreen) id() screenID            { return screenMenu }
func (s *menuScreen) root() *widget.Container { return s.top }
func (s *menuScreen) update(in Intents) error {
	s.a.backdrop.step()
	s.tickRejoin(time.Now())
	s.name.Label = "playing as " + s.a.settings.Name
	p := s.a.pointer
	if p.X != s.opened.X || p.Y != s.opened.Y || in.NavX != 0 || in.NavY != 0 || in.Confirm || s.a.state == nil {
		s.armed = true // (a script drives the tests: no pointer)
	}
	return nil
}
func (s *menuScreen) draw(dst *ebiten.Image, v draw.View, t float64) {
	s.a.backdrop.draw(s.a.env, dst, v, t)
	if band, feather := s.titleBand(); !band.Empty() {
		s.a.env.hud.ClearBand(dst, s.a.env.draw, float32(band.Min.Y), float32(band.Max.Y), feather)
	}
}

// titleBandPad is how far the clear band behind the title reaches beyond
// the title and subtitle, above and below, and how far its edges fade, in
// design pixels.
const titleBandPad = 12

// titleBand returns the rows of the screen the menu's title and subtitle
// take, with titleBandPad above and below (empty before they are laid
// out), and the width of its fading edges in pixels.
func (s *menuScreen) titleBand() (image.Rectangle, float32) {
	r := s.title.GetWidget().Rect.Union(s.subtitle.GetWidget().Rect)
	if r.Empty() {
		return image.Rectangle{}, 0
	}
	pad := s.a.theme().px(titleBandPad)
	return image.Rect(r.Min.X, r.Min.Y-pad, r.Max.X, r.Max.Y+pad), float32(pad)
}

// backdrop is the field behind the menus: rocks drifting on the stars,
// dimmed. It is the engine's world with no ship in it, purely cosmetic.
type backdrop struct {
	world, prev game.World
	ticks       uint32
	// resting holds the rocks still between the frames of a screen at
	// rest (idle.go): they move a tick each frame drawn then, slowly.
	resting bool
}

func newBackdrop(seed uint64) *backdrop {
	w, err := game.New(game.Setup{Seed: seed ^ 0x5eed, Players: 1, Lives: 1, StartWave: 3})
	if err != nil {
		return &backdrop{}
	}
	w.Ships[0] = game.Ship{} // nobody flies
	// Rocks drift slowly behind text.
	for i := range w.LiveRocks() {
		r := &w.Rocks[i]
		r.Vel.X, r.Vel.Y = r.Vel.X/2, r.Vel.Y/2
		r.Spin /= 2
	}
	b := &backdrop{world: *w}
	b.prev = b.world
	return b
}

// step moves the rocks one tick, unless they rest.
func (b *backdrop) step() {
	if !b.resting {
		b.advance()
	}
}

// advance moves the rocks one tick.
func (b *backdrop) advance() {
	b.ticks++
	b.prev = b.world
	b.world.Step([game.MaxPlayers]game.Input{})
}

// draw draws the backdrop on dst, its field filling as much of it as fits
// (v, the game's view with its HUD bands, is not used).
func (b *backdrop) draw(e *env, dst *ebiten.Image, _ draw.View, t float64) {
	db := dst.Bounds()
	v := draw.MenuView(float64(db.Dx()), float64(db.Dy()))
	r := e.draw
	field := r.Begin(dst, v)
	r.DrawBackdrop(dst, field, b.ticks)
	r.DrawWorld(field, &b.prev, &b.world, t)
	e.hud.Shade(field, r, backdropShade)
}

// backdropShade is how dark the menus lay over their drifting rocks: the
// rocks (and their glow) come out well below the subtitle's grey, so
// that they read as scenery passing behind the title, never over it.
const backdropShade = 0.72
