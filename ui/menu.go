package ui

import (
	"strconv"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/game"
	"rockstep/internal/highscore"
	"rockstep/ui/draw"
)

// menuScreen is the main menu: Host, Join, Practice, Settings, Quit, over
// rocks drifting by.
type menuScreen struct {
	a    *App
	top  *widget.Container
	name *widget.Text
}

// menuNoticeWidth is where the menu's notice (why a game ended) wraps, in
// design pixels.
const menuNoticeWidth = 480

func newMenuScreen(a *App) *menuScreen {
	t := a.theme()
	s := &menuScreen{a: a}
	col := t.vbox(14, nil)
	col.AddChild(t.text("ROCKSTEP", &t.titleFace, colText, centred()))
	col.AddChild(t.dim("Asteroids for one to eight players on a LAN", centred()))
	col.AddChild(widget.NewContainer(widget.ContainerOpts.WidgetOpts(t.size(1, 18))))
	buttons := t.vbox(12, nil, widget.ContainerOpts.WidgetOpts(centred()))
	if sv := a.saved; sv != nil {
		// The game this player crashed out of is still running: back in.
		label := "Rejoin " + sv.Addr
		if sv.Room != "" {
			label = "Rejoin “" + sv.Room + "”"
		}
		buttons.AddChild(t.button(label, a.emit, Intent{Kind: IntentRejoin, Addr: sv.Addr}, stretchRow(), t.size(280, 0)))
	}
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
		buttons.AddChild(t.button(b.label, a.emit, Intent{Kind: b.kind}, stretchRow(), t.size(280, 0)))
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
func (s *menuScreen) update(Intents) error {
	s.a.backdrop.step()
	return nil
}
func (s *menuScreen) draw(dst *ebiten.Image, v draw.View, t float64) {
	s.a.backdrop.draw(s.a.env, dst, v, t)
}

// backdrop is the field behind the menus: rocks drifting on the stars,
// dimmed. It is the engine's world with no ship in it, purely cosmetic.
type backdrop struct {
	world, prev game.World
	ticks       uint32
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

func (b *backdrop) step() {
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
	e.hud.Dim(field, r)
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
	p.sound, p.hint = s.a.sound, false
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
