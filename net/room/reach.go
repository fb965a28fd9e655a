package room

import (
	"net/netip"

	"rockstep/net/wire"
)

// Successors everyone can reach (docs/ARCHITECTURE.md, "Successors everyone
// can reach"). Beside its standby port, a player may say the port its own
// router mapped for it (wire.Standby.Outside, asked with net/portmap as the
// Host button asks for the room's port), and which candidates it probed
// lately, answered or not (wire.Standby.Probed). The room lists the mapped
// port beside the one it observes (wire.Successor.Outside), and leaves out
// a candidate the others have shown no majority can reach.

// outsidePort returns the outside port m's Standby names, if it is at the
// address m's connection comes from: a router maps a port on its own
// outside address, the one the room sees the player at. Another address
// (a player naming a third party's, for the others to probe) is not
// listed; nor is a port another slot's player holds at that address.
func (r *Room) outsidePort(m *member, sb wire.Standby) uint16 {
	o := sb.Outside
	if !o.IsValid() || o.Port() == 0 || o.Port() == sb.Port {
		return 0
	}
	addr := r.addrOf(m)
	if !addr.IsValid() || o.Addr().Unmap().WithZone("") != addr {
		return 0
	}
	return o.Port()
}

// outsideOf returns the outside address of slot i's standby at addr, the
// address its connection comes from (zero: none, or another slot's
// player holds that port there, as its standby or its outside port).
func (r *Room) outsideOf(i int, addr netip.Addr) netip.AddrPort {
	port := r.standby[i].outside
	if port == 0 {
		return netip.AddrPort{}
	}
	for j := range r.slots {
		if j == i {
			continue
		}
		if sb, at, ok := r.standbyOf(j); ok && at == addr && (sb.port == port || sb.outside == port) {
			return netip.AddrPort{}
		}
	}
	return netip.AddrPortFrom(addr, port)
}

// unreachable returns the candidates (among cand) that the others have
// shown no strict majority of the game's members can reach: the candidate
// itself, the candidates that reached it, and those that have not probed
// it yet (they may still, and a player without a standby, such as the
// host's own, never says) are not more than half the members. Such a
// successor is left
// out of the list rather than taken alone: its room would play nothing
// (Majority), and the players who can reach it are better off at one
// that a majority reaches, or, with none, told the game cannot go on.
func (r *Room) unreachable(cand uint8) uint8 {
	members := 0
	for i := range r.slots {
		if r.slots[i].life.staying() {
			members++
		}
	}
	var out uint8
	for i := range r.slots {
		if cand&(1<<i) == 0 {
			continue
		}
		may := 1 // itself
		for j := range r.slots {
			s := &r.slots[j]
			if j == i || !s.life.staying() {
				continue
			}
			sb := &r.standby[j]
			if sb.m != s.m || sb.probed&(1<<i) == 0 || sb.reach&(1<<i) != 0 {
				may++ // reached it, or has not said it tried
			}
		}
		if 2*may <= members {
			out |= 1 << i
		}
	}
	return out
}
