package migrate

import (
	"testing"
	"time"
)

// TestTried: a candidate's port has a verdict (wire.Standby.Probed) once
// it answered within ProbeMemory, or failed FailsToDeny probes in a row
// since it last answered: one probe lost on a busy machine, or none made
// yet, says nothing, so the room does not leave that successor out.
func TestTried(t *testing.T) {
	v := view(2, 1, 2, 3, 4)
	for _, tt := range []struct {
		name  string
		probe func(m *Machine)
		at    time.Duration
		want  uint8
	}{
		{"not probed yet", func(*Machine) {}, time.Second, 0},
		{"answered", func(m *Machine) { m.Probed(time.Second, cand(1), true) }, 2 * time.Second, 1 << 1},
		{"one probe failed: no verdict", func(m *Machine) { m.Probed(time.Second, cand(3), false) }, 2 * time.Second, 0},
		{"failed FailsToDeny in a row: cannot reach", func(m *Machine) {
			for i := range FailsToDeny {
				m.Probed(time.Duration(i+1)*time.Second, cand(3), false)
			}
		}, 4 * time.Second, 1 << 3},
		{"an answer between the failures: no verdict against it, only the answer", func(m *Machine) {
			m.Probed(1*time.Second, cand(4), false)
			m.Probed(2*time.Second, cand(4), false)
			m.Probed(3*time.Second, cand(4), true)
			m.Probed(4*time.Second, cand(4), false)
		}, 5 * time.Second, 1 << 4},
		{"an answer long ago, then failures: cannot reach", func(m *Machine) {
			m.Probed(1*time.Second, cand(4), true)
			for i := range FailsToDeny {
				m.Probed(time.Duration(10+i)*time.Second, cand(4), false)
			}
		}, 13 * time.Second, 1 << 4},
		{"itself never", func(m *Machine) {
			for i := range FailsToDeny {
				m.Probed(time.Duration(i+1)*time.Second, cand(2), false)
			}
		}, 4 * time.Second, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := New(0, "127.0.0.1:9000", true)
			tt.probe(m)
			if got := m.Tried(tt.at, v); got != tt.want {
				t.Errorf("Tried = %08b, want %08b", got, tt.want)
			}
		})
	}
}
