package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ebitenui/ebitenui/widget"

	"rockstep/game"
)

func TestResultRanksShowTiesAsTies(t *testing.T) {
	tests := []struct {
		name  string
		lines []resultLine
		want  []int
	}{
		{"co-op, all different", []resultLine{{score: 30}, {score: 20}, {score: 10}}, []int{1, 2, 3}},
		{"co-op, a tie at the top", []resultLine{{score: 30}, {score: 30}, {score: 10}}, []int{1, 1, 3}},
		{"co-op, everyone tied", []resultLine{{score: 0}, {score: 0}}, []int{1, 1}},
		{"versus winner above an equal score", []resultLine{{score: 30, winner: true}, {score: 30}, {score: 30}}, []int{1, 2, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := resultRanks(tc.lines); !slices.Equal(got, tc.want) {
				t.Errorf("ranks %v, want %v", got, tc.want)
			}
		})
	}
}

func TestTheWinnersStarIsDrawn(t *testing.T) {
	img := starPicture(starSize, colWarn)
	centre := img.RGBAAt(starSize/2, starSize/2+1)
	corner := img.RGBAAt(0, 0)
	if centre.A != 255 || centre.R != colWarn.R {
		t.Errorf("centre %v, want the gold %v", centre, colWarn)
	}
	if corner.A != 0 {
		t.Errorf("corner %v, want transparent", corner)
	}
	// The top point, under the centre line; not the space between points.
	if top := img.RGBAAt(starSize/2, 2); top.A == 0 {
		t.Error("no top point")
	}
	if gap := img.RGBAAt(starSize/2, starSize-2); gap.A != 0 {
		t.Errorf("the gap between the lower points is %v, want transparent", gap)
	}
}

// TestResultsLinesAndTitle: the results screen shows the confirmed table
// as the engine orders it (winner first in versus), names the winner in
// the title, marks those who left, and falls back to the roster's names
// for a table without them.
func TestResultsLinesAndTitle(t *testing.T) {
	w, err := game.New(game.Setup{Players: 0b111, Mode: game.Versus, Lives: 1, StartWave: 1})
	if err != nil {
		t.Fatal(err)
	}
	w.Ships[0].Score, w.Ships[1].Score, w.Ships[2].Score = 500, 900, 100
	w.Ships[1].Present = false
	w.Over, w.Winner = true, 2
	r := w.Results([game.MaxPlayers]string{"Ada", "", "Cy"})
	lines := results(&r, func(i int) string { return "roster " + string(rune('A'+i)) })
	var got []string
	for _, l := range lines {
		got = append(got, l.name)
	}
	if strings.Join(got, ",") != "Cy,roster B,Ada" || !lines[0].winner || lines[1].winner || !lines[1].left {
		t.Errorf("lines %v (winner first, then by score), winner %v %v, left %v", got, lines[0].winner, lines[1].winner, lines[1].left)
	}
	if title, sub := resultsTitle(&r, lines); title != "Cy wins" || !strings.Contains(sub, "Versus") {
		t.Errorf("title %q / %q", title, sub)
	}
	w.Over = false
	r = w.Results([game.MaxPlayers]string{"Ada", "Bo", "Cy"})
	if title, _ := resultsTitle(&r, results(&r, nil)); title != "GAME ENDED" {
		t.Errorf("a game the host ended: title %q", title)
	}
}

// Enter after a game goes back to the lobby, not out of the room: the
// results focus Back to lobby while it is offered, Main menu once the
// room is gone.
func TestResultsFocusBackToLobby(t *testing.T) {
	app := newTestApp(t, func(int) Intents { return Intents{} })
	app.flow.screen = screenResults
	s := newResultsScreen(app)
	app.cur, app.ui.Container = s, s.root()
	var in Intents
	app.navigate(&in)
	if got := app.ui.GetFocusedWidget(); got != s.rematch {
		t.Errorf("focused %q, want Back to lobby", buttonLabel(got))
	}
	app.flow.roomGone = "The room has closed."
	if err := s.update(Intents{}); err != nil {
		t.Fatal(err)
	}
	app.ui.SetFocusedWidget(nil)
	app.navigate(&in)
	if got := app.ui.GetFocusedWidget(); got == nil || got == s.rematch {
		t.Errorf("room gone: focused %q, want Main menu", buttonLabel(got))
	}
}

// buttonLabel names a focused widget by its text, if it is a button.
func buttonLabel(f widget.Focuser) string {
	if b, ok := f.(*widget.Button); ok {
		return b.Text().Label
	}
	return fmt.Sprintf("%T", f)
}

// TestSentAwayIsMarkedInTheResults: a player the room sent away for
// straying is marked so in the results, not as one who left; one who
// left is marked as ever, and one who played on is not marked.
func TestSentAwayIsMarkedInTheResults(t *testing.T) {
	w, err := game.New(game.Setup{Players: 0b111, Mode: game.Coop, Lives: 1, StartWave: 1})
	if err != nil {
		t.Fatal(err)
	}
	w.Ships[0].Score, w.Ships[1].Score, w.Ships[2].Score = 300, 200, 100
	w.Ships[1].Present, w.Ships[2].Present = false, false
	r := w.Results([game.MaxPlayers]string{"Ada", "Bo", "Cy"})
	var away [game.MaxPlayers]bool
	away[1] = true
	want := map[string]string{"Ada": "", "Bo": "  (sent away)", "Cy": "  (left)"}
	for _, l := range markSentAway(results(&r, nil), away) {
		if got := l.mark(); got != want[l.name] {
			t.Errorf("%s: marked %q, want %q", l.name, got, want[l.name])
		}
	}
}
