package lockstep_test

import (
	"testing"

	"rockstep/net/lockstep"
	"rockstep/net/wire"
)

// hostile is a text as a hostile room could send it: a terminal escape,
// a right-to-left override, zero-width characters, NUL, CR/LF.
const hostile = "\x1b[2J\u202EA\u200Bd\u200Da\x00\r\nb"

// TestSessionCleansWhatItShows: whatever room sends them, the names of the
// room and the players, chat lines and a refusal's words reach the UI as
// text to show, with none of the hostile characters.
func TestSessionCleansWhatItShows(t *testing.T) {
	const want = "[2JAda b"
	s := lockstep.New(lockstep.LAN())
	s.Update(0, nil)
	for _, m := range []wire.Message{
		wire.Welcome{Slot: 0, State: wire.StateSetup},
		wire.SetupState{Revision: 1, Name: hostile, Setup: fuzzSetup, MaxSlots: 2, Players: []wire.Player{{Slot: 0, Name: hostile}}},
		wire.Chat{From: 0, Text: hostile},
		wire.Chat{From: 0, Text: "\u200B\u202E\x00"},
	} {
		s.Receive(0, frame(t, m))
	}
	st := s.SetupState()
	if st.Name != want || len(st.Players) != 1 || st.Players[0].Name != want {
		t.Errorf("room %+q, players %+v: want %+q everywhere", st.Name, st.Players, want)
	}
	if c := s.Chat(); len(c) != 1 || c[0].Text != want {
		t.Errorf("chat %+v: want one line %+q (a line of nothing visible is dropped)", c, want)
	}
	for _, ev := range s.Events() {
		if ev.Kind == lockstep.EvChat && ev.Text != want {
			t.Errorf("chat event text %+q, want %+q", ev.Text, want)
		}
	}
	if n := s.Stats().MalformedIn; n != 1 {
		t.Errorf("malformed in %d, want 1 (the empty chat line)", n)
	}

	st2 := wire.Start{Setup: fuzzSetup, K: 2, Delay: 1}
	st2.Setup.Players = 1
	st2.Names[0] = hostile
	s.Receive(0, frame(t, st2))
	if n := s.Names()[0]; n != want {
		t.Errorf("name at start %+q, want %+q", n, want)
	}

	r := lockstep.New(lockstep.LAN())
	r.Update(0, nil)
	r.Receive(0, frame(t, wire.Refuse{Reason: wire.RefuseFull, Text: hostile}))
	refused := false
	for _, ev := range r.Events() {
		if ev.Kind == lockstep.EvRefused {
			refused = true
			if ev.Text != want {
				t.Errorf("refusal text %+q, want %+q", ev.Text, want)
			}
		}
	}
	if !refused {
		t.Error("no refusal event")
	}
}
