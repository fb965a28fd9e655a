package room

import (
	"net/netip"
	"slices"

	"rockstep/net/wire"
)

// Successors everyone can reach (docs/ARCHITECTURE.md, "Successors everyone
// can reach"). Beside its standby port, a player may say the port its own
// router mapped for it (wire.Standby.Outside, asked with net/portmap as the
// Host button asks for the room's port), and which candidates it probed
// lately, answered or not (wire.Standby.Probed). The room lists the mapped
// port beside the one it observes (wire.Successor.Outside), and flags a
// candidate the others have shown no majority can reach
// (wire.Successor.Unreached): listed last, so that it is still probed (its
// router may open its port later), and passed over by every walk.

// outsideAddr returns the outside address m's Standby names, if a router
// may have mapped it: at the address m's connection comes from (a router
// maps a port on its own outside address, the one the room sees), or at
// another global unicast address that is not private (a router whose
// outside link is numbered apart from the address it maps on, as the NAT
// lab's is). A private or local address, or one naming the standby's own
// address, is not listed. A player could name a third party's address;
// the others then send it a handshake a second each (a probe), no more.
func (r *Room) outsideAddr(m *member, sb wire.Standby) netip.AddrPort {
	o := sb.Outside
	if !o.IsValid() || o.Port() == 0 {
		return netip.AddrPort{}
	}
	o = netip.AddrPortFrom(o.Addr().Unmap().WithZone(""), o.Port())
	addr := r.addrOf(m)
	if !addr.IsValid() || o == netip.AddrPortFrom(addr, sb.Port) {
		return netip.AddrPort{}
	}
	if a := o.Addr(); a != addr && (!a.IsGlobalUnicast() || a.IsPrivate()) {
		return netip.AddrPort{}
	}
	return o
}

// outsideOf returns the outside address of slot i's standby (zero: none,
// or another slot's player holds that address, as its standby or its
// outside address: the earlier claim is not taken from it).
func (r *Room) outsideOf(i int) netip.AddrPort {
	o := r.standby[i].outside
	if !o.IsValid() {
		return netip.AddrPort{}
	}
	for j := range r.slots {
		if j == i {
			continue
		}
		if sb, at, ok := r.standbyOf(j); ok && (netip.AddrPortFrom(at, sb.port) == o || sb.outside == o) {
			return netip.AddrPort{}
		}
	}
	return o
}

// unreachable returns the candidates (among cand) that the others have
// shown no strict majority of the game's members can reach: the candidate
// itself, the candidates that reached it, and those that have not probed
// it yet (they may still, and a player without a standby, such as the
// host's own, never says) are not more than half the members. Such a
// successor is passed over rather than taken alone: its room would play
// nothing (Majority), and the players who can reach it are better off at
// one that a majority reaches, or, with none, told the game cannot go on.
func (r *Room) unreachable(cand uint8) uint8 {
	members := r.successionMembers()
	var out uint8
	for i := range r.slots {
		if cand&(1<<i) == 0 {
			continue
		}
		may := 1 // itself
		for j := range r.slots {
			s := &r.slots[j]
			if j == i || !r.inSuccession(s) {
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

// byNetReach returns the candidates of group with want links, the ones
// more of the other candidates reached first (netReach), then lowest
// slot. Between two with as many links (a player behind a plain NAT whose
// path the keep-alives opened, net/client/punch.go, and one whose router
// mapped its port), the one a player behind a port-randomising NAT also
// reached comes first: a successor every player reaches keeps them all in
// the game.
func (r *Room) byNetReach(cand, group uint8, links []int, want int) []int {
	var out []int
	for i := range r.slots {
		if group&(1<<i) != 0 && links[i] == want {
			out = append(out, i)
		}
	}
	slices.SortStableFunc(out, func(a, b int) int { return r.netReach(cand, b) - r.netReach(cand, a) })
	return out
}

// netReach is how many other candidates say they reached candidate i,
// less how many of them i says it did not reach: a player's own Reach can
// only lower it (one that claims it reached nobody loses as many as the
// others vouch for it), as a link does.
func (r *Room) netReach(cand uint8, i int) int {
	n := 0
	for j := range r.slots {
		if j == i || cand&(1<<j) == 0 {
			continue
		}
		if r.standby[j].reach&(1<<i) != 0 {
			n++
		}
		if r.standby[i].reach&(1<<j) == 0 {
			n--
		}
	}
	return n
}
