package ui

import (
	"os"
	"strings"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/game/fixed"
	"rockstep/internal/highscore"
)

// addSaucers puts a large and a small saucer on the field of practice
// game s, about to fire, and moves the rocks out of their way (a rock in
// it would break them first).
func addSaucers(s *playScene) {
	wd := &s.world
	at := func(x, y int) fixed.Vec { return fixed.Vec{X: fixed.Int(x), Y: fixed.Int(y)} }
	wd.Saucers[0] = game.Saucer{ID: wd.NextID, Pos: at(150, 150), Vel: fixed.Vec{X: game.LargeSaucerSpeed}, Size: game.LargeSaucer, Life: 600, FireIn: 10, TurnIn: 200}
	wd.Saucers[1] = game.Saucer{ID: wd.NextID + 1, Pos: at(1130, 600), Vel: fixed.Vec{X: -game.SmallSaucerSpeed}, Size: game.SmallSaucer, Life: 600, FireIn: 22, TurnIn: 200}
	wd.NextID += 2
	wd.NumSaucer = 2
	spots := [...][2]int{{380, 390}, {920, 320}, {1160, 420}, {140, 400}}
	for k := range wd.LiveRocks() {
		rk := &wd.Rocks[k]
		sp := spots[k%len(spots)]
		rk.Pos = at(sp[0]+60*(k/len(spots)), sp[1])
		rk.Vel.Y /= 4
	}
	s.prev = *wd
}

// rulesShots are the screenshots TestRulesScreens takes, in order.
var rulesShots = []string{"saucers", "hyperspace-out", "hyperspace-in", "highscores"}

// TestRulesScreens plays a practice game in a real window and saves a
// screenshot of two saucers firing, a jump into hyperspace and the way
// out, and the high scores a game over enters (ROCKSTEP_SHOTS=DIR keeps
// them; docs/ holds copies). Like TestScreens it runs in a process of its
// own.
//
//	xvfb-run -a -s "-screen 0 1280x720x24" go test -run RulesScreens ./ui/
func TestRulesScreens(t *testing.T) {
	sizedShots(t, walkRules, rulesShots)
}

func walkRules(t *testing.T) {
	cfg := t.TempDir()
	// Some games already in the tables, for the high scores to look lived in.
	var tab highscore.Tables
	day := time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC)
	for i, e := range []struct {
		name  string
		score uint32
		wave  uint8
	}{{"Ada", 18450, 7}, {"Grace", 12020, 5}, {"Ada", 9870, 4}, {"Linus", 6110, 3}, {"Grace", 2430, 2}} {
		tab.Add(highscore.Practice, highscore.Entry{Name: e.name, Score: e.score, Wave: e.wave, Date: day.AddDate(0, 0, -i)})
		tab.Add(highscore.Coop, highscore.Entry{Name: e.name, Score: e.score * 2, Wave: e.wave + 2, Date: day.AddDate(0, 0, -2*i)})
	}
	if err := highscore.Save(cfg, tab); err != nil {
		t.Fatal(err)
	}
	app, err := NewApp(Options{Seed: 11, Practice: true, ConfigDir: cfg, Name: "Grace", Silent: true})
	if err != nil {
		t.Fatalf("NewApp: %v", err)
	}
	defer app.Close()
	w := &walker{App: app, t: t, dir: os.Getenv(envShotsDir)}
	var jumpAt int = -1
	app.script = func(n int) Intents {
		if n == jumpAt {
			return Intents{Ship: game.Hyperspace}
		}
		return Intents{}
	}
	practice := func() *playScene { s, _ := w.App.practice(); return s }
	saucersOn := false
	w.stages = []stage{
		{name: "saucers", act: func(w *walker) { practice().hint.left = 0 }, done: func(w *walker) bool {
			// Two saucers come on after the wave's banner.
			s := practice()
			if s.bannerLeft > 0 {
				return false
			}
			if s.world.NumSaucer == 0 && !saucersOn {
				saucersOn = true
				addSaucers(s)
			}
			n := 0
			for _, b := range s.world.LiveBullets() {
				if b.Owner == game.SaucerOwner {
					n++
				}
			}
			return n >= 2
		}, wait: 6},
		{name: "hyperspace-out", act: func(w *walker) { jumpAt = w.frames },
			done: func(w *walker) bool { return practice().world.Ships[me].Jump == game.HyperspaceDelay-5 }},
		{name: "hyperspace-in", done: func(w *walker) bool {
			sh := &practice().world.Ships[me]
			return sh.Jump == 0 && sh.JumpCool == game.HyperspaceCooldown-game.HyperspaceDelay-7
		}},
		{name: "highscores", act: func(w *walker) {
			s := practice()
			s.world.Ships[me].Score, s.world.Wave = 11250, 5
			s.world.Over = true
		}, done: func(w *walker) bool { return w.cur2() == screenScores }, wait: 10},
	}
	runWindow(t, app, w)
	if w.err != nil {
		t.Fatal(w.err)
	}
	if strings.Join(w.shots, " ") != strings.Join(rulesShots, " ") {
		t.Fatalf("took %v, want %v", w.shots, rulesShots)
	}
}
