// Package ui is the Ebiten front end of Rockstep: the window, its screens
// (ebitenui menus, the lobby, the network game), the keyboard mapping and
// the sound. The field, the HUD and the network graph are drawn by
// ui/draw, which knows nothing of the App.
//
// Widgets and keys only emit intents; a pure screen flow (flow.go) turns
// intents and what the network session reports into the screen to show
// and effects, which the App carries out. Everything the UI adds to a
// game (interpolation, explosions, stars, sound) is cosmetic.
package ui

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"log"
	"sync/atomic"
	"time"

	"github.com/ebitenui/ebitenui"
	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/assets"
	"rockstep/game"
	"rockstep/internal/highscore"
	"rockstep/internal/userdir"
	"rockstep/net/lan"
	"rockstep/net/transport"
	"rockstep/net/wire"
	"rockstep/ui/draw"
)

// Options configure the game window.
type Options struct {
	Seed      uint64 // seed of the first practice game; each new game takes the next one
	StartWave uint8  // wave practice games start at, 1..game.MaxStartWave; 0 means 1

	Practice bool   // open straight into a practice game instead of the main menu
	Host     bool   // open and host a game at once
	Join     string // open and join the game at this address at once
	Name     string // the player's name for this run, instead of the settings'
	// Replay, if set, opens straight into the viewer of this replay file;
	// leaving the viewer quits.
	Replay string
	// Predict, if set, turns prediction on or off for this run whatever
	// the settings say (-predict); nil: the settings decide.
	Predict *bool
	// SyncTest, if above zero, makes network sessions sync-test this many
	// ticks (the session's SyncTest, the -synctest debug mode).
	SyncTest int
	// Fault, if set, is a deliberate fault in this player's network
	// sessions (-fault, to see desync repair work): a spec that
	// lockstep.ParseFault reads (the caller has checked it).
	Fault string

	Netsim transport.Impairment // makes this player's own links bad (-netsim)
	Listen string               // where a hosted game listens; "" means :7777, else any free port
	// NoPortmap keeps a hosted game from asking the router to open its
	// port this run, whatever the settings say (-portmap=false).
	NoPortmap bool
	// AddServer, if set, is a community server (host or host:port) added
	// to the known servers of the settings, and kept (-add-server), as
	// Settings → Servers adds one.
	AddServer string

	// ConfigDir holds settings.json and the replays folder; "" means
	// userdir.Dir(), where -server records too.
	ConfigDir string
	// Discovery lists LAN games; nil means browse with mDNS while the
	// join screen is open.
	Discovery lan.Discovery
	// Autopilot, if set, drives the UI with scripted intents and keys
	// (see ParseAutopilot): the end-to-end test's player.
	Autopilot *Autopilot
	// Silent disables sound whatever the settings say.
	Silent bool
	// Stop, when closed, ends the program as Quit does: any game is left,
	// its Leave delivered, and the window closes (SIGINT, SIGTERM).
	Stop <-chan struct{}
	// Exit, if set, ends the process when Stop has closed and Run has not
	// returned within stopWait: a window whose display went away may never
	// run another Update (its render thread stuck in the driver), so the
	// network is shut down apart from the loop first (see watchStop).
	Exit func()
}

// ErrNoWindow reports that the window could not be opened at all, for
// example on a machine with no display.
var ErrNoWindow = errors.New("cannot open a window")

// Default window size, in device-independent pixels: the field at 1:1.
const (
	windowW = 1280
	windowH = 720
)

// Scene is a game drawn on the field: the practice game.
type Scene interface {
	// Update advances the scene by one tick (1/60 s) given the player's
	// intents, and returns the scene to show from now on: itself to stay.
	Update(in Intents) (Scene, error)
	// Draw draws the scene on screen under view v, a fraction t ∈ [0, 1]
	// of a tick after its last Update.
	Draw(screen *ebiten.Image, v draw.View, t float64)
}

