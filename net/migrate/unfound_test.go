package migrate

import (
	"testing"
	"time"
)

// TestUnfound: the old host cut off (its room deserted) is told the
// others' game cannot be found once every successor it looks for them at
// failed FailsToDeny probes in a row; one probe lost is no verdict, an
// answer ends it (the room yields there), and a host whose players are
// with it, or who hosts no deserted room, is never told so.
func TestUnfound(t *testing.T) {
	host := view(0, 1, 2)
	deserted := playing(view(0), 500, true)
	deserted.Deserted = true
	const ms = time.Millisecond
	type probe struct {
		slot uint8
		ok   bool
	}
	tests := []struct {
		name   string
		probes []probe
		want   bool
	}{
		{"no probe yet", nil, false},
		{"one round of probes failed: no verdict", []probe{{1, false}, {2, false}}, false},
		{"one successor failed three times, the other twice", []probe{{1, false}, {2, false}, {1, false}, {2, false}, {1, false}}, false},
		{"both failed three times in a row", []probe{{1, false}, {2, false}, {1, false}, {2, false}, {1, false}, {2, false}}, true},
		{"both failed three times, then one answered", []probe{{1, false}, {2, false}, {1, false}, {2, false}, {1, false}, {2, false}, {2, true}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := NewOwner(0)
			now := time.Second
			m.Step(now, playing(host, 100, false))
			if m.Unfound(playing(host, 100, false)) {
				t.Fatal("a host with its players is told they cannot be found")
			}
			now = 5 * time.Second
			m.Step(now, deserted)
			for _, p := range tc.probes {
				now += 500 * ms
				m.Probed(now, cand(p.slot), p.ok)
			}
			if got := m.Unfound(deserted); got != tc.want {
				t.Errorf("Unfound = %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("an answer after the verdict: found, the room yields", func(t *testing.T) {
		m := NewOwner(0)
		m.Step(time.Second, playing(host, 100, false))
		m.Step(5*time.Second, deserted)
		for i := range 3 {
			m.Probed(time.Duration(6+i)*time.Second, cand(1), false)
			m.Probed(time.Duration(6+i)*time.Second, cand(2), false)
		}
		if !m.Unfound(deserted) {
			t.Fatal("not unfound after three failed rounds")
		}
		if acts := m.Probed(10*time.Second, cand(1), true); show(acts) != "yield 1" {
			t.Errorf("the first successor answers: %q, want yield 1", show(acts))
		}
		if m.Unfound(deserted) {
			t.Error("still unfound after the first successor answered")
		}
	})
	t.Run("a guest is never told so", func(t *testing.T) {
		m := New(0, "127.0.0.1:7000", true)
		m.Step(time.Second, playing(view(1, 1, 2), 100, false))
		if m.Unfound(deserted) {
			t.Error("a guest following its host is told the others cannot be found")
		}
	})
}
