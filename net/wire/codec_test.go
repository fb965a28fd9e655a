package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"net/netip"
	"reflect"
	"slices"
	"strings"
	"testing"

	"rockstep/game"
)

// sample is a named valid message. Samples feed the round-trip, truncation
// and trailing-byte tests and the fuzz seed corpus.
type sample struct {
	name string
	m    Message
}

func id16(seed byte) (a [16]byte) {
	for i := range a {
		a[i] = seed + byte(i)*17
	}
	return a
}

func samples() []sample {
	setup := game.Setup{Seed: 0x9e3779b97f4a7c15, Players: 0b1011, Mode: game.Coop, Lives: 3, StartWave: 1}
	versus := game.Setup{Seed: math.MaxUint64, Players: 0xFF, Mode: game.Versus, Lives: game.MaxLives, StartWave: game.MaxStartWave, FriendlyFire: true, Saucers: true, Hyperspace: true}
	name24 := "Ünïcødé-Guest-ÆØÅ" + strings.Repeat("x", MaxName-len("Ünïcødé-Guest-ÆØÅ"))
	chunk := make([]byte, MaxChunk)
	for i := range chunk {
		chunk[i] = byte(i * 7)
	}
	fullRoster := make([]Player, game.MaxPlayers)
	for i := range fullRoster {
		fullRoster[i] = Player{Slot: uint8(i), Ready: i%2 == 0, Host: i == 0, Connected: i != 5,
			Colour: uint8(i), Ping: uint16(i * 9000), ID: id16(byte(i)), Name: name24}
	}
	fullRoster[7].Ping = math.MaxUint16

	var batch []TurnInput
	for i := range MaxBatch {
		t := TurnInput{Turn: 7_000_000 + uint32(i), Count: MaxK}
		for j := range t.Inputs {
			t.Inputs[j] = game.Input(i*MaxK+j) & game.ClientInputMask
		}
		batch = append(batch, t)
	}
	eightPlayers := MasterTurn{Turn: 100_000, Count: 2, Players: 0xFF}
	for s := range eightPlayers.Inputs {
		eightPlayers.Inputs[s][0] = game.Up | game.Fire
		eightPlayers.Inputs[s][1] = game.Input(s)
	}
	var masterBatch []MasterTurn
	for i := range MaxBatch {
		t := MasterTurn{Turn: 4242 + uint32(i), Count: uint8(1 + i%MaxK), Players: uint8(i * 37)}
		for s := range t.Inputs {
			if t.Players&(1<<s) != 0 {
				for j := range t.Inputs[s][:t.Count] {
					t.Inputs[s][j] = game.Input(s*16 + j + i)
				}
			}
		}
		if i%4 == 0 {
			t.Events = []RoomEvent{{Kind: EventVacant, Slot: uint8(i % game.MaxPlayers)}}
		}
		masterBatch = append(masterBatch, t)
	}

	return []sample{
		{"join-new", Join{PlayerID: id16(1), Name: "Guest-7F3A"}},
		{"join-return", Join{RoomID: math.MaxUint32, PlayerID: id16(2), Name: name24, Token: id16(3)}},
		{"join-spectate", Join{RoomID: 7, PlayerID: id16(4), Spectate: true}},
		{"welcome", Welcome{RoomID: 1, Slot: 3, Token: id16(5), State: StateSetup}},
		{"welcome-spectator", Welcome{RoomID: math.MaxUint32, Slot: SpectatorSlot, Token: id16(6), State: StateRunning}},
		{"refuse-full", Refuse{Reason: RefuseFull, Text: "room is full (8/8)"}},
		{"refuse-max-text", Refuse{Reason: RefuseRateLimit, Text: strings.Repeat("é", MaxText/2)}},
		{"refuse-no-text", Refuse{Reason: RefuseShutdown}},
		{"setup-state", SetupState{Revision: 42, RoomID: 1, Name: "Friday rocks", Setup: setup, MaxSlots: 8, Players: []Player{
			{Slot: 0, Ready: true, Host: true, Connected: true, Colour: 0, Ping: 3, ID: id16(10), Name: "Ada"},
			{Slot: 1, Connected: true, Colour: 1, Ping: 250, ID: id16(11), Name: "Guest-00FF"},
			{Slot: 3, Colour: 3, ID: id16(13), Name: "Brünhilde"},
		}}},
		{"setup-state-empty", SetupState{Setup: game.DefaultSetup()}},
		{"setup-state-rematch", SetupState{Revision: 7, RoomID: 2, Game: 3, Name: "rematch", Setup: setup, MaxSlots: 2, Players: []Player{{Slot: 0, Host: true, Connected: true, Name: "Ada"}}}},
		{"setup-state-full", SetupState{Revision: math.MaxUint32, RoomID: math.MaxUint32, Name: name24, Setup: versus, MaxSlots: game.MaxPlayers, Players: fullRoster}},
		{"setup-change", SetupChange{Setup: game.Setup{Mode: game.Versus, Lives: 5, StartWave: 3, FriendlyFire: true}}},
		{"setup-change-saucers-only", SetupChange{Setup: game.Setup{Mode: game.Coop, Lives: 3, StartWave: 1, Saucers: true}}},
		{"ready", Ready{Ready: true}},
		{"not-ready", Ready{}},
		{"start", Start{Setup: setup, FirstTurn: 0, K: 2, Delay: 1}},
		{"start-max", Start{Setup: versus, FirstTurn: math.MaxUint32, K: MaxK, Delay: MaxDelay, Names: [game.MaxPlayers]string{name24, name24, name24, name24, name24, name24, name24, name24}}},
		{"start-names", Start{Setup: setup, Names: [game.MaxPlayers]string{"Ada", "Guest-00FF", "", "Brünhilde"}, K: 2, Delay: 1}},
		{"client-packet", ClientPacket{
			Turns:     []TurnInput{{Turn: 100_000, Count: 2, Inputs: [MaxK]game.Input{game.Up | game.Fire, game.Left}}},
			MasterAck: 99_998, HasHash: true, HashTurn: 99_990, HashLow: 0xdeadbeef,
		}},
		{"client-packet-stats", ClientPacket{
			Turns:     []TurnInput{{Turn: 31, Count: 2, Inputs: [MaxK]game.Input{game.ClientInputMask, game.Right}}},
			MasterAck: 30, HasStats: true, RTT: 17, FPS: 60,
		}},
		{"client-packet-spectator", ClientPacket{MasterAck: 500}},
		{"client-packet-ended", ClientPacket{MasterAck: 812, HasHash: true, HashTurn: 811, HashLow: 0xfeed, Ended: true}},
		{"client-packet-spectator-hash", ClientPacket{MasterAck: math.MaxUint32, HasHash: true, HashTurn: math.MaxUint32, HashLow: 1, HasStats: true, RTT: math.MaxUint16, FPS: 255}},
		{"client-packet-batch", ClientPacket{Turns: batch, MasterAck: 6_999_990, HasHash: true, HashTurn: 6_999_980, HashLow: 42, HasStats: true, RTT: 1, FPS: 144}},
		{"client-packet-ack-ahead", ClientPacket{
			Turns:     []TurnInput{{Turn: 0, Count: 1, Inputs: [MaxK]game.Input{game.Down}}},
			MasterAck: math.MaxUint32, HasHash: true, HashTurn: math.MaxUint32,
		}},
		{"client-packet-last-turns", ClientPacket{
			Turns:     []TurnInput{{Turn: math.MaxUint32 - 1, Count: 3}, {Turn: math.MaxUint32, Count: 3, Inputs: [MaxK]game.Input{0, 0, game.Fire}}},
			MasterAck: 0, HasHash: true, HashTurn: 0,
		}},
		{"master-packet", MasterPacket{ClientAck: 100_001, Turns: []MasterTurn{eightPlayers}}},
		{"master-packet-events", MasterPacket{ClientAck: 12, Turns: []MasterTurn{
			{Turn: 9, Count: 2, Players: 0b101, Inputs: [game.MaxPlayers][MaxK]game.Input{{game.Up, game.Up}, {}, {game.Leave, 0}},
				Events: []RoomEvent{{Kind: EventDrop, Slot: 2}, {Kind: EventTiming, Slot: 0, At: 14, K: 3, Delay: 2}}},
			{Turn: 10, Count: 2, Players: 0b001, Events: []RoomEvent{
				{Kind: EventJoin, Slot: 7}, {Kind: EventVacant, Slot: 6}, {Kind: EventPause, Slot: 0}, {Kind: EventResume, Slot: 0},
				{Kind: EventTiming, Slot: 0, At: math.MaxUint32, K: MaxK, Delay: MaxDelay}, {Kind: EventTiming, Slot: 1, At: 0, K: 1, Delay: 0},
				{Kind: EventDrop, Slot: 1}, {Kind: EventDrop, Slot: 3},
			}},
			{Turn: 11, Count: 1, Players: 0b001, Events: []RoomEvent{{Kind: EventLeft, Slot: 4}, {Kind: EventEnd}}},
		}}},
		{"master-packet-ack-only", MasterPacket{ClientAck: 77}},
		{"master-packet-batch", MasterPacket{ClientAck: 4200, Turns: masterBatch}},
		{"master-packet-last-turn", MasterPacket{ClientAck: math.MaxUint32, Turns: []MasterTurn{{Turn: math.MaxUint32, Count: 1}}}},
		{"ping", Ping{ID: 1, Time: 1_700_000_000_000_000}},
		{"pong", Pong{ID: math.MaxUint32, Time: math.MinInt64}},
		{"leave", Leave{Reason: LeaveQuit}},
		{"leave-kicked", Leave{Reason: LeaveKicked, Text: "kicked by the host: spamming"}},
		{"leave-game-over", Leave{Reason: LeaveGameOver, Text: strings.Repeat("z", MaxText)}},
		{"leave-yield", Leave{Reason: LeaveYield, Text: "another player leads this game too"}},
		{"leave-too-slow", Leave{Reason: LeaveTooSlow, Text: "your computer made 4 frames a second; the game needs 15"}},
		{"snapshot-request", SnapshotRequest{Turn: 123_456}},
		{"snapshot-chunk", SnapshotChunk{Turn: 123_456, Hash: 0xfeedfacecafebeef, Total: 3, Index: 1, Data: []byte("RSW\x01 part of a world")}},
		{"snapshot-chunk-max", SnapshotChunk{Turn: math.MaxUint32, Hash: math.MaxUint64, Total: MaxChunks, Index: MaxChunks - 1, Data: chunk}},
		{"snapshot-chunk-empty", SnapshotChunk{Total: 1}},
		{"desync-report", DesyncReport{Turn: 812, Entries: []HashEntry{{Slot: 0, HashLow: 0x11111111}, {Slot: 1, HashLow: 0x11111111}, {Slot: 5, HashLow: 0x22222222}}}},
		{"desync-report-empty", DesyncReport{Turn: 1}},
		{"chat", Chat{From: 2, Text: "gg, rematch?"}},
		{"chat-spectator-max", Chat{From: SpectatorSlot, Text: strings.Repeat("ж", MaxChat/2)}},
		{"room-status", RoomStatus{State: StateRunning, Child: ChildLagging, Turn: 9000, Lagging: 0b100}},
		{"room-status-vacancy", RoomStatus{State: StateRunning, Child: ChildVacancy, Turn: math.MaxUint32, Vacant: 0b10000001, VacancyMs: 30_000}},
		{"room-status-finished", RoomStatus{State: StateFinished, Child: ChildDesynced}},
		{"room-status-game-over", RoomStatus{State: StateFinished, Turn: 1201, End: EndGameOver, Final: 1200}},
		{"room-status-ended-by-host", RoomStatus{State: StateFinished, Turn: math.MaxUint32, End: EndByHost, Final: math.MaxUint32}},
		{"room-status-slow", RoomStatus{State: StateRunning, Turn: 77, Slow: 0b1000_0010}},
		{"pause", Pause{Paused: true}},
		{"resume", Pause{}},
		{"start game", StartGame{}},
		{"start game 3", StartGame{Game: 3}},
		{"create room", CreateRoom{Name: "Friday night", Setup: game.Setup{Seed: 42, Mode: game.Versus, Lives: 5, StartWave: 2, FriendlyFire: true}}},
		{"create room with a key", CreateRoom{Name: "Friends", Setup: game.Setup{Mode: game.Coop, Lives: 3, StartWave: 1}, Key: strings.Repeat("k", MaxRoomKey), Unlisted: true}},
		{"refuse-room-key", Refuse{Reason: RefuseRoomKey, Text: "this server opens rooms only for players with its room key"}},
		{"room created", RoomCreated{RoomID: 0xdeadbeef}},
		{"room list request", RoomListRequest{}},
		{"room list request after", RoomListRequest{After: 300}},
		{"room list empty", RoomList{}},
		{"room list", RoomList{Rooms: []RoomInfo{
			{RoomID: 1, Name: "Rockstep", Players: 2, Max: 8, State: StateSetup, Version: Version},
			{RoomID: 7, Name: "Friday night", Host: "Ada", Players: 4, Max: 4, State: StateRunning, Version: Version},
			{RoomID: math.MaxUint32, Name: strings.Repeat("n", MaxName), Host: strings.Repeat("h", MaxName), Max: 1, State: StateFinished, Version: Version},
		}, More: true}},
		{"room list refereed", RoomList{Rooms: []RoomInfo{{RoomID: 1, Name: "Rockstep", Max: 8, Version: Version}}, Referee: true}},
		{"room list with its web face", RoomList{Rooms: []RoomInfo{{RoomID: 1, Name: "Rockstep", Max: 8, Version: Version}}, Web: "https://:8443"}},
		{"end game", EndGame{}},
		{"kick", Kick{Slot: 3}},
		{"join-resuming", Join{RoomID: 1, PlayerID: id16(9), Name: "Ada", Token: id16(4), Resuming: true, Resume: 123_456}},
		{"join-rules", Join{PlayerID: id16(5), Name: "Ada", Rules: 0x0123_4567_89ab_cdef}},
		{"join-secret", Join{RoomID: SecretRoom(0xfedc_ba98_7654_3210), PlayerID: id16(6), Name: "Ada", Rules: 1, Secret: 0xfedc_ba98_7654_3210}},
		{"room created unlisted", RoomCreated{RoomID: SecretRoom(0x8000_0000_0000_0001), Secret: 0x8000_0000_0000_0001}},
		{"refuse-rules", Refuse{Reason: RefuseRules}},
		{"repair-world", Repair{Kind: RepairWorld, Turn: 401}},
		{"repair-rewind", Repair{Kind: RepairRewind, Turn: 399, Upto: 401}},
		{"repair-done", Repair{Kind: RepairDone, Turn: 401, Upto: math.MaxUint32}},
		{"digest request", DigestRequest{Turn: 402}},
		{"digest", Digest{Turn: math.MaxUint32, Hash: 0x0123_4567_89ab_cdef, Sum: Sum{1, 2, 3, 15: 0xff}}},
		{"leave-strayed", Leave{Reason: LeaveStrayed, Text: "your game keeps disagreeing with the others'"}},
		{"welcome-resumed", Welcome{RoomID: 1, Slot: 2, Token: id16(4), State: StateRunning, Resumed: true}},
		{"standby", Standby{Port: 40123, Key: id16(7), Reach: 0b1010}},
		{"standby-none", Standby{}},
		{"standby-outside", Standby{Port: 40123, Key: id16(7), Reach: 0b1010, Probed: 0b1110, Outside: netip.MustParseAddrPort("203.0.113.5:51000")}},
		{"standby-probed", Standby{Port: 40123, Key: id16(7), Probed: 0b0100}},
		{"successors-outside", Successors{Game: 2, Turn: 4000, List: []Successor{
			{Slot: 1, Addr: netip.MustParseAddrPort("203.0.113.5:40123"), Key: id16(1), Outside: netip.MustParseAddrPort("203.0.113.5:51000")},
			{Slot: 3, Addr: netip.MustParseAddrPort("198.51.100.7:7777"), Key: id16(3)},
		}}},
		{"successors-unreached", Successors{Game: 2, Turn: 4000, List: []Successor{
			{Slot: 1, Addr: netip.MustParseAddrPort("203.0.113.5:40123"), Key: id16(1)},
			{Slot: 3, Addr: netip.MustParseAddrPort("198.51.100.7:7777"), Key: id16(3), Unreached: true},
		}}},
		{"successors", Successors{Game: 2, Turn: 4000, List: []Successor{
			{Slot: 1, Addr: netip.MustParseAddrPort("192.168.1.20:40123"), Key: id16(1), Confirmed: true},
			{Slot: 3, Addr: netip.MustParseAddrPort("[fe80::1]:7777"), Key: id16(3)},
		}, Tokens: [game.MaxPlayers][16]byte{id16(10), id16(11), {}, id16(13)}, Listing: [8]byte{0x9f, 1, 2, 3, 4, 5, 6, 7}}},
		{"successors-empty", Successors{Game: 1}},
		{"successors-servers", Successors{Game: 2, Turn: 4000, List: []Successor{
			{Slot: 1, Addr: netip.MustParseAddrPort("203.0.113.5:40123"), Key: id16(1)},
		}, Servers: []FallbackServer{{Name: "Friday night", Addr: "play.example.org:7777", Key: id16(20)}, {Addr: "198.51.100.9:7777"}}}},
		{"successors-servers-only", Successors{Game: 2, Servers: []FallbackServer{{Name: "Friday night", Addr: "198.51.100.9:7777"}}}},
		{"successors-servers-unreached", Successors{Game: 2, List: []Successor{
			{Slot: 2, Addr: netip.MustParseAddrPort("203.0.113.5:40123"), Unreached: true},
		}, Servers: []FallbackServer{{Addr: "198.51.100.9:7777"}}}},
		{"move game", MoveGame{Key: id16(30), RoomKey: "k", State: SetupState{Game: 2, Name: "Ada's game", Setup: game.Setup{Seed: 5, Players: 3, Mode: game.Coop, Lives: 3, StartWave: 1},
			Players: []Player{{Slot: 0, ID: id16(1), Name: "Ada"}, {Slot: 2, ID: id16(3), Name: "Cy", Colour: 2}}},
			Names: [game.MaxPlayers]string{"Ada", "", "Cy"}, Tokens: [game.MaxPlayers][16]byte{id16(10), {}, id16(12)},
			Present: 0b101, Expected: 0b100, Next: 812, K: 2, Delay: 3, PendingAt: 900, PendingK: 3, PendingDelay: 4}},
		{"move lobby", MoveGame{Key: id16(31), State: SetupState{Game: 1, Revision: 9, Name: "Ada's game", MaxSlots: 4, Setup: game.Setup{Mode: game.Versus, Lives: 7, StartWave: 4},
			Players: []Player{{Slot: 0, ID: id16(1), Name: "Ada"}, {Slot: 1, ID: id16(2), Name: "Bea", Ready: true}}},
			Names: [game.MaxPlayers]string{"Ada", "Bea"}, Tokens: [game.MaxPlayers][16]byte{id16(10), id16(11)},
			Present: 0b11, Expected: 0b10, Chat: []Chat{{From: 1, Text: "see you on the server"}, {From: SpectatorSlot, Text: "ж"}}}},
		{"start with a timing change", Start{Setup: game.Setup{Seed: 5, Players: 3, Mode: game.Coop, Lives: 3, StartWave: 1}, FirstTurn: 900, K: 2, Delay: 3, ChangeAt: 910, ChangeK: 3, ChangeDelay: 5}},
	}
}