// screen is one screen of the game: its widgets, its per-tick logic and
// what it draws beneath the widgets.
type screen interface {
	id() screenID
	root() *widget.Container
	update(in Intents) error
	draw(dst *ebiten.Image, v draw.View, t float64)
}

// env is what every scene shares: the loaded assets and the drawing state
// that lives as long as the window.
type env struct {
	assets *assets.Assets
	draw   *draw.Renderer
	hud    *draw.HUD
}

// App is the ebiten.Game of Rockstep: it reads intents, runs the flow and
// the current screen, and lays the field out in the window.
type App struct {
	opt      Options
	env      *env
	th       *theme
	themes   map[float64]*theme // every theme built, by scale
	screenW  float64            // the screen's size in device pixels, from LayoutF
	screenH  float64
	ui       *ebitenui.UI
	flow     flow
	cur      screen
	backdrop *backdrop
	sound    *sound

	settings     Settings
	settingsDir  string
	keys         KeyMap
	scores       highscore.Tables // kept beside the settings
	recorded     string           // the game whose score was last entered (see recordScore)
	recordedRank int              // and its rank
	pad          PadMap

	// The input layer: reader asks Ebiten, mapper makes intents of what
	// it read; state is this update's snapshot (nil when script drives).
	reader  ebitenInput
	mapper  inputMapper
	state   *InputState
	padHint padHint
	prompt  *prompt // a question over the screen, or nil
	// settingsDraft keeps the Settings screen's unsaved edits while the
	// Controls screen, opened from it, is shown.
	settingsDraft *Settings
	// focusAuto is the widget navigate focused by itself, until the
	// player moves the focus (or clicks).
	focusAuto widget.Focuser
	// typedMoves counts the focus moves letters typed made (typeFocus):
	// what the slow-frame window test reads.
	typedMoves int

	net     *netGame
	live    atomic.Pointer[netGame] // net, for watchStop's goroutine
	nv      netView
	closing []<-chan struct{} // network sessions still saying goodbye
	// serverRooms lists the known servers' rooms while Join is open.
	serverRooms serverRooms

	// saved is the running game this player can rejoin (kept on disk
	// while a game runs; see rejoin.go), or nil. kept is the token kept
	// for the current session; joinedID the LAN id of the game joined.
	saved     *savedSession
	kept      [16]byte
	inGame    bool // the session reached the game with the kept token
	joinedID  string
	discovery lan.Discovery
	ownDisc   bool // discovery was started here and is closed here
	queue     []Intent
	quit      bool
	title     string

	started bool      // Update has run: the window is open
	last    time.Time // of the last Update, for interpolation
	pacer   framePacer
	// gate draws a screen where nothing plays at a low rate while the
	// player does nothing (idle.go); pointer is the mouse last seen.
	gate        drawGate
	pointer     PointerState
	promptDrawn *prompt // the prompt the gate last saw
	// edit makes good the keys a text field missed (textfield.go).
	edit fieldEdit
	// wantName: this is the first start; the menu asks for a name
	// (namefirst.go).
	wantName bool

	// script, when set, replaces the keyboard: it returns the intents of
	// update number n (from 0). Tests drive the game with it.
	script func(n int) Intents
	// input, when set, replaces the keyboard and gamepads: it returns the
	// snapshot of update number n. Tests drive the input layer with it.
	input  func(n int) *InputState
	frames int
}

