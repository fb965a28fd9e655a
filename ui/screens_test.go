package ui

import (
	"fmt"
	"image"
	"image/png"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/game"
	"rockstep/game/fixed"
	"rockstep/net/client"
	"rockstep/net/lan"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
	"rockstep/net/wire"
	"rockstep/ui/draw"
)

// Environment of TestScreens.
const (
	envShotsDir     = "ROCKSTEP_SHOTS"         // where to keep the screenshots; default: a temporary directory
	envScreensChild = "ROCKSTEP_SCREENS_CHILD" // set in the child process that opens the window
)

// TestScreens walks every screen in a real window and saves a screenshot
// of each: the main menu, the join screen with LAN games in it, the lobby
// with two players and the question Esc asks there, a network game, the
// network graph, the lagging and reconnecting overlays, the results and
// the settings. Ebiten opens one window per process, so the walk runs in
// a child process.
//
//	xvfb-run -a -s "-screen 0 1280x720x24" go test -run Screens ./ui/
//
// With ROCKSTEP_SHOTS=DIR it keeps the PNGs in DIR.
func TestScreens(t *testing.T) {
	sizedShots(t, walkScreens, walkShots)
}

// shotSize is a screen the screenshot tests are taken on: a window of
// W×H device-independent pixels on a monitor of device scale factor
// Scale.
type shotSize struct {
	W, H  int
	Scale float64
}

// String names the screen by its size in device pixels: 2560x1440.
func (z shotSize) String() string {
	return fmt.Sprintf("%dx%d", int(float64(z.W)*z.Scale), int(float64(z.H)*z.Scale))
}

// shotSizes are the screens every screen is shot on: the smallest window
// the game is made for, the default one, and the default one on a HiDPI
// monitor (Xvfb has none: deviceScale stands in for it).
var shotSizes = []shotSize{{800, 600, 1}, {1280, 720, 1}, {1280, 720, 2}}

// sizedShots runs windowShots once for each of shotSizes, as subtests
// named by the size, each saving its screenshots in a folder of that
// name under ROCKSTEP_SHOTS. Every shot the walk takes is checked for
// widgets outside the window (see walker.Update).
func sizedShots(t *testing.T, walk func(*testing.T), shots []string) {
	for _, z := range shotSizes {
		t.Run(z.String(), func(t *testing.T) {
			if base := os.Getenv(envShotsDir); base != "" && os.Getenv(envWindowChild) == "" {
				dir := filepath.Join(base, z.String())
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				t.Setenv(envShotsDir, dir)
			}
			windowShots(t, func(t *testing.T) {
				windowSize.W, windowSize.H, deviceScale = z.W, z.H, z.Scale
				walk(t)
			}, shots)
		})
	}
}

// walkShots are the screenshots the walk takes, in order.
var walkShots = []string{"menu", "title-band", "join", "join-error", "settings", "lobby", "leave", "play", "graph", "paused", "lagging", "reconnecting", "results", "results-versus"}

func brightPixels(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			if max(r, g, bl) > 0x9000 {
				n++
			}
		}
	}
	return n
}

// guestName is the second player's: long, as names that must be fitted
// beside scores are (wire.MaxName bytes).
const guestName = "Ada Lovelace-Wentworth X"

// walker drives the app through the screens: each stage acts, waits for
// its condition, and the frame after the condition holds is captured.
type walker struct {
	*App
	t      *testing.T
	dir    string
	stages []stage
	stage  int
	began  int  // frame the stage began at
	acted  bool // the stage's action has run
	shoot  bool // capture the next frame drawn
	err    error
	fake   *lan.Fake
	guest  *client.Client
	block  chan struct{} // closed (by unblock) to let the silenced guest go on
	once   sync.Once
	shots  []string
	said   bool
	// pressF3 makes the next update see F3 pressed.
	pressF3 bool
	// pausedAt is the world's tick while paused; silenced, that the
	// guest has been made silent.
	pausedAt uint32
	silenced bool
	winner   string // the name results-versus made the winner
	// pressEsc makes the next update see Esc pressed.
	pressEsc bool
	// promptBox is where the leave stage found the Esc box.
	promptBox image.Rectangle
	// saved is the menus' backdrop before title-band moved its rocks;
	// band, titles and field are where that stage found the band behind
	// the title, the title and subtitle, and the field.
	saved       backdrop
	band, field image.Rectangle
	titles      []image.Rectangle
	// leastText is the smallest face a label of ui/draw was rendered
	// with so far, in pixels (0: none yet).
	leastText float64
}

