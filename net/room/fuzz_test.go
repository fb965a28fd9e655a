package room_test

import (
	"flag"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/internal/fuzzseed"
	"rockstep/net/room"
	"rockstep/net/wire"
)

var updateCorpus = flag.Bool("update-corpus", false, "rewrite the fuzz seed corpus in testdata/fuzz from fuzzSeeds")

// fuzzStarts are the rooms FuzzReceive feeds: each is made by a function
// that must leave the room in state. Connections 1 and 2 are the players
// (only 1 in setup); 3 and 4 never joined.
var fuzzStarts = []struct {
	name  string
	state wire.RoomState
	make  func(b *bench)
}{
	{"setup with a member", wire.StateSetup, func(b *bench) { b.join(1, "a") }},
	{"running game", wire.StateRunning, func(b *bench) {
		b.startGame(2)
		b.play(1, 0, game.Fire)
		b.play(2, 0, 0)
	}},
	{"finished game", wire.StateFinished, func(b *bench) {
		b.startGame(2)
		b.play(1, 0, 0)
		b.play(2, 0, 0)
		b.send(1, wire.EndGame{})
		b.play(1, 1, 0)
		b.play(2, 1, 0)
	}},
}

// fuzzConns is how many connection ids FuzzReceive sends on.
const fuzzConns = 4

// observed is what the public API shows of a room, but its counters.
type observed struct {
	State    wire.RoomState
	Child    wire.Child
	Turn     uint32
	K, Delay int
	Players  int
	Roster   []wire.Player
	Conns    int
	Members  [fuzzConns + 1]bool
	Setup    game.Setup
	Game     uint32
	Desync   *room.DesyncInfo
	End      wire.EndReason
	Final    uint32
	Pending  int
}

func observe(r *room.Room) observed {
	o := observed{Turn: r.Turn(), Players: r.PlayerCount(), Roster: r.Roster(), Conns: r.Connections(),
		Setup: r.Setup(), Game: r.Game(), Desync: r.Desync(), Pending: r.Pending()}
	o.State, o.Child = r.State()
	o.K, o.Delay = r.Timing()
	o.End, o.Final = r.Ended()
	for c := range o.Members {
		o.Members[c] = r.HasConn(room.ConnID(c))
	}
	return o
}

func dropped(s room.Stats) (n uint64) {
	for _, d := range s.Dropped {
		n += d
	}
	return n
}

// FuzzReceive feeds an arbitrary frame, three times, on one of four
// connections to rooms in setup, running and finished. Nothing may panic,
// and:
//   - every Receive counts one frame in (Stats.FramesIn);
//   - every frame the room sends decodes, and after Flush none is pending;
//   - a frame on a connection that is no member, unless it is a Join,
//     changes nothing the room shows (state, turn, players, roster,
//     connections, setup, frames queued) and is dropped as malformed or as
//     not from a member;
//   - the room keeps its bounds: at most MaxPlayers players, and no more
//     connections than ids that sent something.
func FuzzReceive(f *testing.F) {
	f.Fuzz(func(t *testing.T, frame []byte, conn uint8) {
		_, decodeErr := wire.Decode(frame)
		peeked, _, _ := wire.Peek(frame)
		isJoin := decodeErr == nil && peeked == wire.TypeJoin
		c := room.ConnID(conn%fuzzConns + 1)
		for _, start := range fuzzStarts {
			b := newBench(t, nil)
			start.make(b)
			if st, _ := b.r.State(); st != start.state {
				t.Fatalf("%s: state %d, want %d", start.name, st, start.state)
			}
			for i := 0; i < 3; i++ {
				stats, before := b.r.Stats(), observe(b.r)
				b.r.Receive(b.now, c, frame)
				after := b.r.Stats()
				if after.FramesIn != stats.FramesIn+1 {
					t.Fatalf("%s, frame %d: FramesIn %d → %d, want one more", start.name, i, stats.FramesIn, after.FramesIn)
				}
				if !before.Members[c] && !isJoin {
					if got := observe(b.r); !reflect.DeepEqual(got, before) {
						t.Fatalf("%s, frame %d: a frame from a stranger changed the room:\n got %+v\nwant %+v", start.name, i, got, before)
					}
					malformed := after.Dropped[room.DropMalformed] - stats.Dropped[room.DropMalformed]
					notMember := after.Dropped[room.DropNotMember] - stats.Dropped[room.DropNotMember]
					if malformed+notMember != 1 || dropped(after) != dropped(stats)+1 {
						t.Fatalf("%s, frame %d: a stranger's frame dropped as %v, want once as malformed or not a member", start.name, i, diff(stats.Dropped, after.Dropped))
					}
					if decodeErr == nil && malformed != 0 {
						t.Fatalf("%s, frame %d: a frame that decodes was dropped as malformed", start.name, i)
					}
				}
				b.flush()
				if n := b.r.Pending(); n != 0 {
					t.Fatalf("%s, frame %d: %d frames pending after Flush", start.name, i, n)
				}
				b.tick(20 * time.Millisecond)
				if n := b.r.Pending(); n != 0 {
					t.Fatalf("%s, frame %d: %d frames pending after Flush", start.name, i, n)
				}
				if p, n := b.r.PlayerCount(), b.r.Connections(); p > game.MaxPlayers || n > fuzzConns {
					t.Fatalf("%s, frame %d: room grew to %d players, %d connections", start.name, i, p, n)
				}
			}
		}
	})
}