// NewApp loads the assets and the settings and returns the app at the
// main menu (or in a practice game, or hosting or joining, as opt says).
func NewApp(opt Options) (*App, error) {
	a, err := assets.Load()
	if err != nil {
		return nil, fmt.Errorf("ui: %w", err)
	}
	app := &App{opt: opt, env: &env{assets: a, draw: draw.NewRenderer(), hud: draw.NewHUD(a.Fonts)}}
	app.ui = &ebitenui.UI{}
	app.backdrop = newBackdrop(opt.Seed)
	app.loadSettings()
	app.loadScores()
	if sv, ok, err := loadSession(app.settingsDir, time.Now()); err != nil {
		log.Printf("rockstep: %v", err)
	} else if ok {
		app.saved = &sv
	}
	if opt.Name != "" {
		app.settings.Name = wire.Truncate(opt.Name, wire.MaxName)
	}
	if opt.AddServer != "" {
		if err := app.addServer(opt.AddServer); err != nil {
			return nil, fmt.Errorf("-add-server: %w", err)
		}
	}
	app.keys = NewKeyMap(app.settings.Keys)
	app.pad = NewPadMap(app.settings.Pad)
	app.sound = newSound(nil, 0) // silent until the window is open: see Update
	switch {
	case opt.Practice:
		app.emit(Intent{Kind: IntentPractice})
	case opt.Host:
		app.emit(Intent{Kind: IntentHost})
	case opt.Join != "":
		app.emit(Intent{Kind: IntentOpenJoin})
		app.emit(Intent{Kind: IntentJoinAddr, Addr: opt.Join})
	case opt.Replay != "":
		app.flow.replayOnly = true
		app.emit(Intent{Kind: IntentWatch, Path: opt.Replay})
	}
	if err := app.process(); err != nil {
		return nil, err
	}
	return app, nil
}

func (a *App) loadSettings() {
	dir := a.opt.ConfigDir
	if dir == "" {
		d, err := userdir.Dir()
		if err != nil {
			log.Printf("rockstep: %v; settings will not be kept", err)
			a.settings = DefaultSettings()
			return
		}
		dir = d
	}
	a.settingsDir = dir
	a.wantName = askNameOnFirstStart && firstStart(dir) && a.opt.Name == ""
	s, warning, err := LoadSettings(dir)
	if warning != "" {
		log.Printf("rockstep: %s", warning)
		a.flow.notice = warning
	}
	if err != nil {
		log.Printf("rockstep: %v", err)
	}
	a.settings = s
}

// Run opens the window and plays until the player quits, which returns nil.
// If the window cannot be opened the error wraps ErrNoWindow.
func Run(opt Options) error {
	app, err := NewApp(opt)
	if err != nil {
		return err
	}
	returned := make(chan struct{})
	defer close(returned) // after Close
	defer app.Close()
	if opt.Stop != nil {
		go app.watchStop(returned)
	}
	return app.run()
}

// stopWait bounds how long the process lives once Stop has closed (a
// signal) when the window's loop does not end it: a display that went away
// can leave the loop waiting for a render thread that spins in the
// driver's buffer swap, never to run another Update. It leaves the network
// shutdown (closeWait, within it) time to tell the room and the router,
// and ends the process inside the 3 s a signal is given
// (docs/ARCHITECTURE.md, "Signals").
const stopWait = 2500 * time.Millisecond

// stopGrace is how long, once the network is shut down after Stop, the
// window's loop is given to end the program itself (its Close, the
// autopilot's last words) before Exit does.
const stopGrace = 500 * time.Millisecond

// watchStop waits for Stop, then shuts the network down itself, apart
// from the window's loop (which goes on to quit as Quit does, if it can):
// the game is left (Leave, or the host's hand-over), the LAN advert ends
// and the router's mapping is deleted, waiting closeWait at most. If Run
// has not returned by stopWait after Stop, Exit ends the process.
func (a *App) watchStop(returned <-chan struct{}) {
	select {
	case <-a.opt.Stop:
	case <-returned:
		return
	}
	began := time.Now()
	deadline := time.NewTimer(stopWait)
	defer deadline.Stop()
	if g := a.live.Load(); g != nil {
		wait := time.NewTimer(closeWait)
		select {
		case <-g.close(): // close is safe beside the loop's own, and twice
		case <-wait.C:
		case <-returned:
		}
		wait.Stop()
	}
	// A loop that can still run has quit by now, or does within a few
	// frames; one that has not is stuck.
	deadline.Reset(min(stopGrace, stopWait-time.Since(began)))
	select {
	case <-returned:
	case <-deadline.C:
		log.Printf("rockstep: the window did not close within %v of the signal (its display gone?); the game was left: exiting", stopWait)
		if a.opt.Exit != nil {
			a.opt.Exit()
		}
	}
}

