package migrate

import (
	"slices"
	"testing"
	"time"

	"rockstep/net/wire"
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

// unreached is v with the successors in slots flagged Unreached (the
// others showed no majority can reach them).
func unreached(v View, slots ...uint8) View {
	l := append([]wire.Successor(nil), v.List.List...)
	for i := range l {
		if slices.Contains(slots, l[i].Slot) {
			l[i].Unreached = true
		}
	}
	v.List.List = l
	return v
}

// TestUnreachedPassedOver: "a successor that no majority can reach is
// skipped, not taken alone" (docs/ARCHITECTURE.md, "Successors everyone
// can reach"). The room flags it (wire.Successor.Unreached); every walk
// passes it over, this player's own place included, and it is neither
// asked nor probed as a place the game may be; it is still expected where
// the game goes (it can dial out).
func TestUnreachedPassedOver(t *testing.T) {
	tests := []struct {
		name   string
		script []ev
		phase  Phase
		why    error
	}{
		{
			name: "an unreached successor is passed over: the walk dials the next",
			script: []ev{
				{time.Second, lost(asked(unreached(view(3, 0, 1, 2), 0))), "dial 1"},
				{1100 * ms, dialled(true), "join 1"},
			},
			phase: Joining,
		},
		{
			name: "this player unreached: it never takes the game alone, it goes to the next",
			script: []ev{
				{time.Second, lost(asked(unreached(view(0, 0, 1), 0))), "dial 1"},
				{1100 * ms, dialled(true), "join 1"},
			},
			phase: Joining,
		},
		{
			name: "the successor that takes the game expects the unreached, before it in the list or after",
			script: []ev{
				{time.Second, lost(asked(unreached(view(1, 0, 1, 2), 0, 2))), "serve 00000111"},
			},
			phase: Hosting,
		},
		{
			name: "only the later successors a majority reaches are asked",
			script: []ev{
				{3 * time.Second, lost(unreached(view(1, 1, 2, 3), 2)), "probe-host"},
				{3700 * ms, hostAnswers(false), "ask 3"},
			},
			phase: Asking,
		},
		{
			name: "no reachable successor, no server: every successor unreached, nobody is dialled or served; the walks end at the handover limit and the game ends here",
			script: []ev{
				{time.Second, lost(asked(unreached(view(1, 0, 1, 2), 0, 1, 2))), "wait 1.2s"},
				{11 * time.Second, tick, "give-up: " + ErrNoSuccessor.Error()},
			},
			phase: Over, why: ErrNoSuccessor,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(0, "127.0.0.1:9000", true)
			for i, e := range tt.script {
				if got := show(e.do(m, e.at)); got != e.want {
					t.Fatalf("event %d at %v: got %q, want %q", i, e.at, got, e.want)
				}
			}
			if m.Phase() != tt.phase || m.Why() != tt.why {
				t.Errorf("in the end: phase %v, why %v; want %v, %v", m.Phase(), m.Why(), tt.phase, tt.why)
			}
		})
	}
}
