package lockstep_test

import (
	"flag"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/internal/fuzzseed"
	"rockstep/net/lockstep"
	"rockstep/net/wire"
)

var updateCorpus = flag.Bool("update-corpus", false, "rewrite the fuzz seed corpus in testdata/fuzz from fuzzSeeds")

// legalMoves are the phase changes a session may make, as its code makes
// them (staying in a phase is always legal). Nothing leads back to Joining.
var legalMoves = map[lockstep.Phase][]lockstep.Phase{
	// Welcome (setup or finished: lobby; running: catch up), Refuse, Leave.
	lockstep.Joining: {lockstep.Lobby, lockstep.Starting, lockstep.Refused, lockstep.Left},
	// Start at turn 0, Start with a snapshot to come, Leave.
	lockstep.Lobby: {lockstep.Playing, lockstep.Starting, lockstep.Left},
	// The snapshot restored (or a Start at turn 0), the room finished
	// before we caught up, Leave.
	lockstep.Starting: {lockstep.Playing, lockstep.Finished, lockstep.Left},
	// The game ended here and the room confirms it, Leave. (A Start for
	// another game at turn 0 begins it: Playing again.)
	lockstep.Playing: {lockstep.Finished, lockstep.Left},
	// SetReady for a rematch, the next game's Start (from turn 0 or a
	// snapshot), Leave.
	lockstep.Finished: {lockstep.Lobby, lockstep.Playing, lockstep.Starting, lockstep.Left},
	// The room's Leave is honoured in every phase, even after a refusal.
	lockstep.Refused: {lockstep.Left},
	lockstep.Left:    {},
}

func legalMove(from, to lockstep.Phase) bool {
	return from == to || slices.Contains(legalMoves[from], to)
}

// fuzzSetup is the game of the sessions FuzzReceive starts from: slots 0
// and 1, the session in slot 1.
var fuzzSetup = game.Setup{Seed: 1, Players: 0b11, Mode: game.Coop, Lives: 3, StartWave: 1}

// snapshotTurn is the turn of the world a late joiner gets in fuzzChunks.
const snapshotTurn = 9

// fuzzChunks returns the chunks of a real world snapshot taken at the end
// of snapshotTurn.
func fuzzChunks(tb testing.TB) []wire.SnapshotChunk {
	w, err := game.New(fuzzSetup)
	if err != nil {
		tb.Fatal(err)
	}
	for range 2 * (snapshotTurn + 1) {
		w.Step([game.MaxPlayers]game.Input{game.Fire, game.Up})
	}
	data, err := w.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	h := game.Sum64(data)
	total := (len(data) + wire.MaxChunk - 1) / wire.MaxChunk
	var cs []wire.SnapshotChunk
	for i := 0; i < total; i++ {
		end := min((i+1)*wire.MaxChunk, len(data))
		cs = append(cs, wire.SnapshotChunk{Turn: snapshotTurn, Hash: h, Total: uint8(total), Index: uint8(i), Data: data[i*wire.MaxChunk : end]})
	}
	return cs
}

func frame(tb testing.TB, m wire.Message) []byte {
	tb.Helper()
	b, err := wire.Append(nil, m)
	if err != nil {
		tb.Fatalf("encode %T: %v", m, err)
	}
	return b
}

// fuzzStart is a session in a phase, reached through the frames a room sends.
type fuzzStart struct {
	name   string
	phase  lockstep.Phase
	frames [][]byte
}

func fuzzStarts(tb testing.TB) []fuzzStart {
	welcome := frame(tb, wire.Welcome{Slot: 1, State: wire.StateSetup})
	start := frame(tb, wire.Start{Setup: fuzzSetup, K: 2, Delay: 1})
	catchUp := [][]byte{frame(tb, wire.Welcome{Slot: 1, State: wire.StateRunning}), frame(tb, wire.Start{Setup: fuzzSetup, FirstTurn: snapshotTurn + 1, K: 2, Delay: 1})}
	cs := fuzzChunks(tb)
	for _, c := range cs[:len(cs)-1] {
		catchUp = append(catchUp, frame(tb, c))
	}
	return []fuzzStart{
		{"joining", lockstep.Joining, nil},
		{"lobby", lockstep.Lobby, [][]byte{welcome}},
		{"playing", lockstep.Playing, [][]byte{welcome, start}},
		{"starting, one chunk short of its snapshot", lockstep.Starting, catchUp},
		{"finished", lockstep.Finished, [][]byte{welcome, start, frame(tb, wire.RoomStatus{State: wire.StateFinished})}},
	}
}