// canonical returns m as a decoder returns it: empty slices nil, and the
// fields that are not sent zero.
func canonical(m Message) Message {
	switch v := m.(type) {
	case ClientPacket:
		v.Turns = canonicalTurns(v.Turns)
		if !v.HasHash {
			v.HashTurn, v.HashLow = 0, 0
		}
		if !v.HasStats {
			v.RTT, v.FPS = 0, 0
		}
		return v
	case MasterPacket:
		if len(v.Turns) == 0 {
			v.Turns = nil
			return v
		}
		turns := make([]MasterTurn, len(v.Turns))
		for i, t := range v.Turns {
			for s := range t.Inputs {
				if t.Players&(1<<s) == 0 {
					t.Inputs[s] = [MaxK]game.Input{}
				}
				clear(t.Inputs[s][min(int(t.Count), MaxK):])
			}
			var events []RoomEvent
			for _, e := range t.Events {
				if e.Kind != EventTiming {
					e.At, e.K, e.Delay = 0, 0, 0
				}
				events = append(events, e)
			}
			t.Events = events
			turns[i] = t
		}
		v.Turns = turns
		return v
	case SetupState:
		v.Players = nilIfEmpty(v.Players)
		return v
	case SnapshotChunk:
		v.Data = nilIfEmpty(v.Data)
		return v
	case DesyncReport:
		v.Entries = nilIfEmpty(v.Entries)
		return v
	}
	return m
}

