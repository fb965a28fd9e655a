package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rockstep/game"
	"rockstep/internal/highscore"
)

func TestScoresFlow(t *testing.T) {
	f := &flow{screen: screenMenu}
	f.apply(Intent{Kind: IntentOpenScores})
	wantScreen(t, "menu: high scores", f, screenScores)
	if f.scoresMark.rank != -1 {
		t.Errorf("from the menu, entry %d lit, want none", f.scoresMark.rank)
	}
	f.apply(Intent{Kind: IntentBack})
	wantScreen(t, "high scores: back", f, screenMenu)

	f = &flow{screen: screenResults}
	f.apply(Intent{Kind: IntentOpenScores, Mark: scoresMark{kind: highscore.Coop, rank: 2}})
	wantScreen(t, "results: high scores", f, screenScores)
	if f.observe(netStatus{active: true}) != nil || f.screen != screenScores {
		t.Errorf("the room's status moved the high scores to %v", f.screen)
	}
	f.apply(Intent{Kind: IntentBack})
	wantScreen(t, "high scores: back to the results", f, screenResults)

	f = &flow{screen: screenPractice}
	f.apply(Intent{Kind: IntentOpenScores, Mark: scoresMark{rank: 0}})
	wantEffects(t, "high scores: play again", f.apply(Intent{Kind: IntentPractice}), effPractice)
	wantScreen(t, "high scores: play again", f, screenPractice)
}

// TestPracticeGameOverEntersTheHighScores: a practice game over with a
// score enters it in the table, saves the table beside the settings, and
// shows it a while later with the entry lit; the same game is entered
// once.
func TestPracticeGameOverEntersTheHighScores(t *testing.T) {
	app := newTestApp(t, func(int) Intents { return Intents{} })
	update := func(k int) {
		t.Helper()
		for range k {
			if err := app.Update(); err != nil {
				t.Fatal(err)
			}
		}
	}
	update(2)
	s := play(t, app)
	s.world.Ships[me].Score, s.world.Wave = 4321, 4
	s.world.Over = true
	update(1)
	if s.best != 0 || len(app.scores.Practice) != 1 || app.scores.Practice[0].Score != 4321 || app.scores.Practice[0].Wave != 4 {
		t.Fatalf("rank %d, table %+v: want the score entered first", s.best, app.scores.Practice)
	}
	data, err := os.ReadFile(filepath.Join(app.settingsDir, highscore.File))
	if err != nil || !strings.Contains(string(data), "4321") {
		t.Fatalf("high scores file: %v\n%s", err, data)
	}
	update(scoresAfter + 1) // the intent is carried out at the next update
	if app.cur.id() != screenScores {
		t.Fatalf("screen %v %d ticks after the game over, want the high scores", app.cur.id(), scoresAfter)
	}
	shown := app.cur.(*scoresScreen).shown
	if len(shown) != 1 || !strings.Contains(shown[0], "practice 1. ") || !strings.Contains(shown[0], "4321") {
		t.Errorf("shown %q, want the one practice entry", shown)
	}
	if app.flow.scoresMark != (scoresMark{kind: highscore.Practice, rank: 0}) {
		t.Errorf("lit %+v, want practice #1", app.flow.scoresMark)
	}
	if len(app.scores.Practice) != 1 {
		t.Errorf("the game was entered %d times", len(app.scores.Practice))
	}
}

// TestDamagedHighScoresGiveAMessage: a damaged high-score file starts the
// game with empty tables and a line on the main menu, never an error.
func TestDamagedHighScoresGiveAMessage(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, highscore.File), []byte("{\"practice\": [oops"), 0o644); err != nil {
		t.Fatal(err)
	}
	app, err := NewApp(Options{Seed: 5, ConfigDir: dir, Silent: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(app.scores.Practice) != 0 || !strings.Contains(app.flow.notice, "high scores") {
		t.Errorf("tables %+v, notice %q: want empty tables and a message", app.scores, app.flow.notice)
	}
}

// TestRecordScoreOncePerGame: a game's end shown twice (the results, the
// high scores, the results again) enters its score once and gives the
// same rank both times; a spectator enters nothing.
func TestRecordScoreOncePerGame(t *testing.T) {
	app := newTestApp(t, func(int) Intents { return Intents{} })
	var w game.World
	w.Ships[2].Score, w.Wave = 3000, 3
	if got := app.recordScore(highscore.Coop, &w, -1, "spectating"); got != -1 || len(app.scores.Coop) != 0 {
		t.Fatalf("a spectator's game: rank %d, table %+v; want none", got, app.scores.Coop)
	}
	first := app.recordScore(highscore.Coop, &w, 2, "co-op 1 900")
	again := app.recordScore(highscore.Coop, &w, 2, "co-op 1 900")
	if first != 0 || again != 0 || len(app.scores.Coop) != 1 || app.scores.Coop[0].Score != 3000 {
		t.Errorf("ranks %d, %d, table %+v: want the game entered once, first", first, again, app.scores.Coop)
	}
	if got := app.recordScore(highscore.Coop, &w, 2, "co-op 2 900"); got != 1 || len(app.scores.Coop) != 2 {
		t.Errorf("another game with the same score: rank %d, want 1 (after the earlier one)", got)
	}
}
