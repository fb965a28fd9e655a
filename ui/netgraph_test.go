package ui

import (
	"math"
	"strings"
	"testing"
	"time"

	"rockstep/assets"
	"rockstep/game"
	"rockstep/net/lockstep"
)

func TestNetGraphSamplesRatesEveryTenthOfASecond(t *testing.T) {
	var g netGraph
	st := lockstep.Stats{RTT: 12 * time.Millisecond}
	if g.sample(0, st) {
		t.Fatal("the first call took a sample; it only sets the baseline")
	}
	if g.sample(50*time.Millisecond, st) {
		t.Fatal("sampled before 100 ms had passed")
	}
	st.PacketsOut, st.PacketsIn = 3, 5
	st.BytesOut, st.BytesIn = 300, 1000
	st.Resends = 1
	st.Stall = 20 * time.Millisecond
	st.TurnsBuffered, st.Drift = 2, 4*time.Millisecond
	st.Predicted, st.Resims, st.Mispredicted = 3, 6, 2
	if !g.sample(100*time.Millisecond, st) {
		t.Fatal("no sample at 100 ms")
	}
	got := g.latest()
	want := [numSeries]float64{
		gPing: 12, gPktOut: 30, gPktIn: 50, gLoss: 100.0 / 3, gKbpsOut: 24, gKbpsIn: 80,
		gBuffered: 2, gStall: 200, gDrift: 4,
		gPredicted: 3, gRollbacks: 60, gCorrections: 20,
	}
	for s := range want {
		if math.Abs(got[s]-want[s]) > 1e-9 {
			t.Errorf("%s = %v, want %v", seriesNames[s], got[s], want[s])
		}
	}
	// Ten seconds of history, no more.
	for i := 2; i < 3*graphLen; i++ {
		g.sample(time.Duration(i)*100*time.Millisecond, st)
	}
	if g.n != graphLen {
		t.Errorf("%d samples held, want %d", g.n, graphLen)
	}
	if got := g.latest()[gPktOut]; got != 0 {
		t.Errorf("rate %v with no new packets, want 0", got)
	}
	if s := formatSeries(gPing, 4.44); s != "4.4 ms" {
		t.Errorf("formatSeries = %q", s)
	}
}

func TestSoundCues(t *testing.T) {
	a, err := assets.Load()
	if err != nil {
		t.Fatal(err)
	}
	fx := a.Sounds
	var prev, cur game.World
	cur.Ships[1].Alive, cur.Ships[1].Thrust = true, 2
	prev.Ships[1].Thrust = 1
	cs := cues(fx, []game.Event{
		{Kind: game.ShotFired, Slot: 1},
		{Kind: game.ShotFired, Slot: 2},
		{Kind: game.RockDestroyed, Size: game.Big},
		{Kind: game.ShipDestroyed, Slot: 3},
		{Kind: game.ShipRespawned, Slot: 1},
		{Kind: game.WaveStarted, Value: 2},
	}, &prev, &cur, 1)
	if len(cs) != 6 {
		t.Fatalf("%d cues, want 6 (five events with a sound, and thrust)", len(cs))
	}
	if &cs[0].pcm[0] != &fx.Shot[0] || &cs[3].pcm[0] != &fx.Boom[0] || &cs[5].pcm[0] != &fx.Thrust[0] {
		t.Error("wrong sounds")
	}
	if cs[0].gain <= cs[1].gain {
		t.Errorf("own shot gain %v not above another's %v", cs[0].gain, cs[1].gain)
	}
	if got := cues(fx, nil, &cur, &prev, 1); len(got) != 0 {
		t.Errorf("thrust lowered: %d cues, want none", len(got))
	}
	if got := cues(fx, nil, &prev, &cur, -1); len(got) != 0 {
		t.Errorf("a spectator hears thrust: %d cues", len(got))
	}
}