// FuzzReceive feeds an arbitrary frame, three times, to sessions in every
// phase they reach by themselves, updating and flushing after each. Nothing
// may panic, and:
//   - the phase only moves along legalMoves, and never back to Joining;
//   - every frame is counted in (PacketsIn), and a frame that does not
//     decode is counted in MalformedIn;
//   - every frame the session sends decodes, and after Flush nothing is
//     left to send.
func FuzzReceive(f *testing.F) {
	starts := fuzzStarts(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		_, decodeErr := wire.Decode(in)
		for _, start := range starts {
			s := lockstep.New(lockstep.LAN())
			now := time.Duration(0)
			s.Update(now, nil)
			for _, fr := range start.frames {
				s.Receive(now, fr)
			}
			if s.Phase() != start.phase {
				t.Fatalf("%s: phase %s, want %s", start.name, s.Phase(), start.phase)
			}
			flush(t, s)
			for i := 0; i < 3; i++ {
				before, st := s.Phase(), s.Stats()
				s.Receive(now, in)
				after := s.Stats()
				if !legalMove(before, s.Phase()) {
					t.Fatalf("%s, frame %d: phase %s → %s on receiving % x", start.name, i, before, s.Phase(), in)
				}
				if after.PacketsIn != st.PacketsIn+1 {
					t.Fatalf("%s, frame %d: PacketsIn %d → %d, want one more", start.name, i, st.PacketsIn, after.PacketsIn)
				}
				switch n := after.MalformedIn - st.MalformedIn; {
				case decodeErr != nil && n != 1:
					t.Fatalf("%s, frame %d: a frame that does not decode (%v) counted %d times in MalformedIn", start.name, i, decodeErr, n)
				case n > 1:
					t.Fatalf("%s, frame %d: one frame counted %d times in MalformedIn", start.name, i, n)
				}
				now += 17 * time.Millisecond
				before = s.Phase()
				s.Update(now, func(uint32) game.Input { return game.Fire })
				if !legalMove(before, s.Phase()) {
					t.Fatalf("%s, frame %d: phase %s → %s on Update", start.name, i, before, s.Phase())
				}
				flush(t, s)
			}
		}
	})
}

// flush flushes s, checks that every frame decodes, and that a second
// Flush has nothing left to send.
func flush(t testing.TB, s *lockstep.Session) {
	t.Helper()
	s.Flush(func(f []byte) {
		if _, err := wire.Decode(f); err != nil {
			t.Fatalf("the session sent a frame that does not decode: %v", err)
		}
	})
	s.Flush(func(f []byte) { t.Fatalf("a %d-byte frame left after Flush", len(f)) })
}