// nilIfEmpty returns s, or nil if s is empty: how a decoder leaves a list
// it read no entries of.
func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

func canonicalTurns(in []TurnInput) []TurnInput {
	if len(in) == 0 {
		return nil
	}
	out := make([]TurnInput, len(in))
	for i, t := range in {
		clear(t.Inputs[min(int(t.Count), MaxK):])
		out[i] = t
	}
	return out
}

// mustAppend encodes m or fails the test.
func mustAppend(tb testing.TB, m Message) []byte {
	tb.Helper()
	b, err := Append(nil, m)
	if err != nil {
		tb.Fatalf("Append(%#v): %v", m, err)
	}
	return b
}

// rawFrame encodes m without checking its limits, to make the frames a
// careless or hostile peer would send.
func rawFrame(tb testing.TB, m Message) []byte {
	tb.Helper()
	b := []byte{Version, byte(m.Type())}
	switch v := m.(type) {
	case ClientPacket:
		return v.appendPayload(b)
	case MasterPacket:
		return v.appendPayload(b)
	case encoder:
		return v.appendPayload(b)
	}
	tb.Fatalf("rawFrame: %T is not a message", m)
	return nil
}

func TestSamplesCoverEveryType(t *testing.T) {
	seen := map[Type]bool{}
	for _, s := range samples() {
		seen[s.m.Type()] = true
	}
	for ty := Type(0); ty < 255; ty++ {
		if ty.known() && !seen[ty] {
			t.Errorf("no sample of %s (%d)", ty, ty)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for _, s := range samples() {
		t.Run(s.name, func(t *testing.T) {
			frame := mustAppend(t, s.m)
			if frame[0] != Version || Type(frame[1]) != s.m.Type() {
				t.Fatalf("header % x, want %02x %02x", frame[:2], Version, byte(s.m.Type()))
			}
			got, err := Decode(frame)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if want := canonical(s.m); !reflect.DeepEqual(got, want) {
				t.Fatalf("round trip:\n got %#v\nwant %#v", got, want)
			}
			again := mustAppend(t, got)
			if !bytes.Equal(again, frame) {
				t.Errorf("re-encoding differs:\n got % x\nwant % x", again, frame)
			}
			// A pointer encodes the same, and Append appends.
			ptr := reflect.New(reflect.TypeOf(s.m))
			ptr.Elem().Set(reflect.ValueOf(s.m))
			prefix := []byte("prefix")
			viaPtr, err := Append(prefix, ptr.Interface().(Message))
			if err != nil {
				t.Fatalf("Append(&m): %v", err)
			}
			if !bytes.Equal(viaPtr[:len(prefix)], []byte("prefix")) || !bytes.Equal(viaPtr[len(prefix):], frame) {
				t.Errorf("Append(prefix, &m) = % x, want prefix then % x", viaPtr, frame)
			}
		})
	}
}

// TestUnsentFieldsIgnored: fields a flag or count leaves out are not sent,
// so a reused value with leftovers in them encodes as if they were zero.
func TestUnsentFieldsIgnored(t *testing.T) {
	cases := []struct {
		name       string
		messy, cln Message
	}{
		{"client hash and stats without flags",
			ClientPacket{MasterAck: 3, HashTurn: 9, HashLow: 9, RTT: 9, FPS: 9},
			ClientPacket{MasterAck: 3}},
		{"client inputs past count",
			ClientPacket{Turns: []TurnInput{{Turn: 5, Count: 1, Inputs: [MaxK]game.Input{game.Up, game.Leave, 0xFF}}}},
			ClientPacket{Turns: []TurnInput{{Turn: 5, Count: 1, Inputs: [MaxK]game.Input{game.Up}}}}},
		{"master inputs of absent slots and past count",
			MasterPacket{Turns: []MasterTurn{{Turn: 1, Count: 1, Players: 1, Inputs: [game.MaxPlayers][MaxK]game.Input{{game.Fire, 0xFF}, {game.Up}}}}},
			MasterPacket{Turns: []MasterTurn{{Turn: 1, Count: 1, Players: 1, Inputs: [game.MaxPlayers][MaxK]game.Input{{game.Fire}}}}}},
		{"timing fields of other events",
			MasterPacket{Turns: []MasterTurn{{Turn: 1, Count: 1, Events: []RoomEvent{{Kind: EventPause, At: 9, K: 99, Delay: 99}}}}},
			MasterPacket{Turns: []MasterTurn{{Turn: 1, Count: 1, Events: []RoomEvent{{Kind: EventPause}}}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			messy, cln := mustAppend(t, c.messy), mustAppend(t, c.cln)
			if !bytes.Equal(messy, cln) {
				t.Errorf("encoding % x, want % x", messy, cln)
			}
		})
	}
}

// withoutSecret returns m without its optional room secret (Join,
// RoomCreated), and whether it had one: its frame is m's, less the last 8
// bytes.
func withoutSecret(m Message) (Message, bool) {
	switch v := m.(type) {
	case Join:
		ok := v.Secret != 0
		v.Secret = 0
		return v, ok
	case RoomCreated:
		ok := v.Secret != 0
		v.Secret = 0
		return v, ok
	}
	return m, false
}

// TestDecodeTruncated cuts a valid frame of every sample at every byte.
// (A frame cut just before an optional room secret is the frame of the
// same message without it; cut in it, it has trailing bytes.)
func TestDecodeTruncated(t *testing.T) {
	for _, s := range samples() {
		t.Run(s.name, func(t *testing.T) {
			frame := mustAppend(t, s.m)
			for n := range len(frame) {
				got, err := Decode(frame[:n])
				if l, ok := s.m.(RoomList); ok && l.Web != "" && n >= len(frame)-len(l.Web)-2 {
					// Cut before the byte of the optional fields: the
					// list without them; after it: truncated.
					at := len(frame) - len(l.Web) - 2
					l.Web, l.Referee = "", false
					if n == at && (err != nil || !reflect.DeepEqual(got, canonical(l))) {
						t.Fatalf("Decode(frame without its web face) = %+v, %v; want %+v", got, err, l)
					}
					if n > at && !errors.Is(err, ErrTruncated) {
						t.Fatalf("Decode(first %d of %d bytes, in the web face) = %v, want %v", n, len(frame), err, ErrTruncated)
					}
					continue
				}
				if l, ok := s.m.(RoomList); ok && l.Referee && n == len(frame)-1 {
					// Cut before the optional referee byte: the list
					// without it.
					l.Referee = false
					if err != nil || !reflect.DeepEqual(got, canonical(l)) {
						t.Fatalf("Decode(frame without its referee byte) = %+v, %v; want %+v", got, err, l)
					}
					continue
				}
				if mg, ok := s.m.(MoveGame); ok && len(mg.Chat) > 0 {
					// Cut in a moved lobby's chat (an appended tail): the
					// ask without it at its start, truncated after.
					short := mg
					short.Chat = nil
					b, _ := Append(nil, short)
					if n == len(b) && (err != nil || !reflect.DeepEqual(got, canonical(short))) {
						t.Fatalf("Decode(frame without its chat) = %+v, %v; want %+v", got, err, short)
					}
					if n > len(b) && !errors.Is(err, ErrTruncated) {
						t.Fatalf("Decode(first %d of %d bytes, in the chat) = %v, want %v", n, len(frame), err, ErrTruncated)
					}
					if n >= len(b) {
						continue
					}
				}
				if sc, ok := s.m.(Successors); ok && len(sc.Servers) > 0 {
					// Cut in the servers (the last optional tail): the
					// list without them at its start, an error after.
					short := sc
					short.Servers = nil
					if !slices.ContainsFunc(short.List, Successor.appended) {
						short.List = slices.Clone(short.List) // written with the servers, read without them
					}
					b, _ := Append(nil, short)
					if tail := len(frame) - len(b); n >= len(frame)-tail {
						if n > len(frame)-tail && err == nil {
							t.Fatalf("Decode(first %d of %d bytes, in the servers) = %+v, want an error", n, len(frame), got)
						}
						continue
					}
				}
				if short, tail, ok := withoutTail(s.m); ok && n >= len(frame)-tail {
					// Cut in the optional tail (Standby, Successors): the
					// bytes of it are trailing bytes after the message
					// without it.
					if n == len(frame)-tail && (err != nil || !reflect.DeepEqual(got, canonical(short))) {
						t.Fatalf("Decode(frame without its tail) = %+v, %v; want %+v", got, err, short)
					}
					if n > len(frame)-tail && !errors.Is(err, ErrTrailing) {
						t.Fatalf("Decode(first %d of %d bytes, in the tail) = %v, want %v", n, len(frame), err, ErrTrailing)
					}
					continue
				}
				if short, ok := withoutSecret(s.m); ok && n >= len(frame)-8 {
					// Cut in the secret: the bytes of it are trailing
					// bytes after the message without it.
					if n == len(frame)-8 && (err != nil || !reflect.DeepEqual(got, canonical(short))) {
						t.Fatalf("Decode(frame without its secret) = %+v, %v; want %+v", got, err, short)
					}
					if n > len(frame)-8 && !errors.Is(err, ErrTrailing) {
						t.Fatalf("Decode(first %d of %d bytes, in the secret) = %v, want %v", n, len(frame), err, ErrTrailing)
					}
					continue
				}
				if !errors.Is(err, ErrTruncated) {
					t.Fatalf("Decode(first %d of %d bytes) = %v, want %v", n, len(frame), err, ErrTruncated)
				}
				if n >= headerSize && !strings.HasPrefix(err.Error(), "decode "+s.m.Type().String()+": ") {
					t.Fatalf("Decode(first %d bytes): error %q does not name the message", n, err)
				}
			}
		})
	}
}

// withoutTail returns m without its optional appended fields (Standby's
// Probed and Outside, Successors' Outside) and their size on the wire, if
// it has them.
func withoutTail(m Message) (Message, int, bool) {
	switch v := m.(type) {
	case Standby:
		if v.Probed == 0 && !v.Outside.IsValid() {
			return nil, 0, false
		}
		v.Probed, v.Outside = 0, netip.AddrPort{}
		return v, 1 + addrPortSize, true
	case Successors:
		if !slices.ContainsFunc(v.List, Successor.appended) && len(v.Servers) == 0 {
			return nil, 0, false
		}
		full, _ := Append(nil, v)
		l := slices.Clone(v.List)
		for i := range l {
			l[i].Outside, l[i].Unreached = netip.AddrPort{}, false
		}
		v.List, v.Servers = l, nil
		short, _ := Append(nil, v)
		return v, len(full) - len(short), true
	}
	return nil, 0, false
}

func TestDecodeTrailing(t *testing.T) {
	for _, s := range samples() {
		t.Run(s.name, func(t *testing.T) {
			frame := append(mustAppend(t, s.m), 0)
			_, err := Decode(frame)
			if !errors.Is(err, ErrTrailing) {
				t.Fatalf("Decode(frame + 1 byte) = %v, want %v", err, ErrTrailing)
			}
		})
	}
}

func TestDecodeHeader(t *testing.T) {
	ping := mustAppend(t, Ping{ID: 1})
	oversize := append([]byte{Version, byte(TypeChat), 0}, make([]byte, MaxFrame)...)
	cases := []struct {
		name  string
		frame []byte
		want  error
	}{
		{"empty", nil, ErrTruncated},
		{"version only", []byte{Version}, ErrTruncated},
		{"version 0", append([]byte{0}, ping[1:]...), ErrVersion},
		{"next version", append([]byte{Version + 1}, ping[1:]...), ErrVersion},
		{"version 255", append([]byte{255}, ping[1:]...), ErrVersion},
		{"type 0", append([]byte{Version, 0}, ping[2:]...), ErrUnknownType},
		{"reserved type 1, once Hello", append([]byte{Version, byte(typeReservedHello)}, make([]byte, 64)...), ErrUnknownType},
		{"reserved type 2, once Cookie", append([]byte{Version, byte(typeReservedCookie)}, make([]byte, 24)...), ErrUnknownType},
		{"type after the last", append([]byte{Version, byte(TypeMoveGame) + 1}, ping[2:]...), ErrUnknownType},
		{"type 255", append([]byte{Version, 255}, ping[2:]...), ErrUnknownType},
		{"over MaxFrame", oversize, ErrTooLarge},
		{"over MaxFrame, wrong version", append([]byte{9}, oversize[1:]...), ErrTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Decode(c.frame)
			if !errors.Is(err, c.want) {
				t.Fatalf("Decode = %#v, %v; want error %v", m, err, c.want)
			}
			if m != nil {
				t.Errorf("Decode returned %#v with its error", m)
			}
		})
	}
}

// invalidMessages break a limit. Append must refuse each, and the frame a
// careless peer would make of it (rawFrame) must not decode, unless
// encodeOnly says the encoding cannot even express the problem.
func invalidMessages() []struct {
	name       string
	m          Message
	want       error
	encodeOnly bool
} {
	long := func(n int) string { return strings.Repeat("a", n) }
	turn := func(n uint32, count uint8, in ...game.Input) TurnInput {
		t := TurnInput{Turn: n, Count: count}
		copy(t.Inputs[:], in)
		return t
	}
	many := func(n int, f func(i int) TurnInput) []TurnInput {
		var ts []TurnInput
		for i := range n {
			ts = append(ts, f(i))
		}
		return ts
	}
	mturn := func(n uint32, count uint8, events ...RoomEvent) MasterTurn {
		return MasterTurn{Turn: n, Count: count, Events: events}
	}
	mturns := func(n int) []MasterTurn {
		var ts []MasterTurn
		for i := range n {
			ts = append(ts, mturn(uint32(i), 1))
		}
		return ts
	}
	hugeTurns := func() []MasterTurn {
		var ts []MasterTurn
		for i := range MaxBatch {
			t := MasterTurn{Turn: uint32(i), Count: MaxK, Players: 0xFF}
			for range MaxEvents {
				t.Events = append(t.Events, RoomEvent{Kind: EventTiming, At: math.MaxUint32, K: 1})
			}
			ts = append(ts, t)
		}
		return ts
	}
	badSetup := game.DefaultSetup()
	badSetup.Mode = game.Versus + 1
	players := func(slots ...uint8) []Player {
		var ps []Player
		for _, s := range slots {
			ps = append(ps, Player{Slot: s, Name: "p"})
		}
		return ps
	}
	return []struct {
		name       string
		m          Message
		want       error
		encodeOnly bool
	}{
		{"join name over MaxName", Join{Name: long(MaxName + 1)}, ErrLimit, false},
		{"join name not UTF-8", Join{Name: "Guest-\xff"}, ErrInvalid, false},
		{"welcome slot 8", Welcome{Slot: game.MaxPlayers}, ErrInvalid, false},
		{"welcome state 3", Welcome{State: StateFinished + 1}, ErrInvalid, false},
		{"join resume without resuming", Join{Resume: 5}, ErrInvalid, false},
		{"successors slot 8", Successors{List: []Successor{{Slot: 8, Addr: netip.MustParseAddrPort("10.0.0.1:1")}}}, ErrInvalid, false},
		{"successors slot twice", Successors{List: []Successor{{Slot: 1, Addr: netip.MustParseAddrPort("10.0.0.1:1")}, {Slot: 1, Addr: netip.MustParseAddrPort("10.0.0.2:1")}}}, ErrInvalid, false},
		{"successors port 0", Successors{List: []Successor{{Slot: 1, Addr: netip.MustParseAddrPort("10.0.0.1:0")}}}, ErrInvalid, false},
		{"successors too many", Successors{List: make([]Successor, game.MaxPlayers+1)}, ErrLimit, false},
		{"successors too many servers", Successors{Servers: make([]FallbackServer, MaxFallbackServers+1)}, ErrLimit, false},
		{"successors server without address", Successors{Servers: []FallbackServer{{Name: "x"}}}, ErrInvalid, false},
		{"successors outside port 0", Successors{List: []Successor{{Slot: 1, Addr: netip.MustParseAddrPort("10.0.0.1:1"), Outside: netip.MustParseAddrPort("10.0.0.1:0")}}}, ErrInvalid, false},
		{"standby outside port 0", Standby{Port: 1, Outside: netip.MustParseAddrPort("10.0.0.1:0")}, ErrInvalid, false},
		{"standby outside unspecified", Standby{Port: 1, Outside: netip.MustParseAddrPort("0.0.0.0:5")}, ErrInvalid, false},
		{"refuse reason 0", Refuse{Reason: 0}, ErrInvalid, false},
		{"refuse reason after the last", Refuse{Reason: refuseReasonEnd}, ErrInvalid, false},
		{"refuse reason reserved", Refuse{Reason: refuseReserved}, ErrInvalid, false},
		{"refuse text over MaxText", Refuse{Reason: RefuseFull, Text: long(MaxText + 1)}, ErrLimit, false},
		{"setup state name over MaxName", SetupState{Name: long(MaxName + 1)}, ErrLimit, false},
		{"setup state mode", SetupState{Setup: badSetup}, ErrInvalid, false},
		{"setup state max slots 9", SetupState{MaxSlots: game.MaxPlayers + 1}, ErrInvalid, false},
		{"setup state 9 players", SetupState{Players: players(0, 1, 2, 3, 4, 5, 6, 7, 7)}, ErrLimit, false},
		{"setup state slot 8", SetupState{Players: players(8)}, ErrInvalid, false},
		{"setup state slot 255", SetupState{Players: players(SpectatorSlot)}, ErrInvalid, false},
		{"setup state slots out of order", SetupState{Players: players(2, 1)}, ErrInvalid, false},
		{"setup state duplicate slot", SetupState{Players: players(1, 1)}, ErrInvalid, false},
		{"setup state player name", SetupState{Players: []Player{{Name: long(MaxName + 1)}}}, ErrLimit, false},
		{"setup state player name not UTF-8", SetupState{Players: []Player{{Name: "\xc3"}}}, ErrInvalid, false},
		{"setup change mode", SetupChange{Setup: badSetup}, ErrInvalid, false},
		{"start k 0", Start{K: 0}, ErrInvalid, false},
		{"start k 9", Start{K: MaxK + 1}, ErrInvalid, false},
		{"start delay 17", Start{K: 2, Delay: MaxDelay + 1}, ErrInvalid, false},
		{"start mode", Start{Setup: badSetup, K: 2}, ErrInvalid, false},
		{"leave reason 0", Leave{}, ErrInvalid, false},
		{"leave reason after the last", Leave{Reason: leaveReasonEnd}, ErrInvalid, false},
		{"repair kind 0", Repair{}, ErrInvalid, false},
		{"repair kind after the last", Repair{Kind: repairKindEnd}, ErrInvalid, false},
		{"leave text over MaxText", Leave{Reason: LeaveQuit, Text: long(MaxText + 1)}, ErrLimit, false},
		{"chunk total 0", SnapshotChunk{}, ErrInvalid, false},
		{"chunk total 65", SnapshotChunk{Total: MaxChunks + 1, Index: 0}, ErrInvalid, false},
		{"chunk index = total", SnapshotChunk{Total: 3, Index: 3}, ErrInvalid, false},
		{"chunk data over MaxChunk", SnapshotChunk{Total: 1, Data: make([]byte, MaxChunk+1)}, ErrLimit, false},
		{"desync 9 entries", DesyncReport{Entries: make([]HashEntry, game.MaxPlayers+1)}, ErrLimit, false},
		{"desync slot 8", DesyncReport{Entries: []HashEntry{{Slot: game.MaxPlayers}}}, ErrInvalid, false},
		{"chat from 8", Chat{From: game.MaxPlayers}, ErrInvalid, false},
		{"chat text over MaxChat", Chat{Text: long(MaxChat + 1)}, ErrLimit, false},
		{"chat text not UTF-8", Chat{Text: "\xed\xa0\x80"}, ErrInvalid, false},
		{"move lobby chat over MaxMoveChat", MoveGame{Chat: make([]Chat, MaxMoveChat+1)}, ErrLimit, false},
		{"move lobby chat from 8", MoveGame{Chat: []Chat{{From: game.MaxPlayers}}}, ErrInvalid, false},
		{"room status state 3", RoomStatus{State: StateFinished + 1}, ErrInvalid, false},
		{"room status child 5", RoomStatus{Child: ChildDesynced + 1}, ErrInvalid, false},

		{"client count 0", ClientPacket{Turns: []TurnInput{turn(1, 0)}}, ErrInvalid, false},
		{"client count 9", ClientPacket{Turns: []TurnInput{turn(1, MaxK+1)}}, ErrInvalid, true}, // rawFrame cannot pack 9 ticks
		{"client 17 turns", ClientPacket{Turns: many(MaxBatch+1, func(i int) TurnInput { return turn(uint32(i), 2) })}, ErrLimit, true},
		{"client turns not consecutive", ClientPacket{Turns: []TurnInput{turn(5, 2), turn(7, 2)}}, ErrInvalid, true},
		{"client turns out of order", ClientPacket{Turns: []TurnInput{turn(5, 2), turn(4, 2)}}, ErrInvalid, true},
		{"client turns overflow uint32", ClientPacket{Turns: []TurnInput{turn(math.MaxUint32, 2), turn(0, 2)}}, ErrInvalid, true},
		{"client counts differ", ClientPacket{Turns: []TurnInput{turn(5, 2), turn(6, 3)}}, ErrInvalid, true},
		{"client input game.Leave", ClientPacket{Turns: []TurnInput{turn(5, 2, 0, game.Leave)}}, ErrInvalid, true},
		{"client input bit 6", ClientPacket{Turns: []TurnInput{turn(5, 2, game.Hyperspace<<1)}}, ErrInvalid, true},

		{"master 17 turns", MasterPacket{Turns: mturns(MaxBatch + 1)}, ErrLimit, true},
		{"master count 0", MasterPacket{Turns: []MasterTurn{mturn(3, 0)}}, ErrInvalid, false},
		{"master count 9", MasterPacket{Turns: []MasterTurn{mturn(3, MaxK+1)}}, ErrInvalid, false},
		{"master turns not consecutive", MasterPacket{Turns: []MasterTurn{mturn(3, 1), mturn(5, 1)}}, ErrInvalid, true},
		{"master turns overflow uint32", MasterPacket{Turns: []MasterTurn{mturn(math.MaxUint32, 1), mturn(0, 1)}}, ErrInvalid, true},
		{"master 9 events", MasterPacket{Turns: []MasterTurn{mturn(3, 1, make([]RoomEvent, MaxEvents+1)...)}}, ErrLimit, false},
		{"master event kind 0", MasterPacket{Turns: []MasterTurn{mturn(3, 1, RoomEvent{})}}, ErrInvalid, false},
		{"master event kind after the last", MasterPacket{Turns: []MasterTurn{mturn(3, 1, RoomEvent{Kind: eventKindEnd})}}, ErrInvalid, false},
		{"master event slot 8", MasterPacket{Turns: []MasterTurn{mturn(3, 1, RoomEvent{Kind: EventDrop, Slot: game.MaxPlayers})}}, ErrInvalid, false},
		{"master timing k 0", MasterPacket{Turns: []MasterTurn{mturn(3, 1, RoomEvent{Kind: EventTiming, K: 0})}}, ErrInvalid, false},
		{"master timing k 9", MasterPacket{Turns: []MasterTurn{mturn(3, 1, RoomEvent{Kind: EventTiming, K: MaxK + 1})}}, ErrInvalid, false},
		{"master timing delay 17", MasterPacket{Turns: []MasterTurn{mturn(3, 1, RoomEvent{Kind: EventTiming, K: 2, Delay: MaxDelay + 1})}}, ErrInvalid, false},
		{"master frame over MaxFrame", MasterPacket{Turns: hugeTurns()}, ErrTooLarge, false},
	}
}

func TestAppendRejectsInvalid(t *testing.T) {
	for _, c := range invalidMessages() {
		t.Run(c.name, func(t *testing.T) {
			b := []byte("keep")
			got, err := Append(b, c.m)
			if !errors.Is(err, c.want) {
				t.Fatalf("Append error %v, want %v", err, c.want)
			}
			if !strings.HasPrefix(err.Error(), "encode "+c.m.Type().String()+": ") {
				t.Errorf("error %q does not name the message", err)
			}
			if string(got) != "keep" {
				t.Errorf("Append returned % x, want b unchanged", got)
			}
		})
	}
}

func TestDecodeRejectsInvalid(t *testing.T) {
	for _, c := range invalidMessages() {
		if c.encodeOnly {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			frame := rawFrame(t, c.m)
			m, err := Decode(frame)
			if !errors.Is(err, c.want) {
				t.Fatalf("Decode(% x) = %#v, %v; want error %v", frame, m, err, c.want)
			}
			if !strings.HasPrefix(err.Error(), "decode") {
				t.Errorf("error %q does not say decode", err)
			}
		})
	}
}

// TestDecodeRejectsMalformed feeds frames that no encoder makes.
func TestDecodeRejectsMalformed(t *testing.T) {
	frame := func(ty Type, payload ...byte) []byte { return append([]byte{Version, byte(ty)}, payload...) }
	setup := func(mode, ff byte) []byte { return []byte{1, 2, 3, 4, 5, 6, 7, 8, 1, mode, 3, 1, ff, 0, 0} }
	setupWith := func(players, mode, ff byte) []byte {
		return []byte{1, 2, 3, 4, 5, 6, 7, 8, players, mode, 3, 1, ff, 1, 1}
	}
	join := func(name []byte, spectate byte) []byte {
		b := make([]byte, 4+16)
		b = append(b, byte(len(name)))
		b = append(b, name...)
		b = append(b, make([]byte, 16)...)
		return append(b, spectate)
	}
	cases := []struct {
		name  string
		frame []byte
		want  error
		text  string // in the error, if set
	}{
		{"ready 2", frame(TypeReady, 2), ErrInvalid, "decode ready: ready: bool not 0 or 1"},
		{"ready 255", frame(TypeReady, 255), ErrInvalid, ""},
		{"pause 2", frame(TypePause, 2), ErrInvalid, ""},
		{"join spectate 2", frame(TypeJoin, join([]byte("Ada"), 2)...), ErrInvalid, "spectate"},
		{"join name length over limit", frame(TypeJoin, join(make([]byte, 100), 0)...), ErrLimit, "name"},
		{"join name length past the frame", frame(TypeJoin, append(make([]byte, 20), 5, 'a')...), ErrTruncated, "name"},
		{"join overlong UTF-8", frame(TypeJoin, join([]byte{0xc0, 0xaf}, 0)...), ErrInvalid, "UTF-8"},
		{"join secret written as 0", frame(TypeJoin, append(join(nil, 0), append([]byte{0, 0}, make([]byte, 8+8)...)...)...), ErrInvalid, "secret"},
		{"join secret cut short", frame(TypeJoin, append(join(nil, 0), append([]byte{0, 0}, make([]byte, 8+3)...)...)...), ErrTrailing, ""},
		{"room created secret written as 0", frame(TypeRoomCreated, make([]byte, 4+8)...), ErrInvalid, "secret"},
		{"room list referee written as false", frame(TypeRoomList, 0, 0, 0), ErrTrailing, ""},
		{"room list optional fields 4", frame(TypeRoomList, 0, 0, 4), ErrTrailing, ""},
		{"room list web announced, missing", frame(TypeRoomList, 0, 0, 2), ErrTruncated, "web"},
		{"room list web written empty", frame(TypeRoomList, 0, 0, 2, 0), ErrInvalid, "web"},
		{"setup change friendly fire 2", frame(TypeSetupChange, setup(0, 2)...), ErrInvalid, "friendly fire"},
		{"setup change saucers 2", frame(TypeSetupChange, 1, 2, 3, 4, 5, 6, 7, 8, 1, 0, 3, 1, 0, 2, 0), ErrInvalid, "saucers"},
		{"setup change hyperspace 2", frame(TypeSetupChange, 1, 2, 3, 4, 5, 6, 7, 8, 1, 0, 3, 1, 0, 0, 2), ErrInvalid, "hyperspace"},
		{"setup change mode 2", frame(TypeSetupChange, setup(2, 0)...), ErrInvalid, "mode"},
		{"setup state player flags bit 3", frame(TypeSetupState, append([]byte{0, 0, 0, 0, 0, 0, 0}, append(setup(0, 0), 8, 1, 0, 8, 0, 0)...)...), ErrInvalid, "player 0: flags"},
		{"non-minimal varint", frame(TypeSnapshotRequest, 0x80, 0x00), ErrInvalid, "minimally"},
		{"varint over uint32", frame(TypeSnapshotRequest, 0x80, 0x80, 0x80, 0x80, 0x10), ErrInvalid, "snapshot request: turn"},
		{"varint over 64 bits", frame(TypeSnapshotRequest, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f), ErrInvalid, ""},
		{"setup state ping over uint16", frame(TypeSetupState, append([]byte{0, 0, 0, 0, 0, 0, 0}, append(setup(0, 0), 8, 1, 0, 0, 0, 0x80, 0x80, 0x04)...)...), ErrInvalid, "ping"},

		{"client flags bit 4", frame(TypeClientPacket, 16, 0), ErrInvalid, "decode client packet: flags"},
		{"client ended without a hash", frame(TypeClientPacket, 8, 0), ErrInvalid, "ended without a hash"},
		{"room status final without an end", frame(TypeRoomStatus, 2, 0, 0, 0, 0, 0, 0, 0, 5), ErrTrailing, ""},
		{"room status end 4", frame(TypeRoomStatus, 2, 0, 0, 0, 0, 0, 4, 1, 0), ErrInvalid, "end"},
		{"start name of an empty slot", frame(TypeStart, append(setupWith(0b01, 0, 0), 1, 'a', 0, 2, 1, 0, 1, 'b')...), ErrTrailing, ""},
		{"client count nibble 0", frame(TypeClientPacket, 4, 5, 0x00, 0, 0), ErrInvalid, "turn 5: count 0"},
		{"client count nibble 9", frame(TypeClientPacket, 4, 5, 0x09, 0, 0, 0, 0, 0, 0, 0), ErrInvalid, "count 9"},
		{"client input padding", frame(TypeClientPacket, 4, 5, 0x02, 0, 0x10, 0), ErrInvalid, "padding"},
		{"client turns overflow", frame(TypeClientPacket, 4, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x11, 0, 0, 0), ErrInvalid, "overflow"},
		{"client ack below 0", frame(TypeClientPacket, 4, 1, 0x01, 0, 0x04), ErrInvalid, "master ack"},
		{"client ack above uint32", frame(TypeClientPacket, 4, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01, 0, 0x01), ErrInvalid, "master ack"},
		{"client hash turn delta too big", frame(TypeClientPacket, 5, 1, 0x01, 0, 0, 0x80, 0x80, 0x80, 0x80, 0x40, 0, 0, 0, 0), ErrInvalid, "hash turn"},
		{"client rtt over uint16", frame(TypeClientPacket, 2, 0, 0x80, 0x80, 0x04, 60), ErrInvalid, "rtt"},
		{"client inputs truncated", frame(TypeClientPacket, 4, 5, 0xf8), ErrTruncated, "inputs"},

		{"master 17 turns", frame(TypeMasterPacket, 0, MaxBatch+1, 0), ErrLimit, "17 turns"},
		{"master turns overflow", frame(TypeMasterPacket, 0, 2, 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 0, 0, 1, 0, 0), ErrInvalid, "overflow"},
		{"master events truncated", frame(TypeMasterPacket, 0, 1, 3, 1, 0, 2, 5), ErrTruncated, "decode master packet: turn 3: event 0: slot: truncated"},
		{"master second turn truncated", frame(TypeMasterPacket, 0, 2, 3, 1, 0, 0), ErrTruncated, "decode master packet: turn 4: count: truncated"},
		{"master timing at over uint32", frame(TypeMasterPacket, 0, 1, 3, 1, 0, 1, byte(EventTiming), 0, 0x80, 0x80, 0x80, 0x80, 0x10, 1, 0), ErrInvalid, "at"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Decode(c.frame)
			if !errors.Is(err, c.want) {
				t.Fatalf("Decode(% x) = %#v, %v; want error %v", c.frame, m, err, c.want)
			}
			if !strings.Contains(err.Error(), c.text) {
				t.Errorf("error %q does not contain %q", err, c.text)
			}
		})
	}
}