type stage struct {
	name string
	act  func(w *walker)
	done func(w *walker) bool
	// wait is how many frames to let pass after done first holds.
	wait int
	// check, if set, says what is wrong with the screen when it is
	// captured ("" for nothing).
	check func(w *walker) string
}

func (w *walker) guestDo(f func(s *lockstep.Session)) {
	if w.guest != nil {
		w.guest.Do(f)
	}
}

func walkScreens(t *testing.T) {
	dir := os.Getenv(envShotsDir)
	fake := &lan.Fake{}
	now := time.Now()
	fake.Set([]lan.Game{
		{ID: "a", Addr: netip.MustParseAddrPort("192.168.1.20:7777"), Name: "Friday night", Host: "kitchen-pc", Players: 3, Max: 8, State: wire.StateSetup.String(), Version: wire.Version, Compatible: true, Seen: now},
		{ID: "b", Addr: netip.MustParseAddrPort("192.168.1.31:7777"), Name: "Ada’s game", Host: "ada-laptop", Players: 2, Max: 8, State: wire.StateRunning.String(), Version: wire.Version, Compatible: true, Seen: now},
		{ID: "c", Addr: netip.MustParseAddrPort("192.168.1.44:7777"), Name: "Full house", Host: "den", Players: 4, Max: 4, State: wire.StateSetup.String(), Version: wire.Version, Compatible: true, Seen: now},
		{ID: "d", Addr: netip.MustParseAddrPort("192.168.1.52:7777"), Name: "Old build", Host: "attic", Players: 1, Max: 8, State: wire.StateSetup.String(), Version: wire.Version + 1, Compatible: false, Seen: now},
	})
	// NoPortmap: the router is not asked, as with -portmap=false (the
	// README's pictures come from this walk).
	app, err := NewApp(Options{Seed: 7, ConfigDir: t.TempDir(), Discovery: fake, Listen: "127.0.0.1:0", Name: "Grace", NoPortmap: true})
	if err != nil {
		t.Fatalf("NewApp: %v", err)
	}
	defer app.Close()
	w := &walker{App: app, t: t, dir: dir, fake: fake, block: make(chan struct{})}
	app.script = func(n int) Intents {
		in := Intents{}
		if app.flow.screen == screenPlay {
			in.Ship = apKeys(n)
		}
		in.Graph, w.pressF3 = w.pressF3, false
		in.Quit, w.pressEsc = w.pressEsc, false
		return in
	}
	w.stages = []stage{
		{name: "menu", done: func(w *walker) bool { return w.frames > 20 }},
		{name: "title-band", act: func(w *walker) {
			// Every rock of the backdrop parked across the title: the band
			// behind it must hide them all (restored by the next stage).
			s := w.App.cur.(*menuScreen)
			w.saved = *w.App.backdrop
			band, _ := s.titleBand()
			w.band = band
			w.titles = []image.Rectangle{s.title.GetWidget().Rect, s.subtitle.GetWidget().Rect}
			v := draw.MenuView(w.App.screenW, w.App.screenH)
			b := w.App.backdrop
			rocks := b.world.LiveRocks()
			for i := range rocks {
				x := (float64(i) + 0.5) / float64(len(rocks)) * draw.FieldW
				y := (float64(band.Min.Y+band.Max.Y)/2 - v.Y0) / v.Scale
				rocks[i].Pos = fixed.Vec{X: fixed.Num(x * float64(fixed.One)), Y: fixed.Num(y * float64(fixed.One))}
				rocks[i].Vel, rocks[i].Spin = fixed.Vec{}, 0
			}
			b.prev = b.world
		}, done: func(w *walker) bool { return w.frames-w.began > 3 }, check: func(w *walker) string {
			w.field = w.App.env.draw.FieldRect()
			if w.band.Empty() || len(w.App.backdrop.world.LiveRocks()) == 0 {
				return fmt.Sprintf("no title band (%v) or no rocks to hide", w.band)
			}
			return ""
		}},
		{name: "join", act: func(w *walker) { *w.App.backdrop = w.saved; w.emit(Intent{Kind: IntentOpenJoin}) },
			done: func(w *walker) bool { return w.cur2() == screenJoin }, wait: 20},
		{name: "join-error", act: func(w *walker) {
			// What a typo'd name gives (the lookup itself would leave loopback).
			w.flow.joinErr = dialErrorText("zzz:7777", fmt.Errorf("dial zzz:7777: %w", &net.DNSError{Err: "no such host", Name: "zzz", Server: "10.255.255.53:53", IsNotFound: true}))
		}, done: func(w *walker) bool { return w.cur2() == screenJoin }, wait: 5, check: func(w *walker) string {
			s := w.App.cur.(*joinScreen)
			if !strings.Contains(s.status.Label, "No computer named “zzz”") {
				return fmt.Sprintf("the join screen says %q", s.status.Label)
			}
			return inside("the join error", s.status.GetWidget().Rect, "the panel", s.top.Children()[0].GetWidget().Rect)
		}},
		{name: "settings", act: func(w *walker) { w.emit(Intent{Kind: IntentBack}); w.emit(Intent{Kind: IntentOpenSettings}) },
			done: func(w *walker) bool { return w.cur2() == screenSettings }, wait: 5, check: func(w *walker) string {
				// The name box takes no more than a name can hold.
				s := w.App.cur.(*settingsScreen)
				s.name.SetText(strings.Repeat("é", 20))
				if got := s.name.GetText(); got != strings.Repeat("é", wire.MaxName/2) {
					return fmt.Sprintf("the name box holds %q (%d bytes), want %d bytes", got, len(got), wire.MaxName)
				}
				s.name.SetText("Grace")
				return ""
			}},
		{name: "lobby", act: func(w *walker) { w.emit(Intent{Kind: IntentBack}); w.emit(Intent{Kind: IntentHost}) },
			done: func(w *walker) bool {
				nv := &w.nv
				if !nv.ok || len(nv.setup.Players) == 0 {
					return false
				}
				if w.guest == nil && w.net != nil && w.net.h != nil {
					p := transport.NewPipe()
					w.net.h.Attach(p)
					// The guest predicts, as every player's game does (a
					// session that does not reports its whole round trip
					// through the pipe, and the game's delay grows for it).
					w.guest = client.Attach(p, client.Options{Session: lockstep.Config{Name: guestName, PlayerID: [16]byte{1}, Predict: true}})
					w.emit(Intent{Kind: IntentReady, Ready: true})
					w.emit(Intent{Kind: IntentSetup, Setup: game.Setup{Mode: game.Coop, Lives: 5, StartWave: 4, FriendlyFire: true, Saucers: true}})
				}
				if len(nv.setup.Players) < 2 {
					return false
				}
				w.guestDo(func(s *lockstep.Session) {
					// Ready for the host's setup: a Ready given before it
					// is cleared by the change.
					if s.Phase() == phaseLobby && !w.said && s.SetupState().Setup.Lives == 5 {
						w.said = true
						s.SetReady(true)
						s.Say("hi all, ready when you are")
					}
				})
				all := true
				for _, p := range nv.setup.Players {
					all = all && p.Ready
				}
				return all && len(nv.chat) > 0 && nv.setup.Setup.Lives == 5
			}, wait: 10, check: func(w *walker) string {
				s := w.App.cur.(*lobbyScreen)
				if !strings.Contains(s.where.Label, "join 127.0.0.1:") {
					return fmt.Sprintf("the host's lobby says %q, want the address it listens on", s.where.Label)
				}
				if s.ff.GetWidget().Disabled {
					return "friendly fire is disabled in co-op"
				}
				// As the host picks versus: friendly fire is greyed out.
				s.want, s.wantAge, s.setupSig = s.setupNow(), 0, ""
				s.want.Mode = game.Versus
				s.updateSetup()
				ffOff, ffText := s.ff.GetWidget().Disabled, s.ff.Text().Label
				s.wantAge, s.setupSig = -1, ""
				s.updateSetup()
				if !ffOff || ffText != "Always" {
					return fmt.Sprintf("in versus, friendly fire says %q, disabled %v; want it greyed out", ffText, ffOff)
				}
				return inside("where to join", s.where.GetWidget().Rect, "the window", w.App.ui.Container.GetWidget().Rect)
			}},
		{name: "leave", act: func(w *walker) { w.pressEsc = true }, done: func(w *walker) bool { return w.prompt != nil }, wait: 5, check: func(w *walker) string {
			// The question's box in the middle of the window (to a pixel:
			// halves round), over a shade as large as the window.
			win := image.Rect(0, 0, int(w.App.screenW), int(w.App.screenH))
			box := w.prompt.box.GetWidget().Rect
			w.promptBox = box
			if dx, dy := box.Min.X+box.Max.X-win.Dx(), box.Min.Y+box.Max.Y-win.Dy(); dx < -1 || dx > 1 || dy < -1 || dy > 1 {
				return fmt.Sprintf("the Esc box at %v is off the middle of the window %v by (%d, %d)/2 px", box, win, dx, dy)
			}
			if shade := w.prompt.shade.GetWidget().Rect; shade != win {
				return fmt.Sprintf("the shade behind the Esc box covers %v, want the window %v", shade, win)
			}
			return ""
		}},
		{name: "play", act: func(w *walker) { w.emit(Intent{Kind: IntentStart}) },
			done: func(w *walker) bool {
				if w.guest != nil {
					w.guest.SetInput(apKeys(w.frames + 100))
				}
				return w.cur2() == screenPlay && w.nv.hasWorld && w.nv.world.Tick > 200 && w.hasParticles()
			}, check: func(w *walker) string {
				// The game's first seconds show the player's controls (on a
				// loaded machine the stage may end after they faded: the
				// hint's lines say it was shown).
				s := w.App.cur.(*netPlayScreen)
				if lines := strings.Join(s.hint.lines, " "); !strings.Contains(lines, "stays set when you let go") {
					return fmt.Sprintf("the controls hint (%d ticks left) says %q", s.hint.left, lines)
				}
				return ""
			}},
		{name: "graph", act: func(w *walker) { w.pressF3 = true }, done: func(w *walker) bool { return w.frames-w.began > 150 }, check: func(w *walker) string {
			// The graph stands beside the field: no pixel of it over play.
			s := w.App.cur.(*netPlayScreen)
			graph, field := s.graph.Rect(), w.App.env.draw.FieldRect()
			if graph.Empty() || !s.graph.Over() && graph.Overlaps(field) {
				return fmt.Sprintf("the network graph at %v, the field at %v: want it drawn beside the field", graph, field)
			}
			// Over the field (a narrow screen): a quarter of it at most,
			// and the field keeps three quarters of the area it has
			// without the graph.
			in := graph.Intersect(field)
			if s.graph.Over() && 4*in.Dx()*in.Dy() > field.Dx()*field.Dy() {
				return fmt.Sprintf("the network graph at %v covers more than a quarter of the field at %v", graph, field)
			}
			full := draw.FitView(w.App.screenW, w.App.screenH)
			if fw := full.Scale * draw.FieldW; 4*float64(field.Dx())*float64(field.Dx()) < 3*fw*fw {
				return fmt.Sprintf("with the graph the field is %v, %.0f px wide without it: want three quarters of its area kept", field, fw)
			}
			return inside("the network graph", graph, "the window", image.Rect(0, 0, int(w.App.screenW), int(w.App.screenH)))
		}},
		{name: "paused", act: func(w *walker) {
			w.emit(Intent{Kind: IntentGameMenu})
			w.emit(Intent{Kind: IntentPause, Paused: true})
		}, done: func(w *walker) bool {
			w.pausedAt = w.nv.world.Tick
			return w.nv.status.Child == wire.ChildPaused && w.frames-w.began > 90
		}, check: func(w *walker) string {
			s := w.App.cur.(*netPlayScreen)
			if s.menuNote.Label != menuNotePaused {
				return fmt.Sprintf("the menu says %q while paused, want %q", s.menuNote.Label, menuNotePaused)
			}
			// The graph knows: it counts no loss while paused (see
			// draw.TestNetGraphCountsNoLossOrStallWhilePaused).
			if !s.graph.Paused {
				return "the network graph is not told the game is paused"
			}
			return ""
		}},
		{name: "lagging", act: func(w *walker) {
			w.emit(Intent{Kind: IntentPause, Paused: false})
			w.emit(Intent{Kind: IntentResume})
		}, done: func(w *walker) bool {
			if !w.silenced {
				// Once the game runs again for a second, the guest's
				// session loop waits on its lock: it goes silent.
				if w.nv.status.Child == wire.ChildIterating && w.nv.world.Tick > w.pausedAt+game.TicksPerSecond {
					w.silenced = true
					go w.guest.Do(func(*lockstep.Session) { <-w.block })
				}
				return false
			}
			return w.nv.status.Child == wire.ChildLagging
		}, wait: 10},
		{name: "reconnecting", done: func(w *walker) bool { return w.nv.status.Child == wire.ChildVacancy }, wait: 60, check: func(w *walker) string {
			s := w.App.cur.(*netPlayScreen)
			if title, _, _ := s.overlay(); title != "" {
				return fmt.Sprintf("a %q banner over the field while a player reconnects (the strip says it)", title)
			}
			// Of two players, the one left is no majority: the game waits
			// for the other's countdown and the strip says so.
			if line := s.reconnecting(); !strings.Contains(line, "lost contact with "+guestName+": waiting") || !regexp.MustCompile(`\d+ s`).MatchString(line) {
				return fmt.Sprintf("the reconnecting strip says %q", line)
			}
			// The vacant player's ship is out of play (drawn faint, with
			// "away" under it) on the screen of the player still there.
			away := 0
			for i := range s.cur.Ships {
				if sh := &s.cur.Ships[i]; sh.Present && sh.Away {
					away++
				}
			}
			// Of two, the one left waits for the other (no majority): no
			// turn is played, so none marks the ship away.
			if want := 1; away != want && !w.nv.apart {
				return fmt.Sprintf("%d ships away while one player reconnects, want %d", away, want)
			}
			return ""
		}},
		{name: "results", act: func(w *walker) {
			w.unblock()
			// What the host's client does when its world is over.
			w.net.act(effect{kind: effEndGame})
		}, done: func(w *walker) bool { return w.cur2() == screenResults }, wait: 10, check: func(w *walker) string {
			s := w.App.cur.(*resultsScreen)
			if !strings.HasPrefix(s.shown[0], "GAME ENDED") || len(s.shown) != 4 || !strings.Contains(strings.Join(s.shown, "\n"), ". "+guestName+" ") {
				return fmt.Sprintf("co-op results %q", s.shown)
			}
			return ""
		}},
		{name: "results-versus", act: func(w *walker) {
			// The same table as a versus game the guest won.
			r := &w.nv.results
			r.Mode, r.Over, r.Winner = game.Versus, true, r.Lines[0].Slot
			r.Lines[0].Winner = true
			w.winner = w.nv.playerName(int(r.Winner))
			w.App.cur = newResultsScreen(w.App)
			w.App.ui.Container = w.App.cur.root()
		}, done: func(w *walker) bool { return w.frames-w.began > 5 }, check: func(w *walker) string {
			s := w.App.cur.(*resultsScreen)
			if winner := w.winner; s.shown[0] != winner+" wins" || !strings.HasPrefix(s.shown[2], "1. "+winner+" ") || !strings.HasPrefix(s.shown[3], "2. ") {
				return fmt.Sprintf("versus results %q", s.shown)
			}
			return inside("the results", s.top.Children()[0].GetWidget().Rect, "the window", s.top.GetWidget().Rect)
		}},
	}
	w.began = 0
	runWindow(t, app, w)
	if w.guest != nil {
		w.unblock() // a walk that ended early may have left the guest silenced
		w.guest.Close()
	}
	if w.err != nil {
		t.Fatal(w.err)
	}
	if fmt.Sprint(w.shots) != fmt.Sprint(walkShots) {
		t.Fatalf("took %v, want %v", w.shots, walkShots)
	}
	// No rock shows through the band behind the title: over the title's
	// width (within the field), the band's pixels outside the title's and
	// subtitle's words are all the bars' black.
	if msg := bandIsClear(readShot(t, dir, "title-band"), w.band.Intersect(w.field).Inset(2), w.titles); msg != "" {
		t.Errorf("the title band: %s", msg)
	}
	// What is behind the Esc box is dimmed: outside the box, the leave
	// shot is at most 60 % as bright as the lobby shot just before it.
	lobby, leave := readShot(t, dir, "lobby"), readShot(t, dir, "leave")
	before, after := meanOutside(lobby, w.promptBox), meanOutside(leave, w.promptBox)
	if after > 0.6*before {
		t.Errorf("around the Esc box the screen is %.1f bright, %.1f before it opened: want it dimmed to 60 %% or less", after, before)
	}
	if !regexp.MustCompile(`^Rockstep — Grace`).MatchString(w.title) {
		t.Errorf("window title %q, want it to name the room", w.title)
	}
}