// setNet makes g the session (nil: none), for the loop and for watchStop.
func (a *App) setNet(g *netGame) {
	a.net = g
	a.live.Store(g)
}

func (a *App) run() error {
	return a.runGame(a)
}

// runGame opens the window and runs g, which is a or wraps it.
func (a *App) runGame(g ebiten.Game) error {
	ebiten.SetWindowTitle("Rockstep")
	if icon, err := assets.Icon(); err == nil {
		ebiten.SetWindowIcon([]image.Image{icon})
	} else {
		log.Printf("rockstep: %v", err)
	}
	if windowSize.W > 0 && windowSize.H > 0 {
		ebiten.SetWindowSize(windowSize.W, windowSize.H)
	} else {
		ebiten.SetWindowSize(windowW, windowH)
	}
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetTPS(game.TicksPerSecond)
	// Draw clears the screen itself when it draws: a frame it skips (a
	// menu at rest, idle.go) keeps the last one, and Ebiten presents
	// nothing new.
	ebiten.SetScreenClearedEveryFrame(false)
	ebiten.SetFullscreen(a.settings.Fullscreen)
	if err := ebiten.RunGame(g); err != nil {
		if !a.started {
			return fmt.Errorf("%w: %w", ErrNoWindow, err)
		}
		return err
	}
	return nil
}

// closeWait bounds how long the program waits, when it ends, for its
// goodbyes to be delivered.
const closeWait = 2 * time.Second

// Close leaves any game, delivering the Leave (a bounded wait), and stops
// LAN discovery.
func (a *App) Close() {
	a.disconnect()
	a.stopDiscovery()
	deadline := time.After(closeWait)
	for _, done := range a.closing {
		select {
		case <-done:
		case <-deadline:
			return
		}
	}
	a.closing = nil
}

// theme returns the menus' theme at the screen's scale, built on first
// use: it makes images, which only a screen with widgets needs.
func (a *App) theme() *theme {
	if a.th == nil {
		a.th = a.themeAt(a.scale())
		a.ui.PrimaryTheme = a.th.ui
	}
	return a.th
}

// scale is the menus' scale on the screen (1 before the window opens).
func (a *App) scale() float64 {
	if a.screenW <= 0 || a.screenH <= 0 {
		return 1
	}
	return uiScale(a.screenW, a.screenH)
}

// themeAt returns the theme at scale s, built once.
func (a *App) themeAt(s float64) *theme {
	if th, ok := a.themes[s]; ok {
		return th
	}
	if a.themes == nil {
		a.themes = map[float64]*theme{}
	}
	th := newTheme(a.env.assets.Fonts, s)
	a.themes[s] = th
	return th
}

// rescale rebuilds the current screen's widgets with the theme of the
// screen's scale when the window's size (or its monitor) changed it.
func (a *App) rescale() {
	if a.th == nil || a.cur == nil || a.th.scale == a.scale() {
		return
	}
	a.th = a.themeAt(a.scale())
	a.ui.PrimaryTheme = a.th.ui
	a.gate.changed()
	a.closePrompt()
	if r, ok := a.cur.(rethemer); ok {
		r.retheme()
		a.ui.Container = a.cur.root()
	} else {
		if s, ok := a.cur.(*settingsScreen); ok {
			d := s.edit // the unsaved edits stay
			a.settingsDraft = &d
		}
		a.cur = nil
		if err := a.show(); err != nil {
			log.Printf("rockstep: %v", err)
		}
	}
	a.ui.ClearFocus()
	a.focusAuto = nil
}

// rethemer is a screen that holds more than its widgets (a game): on a
// new scale it rebuilds only its widgets, with the App's theme.
type rethemer interface {
	retheme()
}

// emit queues an intent; widgets' click handlers and the autopilot call it.
func (a *App) emit(in Intent) { a.queue = append(a.queue, in) }

