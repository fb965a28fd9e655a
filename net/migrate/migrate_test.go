package migrate

import (
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	"rockstep/net/wire"
)

// The cases of docs/ARCHITECTURE.md, "When the host goes away", each a
// script of events on virtual time and the actions the machine must answer
// with. A test's name is the doc's wording of its case.

const ms = time.Millisecond

// cand is the successor in slot s, at a made-up loopback address.
func cand(s uint8) wire.Successor {
	return wire.Successor{Slot: s, Addr: netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), 7000+uint16(s)), Key: [16]byte{s + 1}}
}

// view is the session of the player in slot self, playing, with the
// successors in slots list.
func view(self int, list ...uint8) View {
	v := View{Playing: true, Slot: self}
	for _, s := range list {
		v.List.List = append(v.List.List, cand(s))
	}
	return v
}

// show writes actions the way the tests want them: "dial 2", "ask 3,4".
func show(acts []Action) string {
	var parts []string
	for _, a := range acts {
		s := a.Kind.String()
		switch a.Kind {
		case 0: // what a test helper reads off the machine: called's answer, probes' targets
			s = a.Err.Error()
		case Dial, Join, Yield:
			s += fmt.Sprintf(" %d", a.Cand.Slot)
		case Ask:
			var slots []string
			for _, c := range a.Cands {
				slots = append(slots, fmt.Sprint(c.Slot))
			}
			s += " " + strings.Join(slots, ",")
		case Serve:
			s += fmt.Sprintf(" %08b", a.Expected)
		case Wait:
			s += fmt.Sprintf(" %v", a.At)
		case Move:
			s += fmt.Sprintf(" %s %08b", a.Server.Label(), a.Expected)
		case Cut, GiveUp:
			if a.Err != nil {
				s += ": " + a.Err.Error()
			}
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// ev is one event of a script, at a virtual time, and the actions it must
// give (as show writes them; "" for none).
type ev struct {
	at   time.Duration
	do   func(m *Machine, now time.Duration) []Action
	want string
}

func step(v View) func(*Machine, time.Duration) []Action {
	return func(m *Machine, now time.Duration) []Action { return m.Step(now, v) }
}

func silent(d time.Duration, v View) func(*Machine, time.Duration) []Action {
	v.Silence = d
	return step(v)
}

func asked(v View) View     { v.Asked = true; return v }
func catching(v View) View  { v.Playing, v.Catching = false, true; return v }
func migrating(v View) View { v.Migrating = true; return v }
func turnedAway(v View) View {
	v.Migrating, v.TurnedAway = true, true
	return v
}

func lost(v View) func(*Machine, time.Duration) []Action {
	return func(m *Machine, now time.Duration) []Action { return m.Lost(now, v) }
}

// hostAnswers answers the machine's last probe of the old host.
func hostAnswers(ok bool) func(*Machine, time.Duration) []Action {
	return func(m *Machine, now time.Duration) []Action { return m.HostAnswered(now, m.probe, ok) }
}

func dialled(ok bool) func(*Machine, time.Duration) []Action {
	return func(m *Machine, now time.Duration) []Action { return m.Dialled(now, ok) }
}

func answered(refused bool) func(*Machine, time.Duration) []Action {
	return func(m *Machine, now time.Duration) []Action { return m.Answered(now, refused) }
}

func tick(m *Machine, now time.Duration) []Action { return m.Tick(now) }

func heard(m *Machine, now time.Duration) []Action { m.Heard(now); return nil }

// called: another player's resuming Join at this player's standby; the
// answer is shown first ("go along" or "refuse REASON").
func called(m *Machine, now time.Duration) []Action {
	reason, acts := m.Called(now)
	what := Action{Err: fmt.Errorf("answer: go along")} // shown first
	if reason != 0 {
		what.Err = fmt.Errorf("answer: refuse %v", reason)
	}
	return append([]Action{what}, acts...)
}

func probed(s uint8, ok bool) func(*Machine, time.Duration) []Action {
	return func(m *Machine, now time.Duration) []Action { return m.Probed(now, cand(s), ok) }
}

func yielded(ok bool) func(*Machine, time.Duration) []Action {
	return func(m *Machine, now time.Duration) []Action { m.Yielded(now, ok); return nil }
}

// end is what the machine says once the script has run.
// runScript plays script on m, checking each event's actions, and then
// where m ended against want; it returns m's moves.
func runScript(t *testing.T, m *Machine, script []ev, want end) (moves int) {
	t.Helper()
	for i, e := range script {
		if got := show(e.do(m, e.at)); got != e.want {
			t.Fatalf("event %d at %v: got %q, want %q", i, e.at, got, e.want)
		}
	}
	n, host := m.Moves()
	got := end{phase: m.Phase(), moves: n, host: host, why: m.Why(), hosting: m.Hosting()}
	if got != want {
		t.Errorf("in the end: got %+v, want %+v", got, want)
	}
	return n
}

type end struct {
	phase   Phase
	moves   int
	host    int
	why     error
	hosting bool
}

func TestMachine(t *testing.T) {
	const slot = 2
	me := view(slot, 1, 2, 3) // the second of three successors
	first := view(1, 1, 2, 3) // the first successor
	last := view(3, 1, 2, 3)  // the last
	// The host's death: the room falls silent in a flowing game.
	tests := []struct {
		name   string
		self   View
		script []ev
		end    end
	}{
		{
			name: "half a second without a word puts waiting on every screen; it does not start the move",
			self: me,
			script: []ev{
				{100 * ms, silent(100*ms, me), ""},
				{500 * ms, silent(500*ms, me), "probe-host"}, // the answer is ready if the move comes
				{900 * ms, silent(900*ms, me), ""},
			},
			end: end{phase: Following, host: -1},
		},
		{
			name: "a host stalled one second keeps its game",
			self: me,
			script: []ev{
				{500 * ms, silent(500*ms, me), "probe-host"},
				{1200 * ms, hostAnswers(false), ""}, // stopped: it answers nobody
				{1300 * ms, silent(1300*ms, me), ""},
				{1310 * ms, heard, ""},
				{1310 * ms, silent(0, me), ""}, // it runs again: the turns flow
				{2000 * ms, silent(690*ms, me), "probe-host"},
				{2100 * ms, hostAnswers(true), ""},
				{2200 * ms, silent(0, me), ""},
			},
			end: end{phase: Following, host: -1},
		},
		{
			name: "a probe of the host answered after its silence ended is forgotten: the next silence probes afresh",
			self: me,
			script: []ev{
				{500 * ms, silent(500*ms, me), "probe-host"},
				{1000 * ms, silent(0, me), ""},      // the host runs again
				{1200 * ms, hostAnswers(false), ""}, // the stopped host's late non-answer
				{2000 * ms, silent(500*ms, me), "probe-host"},
				{2100 * ms, hostAnswers(true), ""},
				{3000 * ms, silent(1500*ms, me), ""}, // it answered: stalled, not gone (AliveSilence)
				{4500 * ms, silent(3000*ms, me), "cut: the host fell silent"},
				{4500 * ms, lost(me), "probe-host"}, // it answered this silence's probe: ask again
			},
			end: end{phase: Checking, host: -1},
		},
		{
			name: "a host that answers its probe during the silence is stalled, not gone: on a starved machine its players keep the game past PlaySilence",
			self: me,
			script: []ev{
				{500 * ms, silent(500*ms, me), "probe-host"},
				{900 * ms, hostAnswers(true), ""},
				{1500 * ms, silent(1500*ms, me), ""},
				{2500 * ms, silent(2500*ms, me), ""},
				{2600 * ms, heard, ""},
				{2600 * ms, silent(0, me), ""}, // its turns come again: one game, nobody left
			},
			end: end{phase: Following, host: -1},
		},
		{
			name: "while the game should flow, silence is sure after PlaySilence: the move starts, the host's probe already failed",
			self: me,
			script: []ev{
				{500 * ms, silent(500*ms, me), "probe-host"},
				{1200 * ms, hostAnswers(false), ""},
				{1500 * ms, silent(1500*ms, me), "cut: the host fell silent"},
				{1600 * ms, silent(1600*ms, me), ""}, // cut once
				{1610 * ms, lost(me), "dial 1"},      // no second probe
			},
			end: end{phase: Walking, host: -1},
		},
		{
			name: "a room just joined is not silent for longer than the player is in it",
			self: me,
			script: []ev{
				{500 * ms, silent(500*ms, me), "probe-host"},
				{1200 * ms, hostAnswers(false), ""},
				{1510 * ms, silent(1510*ms, me), "cut: the host fell silent"},
				{1520 * ms, lost(me), "dial 1"},
				{1530 * ms, dialled(true), "join 1"},
				{1600 * ms, step(migrating(me)), ""},
				{1650 * ms, silent(1650*ms, me), ""}, // taken in: the old room's silence is not the new one's
				{2200 * ms, silent(2200*ms, me), "probe-host"},
				{3200 * ms, silent(3200*ms, me), "cut: the host fell silent"},
			},
			end: end{phase: Following, moves: 1, host: 1},
		},
		{
			name: "when the room falls silent (the transport's timeout), every client walks the same list in order",
			self: me,
			script: []ev{
				{3 * time.Second, lost(me), "probe-host"}, // paused: no silence measured, the transport's 3 s
				{3700 * ms, hostAnswers(false), "dial 1"},
			},
			end: end{phase: Walking, host: -1},
		},
		{
			name: "or says it is going (LeaveHandover): at once, no probe of the host",
			self: me,
			script: []ev{
				{time.Second, step(asked(me)), "cut: the host handed the game over"},
				{time.Second, step(asked(me)), ""},
				{time.Second, lost(asked(me)), "dial 1"},
			},
			end: end{phase: Walking, host: -1},
		},
		{
			name: "the first successor it reaches is where the game goes",
			self: last,
			script: []ev{
				{time.Second, lost(asked(last)), "dial 1"},
				{1700 * ms, dialled(false), "dial 2"}, // the first did not answer in ElectTimeout
				{1710 * ms, dialled(true), "join 2"},
				{1720 * ms, step(migrating(last)), ""},
				{1800 * ms, step(last), ""}, // its Welcome: the room took us in
			},
			end: end{phase: Following, moves: 1, host: 2},
		},
		{
			name: "the others join it with their tokens (Join.Resuming)",
			self: me,
			script: []ev{
				{time.Second, lost(asked(me)), "dial 1"},
				{1010 * ms, dialled(true), "join 1"},
				{1100 * ms, step(migrating(me)), ""},
				{1200 * ms, step(me), ""},
			},
			end: end{phase: Following, moves: 1, host: 1},
		},
		{
			name: "if that is itself, it opens a room from its own confirmed world and waits for the players after it",
			self: me,
			script: []ev{
				{time.Second, lost(asked(me)), "dial 1"},
				{1700 * ms, dialled(false), "serve 00001100"}, // itself and slot 3
			},
			end: end{phase: Hosting, moves: 1, host: 2, hosting: true},
		},
		{
			name: "a successor that elects itself asks the same of the successors after it before it takes the game",
			self: first,
			script: []ev{
				{1500 * ms, silent(1500*ms, first), "cut: the host fell silent"},
				{1500 * ms, lost(first), "probe-host"},
				{2200 * ms, hostAnswers(false), "ask 2,3"},
				{2300 * ms, answered(false), ""}, // slot 2 lost the host too: it comes
				{2350 * ms, answered(false), "serve 00001110"},
			},
			end: end{phase: Hosting, moves: 1, host: 1, hosting: true},
		},
		{
			name: "one that went to an earlier successor (RefuseMoving) does not stop it",
			self: me,
			script: []ev{
				{time.Second, lost(me), "probe-host"},
				{1700 * ms, hostAnswers(false), "dial 1"},
				{2400 * ms, dialled(false), "ask 3"},
				{2600 * ms, answered(false), "serve 00001100"}, // slot 3 said RefuseMoving: not a refusal to wait on
			},
			end: end{phase: Hosting, moves: 1, host: 2, hosting: true},
		},
		{
			name: "if one of them still hears the old host (RefuseNotHosting), only its own link failed: it does not take the game, which ends for it",
			self: first,
			script: []ev{
				{time.Second, lost(first), "probe-host"},
				{1700 * ms, hostAnswers(false), "ask 2,3"}, // the host is out of its reach, not gone
				{1900 * ms, answered(true), ""},
				{1950 * ms, answered(false), "wait 2.15s"},
				{2150 * ms, tick, "ask 2,3"}, // walks again, until the limit
				{2300 * ms, answered(true), ""},
				{2300 * ms, answered(true), "wait 2.5s"},
				{10 * time.Second, tick, "ask 2,3"},
				{10300 * ms, answered(true), ""},
				{10300 * ms, answered(true), "wait 10.5s"},
				{10500 * ms, tick, "ask 2,3"},
				{10700 * ms, answered(true), ""},
				{10700 * ms, answered(true), "wait 10.9s"},
				{11 * time.Second, tick, "give-up: " + ErrNotTakenIn.Error()},
			},
			end: end{phase: Over, host: -1, why: ErrNotTakenIn},
		},
		{
			name: "the last successor, reaching none before it, takes the game: nobody after it to ask",
			self: last,
			script: []ev{
				{time.Second, lost(asked(last)), "dial 1"},
				{1700 * ms, dialled(false), "dial 2"},
				{2400 * ms, dialled(false), "serve 00001000"}, // itself, last: nobody to ask
			},
			end: end{phase: Hosting, moves: 1, host: 3, hosting: true},
		},
		{
			name: "after a refusal, a round with none (a refusal late on a busy machine) does not make it take the game alone; one that lost the host too coming to it does",
			self: first,
			script: []ev{
				{time.Second, lost(first), "probe-host"},
				{1700 * ms, hostAnswers(false), "ask 2,3"},
				{1900 * ms, answered(true), ""},
				{1900 * ms, answered(true), "wait 2.1s"},
				{2100 * ms, tick, "ask 2,3"},
				{2300 * ms, answered(false), ""},
				{2300 * ms, answered(false), "wait 2.5s"}, // no word: not yet
				{2400 * ms, called, "answer: go along"},   // the host is gone for slot 2 too: it comes here
				{2500 * ms, tick, "ask 2,3"},
				{2700 * ms, answered(false), ""},
				{2700 * ms, answered(false), "serve 00001110"},
			},
			end: end{phase: Hosting, moves: 1, host: 1, hosting: true},
		},
		{
			name: "with no reachable successor the game ends as before (after the ten-second handover limit)",
			self: view(4, 1, 2, 3), // a player that is no successor (no standby listed)
			script: []ev{
				{time.Second, lost(asked(view(4, 1, 2, 3))), "dial 1"},
				{1700 * ms, dialled(false), "dial 2"},
				{2400 * ms, dialled(false), "dial 3"},
				{3100 * ms, dialled(false), "wait 3.3s"},
				{3200 * ms, tick, ""}, // too early
				{3300 * ms, tick, "dial 1"},
				{10900 * ms, dialled(false), "dial 2"},
				{11600 * ms, dialled(false), "dial 3"},
				{12300 * ms, dialled(false), "wait 12.5s"},
				{12500 * ms, tick, "give-up: " + ErrNoSuccessor.Error()},
			},
			end: end{phase: Over, host: -1, why: ErrNoSuccessor},
		},
		{
			name: "a client whose link to the host fails while the host still answers its handshake does not move the game: it rejoins that host with its token",
			self: me,
			script: []ev{
				{3 * time.Second, lost(me), "probe-host"},
				{3010 * ms, hostAnswers(true), "redial"},
				{3100 * ms, dialled(true), "rejoin"},
				{3200 * ms, step(migrating(me)), ""},
				{3300 * ms, step(me), ""},
			},
			end: end{phase: Following, host: -1},
		},
		{
			name: "a link that fails in a flowing game is probed again at the cut if the host answered during the silence (cut at AliveSilence)",
			self: me,
			script: []ev{
				{500 * ms, silent(500*ms, me), "probe-host"},
				{510 * ms, hostAnswers(true), ""},
				{1500 * ms, silent(1500*ms, me), ""},
				{3000 * ms, silent(3000*ms, me), "cut: the host fell silent"},
				{3000 * ms, lost(me), "probe-host"},
				{3010 * ms, hostAnswers(true), "redial"},
			},
			end: end{phase: Walking, host: -1},
		},
		{
			name: "a player that still hears the old host turns a resuming Join away (RefuseNotHosting)",
			self: me,
			script: []ev{
				{4 * time.Second, heard, ""},
				{4500 * ms, called, "answer: refuse not hosting"},
			},
			end: end{phase: Following, host: -1},
		},
		{
			name: "a player that lost the host too goes along: its connection is cut, and it walks the list",
			self: me,
			script: []ev{
				{1 * time.Second, heard, ""},
				{2200 * ms, called, "answer: go along; cut: the host handed the game over"},
				{2210 * ms, lost(me), "probe-host"},
			},
			end: end{phase: Checking, host: -1},
		},
		{
			name: "one on its way to another successor turns a resuming Join away (RefuseMoving)",
			self: last,
			script: []ev{
				{time.Second, lost(asked(last)), "dial 1"},
				{1010 * ms, dialled(true), "join 1"},
				{1020 * ms, called, "answer: refuse moving"},
			},
			end: end{phase: Joining, host: -1},
		},
		{
			name: "one that came to one's room within the handover limit turns it away (RefuseMoving); after it, it still hears a host (RefuseNotHosting)",
			self: last,
			script: []ev{
				{time.Second, lost(asked(last)), "dial 1"},
				{1010 * ms, dialled(true), "join 1"},
				{1100 * ms, step(last), ""},
				{1500 * ms, heard, ""},
				{1600 * ms, called, "answer: refuse moving"},
				{11500 * ms, heard, ""},
				{11600 * ms, called, "answer: refuse not hosting"},
			},
			end: end{phase: Following, moves: 1, host: 1},
		},
		{
			name: "the caller walks the list again (its first dial may have timed out on a busy machine), until the ten-second handover limit",
			self: last,
			script: []ev{
				{time.Second, lost(asked(last)), "dial 1"},
				{1700 * ms, dialled(false), "dial 2"}, // the first's answer was late
				{1710 * ms, dialled(true), "join 2"},
				{1800 * ms, step(turnedAway(last)), "cut: that player does not host the game"},
				{1810 * ms, lost(last), "wait 2.01s"},
				{2010 * ms, tick, "dial 1"},
				{2020 * ms, dialled(true), "join 1"},
				{2100 * ms, step(migrating(last)), ""},
				{2200 * ms, step(last), ""},
			},
			end: end{phase: Following, moves: 1, host: 1},
		},
		{
			name: "a room that never takes the player in ends its game at the handover limit",
			self: last,
			script: []ev{
				{time.Second, lost(asked(last)), "dial 1"},
				{1010 * ms, dialled(true), "join 1"},
				{10 * time.Second, step(migrating(last)), ""},
				{11100 * ms, step(migrating(last)), "cut: " + ErrNoSuccessor.Error()},
				{11110 * ms, lost(last), "give-up: " + ErrNotTakenIn.Error()},
			},
			end: end{phase: Over, host: -1, why: ErrNotTakenIn},
		},
		{
			name: "if a partial network made two successors take the game, the later one keeps probing those it passed over; when one answers, its room gives the game to it (LeaveYield) and its players, itself among them, rejoin there",
			self: me,
			script: []ev{
				{time.Second, lost(asked(me)), "dial 1"},
				{1700 * ms, dialled(false), "serve 00001100"},
				{2700 * ms, probed(3, true), ""},
				{2700 * ms, probed(1, false), ""},
				{3700 * ms, probed(1, true), "yield 1"},
				{3700 * ms, probed(1, true), ""}, // once
				{3710 * ms, yielded(true), ""},
				{3720 * ms, step(asked(me)), "cut: the host handed the game over"},
				{3730 * ms, lost(asked(me)), "dial 1"},
				{3740 * ms, dialled(true), "join 1"},
				{3750 * ms, step(migrating(me)), ""},
				{3800 * ms, step(me), ""},
			},
			end: end{phase: Following, moves: 2, host: 1},
		},
		{
			name: "a player still catching up when the host dies does not give up: it walks the list and rejoins the successor's room, to catch up from its snapshot",
			self: catching(view(3, 1, 2)),
			script: []ev{
				{3 * time.Second, lost(catching(view(3, 1, 2))), "probe-host"},
				{3700 * ms, hostAnswers(false), "dial 1"},
				{3800 * ms, dialled(true), "join 1"},
				{3900 * ms, step(migrating(catching(view(3, 1, 2)))), ""},
				{4000 * ms, step(catching(view(3, 1, 2))), ""}, // taken in: the room's snapshot comes next
			},
			end: end{phase: Following, moves: 1, host: 1},
		},
		{
			name: "a player still catching up when its room says it is going (a yield, a handover) goes along too",
			self: catching(view(3, 1)),
			script: []ev{
				{time.Second, step(asked(catching(view(3, 1)))), "cut: the host handed the game over"},
				{time.Second, lost(asked(catching(view(3, 1)))), "dial 1"},
				{1100 * ms, dialled(true), "join 1"},
				{1200 * ms, step(catching(view(3, 1))), ""},
			},
			end: end{phase: Following, moves: 1, host: 1},
		},
		{
			name: "a player catching up that the list names first has no world to host from: it passes itself over",
			self: catching(view(1, 1, 2)),
			script: []ev{
				{time.Second, lost(asked(catching(view(1, 1, 2)))), "dial 2"},
				{1100 * ms, dialled(true), "join 2"},
			},
			end: end{phase: Joining, host: -1},
		},
		{
			name: "a game that is not running does not move: it ends as the connection did",
			self: me,
			script: []ev{
				{time.Second, lost(View{Slot: slot}), "give-up"},
			},
			end: end{phase: Over, host: -1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(0, "127.0.0.1:9000", true)
			runScript(t, m, tt.script, tt.end)
		})
	}
}

// TestMachineWithoutStandby: a player that cannot carry the game on only
// ends an in-process connection whose room said it is going; it never
// cuts a network connection nor probes.
func TestMachineWithoutStandby(t *testing.T) {
	tests := []struct {
		name string
		addr string
		v    View
		want string
	}{
		{"over the network, silent", "127.0.0.1:9000", View{Playing: true, Silence: 5 * time.Second, List: view(0, 1).List}, ""},
		{"over the network, asked", "127.0.0.1:9000", asked(view(0, 1)), ""},
		{"in-process, asked", "", asked(view(0, 1)), "cut: the host handed the game over"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(0, tt.addr, false)
			if got := show(m.Step(6*time.Second, tt.v)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestReach: a port counts as reached if it answered within ProbeMemory
// (one probe lost on a busy machine does not reorder the successors).
func TestReach(t *testing.T) {
	v := view(2, 1, 2, 3)
	m := New(0, "127.0.0.1:9000", true)
	m.Probed(time.Second, cand(1), true)
	m.Probed(time.Second, cand(3), false)
	tests := []struct {
		name string
		at   time.Duration
		want uint8
	}{
		{"answered just now", 2 * time.Second, 1 << 1},
		{"answered within ProbeMemory", time.Second + ProbeMemory - ms, 1 << 1},
		{"not since ProbeMemory", time.Second + ProbeMemory, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := m.Reach(tt.at, v); got != tt.want {
				t.Errorf("got %08b, want %08b", got, tt.want)
			}
		})
	}
}

// TestProbeTargets: while this player hosts since a move, the successors
// it passed over come first; then every other candidate, once.
func TestProbeTargets(t *testing.T) {
	m := New(0, "127.0.0.1:9000", true)
	me := view(2, 1, 2, 3)
	m.Lost(time.Second, asked(me))
	m.Dialled(1700*ms, false) // serves
	newRoom := view(2, 2, 3)
	var got []uint8
	for _, c := range m.ProbeTargets(newRoom) {
		got = append(got, c.Slot)
	}
	if want := []uint8{1, 3}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
