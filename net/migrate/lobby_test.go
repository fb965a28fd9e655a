package migrate

import (
	"testing"
	"time"
)

// lobbyView is the session of the player in slot self, in a room's lobby
// with the successors in slots list.
func lobbyView(self int, list ...uint8) View {
	v := view(self, list...)
	v.Playing, v.Lobby = false, true
	return v
}

// TestLobby: the lobby survives its host as a game does
// (docs/ARCHITECTURE.md, "When the host goes away"), each case a script
// on virtual time.
func TestLobby(t *testing.T) {
	me := lobbyView(2, 1, 2, 3)    // the second of three successors
	first := lobbyView(1, 1, 2, 3) // the first
	results := me
	results.Lobby = false // the results show: no lobby, no game
	tests := []struct {
		name   string
		script []ev
		end    end
	}{
		{
			name: "half a second of a silent lobby puts waiting on every screen and probes the host; it does not move the lobby",
			script: []ev{
				{300 * ms, silent(300*ms, me), ""},
				{500 * ms, silent(500*ms, me), "probe-host"},
				{900 * ms, silent(900*ms, me), ""},
				{950 * ms, heard, ""},
				{950 * ms, silent(0, me), ""}, // its pings again: a host stalled under a second keeps its lobby
			},
			end: end{phase: Following, host: -1},
		},
		{
			name: "a silent lobby is not cut at PlaySilence; at the transport's timeout the list is walked, the host's probe already failed, and the first successor reached is joined",
			script: []ev{
				{500 * ms, silent(500*ms, me), "probe-host"},
				{1200 * ms, hostAnswers(false), ""},
				{1500 * ms, silent(1500*ms, me), ""},
				{2500 * ms, silent(2500*ms, me), ""},
				{3010 * ms, lost(me), "dial 1"},
				{3020 * ms, dialled(true), "join 1"},
				{3100 * ms, step(migrating(me)), ""},
				{3200 * ms, step(me), ""}, // its Welcome: the seat is back
			},
			end: end{phase: Following, moves: 1, host: 1},
		},
		{
			name: "the first successor carries the lobby on, after asking the later ones, and hosts it once its own session is in it",
			script: []ev{
				{500 * ms, silent(500*ms, first), "probe-host"},
				{1200 * ms, hostAnswers(false), ""},
				{3010 * ms, lost(first), "ask 2,3"},
				{3200 * ms, answered(false), ""},
				{3200 * ms, answered(false), "serve 00001110"},
				{3210 * ms, step(migrating(first)), ""},
				{3220 * ms, step(first), ""},
			},
			end: end{phase: Hosting, moves: 1, host: 1, hosting: true},
		},
		{
			name: "a lobby whose connection timed out (the transport's 3 s) is carried on too",
			script: []ev{
				{3 * time.Second, lost(me), "probe-host"},
				{3700 * ms, hostAnswers(false), "dial 1"},
			},
			end: end{phase: Walking, host: -1},
		},
		{
			name: "a host that still answers its handshake keeps its lobby: only this player's link failed, and it rejoins that host",
			script: []ev{
				{3 * time.Second, lost(me), "probe-host"},
				{3100 * ms, hostAnswers(true), "redial"},
			},
			end: end{phase: Walking, host: -1},
		},
		{
			name: "a lobby that names no successor ends with its connection",
			script: []ev{
				{3 * time.Second, lost(lobbyView(2)), "give-up"},
			},
			end: end{phase: Over, host: -1},
		},
		{
			name: "while the results show, silence moves nothing",
			script: []ev{
				{2 * time.Second, silent(2*time.Second, results), ""},
			},
			end: end{phase: Following, host: -1},
		},
		{
			name: "a player in a lobby that still hears its host refuses another's call",
			script: []ev{
				{500 * ms, heard, ""},
				{600 * ms, called, "answer: refuse not hosting"},
			},
			end: end{phase: Following, host: -1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(0, "127.0.0.1:9000", true)
			n := runScript(t, m, tt.script, tt.end)
			if an, _ := m.Announced(); an != n {
				t.Errorf("announced %d moves of %d: a lobby's move is announced once its host's own session is in it", an, n)
			}
		})
	}
}
