package ui

import (
	"fmt"
	"strconv"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/assets/palette"
	"rockstep/game"
	"rockstep/internal/highscore"
	"rockstep/ui/draw"
)

// playScene is a single-player game on the local engine.
type playScene struct {
	env   *env
	seed  uint64
	wave  uint8      // the games' starting wave
	world game.World // the state after the last tick
	prev  game.World // the state one tick before, drawn from for interpolation
	fx    *draw.Particles
	sound *sound // nil: silent
	beat  heartbeat

	hint       controlsHint // the controls, shown for a while in the first game
	paused     bool
	menu       bool   // the practice menu is open: the game waits
	overAt     uint32 // ticks when the game was over and its score entered (0: not yet)
	best       int    // the game's rank in the high scores, -1: none (or not yet entered)
	bannerWave uint8  // wave announced by the banner
	bannerLeft int    // ticks the banner has left on screen
	ticks      uint32 // updates since the scene began, paused or not
}

const (
	me          = 0                       // the local player's slot
	bannerTicks = 2 * game.TicksPerSecond // how long "WAVE n" shows
)

func newPlayScene(e *env, seed uint64, wave uint8) (*playScene, error) {
	if wave == 0 {
		wave = 1
	}
	w, err := game.New(game.Setup{Seed: seed, Players: 1 << me, Mode: game.Coop, Lives: 3, StartWave: wave, Saucers: true, Hyperspace: true})
	if err != nil {
		return nil, fmt.Errorf("new game, seed %d: %w", seed, err)
	}
	s := &playScene{env: e, seed: seed, wave: wave, world: *w, prev: *w, fx: draw.NewParticles(seed), best: -1}
	s.bannerWave, s.bannerLeft = w.Wave, bannerTicks
	return s, nil
}

// Update implements Scene.
func (s *playScene) Update(in Intents) (Scene, error) {
	s.ticks++
	if s.world.Over && in.Confirm {
		next, err := newPlayScene(s.env, s.seed+1, s.wave)
		if err != nil {
			return s, err
		}
		return next, nil
	}
	if in.Pause && !s.world.Over {
		s.paused = !s.paused
	}
	if s.paused || s.menu {
		s.prev = s.world
		return s, nil
	}
	s.hint.step(in.Ship)
	var inputs [game.MaxPlayers]game.Input
	inputs[me] = in.Ship
	s.prev = s.world
	s.world.Step(inputs)
	events := s.world.LastEvents()
	for _, e := range events {
		if e.Kind == game.WaveStarted {
			s.bannerWave, s.bannerLeft = uint8(e.Value), bannerTicks
		}
	}
	s.fx.React(events)
	s.env.hud.React(events, me)
	s.sound.react(events, &s.prev, &s.world, me)
	s.sound.heartbeat(&s.beat, &s.world, 1)
	s.fx.Step()
	if s.bannerLeft > 0 {
		s.bannerLeft--
	}
	return s, nil
}

// Draw implements Scene.
func (s *playScene) Draw(screen *ebiten.Image, v draw.View, t float64) {
	if s.paused || s.menu {
		t = 1
	}
	r := s.env.draw
	field := r.Begin(screen, v)
	r.DrawBackdrop(screen, field, s.ticks)
	// Explosions under the world: the rocks and ships in a flash stay
	// drawn over it.
	s.fx.Draw(field, r, t)
	r.DrawWorld(field, &s.prev, &s.world, t)

	h := s.env.hud
	if s.world.Over || s.paused || s.menu {
		h.Dim(field, r)
	}
	h.Draw(screen, r, v, &s.world, me)
	switch {
	case s.world.Over:
		sub := "press Enter to play again"
		if s.best >= 0 {
			sub = h.NewBest(s.best)
		}
		h.Banner(field, v, "GAME OVER", sub, palette.Danger, 1)
		h.Hint(field, r, v, h.FinalScore(s.world.Ships[me].Score), 1)
	case s.menu:
	case s.paused:
		h.Banner(field, v, "PAUSED", "press P to resume", palette.Text, 1)
	case s.bannerLeft > 0:
		a := float32(s.bannerLeft) / (bannerTicks / 3)
		if a > 1 {
			a = 1
		}
		h.Banner(field, v, h.WaveBanner(s.bannerWave), "", palette.Text, a)
	}
	if !s.world.Over && !s.menu {
		s.hint.draw(s.env, field, v)
	}
}