// fuzzSeeds returns FuzzReceive's seeds by file name: every message a room
// sends, encoded by wire.Append, for the game of fuzzStarts, and a few
// frames that must be refused.
func fuzzSeeds(tb testing.TB) map[string][]byte {
	turn := func(t uint32, events ...wire.RoomEvent) wire.MasterTurn {
		mt := wire.MasterTurn{Turn: t, Count: 2, Players: 0b11, Events: events}
		mt.Inputs[0][0], mt.Inputs[1][1] = game.Fire, game.Up|game.Left
		return mt
	}
	cs := fuzzChunks(tb)
	roster := []wire.Player{{Slot: 0, Host: true, Connected: true, Name: "Ann"}, {Slot: 1, Ready: true, Connected: true, Colour: 1, Name: "Bo"}}
	other := fuzzSetup
	other.Seed = 2
	seeds := map[string][]byte{}
	for _, s := range []struct {
		name string
		m    wire.Message
	}{
		{"welcome", wire.Welcome{Slot: 1, Token: [16]byte{7}, State: wire.StateSetup}},
		{"welcome-running", wire.Welcome{Slot: 1, Token: [16]byte{7}, State: wire.StateRunning}},
		{"welcome-spectator", wire.Welcome{Slot: wire.SpectatorSlot, State: wire.StateRunning}},
		{"refuse", wire.Refuse{Reason: wire.RefuseFull, Text: "the room is full"}},
		{"setup-state", wire.SetupState{Revision: 3, Game: 1, Name: "room", Setup: fuzzSetup, MaxSlots: 8, Players: roster}},
		{"start", wire.Start{Setup: fuzzSetup, Names: [game.MaxPlayers]string{"Ann", "Bo"}, K: 2, Delay: 1}},
		{"start-snapshot", wire.Start{Setup: fuzzSetup, FirstTurn: snapshotTurn + 1, K: 2, Delay: 1, ChangeAt: 20, ChangeK: 3, ChangeDelay: 2}},
		{"start-other-game", wire.Start{Setup: other, K: 1, Delay: 2}},
		{"master", wire.MasterPacket{ClientAck: 1, Turns: []wire.MasterTurn{turn(0)}}},
		{"master-batch", wire.MasterPacket{ClientAck: 3, Turns: []wire.MasterTurn{turn(0), turn(1, wire.RoomEvent{Kind: wire.EventTiming, At: 4, K: 3, Delay: 2}), turn(2, wire.RoomEvent{Kind: wire.EventVacant, Slot: 0}), turn(3, wire.RoomEvent{Kind: wire.EventPause})}}},
		{"master-end", wire.MasterPacket{ClientAck: 1, Turns: []wire.MasterTurn{turn(0, wire.RoomEvent{Kind: wire.EventEnd})}}},
		{"master-left", wire.MasterPacket{Turns: []wire.MasterTurn{turn(0, wire.RoomEvent{Kind: wire.EventLeft, Slot: 0})}}},
		{"snapshot-request", wire.SnapshotRequest{Turn: 0}},
		{"digest-request", wire.DigestRequest{Turn: 0}},
		{"digest-request-ahead", wire.DigestRequest{Turn: 3}},
		{"snapshot-last-chunk", cs[len(cs)-1]},
		{"desync-report", wire.DesyncReport{Turn: 0, Entries: []wire.HashEntry{{Slot: 0, HashLow: 1}, {Slot: 1, HashLow: 2}}}},
		{"room-status-finished", wire.RoomStatus{State: wire.StateFinished, Turn: 0, End: wire.EndByHost, Final: 0}},
		{"room-status-lagging", wire.RoomStatus{State: wire.StateRunning, Child: wire.ChildLagging, Turn: 1, Lagging: 0b1}},
		{"room-status-empty", wire.RoomStatus{State: wire.StateFinished, End: wire.EndEmpty}},
		{"chat", wire.Chat{From: 0, Text: "hi"}},
		{"ping", wire.Ping{ID: 1, Time: 1000}},
		{"pong", wire.Pong{ID: 1, Time: 0}},
		{"leave", wire.Leave{Reason: wire.LeaveKicked, Text: "bye"}},
		{"join", wire.Join{Name: "x"}}, // a client's message: the session never takes it
	} {
		seeds[s.name] = fuzzseed.File(frame(tb, s.m))
	}
	ping := frame(tb, wire.Ping{})
	seeds["wrong-version"] = fuzzseed.File(append([]byte{wire.Version + 1}, ping[1:]...))
	seeds["truncated"] = fuzzseed.File(ping[:len(ping)-1])
	return seeds
}

// TestSeedCorpus keeps testdata/fuzz/FuzzReceive in step with the
// protocol: run with -update-corpus after changing it.
func TestSeedCorpus(t *testing.T) {
	fuzzseed.Check(t, filepath.Join("testdata", "fuzz", "FuzzReceive"), fuzzSeeds(t), *updateCorpus)
}
