package ui

import (
	"errors"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"math"
	"rockstep/game"
	"rockstep/game/fixed"
	"time"
)

// newTestApp returns an app driven by script; it needs no window until it
// is drawn.
func newTestApp(t *testing.T, script func(n int) Intents) *App {
	t.Helper()
	app, err := NewApp(Options{Seed: 5, Practice: true, ConfigDir: t.TempDir(), Silent: true})
	if err != nil {
		t.Fatalf("NewApp: %v", err)
	}
	app.script = script
	return app
}

func play(t *testing.T, app *App) *playScene {
	t.Helper()
	s, ok := app.practice()
	if !ok {
		t.Fatalf("screen is %T, want a practice game", app.cur)
	}
	return s
}

func TestEscGoesToTheMenuAndQuitEnds(t *testing.T) {
	app := newTestApp(t, func(n int) Intents { return Intents{Quit: n == 3} })
	for n := 0; n < 4; n++ {
		if err := app.Update(); err != nil {
			t.Fatalf("update %d: %v", n, err)
		}
	}
	if !app.flow.gameMenu || app.cur.id() != screenPractice {
		t.Fatalf("after Esc in practice: screen %v, menu open %v; want the practice menu", app.cur.id(), app.flow.gameMenu)
	}
	app.emit(Intent{Kind: IntentMainMenu})
	if err := app.Update(); err != nil {
		t.Fatal(err)
	}
	if app.flow.screen != screenMenu || app.cur.id() != screenMenu {
		t.Fatalf("after Main menu: screen %v, want the menu", app.cur.id())
	}
	app.emit(Intent{Kind: IntentQuit})
	if err := app.Update(); !errors.Is(err, ebiten.Termination) {
		t.Errorf("update after Quit = %v, want ebiten.Termination", err)
	}
}

// TestPracticeMenuPausesResumesRestarts: Esc opens the practice menu and
// the game waits; Resume goes on from there; Restart starts a new game;
// Esc again closes the menu.
func TestPracticeMenuPausesResumesRestarts(t *testing.T) {
	esc := -1
	app := newTestApp(t, func(n int) Intents { return Intents{Ship: game.Up, Quit: n == esc} })
	update := func(k int) {
		t.Helper()
		for range k {
			if err := app.Update(); err != nil {
				t.Fatal(err)
			}
		}
	}
	update(10)
	esc = app.frames
	update(1)
	at := play(t, app).world.Tick
	update(30)
	if got := play(t, app).world.Tick; got != at || !app.flow.gameMenu {
		t.Fatalf("menu open: tick %d → %d (menu %v), want the game to wait", at, got, app.flow.gameMenu)
	}
	if len(app.cur.root().Children()) == 0 {
		t.Error("the menu's widgets are not on screen")
	}
	app.emit(Intent{Kind: IntentResume})
	update(5)
	if got := play(t, app).world.Tick; got != at+5 || app.flow.gameMenu {
		t.Fatalf("after Resume: tick %d (menu %v), want %d", got, app.flow.gameMenu, at+5)
	}
	if len(app.cur.root().Children()) != 0 {
		t.Error("the menu's widgets stay on screen after Resume")
	}
	esc = app.frames
	update(1)
	app.emit(Intent{Kind: IntentRestart})
	update(1)
	if s := play(t, app); s.world.Tick != 1 || app.flow.gameMenu {
		t.Fatalf("after Restart: tick %d (menu %v), want a new game one tick in with the menu closed", s.world.Tick, app.flow.gameMenu)
	}
	esc = app.frames
	update(2)
	esc = app.frames
	update(1)
	if app.flow.gameMenu {
		t.Error("Esc twice left the menu open")
	}
}

// TestPracticeShipStartsAtTheCentre: in a practice game the ship is alone
// and starts at the centre of the field.
func TestPracticeShipStartsAtTheCentre(t *testing.T) {
	app := newTestApp(t, func(int) Intents { return Intents{} })
	sh := play(t, app).world.Ships[me]
	if want := (fixed.Vec{X: game.FieldW / 2, Y: game.FieldH / 2}); sh.Pos != want {
		t.Errorf("ship at %v, want the centre %v", sh.Pos, want)
	}
	if s := play(t, app).world.Setup; !s.Saucers || !s.Hyperspace {
		t.Errorf("practice setup %+v, want saucers and hyperspace", s)
	}
}

func TestEveryUpdateStepsTheEngineWithTheShipInput(t *testing.T) {
	app := newTestApp(t, func(int) Intents { return Intents{Ship: game.Right} })
	start := play(t, app).world.Ships[me].Angle
	for n := 0; n < 10; n++ {
		if err := app.Update(); err != nil {
			t.Fatal(err)
		}
	}
	s := play(t, app)
	if s.world.Tick != 10 {
		t.Errorf("engine at tick %d after 10 updates, want 10", s.world.Tick)
	}
	if got, want := s.world.Ships[me].Angle, start+10*game.RotateSpeed; got != want {
		t.Errorf("ship angle %d after turning right for 10 ticks, want %d", got, want)
	}
	if s.prev.Tick != 9 {
		t.Errorf("previous world at tick %d, want 9", s.prev.Tick)
	}
}

func TestPauseStopsTheEngine(t *testing.T) {
	// P at updates 2 and 8: the engine stands still from the first to the second.
	app := newTestApp(t, func(n int) Intents { return Intents{Pause: n == 2 || n == 8} })
	want := []uint32{1, 2, 2, 2, 2, 2, 2, 2, 3, 4, 5, 6} // engine tick after each update
	for n, w := range want {
		if err := app.Update(); err != nil {
			t.Fatal(err)
		}
		if got := play(t, app).world.Tick; got != w {
			t.Fatalf("update %d: engine at tick %d, want %d", n, got, w)
		}
	}
}

func TestEnterPlaysAgainOnlyAfterGameOver(t *testing.T) {
	enter := false
	app := newTestApp(t, func(int) Intents { return Intents{Confirm: enter} })
	first := play(t, app)

	enter = true
	if err := app.Update(); err != nil {
		t.Fatal(err)
	}
	if play(t, app) != first {
		t.Fatal("Enter during a game started another")
	}

	first.world.Over = true
	if err := app.Update(); err != nil {
		t.Fatal(err)
	}
	next := play(t, app)
	if next == first {
		t.Fatal("Enter after game over did not start a new game")
	}
	if next.seed != first.seed+1 {
		t.Errorf("new game seed %d, want %d", next.seed, first.seed+1)
	}
	if next.world.Over || next.world.Tick != 0 || next.world.Ships[me].Lives != 3 {
		t.Errorf("new game: over %v, tick %d, lives %d; want a fresh game", next.world.Over, next.world.Tick, next.world.Ships[me].Lives)
	}
}

func TestTickFraction(t *testing.T) {
	tick := time.Second / game.TicksPerSecond
	tests := []struct {
		elapsed time.Duration
		want    float64
	}{
		{-time.Millisecond, 0},
		{0, 0},
		{tick / 4, 0.25},
		{tick, 1},
		{3 * tick, 1},
	}
	for _, tc := range tests {
		if got := tickFraction(tc.elapsed); math.Abs(got-tc.want) > 1e-3 {
			t.Errorf("tickFraction(%v) = %v, want %v", tc.elapsed, got, tc.want)
		}
	}
}
