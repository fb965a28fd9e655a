package migrate

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"rockstep/net/wire"
)

// served: the room of the last Serve opened at turn next.
func served(next uint32) func(*Machine, time.Duration) []Action {
	return func(m *Machine, now time.Duration) []Action { m.Served(next); return nil }
}

// playing is the session of the player in slot self in its own room,
// having executed turn turns; apart if the room holds the game for want
// of a majority.
func playing(v View, turn uint32, apart bool) View {
	v.Turn, v.Apart = turn, apart
	return v
}

// probes shows the standby ports the machine names to probe (ProbeTargets)
// as "probe 1,2".
func probes(v View) func(*Machine, time.Duration) []Action {
	return func(m *Machine, now time.Duration) []Action {
		targets := m.ProbeTargets(v)
		if len(targets) == 0 {
			return nil
		}
		slots := make([]string, len(targets))
		for i, c := range targets {
			slots[i] = fmt.Sprint(c.Slot)
		}
		return []Action{{Err: errors.New("probe " + strings.Join(slots, ","))}}
	}
}

// vacancy: the room holds a member vacant.
func vacancy(v View) View { v.Vacancy = true; return v }

func failed(k Kind) func(*Machine, time.Duration) []Action {
	return func(m *Machine, now time.Duration) []Action { return m.Failed(now, k) }
}

