package main

import (
	"fmt"
	"testing"

	"rockstep/internal/natlab"
)

// TestReachLabDoubleNAT: issue 52's "never two games" with a player
// behind a double NAT, in the namespace lab (internal/natlab, as root).
// The host is a `-server -handover` on the internet; one player sits in
// home3, behind the lab's inner router (miniupnpd, masquerade) and its
// outer one (plain masquerade, as a provider's NAT in front of a home
// router), and joins first, so that by slot alone it would be the first
// successor; two players sit each behind its own plain NAT with an input
// firewall (TestReachLabPunched's homes). The host is killed mid-game:
// exactly one game goes on, the players in it end it at the same turn on
// one hash, and nobody hosts alone (a player that did would end on a hash
// of its own, or at another turn). Logged: each player's longest stall
// (the host's loss to play at the successor).
//
// Twice. With an outer router that drops what comes to it unasked (a
// firewall, as the plain homes'), all three play on. With one that takes
// it in (and keeps a connection-table entry for it, as the lab's other
// routers do), the player behind the double NAT is left out, and the test
// logs it as a FINDING: its first keep-alive to the others (TTL 2,
// transport.OpeningTTL) dies at the outer router, two hops away, so the
// others' full keep-alives reach the outer router first and leave
// entries there for its standby's outside port; its own flows to them
// then get other outside ports (conntrack in the outer router: src
// 10.13.0.2 sport=40263 mapped to dport=3185), which the others' routers
// let nothing from. It says no one could carry the game on, and the two
// others play on without it. (An OpeningTTL of 3 does not cure it: the
// others' openings then reach the outer router as well and leave the
// same entries there, and TestReachLabPunched's routers that take
// unasked datagrams in are cut apart the same way.)
func TestReachLabDoubleNAT(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a namespace lab and plays a game of 30 s, twice")
	}
	for _, firewall := range []bool{true, false} {
		name := "outer router with an input firewall"
		if !firewall {
			name = "outer router that takes unasked datagrams in"
		}
		t.Run(name, func(t *testing.T) {
			lab := natlab.Build(t, natlab.Options{})
			if firewall {
				lab.DropUnasked(t, lab.Outer)
			}
			public := lab.AddPublicHost(t)
			players := []labPlayer{{name: "behind a double NAT", ns: lab.Home3, mayBeLeftOut: !firewall}}
			for n := 1; n <= 2; n++ {
				players = append(players, labPlayer{name: fmt.Sprintf("behind plain NAT %d", n), ns: lab.AddPlainHome(t, n, true)})
			}
			playLabKillHost(t, lab, public, players, labGame)
		})
	}
}