func TestAppendRejectsForeignMessages(t *testing.T) {
	var nilChat *Chat
	var nilClient *ClientPacket
	cases := []struct {
		name string
		m    Message
		want error
	}{
		{"nil", nil, ErrInvalid},
		{"nil *Chat", nilChat, ErrInvalid},
		{"nil *ClientPacket", nilClient, ErrInvalid},
		{"a type of another package", foreign{}, ErrUnknownType},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Append([]byte{1}, c.m)
			if !errors.Is(err, c.want) || len(got) != 1 {
				t.Fatalf("Append = % x, %v; want b unchanged and %v", got, err, c.want)
			}
		})
	}
}

type foreign struct{}

func (foreign) Type() Type { return TypeChat }

func TestTypeString(t *testing.T) {
	cases := []struct {
		t    Type
		want string
	}{
		{TypeJoin, "join"},
		{typeReservedHello, "type(1)"},
		{typeReservedCookie, "type(2)"},
		{TypeMasterPacket, "master packet"},
		{TypePause, "pause"},
		{0, "type(0)"},
		{TypeStandby, "standby"},
		{TypeSuccessors, "successors"},
		{TypeRoomListRequest, "room list request"},
		{TypeRoomList, "room list"},
		{TypeDigest, "digest"},
		{TypeDigest + 1, "type(33)"},
	}
	for _, c := range cases {
		if got := c.t.String(); got != c.want {
			t.Errorf("Type(%d).String() = %q, want %q", c.t, got, c.want)
		}
	}
}

