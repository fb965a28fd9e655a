package room

import (
	"testing"
	"time"
)

// TestSlotLifeTransitions walks every transition from every state a slot
// can be in: the legal ones and where they lead, and the illegal ones,
// refused with the state unchanged.
func TestSlotLifeTransitions(t *testing.T) {
	const at = 7 * time.Second // a drop time
	const old = 3 * time.Second
	life := func(p slotPhase, k leaveKind) slotLife { return slotLife{phase: p, leaving: k, dropAt: old} }
	free := slotLife{}
	seated := life(phaseSeated, stays)
	playing := life(phasePlaying, stays)
	vacant := life(phaseVacant, stays)
	rejoining := life(phaseRejoining, stays)
	events := []struct {
		name string
		do   func(*slotLife) bool
	}{
		{"seat", (*slotLife).seat},
		{"begin", (*slotLife).begin},
		{"vacate", func(l *slotLife) bool { return l.vacate(at) }},
		{"holdUntil", func(l *slotLife) bool { return l.holdUntil(at) }},
		{"rejoin", (*slotLife).rejoin},
		{"play", (*slotLife).play},
		{"timeOut", (*slotLife).timeOut},
		{"leave", (*slotLife).leave},
		{"sendAway", (*slotLife).sendAway},
		{"toLobby", func(l *slotLife) bool { return l.toLobby(false) }},
		{"toLobby present", func(l *slotLife) bool { return l.toLobby(true) }},
	}
	// want[from][event]: the state after; absent: refused.
	type key struct {
		from  string
		event string
	}
	from := map[string]slotLife{
		"free":              free,
		"seated":            seated,
		"playing":           playing,
		"vacant":            vacant,
		"rejoining":         rejoining,
		"vacant dropped":    life(phaseVacant, dropped),
		"vacant left":       life(phaseVacant, leftByOwn),
		"rejoining dropped": life(phaseRejoining, dropped),
		"playing dropped":   life(phasePlaying, dropped), // reclaimed in place before its drop was compiled (resumeJoin)
	}
	want := map[key]slotLife{
		{"free", "seat"}: {phase: phaseSeated},

		{"seated", "begin"}:           playing,
		{"seated", "toLobby"}:         seated,
		{"seated", "toLobby present"}: seated,

		{"playing", "begin"}:           playing,
		{"playing", "vacate"}:          {phase: phaseVacant, dropAt: at},
		{"playing", "leave"}:           life(phaseVacant, leftByOwn),
		{"playing", "sendAway"}:        life(phaseVacant, dropped),
		{"playing", "toLobby"}:         seated,
		{"playing", "toLobby present"}: seated,

		{"vacant", "begin"}:           playing,
		{"vacant", "holdUntil"}:       {phase: phaseVacant, dropAt: at},
		{"vacant", "rejoin"}:          rejoining,
		{"vacant", "play"}:            playing,
		{"vacant", "timeOut"}:         life(phaseVacant, dropped),
		{"vacant", "leave"}:           life(phaseVacant, leftByOwn),
		{"vacant", "sendAway"}:        life(phaseVacant, dropped),
		{"vacant", "toLobby present"}: seated, // back while the results showed

		{"rejoining", "begin"}:           playing,
		{"rejoining", "holdUntil"}:       {phase: phaseRejoining, dropAt: at},
		{"rejoining", "rejoin"}:          rejoining,
		{"rejoining", "play"}:            playing,
		{"rejoining", "timeOut"}:         life(phaseRejoining, dropped),
		{"rejoining", "leave"}:           life(phaseVacant, leftByOwn),
		{"rejoining", "sendAway"}:        life(phaseVacant, dropped),
		{"rejoining", "toLobby present"}: seated,

		{"vacant dropped", "begin"}:     playing,
		{"vacant dropped", "holdUntil"}: {phase: phaseVacant, leaving: dropped, dropAt: at},
		{"vacant dropped", "rejoin"}:    life(phaseRejoining, dropped),
		{"vacant dropped", "play"}:      life(phasePlaying, dropped),
		{"vacant dropped", "leave"}:     life(phaseVacant, leftByOwn),
		{"vacant dropped", "sendAway"}:  life(phaseVacant, dropped),

		{"vacant left", "begin"}:     playing,
		{"vacant left", "holdUntil"}: {phase: phaseVacant, leaving: leftByOwn, dropAt: at},
		{"vacant left", "rejoin"}:    life(phaseRejoining, leftByOwn),
		{"vacant left", "play"}:      life(phasePlaying, leftByOwn),
		{"vacant left", "leave"}:     life(phaseVacant, leftByOwn),
		{"vacant left", "sendAway"}:  life(phaseVacant, leftByOwn), // a player who left keeps its word

		{"rejoining dropped", "begin"}:     playing,
		{"rejoining dropped", "holdUntil"}: {phase: phaseRejoining, leaving: dropped, dropAt: at},
		{"rejoining dropped", "rejoin"}:    life(phaseRejoining, dropped),
		{"rejoining dropped", "play"}:      life(phasePlaying, dropped),
		{"rejoining dropped", "leave"}:     life(phaseVacant, leftByOwn),
		{"rejoining dropped", "sendAway"}:  life(phaseVacant, dropped),

		{"playing dropped", "begin"}:           playing,
		{"playing dropped", "vacate"}:          {phase: phaseVacant, leaving: dropped, dropAt: at},
		{"playing dropped", "leave"}:           life(phaseVacant, leftByOwn),
		{"playing dropped", "sendAway"}:        life(phaseVacant, dropped),
		{"playing dropped", "toLobby"}:         seated,
		{"playing dropped", "toLobby present"}: seated,
	}
	used := 0
	for name, start := range from {
		for _, ev := range events {
			t.Run(name+"/"+ev.name, func(t *testing.T) {
				l := start
				ok := ev.do(&l)
				w, legal := want[key{name, ev.name}]
				if !legal {
					w = start
				} else {
					used++
				}
				if ok != legal || l != w {
					t.Errorf("%s from %+v = %v, %+v; want %v, %+v", ev.name, start, ok, l, legal, w)
				}
			})
		}
	}
	if used != len(want) {
		t.Errorf("%d of the %d legal transitions were tried: a name in want is misspelt", used, len(want))
	}
}

