package migrate

// The old host cut off, when nobody answers (docs/ARCHITECTURE.md, "When
// the host goes away"). Its room holds while more than half of the members
// are away from it, and it probes the successors they walked (ProbeTargets)
// to find their game. While its network is down, or once they all left,
// none answers: the player is told so, rather than wait in silence for a
// countdown that may end with it alone.

// Unfound reports whether this player's room is deserted (more than half
// of the members away from it: View.Deserted) and every successor it
// looks for them at has failed FailsToDeny probes in a row since it last
// answered: their game cannot be found from here (this player's network
// may be down, or they may have left). It turns false when one answers
// (the room then gives the game to it) or the others come back.
func (m *Machine) Unfound(v View) bool {
	if m.phase != Hosting || m.hosting != deserted || !v.Playing || !v.Deserted {
		return false
	}
	targets := m.ProbeTargets(v)
	if len(targets) == 0 {
		return true // nowhere to look: the others could not have carried the game on
	}
	for _, c := range targets {
		if s := int(c.Slot); s < len(m.failed) && m.failed[s] < FailsToDeny {
			return false
		}
	}
	return true
}