// Update implements ebiten.Game: one engine tick per call.
func (a *App) Update() error {
	if !a.started && !a.opt.Silent {
		// Only now that the window is open: a machine with no display
		// hears nothing about sound.
		*a.sound = *newSound(a.env.assets.Sounds, a.settings.Volume)
	}
	a.started = true
	var in Intents
	a.state = nil
	switch {
	case a.script != nil:
		in = a.script(a.frames)
	case a.input != nil:
		a.state = a.input(a.frames)
	default:
		a.state = a.reader.read()
	}
	if a.state != nil {
		in = a.mapper.intents(a.keys, a.pad, a.state)
		a.padHint.connected(a.state.Connected)
		if a.state.active(a.pointer) {
			a.gate.input(time.Now())
		}
		a.pointer = a.state.Pointer
	} else if in != (Intents{}) {
		a.gate.input(time.Now())
	}
	// The rocks behind the menus drift while the screen is drawn at the
	// full rate; at rest they move a tick a frame drawn (Draw).
	a.backdrop.resting = !a.gate.busy(time.Now())
	a.padHint.step()
	a.frames++
	if in.Fullscreen {
		ebiten.SetFullscreen(!ebiten.IsFullscreen())
	}
	a.rescale()
	a.placePrompt()
	if a.prompt != a.promptDrawn {
		a.promptDrawn = a.prompt
		a.gate.changed() // a question opened or closed: drawn at once
	}
	if a.hasWidgets() {
		a.navigate(&in)
		a.edit.before(a.focusedField())
		a.ui.Update()
		if a.state != nil {
			a.edit.after(a.focusedField(), a.state.Just, a.state.Pointer.Pressed)
		}
	}
	inGame := a.flow.screen == screenPlay || a.flow.screen == screenPractice
	if (in.Quit || in.Menu && inGame) && !a.takingInput() {
		a.escape()
	}
	in.Quit, in.Menu = false, false
	if a.opt.Autopilot != nil {
		in = a.opt.Autopilot.step(a, in)
	}
	select {
	case <-a.opt.Stop:
		a.quit = true // Run's Close leaves the game, delivering the Leave
	default:
	}
	if err := a.process(); err != nil {
		return err
	}
	if a.quit {
		return ebiten.Termination
	}
	if err := a.cur.update(in); err != nil {
		return err
	}
	a.maybeAskName()
	a.retitle()
	a.last = time.Now()
	return nil
}

// process runs the queued intents and what the session reports through
// the flow, carries out the effects and shows the flow's screen.
func (a *App) process() error {
	for len(a.queue) > 0 {
		in := a.queue[0]
		a.queue = a.queue[1:]
		if err := a.carry(a.flow.apply(in)); err != nil {
			return err
		}
	}
	a.net.read(&a.nv)
	a.keepSession()
	a.pinServers()
	if err := a.carry(a.flow.observe(a.net.netStatus(&a.nv))); err != nil {
		return err
	}
	return a.show()
}