// TestSlotLifePredicates checks what the room reads of each state.
func TestSlotLifePredicates(t *testing.T) {
	type preds struct{ taken, inGame, live, away, rejoining, dropping, left, waitedOn, staying bool }
	tests := []struct {
		name string
		l    slotLife
		want preds
	}{
		{"free", slotLife{}, preds{}},
		{"seated", slotLife{phase: phaseSeated}, preds{taken: true}},
		{"playing", slotLife{phase: phasePlaying}, preds{taken: true, inGame: true, live: true, waitedOn: true, staying: true}},
		{"vacant", slotLife{phase: phaseVacant}, preds{taken: true, inGame: true, away: true, staying: true}},
		{"rejoining", slotLife{phase: phaseRejoining}, preds{taken: true, inGame: true, away: true, rejoining: true, staying: true}},
		{"vacant dropped", slotLife{phase: phaseVacant, leaving: dropped}, preds{taken: true, inGame: true, away: true, dropping: true}},
		{"vacant left", slotLife{phase: phaseVacant, leaving: leftByOwn}, preds{taken: true, inGame: true, away: true, dropping: true, left: true}},
		{"playing dropped", slotLife{phase: phasePlaying, leaving: dropped}, preds{taken: true, inGame: true, live: true, dropping: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := tt.l
			got := preds{l.taken(), l.inGame(), l.live(), l.away(), l.rejoining(), l.dropping(), l.left(), l.waitedOn(), l.staying()}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestSlotLifeZeroIsFree: an emptied slot is free, so every `s.free()`
// is a transition to free.
func TestSlotLifeZeroIsFree(t *testing.T) {
	s := slot{life: slotLife{phase: phaseRejoining, leaving: leftByOwn, dropAt: time.Second}}
	s.free()
	if s.life.taken() || s.life != (slotLife{}) {
		t.Errorf("after free: %+v, want the zero slotLife", s.life)
	}
}
