package room_test

import (
	"strings"
	"testing"

	"rockstep/net/room"
	"rockstep/net/wire"
)

// rosterNames returns the names of the room's roster, by slot.
func rosterNames(r *room.Room) []string {
	var names []string
	for _, p := range r.Roster() {
		names = append(names, p.Name)
	}
	return names
}

// TestLookAlikeNamesAreToldApart: a player whose name looks like another's
// in the room (the same once invisible characters are gone, or by case,
// accents, look-alike letters and digits) is given a suffix; the players
// already there keep theirs.
func TestLookAlikeNamesAreToldApart(t *testing.T) {
	for _, tc := range []struct {
		name  string
		joins []string
		want  []string
	}{
		{"different names stay", []string{"Ada", "Bob"}, []string{"Ada", "Bob"}},
		{"the same name", []string{"Bob", "Bob"}, []string{"Bob", "Bob (2)"}},
		{"case", []string{"Bob", "BOB"}, []string{"Bob", "BOB (2)"}},
		{"a Cyrillic o", []string{"Bob", "B\u043Eb"}, []string{"Bob", "B\u043Eb (2)"}},
		{"Greek capitals", []string{"HOPE", "\u0397\u039F\u03A1\u0395"}, []string{"HOPE", "\u0397\u039F\u03A1\u0395 (2)"}},
		{"zero-width characters", []string{"Bob", "B\u200Bo\u200Db\uFEFF"}, []string{"Bob", "Bob (2)"}},
		{"a right-to-left override", []string{"Bob", "\u202EBob"}, []string{"Bob", "Bob (2)"}},
		{"digits for letters", []string{"ROBOT", "R0B0T"}, []string{"ROBOT", "R0B0T (2)"}},
		{"1, l and capital I", []string{"Ill", "l1I"}, []string{"Ill", "l1I (2)"}},
		{"accents", []string{"Jose", "José"}, []string{"Jose", "José (2)"}},
		{"a third", []string{"Bob", "bob", "BOB"}, []string{"Bob", "bob (2)", "BOB (3)"}},
		{"a suffix cannot be chosen", []string{"Bob", "Bob (2)", "Bob"}, []string{"Bob", "Bob 2", "Bob (2)"}},
		{"nor one that looks like it", []string{"Ada", "Ada \uFF08\uFF12\uFF09", "ADA(3)"}, []string{"Ada", "Ada 2", "ADA 3"}},
		{"a numbered name told apart", []string{"Bob 2", "Bob (2)"}, []string{"Bob 2", "Bob 2 (2)"}},
		{"a long name is cut to fit its suffix", []string{strings.Repeat("a", wire.MaxName), strings.Repeat("A", wire.MaxName)},
			[]string{strings.Repeat("a", wire.MaxName), strings.Repeat("A", wire.MaxName-4) + " (2)"}},
		{"a name of nothing visible is a Player N", []string{"\u200B\u202E", "Player 1"}, []string{"Player 1", "Player 1 (2)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t, nil)
			for i, n := range tc.joins {
				b.join(room.ConnID(i+1), n)
			}
			got := rosterNames(b.r)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("names %+q, want %+q", got, tc.want)
			}
			for _, n := range got {
				if len(n) > wire.MaxName {
					t.Errorf("name %q: %d bytes, over %d", n, len(n), wire.MaxName)
				}
			}
		})
	}
}

// TestRejoinUnderALookAlikeName: a player coming back by its token under
// another player's name is told apart from it; under its own name it keeps
// it.
func TestRejoinUnderALookAlikeName(t *testing.T) {
	b := newBench(t, nil)
	ws := []wire.Welcome{b.join(1, "Ada"), b.join(2, "Bob")}
	b.send(3, wire.Join{Token: ws[1].Token, Name: "Bob"})
	if got := rosterNames(b.r); got[1] != "Bob" {
		t.Fatalf("after a rejoin under its own name: %+q, want Bob", got)
	}
	b.send(4, wire.Join{Token: ws[1].Token, Name: "ADA"})
	if got := rosterNames(b.r); got[0] != "Ada" || got[1] != "ADA (2)" {
		t.Fatalf("after a rejoin as ADA: %+q, want Ada and ADA (2)", got)
	}
}

// TestNewcomerLikeASpectator: a spectator's name counts too: a player who
// joins the rematch under a watching spectator's name is told apart from
// it, and the spectator taking its seat keeps its own.
func TestNewcomerLikeASpectator(t *testing.T) {
	b := newBench(t, func(c *room.Config) { c.MaxPlayers = 3 })
	b.startGame(1)
	b.send(9, wire.Join{Spectate: true, Name: "Cy", PlayerID: [16]byte{9}})
	b.r.EndGame()
	b.playIdle(0, 1)
	if st, _ := b.r.State(); st != wire.StateFinished {
		t.Fatalf("state = %d, want finished", st)
	}
	b.join(10, "CY")
	b.send(9, wire.Ready{Ready: true})
	if got := rosterNames(b.r); len(got) != 3 || got[1] != "CY (2)" || got[2] != "Cy" {
		t.Fatalf("names %+q, want p, CY (2), Cy", got)
	}
}