func diff(before, after [room.NumDropReasons]uint64) map[string]uint64 {
	d := map[string]uint64{}
	for i := range after {
		if n := after[i] - before[i]; n != 0 {
			d[room.DropReasonName(i)] = n
		}
	}
	return d
}

// fuzzSeeds returns FuzzReceive's seeds by file name: every message a
// client sends, encoded by wire.Append, from a member and from a stranger.
func fuzzSeeds(tb testing.TB) map[string][]byte {
	in := func(turn uint32, inputs ...game.Input) wire.TurnInput {
		ti := wire.TurnInput{Turn: turn, Count: 2}
		copy(ti.Inputs[:], inputs)
		return ti
	}
	seeds := map[string][]byte{}
	for _, s := range []struct {
		name string
		m    wire.Message
	}{
		{"join", wire.Join{Name: "x", PlayerID: [16]byte{9}}},
		{"join-spectate", wire.Join{Name: "watcher", Spectate: true}},
		{"join-token", wire.Join{Name: "back", Token: [16]byte{1, 2, 3}}},
		{"join-other-room", wire.Join{RoomID: 7, Name: "lost"}},
		{"ready", wire.Ready{Ready: true}},
		{"not-ready", wire.Ready{}},
		{"start-game", wire.StartGame{Game: 1}},
		{"setup-change", wire.SetupChange{Setup: game.Setup{Mode: game.Versus, Lives: 5, StartWave: 2, FriendlyFire: true}}},
		{"chat", wire.Chat{Text: "hi"}},
		{"chat-spoofed", wire.Chat{From: 3, Text: "it was me"}},
		{"client-packet", wire.ClientPacket{Turns: []wire.TurnInput{in(0, game.Fire, game.Up)}, MasterAck: 0}},
		{"client-packet-hash", wire.ClientPacket{Turns: []wire.TurnInput{in(1), in(2, game.Left)}, MasterAck: 1, HasHash: true, HashTurn: 0, HashLow: 0xdeadbeef, HasStats: true, RTT: 12, FPS: 60}},
		{"client-packet-ended", wire.ClientPacket{MasterAck: 2, HasHash: true, HashTurn: 1, HashLow: 7, Ended: true}},
		{"client-packet-far", wire.ClientPacket{Turns: []wire.TurnInput{in(1000)}}},
		{"snapshot-chunk", wire.SnapshotChunk{Turn: 0, Hash: 1, Total: 1, Data: []byte("RSW")}},
		{"digest", wire.Digest{Turn: 0, Hash: 1, Sum: wire.Sum{2}}},
		{"repair-done", wire.Repair{Kind: wire.RepairDone, Turn: 0, Upto: 1}},
		{"pause", wire.Pause{Paused: true}},
		{"resume", wire.Pause{}},
		{"end-game", wire.EndGame{}},
		{"leave", wire.Leave{Reason: wire.LeaveQuit}},
		{"ping", wire.Ping{ID: 1, Time: 1000}},
		{"pong", wire.Pong{ID: 1, Time: 0}},
		{"welcome", wire.Welcome{Slot: 0}}, // a room's message: unexpected from a client
	} {
		frame, err := wire.Append(nil, s.m)
		if err != nil {
			tb.Fatalf("seed %s: %v", s.name, err)
		}
		seeds[s.name] = fuzzseed.File(frame, uint8(0)) // connection 1: a player
		seeds[s.name+"-stranger"] = fuzzseed.File(frame, uint8(2))
	}
	ping, _ := wire.Append(nil, wire.Ping{})
	seeds["wrong-version"] = fuzzseed.File(append([]byte{wire.Version + 1}, ping[1:]...), uint8(0))
	seeds["truncated"] = fuzzseed.File(ping[:len(ping)-1], uint8(0))
	return seeds
}

// TestSeedCorpus keeps testdata/fuzz/FuzzReceive in step with the
// protocol: run with -update-corpus after changing it.
func TestSeedCorpus(t *testing.T) {
	fuzzseed.Check(t, filepath.Join("testdata", "fuzz", "FuzzReceive"), fuzzSeeds(t), *updateCorpus)
}