// practiceScreen is a single-player game on the local engine; Esc opens
// its menu (resume, restart, main menu), which pauses it.
type practiceScreen struct {
	a     *App
	scene Scene
	top   *widget.Container // holds the menu while it is open, else nothing
	menu  *widget.Container
}

func newPracticeScreen(a *App) (*practiceScreen, error) {
	p, err := newPlayScene(a.env, a.opt.Seed, a.opt.StartWave)
	if err != nil {
		return nil, err
	}
	p.sound = a.sound
	p.hint.show(a.controlsLines(false))
	a.opt.Seed++
	s := &practiceScreen{a: a, scene: p}
	s.retheme()
	return s, nil
}

// retheme implements rethemer: it builds the menu with the App's theme.
func (s *practiceScreen) retheme() {
	a := s.a
	t := a.theme()
	menu := t.panelColumn(12, widget.ContainerOpts.WidgetOpts(t.size(320, 0)))
	menu.AddChild(t.heading("Paused", centred()))
	menu.AddChild(t.button("Resume", a.emit, Intent{Kind: IntentResume}, stretchRow()))
	menu.AddChild(t.button("Restart", a.emit, Intent{Kind: IntentRestart}, stretchRow()))
	menu.AddChild(t.buttonFunc("Controls", func() {
		// Back to the game, with the controls shown again.
		if p, ok := s.scene.(*playScene); ok {
			p.hint.show(a.controlsLines(false))
		}
		a.emit(Intent{Kind: IntentResume})
	}, stretchRow()))
	menu.AddChild(t.button("Main menu", a.emit, Intent{Kind: IntentMainMenu}, stretchRow()))
	top := t.screenRoot(menu, false)
	top.RemoveChild(menu) // until Esc
	s.top, s.menu = top, menu
}

// restart replaces the game with a new one from the next seed, as the
// practice menu's Restart asks.
func (s *practiceScreen) restart() error {
	p, err := newPlayScene(s.a.env, s.a.opt.Seed, s.a.opt.StartWave)
	if err != nil {
		return err
	}
	p.sound = s.a.sound
	s.a.opt.Seed++
	s.scene = p
	return nil
}

func (s *practiceScreen) id() screenID            { return screenPractice }
func (s *practiceScreen) root() *widget.Container { return s.top }
func (s *practiceScreen) update(in Intents) error {
	open := s.a.flow.gameMenu
	if open != (len(s.top.Children()) > 0) {
		if open {
			s.top.AddChild(s.menu)
		} else {
			s.top.RemoveChild(s.menu)
		}
	}
	if p, ok := s.scene.(*playScene); ok {
		p.menu = open
	}
	next, err := s.scene.Update(in)
	if err != nil {
		return err
	}
	s.scene = next
	if p, ok := s.scene.(*playScene); ok && p.world.Over {
		s.gameOver(p)
	}
	return nil
}

// scoresAfter is how long a practice game that made the high scores shows
// GAME OVER before the table comes: 3 s.
const scoresAfter = 3 * game.TicksPerSecond

// gameOver enters a finished practice game's score in the high scores
// once, and shows the table a while later if the game made it.
func (s *practiceScreen) gameOver(p *playScene) {
	a := s.a
	if p.overAt == 0 {
		p.overAt = max(p.ticks, 1)
		p.best = a.recordScore(highscore.Practice, &p.world, me, "practice "+strconv.Itoa(a.frames))
	}
	if p.best >= 0 && p.ticks == p.overAt+scoresAfter && !a.flow.gameMenu {
		a.emit(Intent{Kind: IntentOpenScores, Mark: scoresMark{kind: highscore.Practice, rank: p.best}})
	}
}
func (s *practiceScreen) draw(dst *ebiten.Image, v draw.View, t float64) { s.scene.Draw(dst, v, t) }

// practice returns the practice game on screen, if one is.
func (a *App) practice() (*playScene, bool) {
	p, ok := a.cur.(*practiceScreen)
	if !ok {
		return nil, false
	}
	s, ok := p.scene.(*playScene)
	return s, ok
}