// TestMajority: the migration's side of "a game advances only where a
// strict majority of its members are together" (docs/ARCHITECTURE.md,
// "When the host goes away"). The room holds a game without a majority
// (room.Room.Majority, its own table test); the machine opens a
// successor's room but says it hosts the game (Announced: the screens'
// "you host the game now") only once a turn was played there, which the
// room allows only with a majority. So two machines cut apart never both
// say it.
func TestMajority(t *testing.T) {
	solo := view(0, 0)     // two players: the host crashed, the guest is the only successor
	me := view(1, 1, 2)    // the first of two successors (of three players, or a tie of four)
	later := view(2, 1, 2) // the second
	type want struct {
		phase     Phase
		announced int
		leading   bool
		why       error
		server    string // the server the game moved to ("": none)
	}
	host := view(0, 1, 2)                   // the old host (slot 0) of three players, with its two successors
	deserted := playing(view(0), 500, true) // ... its room holds, both others away from it (it lists no successor then)
	deserted.Deserted = true
	pair := view(0, 1) // the host of two players
	tests := []struct {
		name   string
		owner  bool // the machine is the old host's own player (NewOwner)
		script []ev
		want   want
	}{
		{
			name: "majority: the successor's room plays a turn with the others: it hosts the game and says so",
			script: []ev{
				{time.Second, lost(asked(me)), "serve 00000110"},
				{time.Second, served(100), ""},
				{1100 * ms, step(migrating(playing(me, 100, false))), ""},
				{1200 * ms, step(playing(me, 100, false)), ""}, // taken in by its own room, no turn yet
				{1300 * ms, step(playing(me, 101, false)), ""}, // the first turn, with a majority
			},
			want: want{phase: Hosting, announced: 1, leading: true},
		},
		{
			name: "minority: the successor's room waits apart; it never says it hosts the game",
			script: []ev{
				{time.Second, lost(asked(me)), "serve 00000110"},
				{time.Second, served(100), ""},
				{2200 * ms, step(playing(me, 100, true)), ""}, // the others did not come: held vacant
				{20 * time.Second, step(playing(me, 100, true)), ""},
			},
			want: want{phase: Hosting, announced: 0},
		},
		{
			name: "tie: half of the members is no majority; it waits as a minority does",
			script: []ev{
				{time.Second, lost(asked(me)), "serve 00000110"},
				{time.Second, served(100), ""},
				{2200 * ms, step(playing(me, 100, true)), ""},
			},
			want: want{phase: Hosting, announced: 0},
		},
		{
			name: "two players: the guest whose host crashed opens the room and waits for the host's countdown; then plays on, told so",
			script: []ev{
				{1500 * ms, silent(1500*ms, solo), "cut: the host fell silent"},
				{1510 * ms, lost(solo), "probe-host"},
				{2210 * ms, hostAnswers(false), "serve 00000001"},
				{2210 * ms, served(90), ""},
				{3300 * ms, step(playing(solo, 90, true)), ""}, // the host held vacant: one of two
				{30 * time.Second, step(playing(solo, 90, true)), ""},
				{33 * time.Second, step(playing(solo, 91, false)), ""}, // dropped at the end of its countdown
			},
			want: want{phase: Hosting, announced: 1, leading: true},
		},
		{
			name: "a successor cut off from the host: asking the others, it takes no game while one still has the host",
			script: []ev{
				{3 * time.Second, lost(me), "probe-host"},
				{3700 * ms, hostAnswers(false), "ask 2"},
				{3900 * ms, answered(true), "wait 4.1s"},
			},
			want: want{phase: Pausing},
		},
		{
			name: "a later successor that lost the host too joins the first; the move is announced at once (its room leads)",
			script: []ev{
				{3 * time.Second, lost(later), "probe-host"},
				{3700 * ms, hostAnswers(false), "dial 1"},
				{3800 * ms, dialled(true), "join 1"},
				{3900 * ms, step(later), ""},
			},
			want: want{phase: Following, announced: 1},
		},
		{
			name: "no reachable successor, no server: the walks end at the handover limit and the game ends here",
			script: []ev{
				{time.Second, lost(asked(view(3, 1, 2))), "dial 1"},
				{1700 * ms, dialled(false), "dial 2"},
				{2400 * ms, dialled(false), "wait 2.6s"},
				{11 * time.Second, tick, "give-up: " + ErrNoSuccessor.Error()},
			},
			want: want{phase: Over, why: ErrNoSuccessor},
		},
		{
			name: "no reachable successor, with a server: every successor unreached, the game moves to the server at once and plays on there",
			script: []ev{
				{1500 * ms, silent(1500*ms, friday(unreached(view(2, 1, 2, 3), 1, 2, 3))), "cut: the host fell silent"},
				{1510 * ms, lost(friday(unreached(view(2, 1, 2, 3), 1, 2, 3))), "probe-host"},
				{2210 * ms, hostAnswers(false), "move Friday night 00001110"},
				{2400 * ms, dialled(true), "join 254"},
				{2500 * ms, step(migrating(view(2))), ""},
				{2700 * ms, step(view(2)), ""}, // the server's room took it in with its token
			},
			want: want{phase: Following, announced: 1, server: "Friday night"},
		},
		{
			name: "no reachable successor, with a server: the walks find nobody until the handover limit, then the server",
			script: []ev{
				{time.Second, lost(asked(friday(view(3, 1, 2)))), "dial 1"},
				{1700 * ms, dialled(false), "dial 2"},
				{2400 * ms, dialled(false), "wait 2.6s"},
				{11 * time.Second, tick, "move Friday night 00000110"},
				{11200 * ms, dialled(true), "join 254"},
				{11300 * ms, step(view(3)), ""},
			},
			want: want{phase: Following, announced: 1, server: "Friday night"},
		},
		{
			name: "no reachable successor, the servers do not answer: the next is tried, then the walks go on, and the game ends at the handover limit",
			script: []ev{
				{time.Second, lost(asked(friday(unreached(view(3, 1, 2), 1, 2)))), "move Friday night 00000110"},
				{1700 * ms, dialled(false), "move 198.51.100.9:7777 00000110"},
				{2400 * ms, dialled(false), "wait 2.6s"},
				{2600 * ms, tick, "move Friday night 00000110"},
				{3300 * ms, dialled(false), "move 198.51.100.9:7777 00000110"},
				{11 * time.Second, dialled(false), "give-up: " + ErrNoSuccessor.Error()},
			},
			want: want{phase: Over, why: ErrNoSuccessor},
		},
		{
			name: "turned away by a successor until the handover limit, with a server: the others play on there, so not the server (it would wait there alone)",
			script: []ev{
				{time.Second, lost(asked(friday(view(3, 1, 2)))), "dial 1"},
				{1100 * ms, dialled(true), "join 1"},
				{1200 * ms, step(turnedAway(friday(view(3, 1, 2)))), "cut: " + ErrTurnedAway.Error()},
				{1300 * ms, lost(friday(view(3, 1, 2))), "wait 1.5s"},
				{11200 * ms, tick, "give-up: " + ErrNotTakenIn.Error()},
			},
			want: want{phase: Over, why: ErrNotTakenIn},
		},
		{
			name: "a reachable successor comes before the server: the game goes to it",
			script: []ev{
				{time.Second, lost(asked(friday(unreached(view(3, 1, 2), 1)))), "dial 2"},
				{1100 * ms, dialled(true), "join 2"},
				{1200 * ms, step(view(3, 2)), ""},
			},
			want: want{phase: Following, announced: 1},
		},
		{
			name: "minority after a dial timed out: its room holds, it keeps probing the successors ahead of it; the first answers with the game: it yields and rejoins there",
			script: []ev{
				{time.Second, lost(asked(view(1, 2, 0, 1))), "dial 2"},
				{1700 * ms, dialled(false), "dial 0"}, // a busy machine: the first dial timed out
				{2400 * ms, dialled(false), "serve 00000010"},
				{2400 * ms, served(100), ""},
				{3500 * ms, step(playing(view(1, 2, 0, 1), 100, true)), ""}, // no majority came: held
				{3500 * ms, probed(0, false), ""},
				{4500 * ms, probed(2, true), "yield 2"}, // the majority's room answers
				{4510 * ms, yielded(true), ""},
				{4520 * ms, step(asked(view(1, 2))), "cut: the host handed the game over"},
				{4530 * ms, lost(asked(view(1, 2))), "dial 2"},
				{4540 * ms, dialled(true), "join 2"},
				{4550 * ms, step(migrating(view(1, 2))), ""},
				{4600 * ms, step(view(1, 2)), ""},
			},
			want: want{phase: Following, announced: 2}, // its room, then the majority's
		},
		{
			name:  "old host cut off: its room holds while more than half are away; when its network is back the first successor that answers runs their room: it gives the game there and rejoins it",
			owner: true,
			script: []ev{
				{time.Second, step(playing(host, 100, false)), ""},
				{time.Second, probes(playing(host, 100, false)), ""}, // it hosts: nothing to look for
				{5 * time.Second, step(deserted), ""},                // its transport gave the others up
				{5 * time.Second, probes(deserted), "probe 1,2"},
				{6 * time.Second, probed(1, false), ""}, // its network is still down
				{6 * time.Second, probed(2, false), ""},
				{12 * time.Second, probed(1, true), "yield 1"}, // back: the first successor answers
				{12010 * ms, yielded(true), ""},
				{12020 * ms, step(asked(view(0, 1))), "cut: the host handed the game over"},
				{12030 * ms, lost(asked(view(0, 1))), "dial 1"},
				{12040 * ms, dialled(true), "join 1"},
				{12050 * ms, step(migrating(view(0, 1))), ""},
				{12100 * ms, step(view(0, 1)), ""}, // taken in with its token: one game
			},
			want: want{phase: Following, announced: 1},
		},
		{
			name:  "old host cut off: its room's word to go may come before the yield is done; it goes all the same",
			owner: true,
			script: []ev{
				{time.Second, step(playing(host, 100, false)), ""},
				{5 * time.Second, step(deserted), ""},
				{12 * time.Second, probed(1, true), "yield 1"},
				{12010 * ms, step(asked(view(0, 1))), "cut: the host handed the game over"},
				{12020 * ms, lost(asked(view(0, 1))), "dial 1"},
				{12030 * ms, yielded(true), ""},
				{12040 * ms, dialled(true), "join 1"},
				{12100 * ms, step(view(0, 1)), ""},
			},
			want: want{phase: Following, announced: 1},
		},
		{
			name:  "old host cut off: the first successor's answer is lost on a busy machine and the second answers; its room names the second, but it walks the list the others walked, from the first",
			owner: true,
			script: []ev{
				{time.Second, step(playing(host, 100, false)), ""},
				{5 * time.Second, step(deserted), ""},
				{12 * time.Second, probed(1, false), ""},
				{12 * time.Second, probed(2, true), "yield 2"},
				{12010 * ms, yielded(true), ""},
				{12020 * ms, step(asked(view(0, 2))), "cut: the host handed the game over"},
				{12030 * ms, lost(asked(view(0, 2))), "dial 1"},
				{12730 * ms, dialled(false), "dial 2"},
				{12800 * ms, dialled(true), "join 2"},
				{12900 * ms, step(turnedAway(view(0, 2))), "cut: " + ErrTurnedAway.Error()}, // the second follows the first
				{12910 * ms, lost(turnedAway(view(0, 2))), "wait 13.11s"},
				{13110 * ms, tick, "dial 1"},
				{13200 * ms, dialled(true), "join 1"},
				{13300 * ms, step(view(0, 2)), ""},
			},
			want: want{phase: Following, announced: 1},
		},
		{
			name:  "old host cut off: its room gives the others up one by one, its list shrinking; it looks for them in the list from before anyone was away, the one they walked",
			owner: true,
			script: []ev{
				{time.Second, step(playing(host, 100, false)), ""},
				{4 * time.Second, step(vacancy(playing(view(0, 2), 300, false))), ""}, // the first given up: two of three still here
				{5 * time.Second, step(deserted), ""},
				{5 * time.Second, probes(deserted), "probe 1,2"},
				{6 * time.Second, probed(1, true), "yield 1"},
			},
			want: want{phase: Hosting, leading: false},
		},
		{
			name:  "old host cut off only for a moment: its players came back before the countdown ended; it hosts on and looks for no one",
			owner: true,
			script: []ev{
				{time.Second, step(playing(host, 100, false)), ""},
				{5 * time.Second, step(deserted), ""},
				{6 * time.Second, step(playing(host, 101, false)), ""},
				{6 * time.Second, probes(playing(host, 101, false)), ""},
				{7 * time.Second, probed(1, true), ""},
			},
			want: want{phase: Hosting, leading: true},
		},
		{
			name:  "two players, the old host's side: its guest away is half, no majority elsewhere; the host keeps its game and waits (the guest's room gives up to it)",
			owner: true,
			script: []ev{
				{5 * time.Second, step(playing(pair, 100, true)), ""}, // apart, not deserted
				{5 * time.Second, probes(playing(pair, 100, true)), ""},
				{6 * time.Second, probed(1, true), ""},
			},
			want: want{phase: Hosting, leading: true},
		},
		{
			name:  "the old host's own room goes away (its player closed it): the game ends here as the connection did",
			owner: true,
			script: []ev{
				{5 * time.Second, step(asked(host)), "cut: the host handed the game over"},
				{5 * time.Second, lost(asked(host)), "give-up"},
			},
			want: want{phase: Over},
		},
		{
			name: "no world to host from: the client says so and the machine ends the game here",
			script: []ev{
				{time.Second, lost(asked(me)), "serve 00000110"},
				{time.Second, failed(Serve), "give-up: " + ErrNoSuccessor.Error()},
			},
			want: want{phase: Over, why: ErrNoSuccessor},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(0, "127.0.0.1:9000", true)
			if tt.owner {
				m = NewOwner(0)
			}
			for i, e := range tt.script {
				if got := show(e.do(m, e.at)); got != e.want {
					t.Fatalf("event %d at %v: got %q, want %q", i, e.at, got, e.want)
				}
			}
			n, _ := m.Announced()
			got := want{phase: m.Phase(), announced: n, leading: m.Leading(), why: m.Why()}
			if srv, ok := m.Server(); ok {
				got.server = srv.Label()
			}
			if got != tt.want {
				t.Errorf("in the end: got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// friday is v with the host's known servers: "Friday night", then one
// known by its address only.
func friday(v View) View {
	v.List.Servers = []wire.FallbackServer{{Name: "Friday night", Addr: "192.0.2.7:7777"}, {Addr: "198.51.100.9:7777"}}
	return v
}

// TestAnswerWait: a later successor's refusal is waited for five times
// its handshake, within RefusalWait and ElectTimeout.
func TestAnswerWait(t *testing.T) {
	for _, tt := range []struct{ handshake, want time.Duration }{
		{time.Millisecond, RefusalWait},
		{50 * ms, 250 * ms},
		{time.Second, ElectTimeout},
	} {
		if got := AnswerWait(tt.handshake); got != tt.want {
			t.Errorf("AnswerWait(%v) = %v, want %v", tt.handshake, got, tt.want)
		}
	}
}

// oldHost asks the machine whether to probe the host it lost, with the
// session's view v; shown as "probe-host" if it does.
func oldHost(v View) func(*Machine, time.Duration) []Action {
	return func(m *Machine, now time.Duration) []Action {
		if _, ok := m.OldHost(v); ok {
			return []Action{{Kind: ProbeHost}}
		}
		return nil
	}
}

func oldAnswered(ok bool) func(*Machine, time.Duration) []Action {
	return func(m *Machine, now time.Duration) []Action { return m.OldAnswered(now, ok) }
}

// TestMinorityRejoins: a player whose own network failed takes the game
// alone (it reached no one, and no one answered that it still has the
// host); its room has no majority and holds. While it holds, the host it
// lost is probed: when that host answers again (the network is back), the
// room is given up and the game ends here with ErrHostStillThere, which
// offers Rejoin to the game the others played on with that host, rather
// than play on as a second game at the end of the countdown.
func TestMinorityRejoins(t *testing.T) {
	me := view(1, 1, 2)
	apart := playing(me, 100, true)
	tests := []struct {
		name   string
		script []ev
		phase  Phase
		moves  int
		why    error
	}{
		{
			name: "cut off, its network back: the old host answers, the room is given up, Rejoin the majority's game",
			script: []ev{
				{1500 * ms, silent(1500*ms, me), "cut: the host fell silent"},
				{1510 * ms, lost(me), "probe-host"},
				{2210 * ms, hostAnswers(false), "ask 2"}, // its network is down: nobody answers
				{2910 * ms, answered(false), "serve 00000110"},
				{2910 * ms, served(100), ""},
				{4000 * ms, oldHost(apart), "probe-host"},
				{4700 * ms, oldAnswered(false), ""},
				{9000 * ms, oldHost(apart), "probe-host"},
				{9010 * ms, oldAnswered(true), "cut: " + ErrHostStillThere.Error()},
				{9020 * ms, lost(apart), "give-up: " + ErrHostStillThere.Error()},
			},
			phase: Over, why: ErrHostStillThere,
		},
		{
			name: "the host said it is going: there is no host to hear again",
			script: []ev{
				{time.Second, lost(asked(me)), "serve 00000110"},
				{time.Second, served(100), ""},
				{2 * time.Second, oldHost(apart), ""},
			},
			phase: Hosting, moves: 1,
		},
		{
			name: "a majority played in its room: it hosts the game, the old host is not asked",
			script: []ev{
				{1500 * ms, silent(1500*ms, me), "cut: the host fell silent"},
				{1510 * ms, lost(me), "probe-host"},
				{2210 * ms, hostAnswers(false), "ask 2"},
				{2300 * ms, answered(false), "serve 00000110"},
				{2300 * ms, served(100), ""},
				{3000 * ms, step(playing(me, 101, false)), ""},
				{4000 * ms, oldHost(playing(me, 101, false)), ""},
				{4000 * ms, oldAnswered(true), ""},
			},
			phase: Hosting, moves: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(0, "127.0.0.1:9000", true)
			for i, e := range tt.script {
				if got := show(e.do(m, e.at)); got != e.want {
					t.Fatalf("event %d at %v: got %q, want %q", i, e.at, got, e.want)
				}
			}
			n, _ := m.Moves()
			if m.Phase() != tt.phase || n != tt.moves || m.Why() != tt.why {
				t.Errorf("in the end: phase %v, %d moves, why %v; want %v, %d, %v", m.Phase(), n, m.Why(), tt.phase, tt.moves, tt.why)
			}
		})
	}
}