// carry carries out effects.
func (a *App) carry(effs []effect) error {
	for _, e := range effs {
		switch e.kind {
		case effHost:
			a.disconnect()
			name := wire.Truncate(a.settings.Name+"’s game", wire.MaxName)
			a.setNet(hostGame(a.netConfig(), name))
		case effHostServer:
			a.disconnect() // the room here, if any, closes: nobody else is in it
			srv, ok := a.settings.server(e.addr)
			if !ok {
				srv = KnownServer{Addr: e.addr}
			}
			name := wire.Truncate(a.settings.Name+"’s game", wire.MaxName)
			a.setNet(hostOnServer(a.netConfig(), srv, name))
		case effDial:
			a.disconnect()
			cfg := a.netConfig()
			cfg.hostFP, cfg.room, cfg.secret = e.hostFP, e.room, e.secret
			a.joinedID = e.gameID
			if e.rejoin && a.saved != nil {
				if tok, ok := a.saved.token(); ok {
					cfg.token = tok
					a.kept, a.joinedID = tok, a.saved.GameID
				}
				if cfg.hostFP == "" && e.addr == a.saved.Addr {
					cfg.hostFP = a.saved.Key // the host it was playing under, or the successor named for it
				}
				if cfg.room == 0 && e.addr == a.saved.Addr {
					cfg.room, e.room = a.saved.RoomID, a.saved.RoomID
					cfg.secret, e.secret = a.saved.RoomSecret, a.saved.RoomSecret
				}
				if k, ok := a.saved.moveKey(); ok && e.addr == a.saved.Addr {
					cfg.moveKey = k // the game moved to this server after we crashed: found by its key
				}
			}
			a.setNet(dial(cfg, e.addr, e.addrs...))
			if e.room != 0 { // a room on a server: the lobby says so
				a.net.mu.Lock()
				a.net.roomID, a.net.server, a.net.roomSecret = e.room, e.addr, e.secret
				a.net.mu.Unlock()
			}
		case effDisconnect:
			a.disconnect()
		case effQuit:
			a.quit = true
		case effPractice:
			// The screen is made by show.
		case effRestart:
			if p, ok := a.cur.(*practiceScreen); ok {
				if err := p.restart(); err != nil {
					return err
				}
			}
		case effSaveSettings:
			a.settings = e.settings
			a.keys = NewKeyMap(a.settings.Keys)
			a.pad = NewPadMap(a.settings.Pad)
			a.sound.setVolume(a.settings.Volume)
			ebiten.SetFullscreen(a.settings.Fullscreen)
			if a.settingsDir != "" {
				if err := SaveSettings(a.settingsDir, a.settings); err != nil {
					log.Printf("rockstep: %v", err)
					a.flow.notice = err.Error()
				}
			}
		case effSetup:
			a.rememberSetup(e.setup)
			a.net.act(e)
		default:
			a.net.act(e) // a lobby or game command
		}
	}
	return nil
}

func (a *App) netConfig() netConfig {
	cfg := netConfig{
		name: a.settings.Name, playerID: a.settings.ID(), netsim: a.opt.Netsim,
		seed: a.opt.Seed, listen: a.opt.Listen,
		predict: predictOn(a.settings, a.opt.Predict), syncTest: a.opt.SyncTest, fault: a.opt.Fault,
		portmap: a.settings.Portmap && !a.opt.NoPortmap,
		setup:   a.settings.Setup,
	}
	cfg.fallback = fallbackServers(a.settings.Servers)
	if a.opt.Autopilot != nil {
		cfg.onTurnEnd = a.opt.Autopilot.turnEnd
	}
	cfg.recordDir = replaysDir(a.settingsDir)
	cfg.settingsDir = a.settingsDir
	return cfg
}

// rememberSetup keeps the setup the host chose, so that the next game
// they host opens with it (Settings.Setup).
func (a *App) rememberSetup(g game.Setup) {
	g = g.Options()
	if a.settings.Setup != nil && *a.settings.Setup == g {
		return
	}
	a.settings.Setup = &g
	if a.settingsDir != "" {
		if err := SaveSettings(a.settingsDir, a.settings); err != nil {
			log.Printf("rockstep: %v", err)
		}
	}
}

// predictOn says whether network play predicts: the run's override (the
// -predict flag) if given, else the settings.
func predictOn(s Settings, override *bool) bool {
	if override != nil {
		return *override
	}
	return s.Predict
}

func (a *App) disconnect() {
	if a.net != nil {
		if a.inGame {
			// Leaving by choice: there is nothing to come back to. (A
			// rejoin that could not connect keeps the session: the host
			// may answer later.)
			a.forgetSession()
		}
		a.closing = append(a.closing, a.net.close())
		a.setNet(nil)
	}
	a.nv = netView{}
	a.kept, a.joinedID, a.inGame = [16]byte{}, "", false
}

