package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"rockstep/assets"
	"rockstep/net/lockstep"
	"rockstep/net/wire"
	"rockstep/ui/draw"
)

func TestSpectatorsSeeNoInputDelay(t *testing.T) {
	if got := netLine(3, 33, 0, false); !strings.Contains(got, "input delay 33 ms") {
		t.Errorf("a player's line %q, want the input delay", got)
	}
	if got := netLine(3, -1, 0, false); strings.Contains(got, "delay") || !strings.Contains(got, "ping 3 ms") {
		t.Errorf("a spectator's line %q, want the ping and no input delay", got)
	}
}

// TestNetLineSaysWhatIsHappening: while the room is silent the ping reads
// "—", not the last figure; a delay raised because this machine is slow
// says so; "F3 network" is the controls hint's to say, not this line's.
func TestNetLineSaysWhatIsHappening(t *testing.T) {
	if got := netLine(-1, 17, 0, false); !strings.HasPrefix(got, "ping —") || strings.Contains(got, "1 ms") {
		t.Errorf("silent room: %q, want ping —", got)
	}
	if got := netLine(3, 267, 0, true); !strings.Contains(got, "this computer is slow") {
		t.Errorf("slow machine: %q, want it said", got)
	}
	// The session's own tick rate says it too: below 60 a second the room
	// lengthens the turns for this machine, before its Slow status.
	if got := netLine(3, 50, 41, false); !strings.Contains(got, "this computer runs 41 of 60 ticks a second") {
		t.Errorf("machine at 41 ticks a second: %q, want it said", got)
	}
	for _, tps := range []int{0, 60, 61} {
		if got := netLine(3, 17, tps, false); strings.Contains(got, "computer") {
			t.Errorf("tick rate %d (0: not measured): %q, want nothing said of this computer", tps, got)
		}
	}
	if got := netLine(3, 17, 0, false); strings.Contains(got, "slow") || strings.Contains(got, "F3") {
		t.Errorf("quiet LAN: %q, want ping and delay only", got)
	}
}

// TestSilentRoomIsSaid: once the session reports the room silent for
// lockstep.SilentAfter during a flowing game, the overlay says so; less
// than that is not news.
func TestSilentRoomIsSaid(t *testing.T) {
	tests := []struct {
		name      string
		silence   time.Duration
		wantTitle string
	}{
		{"turns flowing", 0, ""},
		{"just under half a second", lockstep.SilentAfter - time.Millisecond, ""},
		{"half a second", lockstep.SilentAfter, "WAITING"},
		{"three seconds", 3 * time.Second, "WAITING"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &netPlayScreen{a: &App{}}
			s.a.nv.status = wire.RoomStatus{State: wire.StateRunning, Child: wire.ChildIterating}
			s.a.nv.silence = tt.silence
			title, sub, _ := s.overlay()
			if title != tt.wantTitle {
				t.Fatalf("title %q, want %q", title, tt.wantTitle)
			}
			if title != "" && !strings.Contains(sub, "waiting for the host…") {
				t.Errorf("line %q, want it to say it waits for the host", sub)
			}
		})
	}
}

// TestStoppedDesyncWordsFit: a game stopped because the hashes split again
// after a rewind says that nobody's world can be shown right (never that
// the engine is not deterministic, unless this machine's own re-simulation
// showed it), and the words, wrapped, fit the field at 800×600 in the
// banner's face: at 1280×720 one line was cut off at both edges.
func TestStoppedDesyncWordsFit(t *testing.T) {
	a, err := assets.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, stopped := range []string{lockstep.UnprovenText, lockstep.UnprovenManyText, lockstep.NotDeterministicText} {
		s := &netPlayScreen{a: &App{}}
		s.a.nv.status = wire.RoomStatus{State: wire.StateRunning, Child: wire.ChildDesynced}
		s.a.nv.desync = &wire.DesyncReport{Turn: 123456}
		s.a.nv.rewound, s.a.nv.stopped = true, stopped
		title, sub, _ := s.overlay()
		if title != "DESYNC" || !strings.Contains(sub, stopped) {
			t.Fatalf("overlay %q %q, want the desync and %q", title, sub, stopped)
		}
		if stopped != lockstep.NotDeterministicText && strings.Contains(sub, "deterministic") {
			t.Errorf("%q blames the engine", sub)
		}
		for _, size := range [][2]float64{{800, 600}, {1280, 720}, {640, 480}} {
			v := draw.FitView(size[0], size[1])
			face := &text.GoTextFace{Source: a.Fonts.Regular, Size: max(24*v.Scale, 12)}
			lines := wrapWords(sub, subLineChars, maxSubLines)
			if len(lines) < 2 || len(lines) > maxSubLines {
				t.Fatalf("%d lines, want 2 to %d", len(lines), maxSubLines)
			}
			for _, line := range lines {
				if w, _ := text.Measure(line, face, 0); w > draw.FieldW*v.Scale*0.95 {
					t.Errorf("at %v×%v the line %q is %.0f px, wider than the field's %.0f", size[0], size[1], line, w, draw.FieldW*v.Scale)
				}
			}
		}
	}
}
