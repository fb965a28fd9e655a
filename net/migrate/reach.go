package migrate

import (
	"time"

	"rockstep/net/wire"
)

// What this player knows of the others' standby ports, for the room
// (wire.Standby.Probed beside Reach): the room leaves out a successor the
// others have shown no majority can reach (docs/ARCHITECTURE.md,
// "Successors everyone can reach"), so "could not reach it" must mean the
// probes failed again and again, not that one timed out on a busy machine
// or that none was made yet.

// FailsToDeny is how many probes of a standby port in a row must fail,
// with none answered within ProbeMemory, before this player says it cannot
// reach that port (a probe every ProbeEvery: three seconds).
const FailsToDeny = 3

// countProbe notes a probe's answer (Probed).
func (m *Machine) countProbe(c wire.Successor, ok bool) {
	s := int(c.Slot)
	if s >= len(m.failed) {
		return
	}
	if ok {
		m.failed[s] = 0
	} else if m.failed[s] < FailsToDeny {
		m.failed[s]++
	}
}

// Tried returns the slots among the list's candidates whose standby this
// player has a verdict on: reached within ProbeMemory (Reach), or failed
// FailsToDeny probes in a row since it last answered
// (wire.Standby.Probed).
func (m *Machine) Tried(now time.Duration, v View) uint8 {
	tried := m.Reach(now, v)
	for _, c := range v.List.List {
		s := int(c.Slot)
		if s != v.Slot && s < len(m.failed) && m.failed[s] >= FailsToDeny {
			tried |= 1 << s
		}
	}
	return tried
}

// skipUnreached returns the first place from at on in the walk's list
// whose successor a majority may reach: one the room flagged Unreached
// (wire.Successor.Unreached) is passed over by every walk, this player's
// own place included, so that nobody takes the game where it would be
// alone. A list with only such successors is no reachable successor: the
// walks find nobody, and end at the handover limit (ErrNoSuccessor).
func (m *Machine) skipUnreached(at int) int {
	for at < len(m.list) && m.list[at].Unreached {
		at++
	}
	return at
}

// reachedOnly returns the successors of l that are not flagged Unreached:
// those worth asking or probing as places the game may be.
func reachedOnly(l []wire.Successor) []wire.Successor {
	var out []wire.Successor
	for _, c := range l {
		if !c.Unreached {
			out = append(out, c)
		}
	}
	return out
}
