package migrate

import (
	"testing"
	"time"
)

// TestLobbyMovesToTheServer: a lobby whose host went away moves to the
// host's known community server as a game does (server.go): at once when
// no successor a majority can reach is listed, after the handover limit
// when the walks found nobody; a reachable successor still comes first.
// Each case a script on virtual time.
func TestLobbyMovesToTheServer(t *testing.T) {
	me := lobbyView(2, 1, 2, 3) // the second of three successors
	tests := []struct {
		name   string
		script []ev
		end    end
		server string
	}{
		{
			name: "every successor unreached: the lobby moves to the server at once, and its seat is back there",
			script: []ev{
				{500 * ms, silent(500*ms, friday(unreached(me, 1, 2, 3))), "probe-host"},
				{1200 * ms, hostAnswers(false), ""},
				{3010 * ms, lost(friday(unreached(me, 1, 2, 3))), "move Friday night 00001110"},
				{3200 * ms, dialled(true), "join 254"},
				{3300 * ms, step(migrating(lobbyView(2))), ""},
				{3400 * ms, step(lobbyView(2)), ""}, // the server's lobby took it in with its token
			},
			end:    end{phase: Following, moves: 1, host: OnServer},
			server: "Friday night",
		},
		{
			name: "the walks find nobody until the handover limit: then the server",
			script: []ev{
				{3 * time.Second, lost(asked(friday(lobbyView(3, 1, 2)))), "dial 1"},
				{3700 * ms, dialled(false), "dial 2"},
				{4400 * ms, dialled(false), "wait 4.6s"},
				{13 * time.Second, tick, "move Friday night 00000110"},
				{13200 * ms, dialled(true), "join 254"},
				{13300 * ms, step(lobbyView(3)), ""},
			},
			end:    end{phase: Following, moves: 1, host: OnServer},
			server: "Friday night",
		},
		{
			name: "a reachable successor comes before the server: the lobby goes to it",
			script: []ev{
				{3 * time.Second, lost(asked(friday(unreached(me, 2, 3)))), "dial 1"},
				{3100 * ms, dialled(true), "join 1"},
				{3200 * ms, step(lobbyView(2, 1)), ""},
			},
			end: end{phase: Following, moves: 1, host: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(0, "127.0.0.1:9000", true)
			runScript(t, m, tt.script, tt.end)
			srv, ok := m.Server()
			if name := srv.Label(); ok != (tt.server != "") || ok && name != tt.server {
				t.Errorf("on the server %q (%v), want %q", name, ok, tt.server)
			}
		})
	}
}
