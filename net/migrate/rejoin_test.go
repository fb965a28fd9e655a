package migrate

import (
	"testing"
	"time"
)

// TestRejoinHost: a player whose own link failed while the host lives
// rejoins it by itself (rejoin.go): the connection is lost without the
// room's word, and the host still answers a fresh handshake. Each case on
// virtual time; the loss is at 3 s, so the hold ends at 23 s.
func TestRejoinHost(t *testing.T) {
	me := view(2, 1, 2, 3)
	lostHere := []ev{
		{3 * time.Second, lost(me), "probe-host"},
		{3010 * ms, hostAnswers(true), "redial"},
	}
	stillThere := "give-up: " + ErrHostStillThere.Error()
	tests := []struct {
		name   string
		script []ev
		end    end
	}{
		{
			name: "rejoined: back in the same room with its token, no move",
			script: append(lostHere[:2:2],
				ev{3100 * ms, dialled(true), "rejoin"},
				ev{3200 * ms, step(migrating(me)), ""},
				ev{3300 * ms, step(catching(me)), ""}, // the room sends its snapshot
				ev{4 * time.Second, step(me), ""},
			),
			end: end{phase: Following, host: -1},
		},
		{
			name: "rejoin refused: the room gave the place up, the game ends for this player as before",
			script: append(lostHere[:2:2],
				ev{3100 * ms, dialled(true), "rejoin"},
				ev{3200 * ms, step(turnedAway(me)), "cut: " + ErrHostStillThere.Error()},
				ev{3210 * ms, lost(turnedAway(me)), stillThere},
			),
			end: end{phase: Over, host: -1, why: ErrHostStillThere},
		},
		{
			name: "rejoin times out: the host's handshakes fail until the hold is over",
			script: append(lostHere[:2:2],
				ev{6010 * ms, dialled(false), "wait 7.01s"},
				ev{7010 * ms, tick, "redial"},
				ev{10010 * ms, dialled(false), "wait 11.01s"},
				ev{11010 * ms, tick, "redial"},
				ev{14010 * ms, dialled(false), "wait 15.01s"},
				ev{23 * time.Second, tick, stillThere},
			),
			end: end{phase: Over, host: -1, why: ErrHostStillThere},
		},
		{
			name: "rejoin times out: the room never takes the player in within the hold",
			script: append(lostHere[:2:2],
				ev{3100 * ms, dialled(true), "rejoin"},
				ev{10 * time.Second, step(migrating(me)), ""},
				ev{23 * time.Second, step(migrating(me)), "cut: " + ErrHostStillThere.Error()},
				ev{23 * time.Second, lost(migrating(me)), stillThere},
			),
			end: end{phase: Over, host: -1, why: ErrHostStillThere},
		},
		{
			name: "the rejoin's own connection is lost: the host is dialled again while the hold lasts",
			script: append(lostHere[:2:2],
				ev{3100 * ms, dialled(true), "rejoin"},
				ev{6100 * ms, lost(migrating(me)), "wait 7.1s"},
				ev{7100 * ms, tick, "redial"},
				ev{7200 * ms, dialled(true), "rejoin"},
				ev{7300 * ms, step(me), ""},
			),
			end: end{phase: Following, host: -1},
		},
		{
			name: "a player that lost the host too and calls this one is told the host is there",
			script: append(lostHere[:2:2],
				ev{3500 * ms, called, "answer: refuse not hosting"},
				ev{6010 * ms, dialled(false), "wait 7.01s"},
				ev{6500 * ms, called, "answer: refuse not hosting"},
			),
			end: end{phase: Pausing, host: -1},
		},
		{
			name: "a host that said it is going is not rejoined: the game moves",
			script: []ev{
				{time.Second, lost(asked(me)), "dial 1"},
			},
			end: end{phase: Walking, host: -1},
		},
		{
			name: "a host that does not answer is not rejoined: the list is walked",
			script: []ev{
				{3 * time.Second, lost(me), "probe-host"},
				{3700 * ms, hostAnswers(false), "dial 1"},
			},
			end: end{phase: Walking, host: -1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runRejoin(t, tt.script, tt.end) })
	}
}

// runRejoin runs script on a guest's machine and checks where it ends:
// back with the host it lost, if it follows one.
func runRejoin(t *testing.T, script []ev, want end) {
	m := New(0, "127.0.0.1:9000", true)
	runScript(t, m, script, want)
	if addr := m.HostAddr(); m.Phase() == Following && addr != "127.0.0.1:9000" {
		t.Errorf("back at %q, want the host it lost", addr)
	}
	wantRejoins := 0
	if want.phase == Following {
		wantRejoins = 1
	}
	if n := m.Rejoins(); n != wantRejoins {
		t.Errorf("%d rejoins counted, want %d", n, wantRejoins)
	}
}
