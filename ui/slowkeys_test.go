package ui

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"
)

func TestTypeFocus(t *testing.T) {
	menu := []string{"Host game", "Join game", "Practice", "Replays", "High scores", "Settings", "Quit"}
	for _, tc := range []struct {
		name      string
		at        int
		chars     string
		want, mvs int
	}{
		{"one letter", 0, "j", 1, 1},
		{"capital or not", 0, "P", 2, 1},
		{"a letter twice goes round its buttons", 0, "hh", 0, 2},
		{"from none", -1, "s", 5, 1},
		{"no button begins with it", 3, "zx", 3, 0},
		{"space and punctuation", 3, " .", 3, 0},
		{"fifteen letters, fifteen moves", 0, "jprshjprshjprsh", 0, 15},
		{"the focused button's own letter, alone of its kind", 1, "j", 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, mvs := typeFocus(menu, tc.at, []rune(tc.chars))
			if got != tc.want || mvs != tc.mvs {
				t.Errorf("typeFocus(at %d, %q) = %d after %d moves, want %d after %d", tc.at, tc.chars, got, mvs, tc.want, tc.mvs)
			}
		})
	}
}

// slowDraw is how long each frame's Draw takes in TestWindowSlowKeys: a
// machine that draws 10 frames a second.
const slowDraw = 100 * time.Millisecond

// slowKeys drives an App whose every Draw takes slowDraw, while xdotool
// types into its window; Update runs the steps in order.
type slowKeys struct {
	*App
	t     *testing.T
	step  int
	typed chan error // xdotool's result
	wait  int        // updates spent waiting in this step
	sent  string     // what xdotool typed in this step

	menuMoves, arrowMoves int    // focus moves counted in the menu steps
	field                 string // the text field's text after the typing
	perTick               int    // most characters one update delivered
	batches               []int  // characters delivered by each update that had some
}

// typeKeys runs xdotool: the window of this process gets the input
// focus, then args (a type or key command) go to it.
func (g *slowKeys) typeKeys(args ...string) {
	g.typed = make(chan error, 1)
	g.wait = 0
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, "xdotool", "search", "--sync", "--pid", strconv.Itoa(os.Getpid())).Output()
		if err != nil {
			g.typed <- err
			return
		}
		win := strings.Fields(string(out))
		if len(win) == 0 {
			g.typed <- errors.New("xdotool found no window of this process")
			return
		}
		var stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, "xdotool", append([]string{"windowfocus", "--sync", win[len(win)-1]}, args...)...)
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			err = errors.Join(err, errors.New(stderr.String()))
		}
		g.typed <- err
	}()
}

// typingDone reports whether xdotool has finished and the App has had
// settle more updates since, failing the test if xdotool failed.
func (g *slowKeys) typingDone(settle int) bool {
	if g.typed != nil {
		select {
		case err := <-g.typed:
			g.typed = nil
			if err != nil {
				g.t.Errorf("xdotool: %v", err)
				g.step = 99
			}
		default:
		}
		return false
	}
	g.wait++
	return g.wait > settle
}

// fifteen letters, each moving the main menu's focus (Host game, Join
// game, Practice, Replays, Settings, High scores).
const menuLetters = "jprshjprshjprsh"

// fifteen characters for a text field.
const fieldText = "abcdefghij12345"

func (g *slowKeys) Update() error {
	a := g.App
	if a.state != nil && len(a.state.Chars) > 0 {
		g.batches = append(g.batches, len(a.state.Chars))
		g.perTick = max(g.perTick, len(a.state.Chars))
	}
	switch g.step {
	case 0: // the main menu, shown a while
		if a.flow.screen == screenMenu && a.frames > 30 {
			a.typedMoves = 0
			g.typeKeys("type", "--delay", "25", menuLetters)
			g.step++
		}
	case 1:
		if g.typingDone(10) {
			g.menuMoves = a.typedMoves
			// The same fifteen presses as arrows: logged, not asserted
			// (Ebitengine keeps one state per key a frame).
			g.arrowMoves = 0
			g.typeKeys(append([]string{"key", "--delay", "25"}, strings.Fields(strings.Repeat("Down ", 15))...)...)
			g.step++
		}
	case 2:
		if g.typingDone(10) {
			a.emit(Intent{Kind: IntentOpenJoin})
			g.step++
		}
	case 3: // Join: the address field focused and empty
		if a.flow.screen != screenJoin {
			break
		}
		for _, f := range a.ui.Container.GetFocusers() {
			if in, ok := f.(*widget.TextInput); ok {
				in.SetText("")
				a.ui.SetFocusedWidget(in)
				g.typeKeys("type", "--delay", "25", fieldText)
				g.step++
				break
			}
		}
	case 4:
		if g.typingDone(10) {
			if f := a.focusedField(); f != nil {
				g.field = f.GetText()
			}
			g.step = 99
		}
	case 99:
		return ebiten.Termination
	}
	// The focus moves of the arrows, counted where they are read.
	before := a.ui.GetFocusedWidget()
	err := a.Update()
	if g.step == 2 && g.typed != nil && a.ui.GetFocusedWidget() != before {
		g.arrowMoves++
	}
	return err
}

func (g *slowKeys) Draw(screen *ebiten.Image) {
	g.App.Draw(screen)
	time.Sleep(slowDraw) // the slow machine this test is about
}

// TestWindowSlowKeys: keys typed quickly while every frame takes 100 ms
// to draw all arrive: fifteen letters typed within about four frames move
// the main menu's focus fifteen times, and fifteen characters typed into
// a text field are all in it. Needs xdotool (Debian: xdotool) and a
// display; run under xvfb-run -a.
func TestWindowSlowKeys(t *testing.T) {
	if !inWindowProcess(t) {
		return
	}
	if _, err := exec.LookPath("xdotool"); err != nil {
		t.Skip("needs xdotool (Debian: xdotool) to type into the window")
	}
	app, err := NewApp(Options{ConfigDir: t.TempDir(), Silent: true})
	if err != nil {
		t.Fatalf("NewApp: %v", err)
	}
	g := &slowKeys{App: app, t: t}
	stop := make(chan struct{})
	app.opt.Stop = stop
	deadline := time.AfterFunc(2*time.Minute, func() { close(stop) })
	defer deadline.Stop()
	if err := app.runGame(g); err != nil {
		if errors.Is(err, ErrNoWindow) {
			t.Skipf("no window on DISPLAY=%q: %v", os.Getenv("DISPLAY"), err)
		}
		t.Fatalf("run: %v", err)
	}
	t.Logf("slow frames of %v: the characters typed arrived %v a update; 15 presses of ↓ moved the focus %d times (Ebitengine keeps one state per key a frame)", slowDraw, g.batches, g.arrowMoves)
	if g.menuMoves != len(menuLetters) {
		t.Errorf("%d letters typed in the main menu moved the focus %d times, want %d", len(menuLetters), g.menuMoves, len(menuLetters))
	}
	if g.field != fieldText {
		t.Errorf("typed %q into the address field, it holds %q", fieldText, g.field)
	}
	if g.perTick < 2 {
		t.Logf("no update delivered more than one character: the frames were not slow enough to test batching")
	}
}
