package lockstep_test

import (
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/bots"
	"rockstep/net/lockstep"
	"rockstep/net/wire"
)

// TestOtherRulesNeverGetIn: the players' sessions send this build's rules
// digest; a build whose rules differ (a test changes its digest) is
// refused at its Join, before any game starts, while one with the same
// rules gets in, and the game is not disturbed.
func TestOtherRulesNeverGetIn(t *testing.T) {
	l := newLocal(t, bots.Config{Bots: 2, Ticks: 1 << 30, Seed: 3, Manual: true})
	m := manual{t, l}
	m.until("everyone in the lobby", func(s *lockstep.Session) bool { return s.Phase() == lockstep.Lobby })
	tests := []struct {
		name    string
		rules   uint64
		refused bool
	}{
		{"another build", game.RulesDigest() ^ 1, true},
		{"this build", 0, false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := l.Join(lockstep.Config{Name: "late" + string(rune('0'+i)), PlayerID: [16]byte{0x40, byte(i)}, Rules: tt.rules})
			if err := l.RunUntil(func() bool { return b.Session.Phase() != lockstep.Joining }, l.Now()+5*time.Second); err != nil {
				t.Fatal(err)
			}
			refused := b.Session.Phase() == lockstep.Refused
			if refused != tt.refused {
				t.Fatalf("phase %s (refusal %+v), want refused %v", b.Session.Phase(), b.Session.Refusal(), tt.refused)
			}
			if refused && b.Session.Refusal().Reason != wire.RefuseRules {
				t.Errorf("refusal %+v, want RefuseRules", b.Session.Refusal())
			}
			b.Gone = true
		})
	}
}