// TestSoundCuesOfTheNewRules: an extra life chimes (louder for one's own),
// hyperspace whooshes both ways, a saucer sounds as it comes, fires and
// breaks.
func TestSoundCuesOfTheNewRules(t *testing.T) {
	a, err := assets.Load()
	if err != nil {
		t.Fatal(err)
	}
	fx := a.Sounds
	var w game.World
	tests := []struct {
		name string
		e    game.Event
		pcm  []byte
	}{
		{"my extra life", game.Event{Kind: game.ExtraLife, Slot: 1}, fx.ExtraLife},
		{"into hyperspace", game.Event{Kind: game.HyperspaceOut, Slot: 1}, fx.Warp},
		{"out of hyperspace", game.Event{Kind: game.HyperspaceIn, Slot: 2}, fx.Warp},
		{"a saucer comes", game.Event{Kind: game.SaucerAppeared, Slot: -1}, fx.Saucer},
		{"a saucer fires", game.Event{Kind: game.SaucerFired, Slot: -1}, fx.Shot},
		{"a saucer breaks", game.Event{Kind: game.SaucerDestroyed, Slot: 1}, fx.Explosion},
	}
	for _, tt := range tests {
		cs := cues(fx, []game.Event{tt.e}, &w, &w, 1)
		if len(cs) != 1 || &cs[0].pcm[0] != &tt.pcm[0] || cs[0].gain <= 0 {
			t.Errorf("%s: cues %d, want the one sound", tt.name, len(cs))
		}
	}
	mine := cues(fx, []game.Event{{Kind: game.ExtraLife, Slot: 1}}, &w, &w, 1)
	theirs := cues(fx, []game.Event{{Kind: game.ExtraLife, Slot: 3}}, &w, &w, 1)
	if mine[0].gain <= theirs[0].gain {
		t.Errorf("own extra life gain %v not above another's %v", mine[0].gain, theirs[0].gain)
	}
}

// With no audio device the game is silent and goes on: nothing plays,
// nothing fails, nothing ends the program.
func TestNoAudioDeviceIsSilent(t *testing.T) {
	a, err := assets.Load()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvAudio, "off")
	s := newSound(a.Sounds, 80)
	if s.ctx != nil {
		t.Fatal("an audio context was opened with ROCKSTEP_AUDIO=off")
	}
	w := game.StandardScene(1)
	s.react([]game.Event{{Kind: game.ShipDestroyed}}, w, w, 0)
	var none *sound
	none.react([]game.Event{{Kind: game.ShotFired}}, w, w, 0)
	none.setVolume(50)
	if ok, why := audioDevice(); !ok && why == "" {
		t.Error("no device, and no reason given")
	}
}

func TestParseAutopilot(t *testing.T) {
	ap, err := ParseAutopilot("join-lan; ready ;fly 1200;linger 2; quit", nil)
	if err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, s := range ap.steps {
		ops = append(ops, s.op)
	}
	if strings.Join(ops, ",") != "join-lan,ready,fly,linger,quit" || ap.steps[2].n != 1200 {
		t.Errorf("steps %+v", ap.steps)
	}
	for _, bad := range []string{"", "fly", "fly x", "start 0", "dance", "join"} {
		if _, err := ParseAutopilot(bad, nil); err == nil {
			t.Errorf("ParseAutopilot(%q) accepted", bad)
		}
	}
	// The hash is logged at the first turn that ends at or past the tick.
	var w game.World
	ap.hashTick = 100
	w.Tick = 98
	ap.turnEnd(49, 1, &w)
	w.Tick = 101
	ap.turnEnd(50, 0xabc, &w)
	w.Tick = 104
	ap.turnEnd(51, 2, &w)
	if ap.hashLine != "hash tick=101 turn=50 hash=0000000000000abc" {
		t.Errorf("hash line %q", ap.hashLine)
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

func TestNetGraphCountsNoLossOrStallWhilePaused(t *testing.T) {
	var g netGraph
	st := lockstep.Stats{}
	g.sample(0, st)
	// Paused: the session sends little but resends, and waits for turns
	// on purpose.
	g.paused = true
	st.PacketsOut, st.Resends, st.Stall = 4, 4, 100*time.Millisecond
	if !g.sample(100*time.Millisecond, st) {
		t.Fatal("no sample at 100 ms")
	}
	if got := g.latest(); got[gLoss] != 0 || got[gStall] != 0 {
		t.Errorf("paused: loss %v %%, stall %v ms/s, want 0 and 0", got[gLoss], got[gStall])
	}
	// Playing again: the same counts are loss and stall.
	g.paused = false
	st.PacketsOut, st.Resends, st.Stall = 8, 8, 200*time.Millisecond
	g.sample(200*time.Millisecond, st)
	if got := g.latest(); got[gLoss] != 100 || got[gStall] != 1000 {
		t.Errorf("playing: loss %v %%, stall %v ms/s, want 100 and 1000", got[gLoss], got[gStall])
	}
}

func TestSpectatorsSeeNoInputDelay(t *testing.T) {
	if got := netLine(3, 33); !strings.Contains(got, "input delay 33 ms") {
		t.Errorf("a player's line %q, want the input delay", got)
	}
	if got := netLine(3, -1); strings.Contains(got, "delay") || !strings.Contains(got, "ping 3 ms") {
		t.Errorf("a spectator's line %q, want the ping and no input delay", got)
	}
}