// TestRoomStateNames: every room state has the name logs and LAN listings
// use, and ParseRoomState reads exactly those names back.
func TestRoomStateNames(t *testing.T) {
	cases := []struct {
		s    RoomState
		want string
	}{
		{StateSetup, "setup"},
		{StateRunning, "running"},
		{StateFinished, "finished"},
	}
	for _, c := range cases {
		if got := c.s.String(); got != c.want {
			t.Errorf("RoomState(%d).String() = %q, want %q", c.s, got, c.want)
		}
		if got, ok := ParseRoomState(c.want); !ok || got != c.s {
			t.Errorf("ParseRoomState(%q) = %d, %v; want %d, true", c.want, got, ok, c.s)
		}
	}
	if got := (StateFinished + 1).String(); got != "state(3)" {
		t.Errorf("RoomState(3).String() = %q, want state(3)", got)
	}
	for _, name := range []string{"", "lobby", "Setup", "state(3)"} {
		if s, ok := ParseRoomState(name); ok {
			t.Errorf("ParseRoomState(%q) = %d, true; want false", name, s)
		}
	}
}

// TestRoomListLimits: a full room list of the longest names fits a frame,
// and a list the encoder would not write is refused by the decoder.
func TestRoomListLimits(t *testing.T) {
	full := RoomList{More: true}
	for i := range MaxListRooms {
		full.Rooms = append(full.Rooms, RoomInfo{RoomID: math.MaxUint32 - MaxListRooms + uint32(i) + 1,
			Name: strings.Repeat("ж", MaxName/2), Host: strings.Repeat("ж", MaxName/2), Players: 8, Max: 8, State: StateRunning, Version: Version})
	}
	if _, err := Append(nil, full); err != nil {
		t.Fatalf("a full room list: %v", err)
	}
	room := func(id uint32, players, max uint8, state RoomState) []byte {
		b := binary.AppendUvarint(nil, uint64(id))
		b = appendString(appendString(b, "r"), "h")
		return append(b, players, max, uint8(state), Version)
	}
	frame := func(n uint8, rooms ...[]byte) []byte {
		b := []byte{Version, byte(TypeRoomList), n}
		for _, r := range rooms {
			b = append(b, r...)
		}
		return append(b, 0)
	}
	for _, c := range []struct {
		name  string
		frame []byte
		want  error
	}{
		{"more rooms than MaxListRooms", frame(MaxListRooms + 1), ErrLimit},
		{"room id 0", frame(1, room(0, 1, 8, StateSetup)), ErrInvalid},
		{"ids not ascending", frame(2, room(5, 1, 8, StateSetup), room(5, 1, 8, StateSetup)), ErrInvalid},
		{"more players than max", frame(1, room(5, 9, 8, StateSetup)), ErrInvalid},
		{"max 0", frame(1, room(5, 0, 0, StateSetup)), ErrInvalid},
		{"max over game.MaxPlayers", frame(1, room(5, 1, game.MaxPlayers+1, StateSetup)), ErrInvalid},
		{"state after finished", frame(1, room(5, 1, 8, StateFinished+1)), ErrInvalid},
		{"one room missing", frame(2, room(5, 1, 8, StateSetup)), ErrTruncated},
	} {
		t.Run(c.name, func(t *testing.T) {
			if m, err := Decode(c.frame); !errors.Is(err, c.want) {
				t.Fatalf("Decode = %#v, %v; want error %v", m, err, c.want)
			}
		})
	}
}

func TestRefuseReasonString(t *testing.T) {
	for _, c := range []struct {
		r    RefuseReason
		want string
	}{
		{RefuseNoRoom, "no room"},
		{RefuseRoomKey, "room key"},
		{refuseReserved, "reason 6"},
		{refuseReasonEnd, "reason 14"},
	} {
		if got := c.r.String(); got != c.want {
			t.Errorf("RefuseReason(%d).String() = %q, want %q", c.r, got, c.want)
		}
	}
}
