package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"rockstep/net/bots"
	"rockstep/net/host"
)

// replayShots are the screenshots TestReplayScreens takes, in order.
var replayShots = []string{"replays", "report", "replay", "replay-seek"}

// TestReplayScreens opens the Replays screen on a folder holding one
// replay and one desynced game with its report, reads the report, watches
// the replay mid-game with the control bar, and seeks by clicking the
// timeline, saving a screenshot of each (ROCKSTEP_SHOTS=DIR keeps them).
// Like TestScreens it runs in a process of its own.
func TestReplayScreens(t *testing.T) {
	sizedShots(t, walkReplays, replayShots)
}

// replayFolder makes a settings folder whose replays folder holds a
// replay and a desynced game's replay with its report, and returns the
// folder and the plain replay's path.
func replayFolder(t *testing.T) (cfg, plain string) {
	t.Helper()
	cfg = t.TempDir()
	rdir := replaysDir(cfg)
	if err := os.MkdirAll(rdir, 0o755); err != nil {
		t.Fatal(err)
	}
	plain = filepath.Join(rdir, "20250301-201500-Friday_night.rsrp")
	if err := os.WriteFile(plain, testReplay(t), 0o644); err != nil {
		t.Fatal(err)
	}
	desynced := filepath.Join(rdir, "20250301-193000-Ada_s_game.rsrp")
	l, err := bots.NewLocal(bots.Config{Bots: 3, Ticks: 1200, Seed: 8, Fast: true, Record: desynced, NoRepair: true})
	if err != nil {
		t.Fatal(err)
	}
	l.Bots[1].CorruptAfterTurn = 300
	if _, err := l.Run(); err != nil {
		t.Fatal(err)
	}
	if _, err := host.WriteReport(desynced); err != nil {
		t.Fatal(err)
	}
	return cfg, plain
}

func walkReplays(t *testing.T) {
	cfg, plain := replayFolder(t)
	app, err := NewApp(Options{Seed: 7, ConfigDir: cfg, Silent: true})
	if err != nil {
		t.Fatalf("NewApp: %v", err)
	}
	defer app.Close()
	w := &walker{App: app, t: t, dir: os.Getenv(envShotsDir)}
	app.script = func(int) Intents { return Intents{} }
	viewer := func() *replayScreen { s, _ := w.App.cur.(*replayScreen); return s }
	// The click on the timeline: pressed at three quarters of it.
	var click struct{ x, y, frames int }
	sought := false
	w.stages = []stage{
		{name: "replays", act: func(w *walker) { w.emit(Intent{Kind: IntentOpenReplays}) },
			done: func(w *walker) bool {
				s, ok := w.App.cur.(*replaysScreen)
				return ok && len(s.entries) == 2
			}, wait: 10},
		{name: "report", act: func(w *walker) {
			s := w.App.cur.(*replaysScreen)
			for _, e := range s.entries {
				if e.Report != "" {
					s.showReport(e)
				}
			}
		}, done: func(w *walker) bool { return true }, wait: 10},
		{name: "replay", act: func(w *walker) { w.emit(Intent{Kind: IntentWatch, Path: plain}) },
			done: func(w *walker) bool {
				s := viewer()
				if s == nil || s.p == nil {
					return false
				}
				if !sought {
					sought = true
					s.seek(s.p.length() * 2 / 5)
					s.p.setSpeed(2)
				}
				return s.p.pos > s.p.length()/2 && s.fx.Len() > 10
			}},
		{name: "replay-seek", act: func(w *walker) {
			s := viewer()
			s.p.paused = true
			r := s.timelineRect()
			click.x, click.y = r.Min.X+r.Dx()*3/4, (r.Min.Y+r.Max.Y)/2
			s.mouse = func() (int, int, bool, bool) {
				click.frames++
				return click.x, click.y, click.frames < 3, click.frames == 1
			}
		}, done: func(w *walker) bool {
			s := viewer()
			want := s.p.length() * 3 / 4
			return click.frames > 3 && s.p.pos > want-s.p.length()/50 && s.p.pos < want+s.p.length()/50
		}, wait: 5},
	}
	runWindow(t, app, w)
	if w.err != nil {
		t.Fatal(w.err)
	}
	if fmt.Sprint(w.shots) != fmt.Sprint(replayShots) {
		t.Fatalf("took %v, want %v", w.shots, replayShots)
	}
}