// keepSession keeps the token of a running game on disk while it runs, so
// that a crashed game can come back as the same player, and forgets it
// once the game is over for this player.
func (a *App) keepSession() {
	nv := &a.nv
	if a.net == nil || !nv.ok {
		return
	}
	addr, key, gameID := rejoinAt(a.net.addr, nv.hostFingerprint(), a.joinedID, nv.roomHere, nv.slot, nv.succ)
	moveKey := ""
	if nv.roomHere {
		if srv, fp, mk, ok := rejoinOnServer(nv.slot, nv.succ); ok {
			// Our crash moves the game to a server: the Rejoin finds it there.
			addr, key, gameID, moveKey = srv, fp, "", hex.EncodeToString(mk[:])
		}
	}
	inLobby := lobbySeatKept(nv)
	playing := (nv.phase == phasePlaying || inLobby) && nv.slot >= 0 && nv.token != ([16]byte{}) && !nv.ended
	roomID, secret := a.keptRoom(nv)
	switch {
	case playing && addr != "" && (nv.token != a.kept || a.saved == nil || a.saved.Addr != addr || a.saved.Key != key || a.saved.Lobby != inLobby || a.saved.RoomID != roomID || a.saved.MoveKey != moveKey):
		// A new game, or the game moved: to a successor (host migration),
		// to a community server's room, or, where the room is ours, its
		// first successor changed (or none is left but a server).
		now := time.Now()
		sv := savedSession{Addr: addr, Key: key, GameID: gameID, Room: nv.setup.Name, Slot: nv.slot,
			Token: hex.EncodeToString(nv.token[:]), Saved: now, Seen: now, Lobby: inLobby,
			RoomID: roomID, RoomSecret: secret, MoveKey: moveKey}
		if err := saveSession(a.settingsDir, sv); err != nil {
			log.Printf("rockstep: %v", err)
		}
		a.kept, a.saved, a.inGame = nv.token, &sv, true
	case playing && addr == "" && a.saved != nil:
		// Our room names no successor any more (the others left, or none
		// can host): a crash here would end the game for everyone.
		a.forgetSession()
	case playing && nv.token == a.kept:
		a.inGame = true // back in the game we rejoined
		a.touchSession(time.Now())
	case a.kept != ([16]byte{}) && (nv.ended || nv.phase == phaseFinished || nv.phase == phaseLobby || nv.phase == phaseLeft):
		a.forgetSession()
	case nv.phase == phaseRefused && nv.refusal.Reason == wire.RefuseBadToken && a.saved != nil:
		a.forgetSession() // the game it was for is gone
	case nv.phase == phaseRefused && nv.refusal.Reason == wire.RefuseNoRoom && a.saved != nil && a.saved.RoomID != 0 &&
		a.net.roomID == a.saved.RoomID && a.net.server == a.saved.Addr:
		// The server closed the room it was for (a room closes when its
		// last player leaves): no Rejoin will find it again.
		a.forgetSession()
	}
}

// keptRoom is the room on a server that a Rejoin of the kept session
// names (a Join to a server without one goes to its default room, which
// holds no such game), and its secret: the room a community server opened
// when the game moved there (client.Client.ServerRoom), or the server room
// we opened or joined while the game has not moved to a player; 0 for a
// host's own room.
func (a *App) keptRoom(nv *netView) (uint32, uint64) {
	if nv.server != "" && nv.movedRoom != 0 {
		return nv.movedRoom, nv.movedSecret
	}
	a.net.mu.Lock()
	defer a.net.mu.Unlock()
	if a.net.roomID != 0 && a.net.handovers == 0 && !nv.roomHere {
		return a.net.roomID, a.net.roomSecret
	}
	return 0, 0
}

func (a *App) forgetSession() {
	clearSession(a.settingsDir)
	a.kept, a.saved, a.inGame = [16]byte{}, nil, false
}

