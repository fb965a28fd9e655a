package ui

import (
	"testing"
	"time"
)

// TestFramePacer: frames asked for faster than minFrame wait for their
// turn on a steady beat; frames already late (a display with vsync, a slow
// machine) never wait.
func TestFramePacer(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		at    []time.Duration // when each frame is asked for, from t0
		waits []time.Duration // want
	}{
		{"first frame", []time.Duration{0}, []time.Duration{0}},
		{"no vsync: back to back", []time.Duration{0, time.Millisecond, minFrame + 2*time.Millisecond},
			[]time.Duration{0, minFrame - time.Millisecond, minFrame - 2*time.Millisecond}},
		{"vsync at 60 Hz", []time.Duration{0, time.Second / 60, 2 * time.Second / 60}, []time.Duration{0, 0, 0}},
		{"late frame restarts the beat", []time.Duration{0, 50 * time.Millisecond, 51 * time.Millisecond},
			[]time.Duration{0, 0, minFrame - time.Millisecond}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var p framePacer
			for i, at := range tc.at {
				if got := p.wait(t0.Add(at)); got != tc.waits[i] {
					t.Errorf("frame %d at %v: wait %v, want %v", i, at, got, tc.waits[i])
				}
			}
		})
	}
}
