package room_test

import (
	"testing"

	"rockstep/net/room"
	"rockstep/net/wire"
)

// TestOtherRulesAreRefused: a room admits only builds whose rules' digest
// (wire.Join.Rules) is its own: configured, or else that of the first to
// join it empty (its host). Another build is refused before any game
// starts, a returning player's new build too, and each refusal is counted.
func TestOtherRulesAreRefused(t *testing.T) {
	const ours, theirs = 0x1111, 0x2222
	tests := []struct {
		name     string
		cfgRules uint64
		first    uint64 // the host's rules (connection 1)
		join     uint64 // the next player's (connection 2)
		want     bool   // admitted
	}{
		{"same as the host's", 0, ours, ours, true},
		{"other than the host's", 0, ours, theirs, false},
		{"not said, under a host who said", 0, ours, 0, false},
		{"same as configured", ours, ours, ours, true},
		{"other than configured", ours, ours, theirs, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBench(t, func(c *room.Config) { c.Rules = tt.cfgRules })
			b.send(1, wire.Join{Name: "host", PlayerID: [16]byte{1}, Rules: tt.first})
			if _, ok := last[wire.Welcome](b.peer(1)); !ok {
				t.Fatal("the host was not welcomed")
			}
			b.send(2, wire.Join{Name: "guest", PlayerID: [16]byte{2}, Rules: tt.join})
			p := b.peer(2)
			refused, isRefused := wire.Refuse{}, false
			for _, m := range p.got {
				if r, ok := m.(wire.Refuse); ok {
					refused, isRefused = r, true
				}
			}
			_, welcomed := last[wire.Welcome](p)
			if welcomed != tt.want {
				t.Fatalf("welcomed = %v, want %v (refusal %+v)", welcomed, tt.want, refused)
			}
			if !tt.want {
				if !isRefused || refused.Reason != wire.RefuseRules {
					t.Errorf("refusal %+v, want RefuseRules", refused)
				}
				if n := b.r.Stats().Dropped[room.DropRules]; n != 1 {
					t.Errorf("rules drops %d, want 1", n)
				}
				if n := b.r.PlayerCount(); n != 1 {
					t.Errorf("%d players, want the host alone", n)
				}
			}
		})
	}
	// A player who comes back with its token but another build is refused.
	b := newBench(t, nil)
	b.send(1, wire.Join{Name: "host", PlayerID: [16]byte{1}, Rules: ours})
	b.send(2, wire.Join{Name: "guest", PlayerID: [16]byte{2}, Rules: ours})
	w, ok := last[wire.Welcome](b.peer(2))
	if !ok {
		t.Fatal("the guest was not welcomed")
	}
	b.send(3, wire.Join{Name: "guest", PlayerID: [16]byte{2}, Token: w.Token, Rules: theirs})
	if r, ok := last[wire.Refuse](b.peer(3)); !ok || r.Reason != wire.RefuseRules {
		t.Errorf("a returning player with other rules got %+v, want RefuseRules", r)
	}
	// Once everyone has gone, the next host sets the rules afresh.
	b.send(1, wire.Leave{Reason: wire.LeaveQuit})
	b.send(2, wire.Leave{Reason: wire.LeaveQuit})
	b.send(4, wire.Join{Name: "new host", PlayerID: [16]byte{4}, Rules: theirs})
	if _, ok := last[wire.Welcome](b.peer(4)); !ok {
		t.Errorf("a new host in an empty room was refused: %v", b.peer(4).got)
	}
}