// show makes the flow's screen current if it is not.
func (a *App) show() error {
	id := a.flow.screen
	if a.cur != nil && a.cur.id() == id {
		return nil
	}
	var s screen
	var err error
	switch id {
	case screenMenu:
		s = newMenuScreen(a)
	case screenJoin:
		s = newJoinScreen(a)
	case screenSettings:
		s = newSettingsScreen(a)
	case screenLobby:
		s = newLobbyScreen(a)
	case screenPlay:
		s = newNetPlayScreen(a)
	case screenResults:
		s = newResultsScreen(a)
	case screenPractice:
		s, err = newPracticeScreen(a)
	case screenReplays:
		s = newReplaysScreen(a)
	case screenReplay:
		s = newReplayScreen(a, a.flow.replay)
	case screenScores:
		s = newScoresScreen(a)
	case screenControls:
		s = newControlsScreen(a)
	}
	if err != nil {
		return err
	}
	if id != screenJoin {
		a.stopDiscovery()
	}
	a.cur = s
	a.ui.Container = s.root()
	a.gate.changed()
	a.closePrompt()   // it was about the screen left
	a.ui.ClearFocus() // navigate focuses the new screen's first button
	a.focusAuto = nil
	return nil
}

// lanGames returns the games on the LAN, starting discovery if need be.
func (a *App) lanGames() []lan.Game {
	if a.discovery == nil {
		if a.opt.Discovery != nil {
			a.discovery = a.opt.Discovery
		} else {
			b, err := lan.Browse(context.Background(), lan.BrowseOptions{})
			if err != nil {
				log.Printf("rockstep: %v", err)
				a.discovery = &lan.Fake{}
			} else {
				a.discovery, a.ownDisc = b, true
			}
		}
	}
	return a.discovery.Games()
}

func (a *App) stopDiscovery() {
	if a.discovery != nil && a.ownDisc {
		d := a.discovery
		go d.Close()
	}
	if a.ownDisc || a.opt.Discovery == nil {
		a.discovery = nil
	}
	a.ownDisc = false
}

// retitle names the room in the window's title.
func (a *App) retitle() {
	t := "Rockstep"
	if a.net != nil && a.nv.ok && a.nv.setup.Name != "" && a.flow.screen != screenMenu {
		t = "Rockstep — " + a.nv.setup.Name
	}
	if t != a.title {
		a.title = t
		ebiten.SetWindowTitle(t)
	}
}

// Draw implements ebiten.Game.
func (a *App) Draw(screen *ebiten.Image) {
	if d := a.pacer.waitFor(time.Now(), a.gate.framePeriod(time.Now(), a.playing())); d > 0 {
		time.Sleep(d) // no vsync: see minFrame; a screen at rest: restFrame
	}
	now := time.Now()
	if !a.gate.draw(now, a.playing()) {
		return // at rest: the last frame stays on screen
	}
	screen.Clear()
	t := tickFraction(now.Sub(a.last))
	if a.backdrop.resting {
		a.backdrop.advance()
		t = 1
	}
	b := screen.Bounds()
	v := draw.FitView(float64(b.Dx()), float64(b.Dy()))
	a.cur.draw(screen, v, t)
	if a.hasWidgets() {
		a.ui.Draw(screen)
		a.drawFocus(screen)
	}
	a.padHint.draw(a.env, screen, v)
}

// hasWidgets reports whether the screen has widgets: a practice game has
// none, and spares their cost.
func (a *App) hasWidgets() bool {
	return a.cur != nil && len(a.cur.root().Children()) > 0
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
// displays; the field is fitted into it by draw.FitView.
func (a *App) LayoutF(outsideW, outsideH float64) (float64, float64) {
	s := deviceScale
	if s <= 0 {
		s = ebiten.Monitor().DeviceScaleFactor()
	}
	if s <= 0 {
		s = 1
	}
	if w, h := outsideW*s, outsideH*s; w != a.screenW || h != a.screenH {
		a.screenW, a.screenH = w, h
		a.gate.changed() // a new size: drawn at once, at rest or not
	}
	return a.screenW, a.screenH
}