// bandIsClear says where in band img has a pixel brighter than 8 (of 255)
// in any channel, outside the rectangles words, or "" if there is none.
func bandIsClear(img image.Image, band image.Rectangle, words []image.Rectangle) string {
	if band.Empty() {
		return "no band"
	}
	n, first := 0, image.Point{}
	for y := band.Min.Y; y < band.Max.Y; y++ {
	pixels:
		for x := band.Min.X; x < band.Max.X; x++ {
			p := image.Pt(x, y)
			for _, r := range words {
				if p.In(r.Inset(-2)) {
					continue pixels
				}
			}
			if r, g, b, _ := img.At(x, y).RGBA(); max(r, g, b)>>8 > 8 {
				if n == 0 {
					first = p
				}
				n++
			}
		}
	}
	if n > 0 {
		return fmt.Sprintf("%d pixels lit in %v, the first at %v", n, band, first)
	}
	return ""
}

// readShot reads screenshot name of the walk from dir.
func readShot(t *testing.T, dir, name string) image.Image {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, name+".png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return img
}

// meanOutside is the mean brightness (0–255, the mean of red, green and
// blue) of img's pixels outside r, every other pixel sampled.
func meanOutside(img image.Image, r image.Rectangle) float64 {
	var sum float64
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			if image.Pt(x, y).In(r) {
				continue
			}
			cr, cg, cb, _ := img.At(x, y).RGBA()
			sum += float64(cr+cg+cb) / 3 / 257
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// inside says how rect a (named what) sticks out of rect b (named where),
// or "" if it does not.
func inside(what string, a image.Rectangle, where string, b image.Rectangle) string {
	if a.Empty() || !a.In(b) {
		return fmt.Sprintf("%s at %v is not inside %s at %v", what, a, where, b)
	}
	return ""
}

// runWindow runs g in app's window until it ends: on a machine without a
// display the test is skipped; any other failure ends it.
func runWindow(t *testing.T, app *App, g ebiten.Game) {
	t.Helper()
	if err := app.runGame(g); err != nil {
		if strings.Contains(err.Error(), ErrNoWindow.Error()) {
			t.Skipf("no window: %v", err)
		}
		t.Fatalf("run: %v", err)
	}
}

// windowShots runs walk in a window process of its own (see
// inWindowProcess), which saves the named screenshots in ROCKSTEP_SHOTS
// (a temporary folder unless set), and checks each was saved and is not
// blank.
func windowShots(t *testing.T, walk func(*testing.T), shots []string) {
	dir := os.Getenv(envShotsDir)
	if dir == "" {
		dir = t.TempDir()
		t.Setenv(envShotsDir, dir)
	}
	if inWindowProcess(t) {
		walk(t)
		return
	}
	t.Logf("screenshots in %s", dir)
	for _, name := range shots {
		f, err := os.Open(filepath.Join(dir, name+".png"))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		// 400 of the pixels sampled on a 1280×720 screen, as many for its area on others.
		b := img.Bounds()
		if bright := brightPixels(img); bright < 400*b.Dx()*b.Dy()/(1280*720) {
			t.Errorf("%s.png has %d bright pixels: a blank screen?", name, bright)
		}
	}
}

// widgetsInWindow returns an error naming the first widget of the screen
// or of an open prompt that is not wholly inside the window.
func (w *walker) widgetsInWindow() error {
	win := image.Rect(0, 0, int(w.App.screenW), int(w.App.screenH))
	if win.Empty() {
		return fmt.Errorf("no window size yet")
	}
	if err := widgetsInside(w.App.cur.root(), win); err != nil {
		return err
	}
	if p := w.App.prompt; p != nil {
		if err := inside("the prompt", p.box.GetWidget().Rect, "the window", win); err != "" {
			return fmt.Errorf("%s", err)
		}
		return widgetsInside(p.box, win)
	}
	return nil
}

// textTooSmall says which text of the screen, of an open prompt or of
// what ui/draw rendered so far (the HUD, the graph, the hint) is drawn in
// a face under minTextPx, or "" if none is.
func (w *walker) textTooSmall() string {
	if w.leastText > 0 && w.leastText < minTextPx {
		return fmt.Sprintf("ui/draw rendered text in a face of %.1f px, want at least %d", w.leastText, minTextPx)
	}
	msg := smallText(w.App.cur.root())
	if p := w.App.prompt; msg == "" && p != nil {
		msg = smallText(p.box)
	}
	if msg != "" {
		return fmt.Sprintf("%s, want at least %d px", msg, minTextPx)
	}
	return ""
}

// unblock lets the guest silenced by the lagging stage go on.
func (w *walker) unblock() { w.once.Do(func() { close(w.block) }) }

func (w *walker) cur2() screenID { return w.App.cur.id() }

func (w *walker) hasParticles() bool {
	s, ok := w.App.cur.(*netPlayScreen)
	return ok && s.fx.Len() > 20
}

func (w *walker) Update() error {
	if w.err != nil || w.stageIdx() >= len(w.stages) {
		return ebiten.Termination
	}
	if draw.TextSized == nil {
		draw.TextSized = func(px float64) {
			if w.leastText == 0 || px < w.leastText {
				w.leastText = px
			}
		}
	}
	st := &w.stages[w.stageIdx()]
	if !w.acted {
		w.acted = true
		w.began = w.frames
		if st.act != nil {
			st.act(w)
		}
	}
	if err := w.App.Update(); err != nil {
		return err
	}
	if !w.shoot && st.done(w) {
		if st.wait > 0 {
			st.wait--
		} else {
			w.shoot = true
			if st.check != nil {
				if msg := st.check(w); msg != "" {
					w.err = fmt.Errorf("stage %s: %s", st.name, msg)
				}
			}
			if err := w.widgetsInWindow(); err != nil && w.err == nil {
				w.err = fmt.Errorf("stage %s: %w", st.name, err)
			}
			if msg := w.textTooSmall(); msg != "" && w.err == nil {
				w.err = fmt.Errorf("stage %s: %s", st.name, msg)
			}
		}
	}
	if w.frames-w.began > 20*game.TicksPerSecond {
		w.err = fmt.Errorf("stage %s: not done in 20 s (screen %v, phase %v, status %+v)", st.name, w.cur2(), w.nv.phase, w.nv.status)
	}
	return nil
}

// stageIdx is the walker's stage (cur is the App's screen).
func (w *walker) stageIdx() int { return w.stage }

func (w *walker) Draw(screen *ebiten.Image) {
	w.App.Draw(screen)
	if !w.shoot {
		return
	}
	w.shoot = false
	b := screen.Bounds()
	img := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	screen.ReadPixels(img.Pix)
	name := w.stages[w.stage].name
	f, err := os.Create(filepath.Join(w.dir, name+".png"))
	if err == nil {
		err = png.Encode(f, img)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		w.err = err
		return
	}
	w.shots = append(w.shots, name)
	w.stage++
	w.acted = false
}
