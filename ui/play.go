package ui

import (
	"fmt"

	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/game"
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

	hint       bool // show the controls for a while: the first game only
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
	hintTicks   = 8 * game.TicksPerSecond // how long the controls hint shows
)

func newPlayScene(e *env, seed uint64, wave uint8) (*playScene, error) {
	if wave == 0 {
		wave = 1
	}
	w, err := game.New(game.Setup{Seed: seed, Players: 1 << me, Mode: game.Coop, Lives: 3, StartWave: wave, Saucers: true, Hyperspace: true})
	if err != nil {
		return nil, fmt.Errorf("new game, seed %d: %w", seed, err)
	}
	s := &playScene{env: e, seed: seed, wave: wave, world: *w, prev: *w, fx: draw.NewParticles(seed), hint: true, best: -1}
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
		next.hint = false
		return next, nil
	}
	if in.Pause && !s.world.Over {
		s.paused = !s.paused
	}
	if s.paused || s.menu {
		s.prev = s.world
		return s, nil
	}
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
	r.DrawWorld(field, &s.prev, &s.world, t)
	s.fx.Draw(field, r, t)

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
		h.Banner(field, v, "GAME OVER", sub, colDanger, 1)
		h.Hint(field, r, v, h.FinalScore(s.world.Ships[me].Score), 1)
	case s.menu:
	case s.paused:
		h.Banner(field, v, "PAUSED", "press P to resume", colText, 1)
	case s.bannerLeft > 0:
		a := float32(s.bannerLeft) / (bannerTicks / 3)
		if a > 1 {
			a = 1
		}
		h.Banner(field, v, h.WaveBanner(s.bannerWave), "", colText, a)
	}
	if s.hint && !s.world.Over && s.ticks < hintTicks {
		a := float32(hintTicks-s.ticks) / game.TicksPerSecond
		if a > 1 {
			a = 1
		}
		h.Hint(field, r, v, "←/→ turn    ↑/↓ thrust level    hold Space to charge, release to fire    Shift hyperspace    P pause    Esc menu", a)
	}
}
