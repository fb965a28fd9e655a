package room_test

import (
	"math/rand/v2"
	"net/netip"
	"slices"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/room"
	"rockstep/net/wire"
)

// TestLobbyNamesSuccessors: in the lobby, as in a running game, the
// players with a standby port are listed as successors, and the list
// carries the token hash of every seat, the host's (which has no standby)
// among them, so that a successor's lobby holds the host's seat for its
// Rejoin. The list made in the lobby is the game's when it starts.
func TestLobbyNamesSuccessors(t *testing.T) {
	b := newBench(t, func(c *room.Config) {
		c.AddrOf = func(c room.ConnID) netip.Addr { return netip.AddrFrom4([4]byte{10, 0, 0, byte(c)}) }
	})
	ws := []wire.Welcome{b.join(1, "Ada"), b.join(2, "Bob"), b.join(3, "Cy")}
	b.send(2, wire.Standby{Port: 7002, Reach: 0b100})
	b.send(3, wire.Standby{Port: 7003, Reach: 0b010})
	sc, ok := last[wire.Successors](b.peer(1))
	if !ok {
		t.Fatal("the lobby sent no successor list")
	}
	var slots []uint8
	for _, s := range sc.List {
		slots = append(slots, s.Slot)
	}
	if !slices.Equal(slots, []uint8{1, 2}) {
		t.Fatalf("lobby successors = %v, want [1 2]", slots)
	}
	if sc.Game != b.r.Game() {
		t.Errorf("the list is for game %d, the lobby's is %d", sc.Game, b.r.Game())
	}
	for i, w := range ws {
		if sc.Tokens[i] != room.TokenHash(w.Token) {
			t.Errorf("slot %d's token hash is not in the list", i)
		}
	}
	if sc.Tokens[3] != ([16]byte{}) {
		t.Error("a free seat has a token hash")
	}
	// A player who leaves the lobby leaves the list and its seat with it.
	b.send(3, wire.Leave{Reason: wire.LeaveQuit})
	sc, _ = last[wire.Successors](b.peer(1))
	if len(sc.List) != 1 || sc.Tokens[2] != ([16]byte{}) {
		t.Errorf("after Cy left: %d successors, Cy's token hash %x; want 1 and none", len(sc.List), sc.Tokens[2])
	}
}

// lobbyOf is the lobby Ada hosted (slot 0, no standby) with Bob (slot 1,
// ready) and Cy (slot 2, not ready), as Bob's session hands it to his own
// successor's room.
func lobbyOf(tokens [3][16]byte) room.LobbyHandover {
	h := room.LobbyHandover{
		Game: 1, Name: "Ada's game", Revision: 40, MaxSlots: 8, Host: 1,
		Setup: game.Setup{Mode: game.Versus, Lives: 5, StartWave: 3, FriendlyFire: true},
		Roster: []wire.Player{
			{Slot: 0, Ready: true, Host: true, Connected: true, Colour: 4, Ping: 12, ID: [16]byte{1}, Name: "Ada"},
			{Slot: 1, Ready: true, Connected: true, Colour: 1, Ping: 9, ID: [16]byte{2}, Name: "Bob"},
			{Slot: 2, Ready: false, Connected: true, Colour: 2, Ping: 30, ID: [16]byte{3}, Name: "Cy"},
		},
	}
	for i, tok := range tokens {
		h.Tokens[i] = room.TokenHash(tok)
	}
	h.Chat = []wire.Chat{{From: 2, Text: "gg, one more?"}, {From: 0, Text: "sure"}}
	return h
}

func lobbyBench(t *testing.T, h room.LobbyHandover) *bench {
	cfg := room.LAN()
	cfg.Random = rand.NewChaCha8([32]byte{1})
	cfg.FixedTiming = true
	b := &bench{t: t, r: room.ResumeLobby(cfg, h), peers: map[room.ConnID]*peer{}}
	b.tick(time.Millisecond)
	return b
}

// TestResumedLobbyKeepsTheLobby: the successor's lobby is the old one: the
// setup, the names, colours and ready marks as the players pressed them
// (Cy never pressed Ready, and is not shown ready), the successor as host,
// and a seat held for each player, the crashed host's too, which its token
// takes back; a stranger's token takes nothing.
func TestResumedLobbyKeepsTheLobby(t *testing.T) {
	tokens := [3][16]byte{{0xa}, {0xb}, {0xc}}
	h := lobbyOf(tokens)
	b := lobbyBench(t, h)
	if st, _ := b.r.State(); st != wire.StateSetup {
		t.Fatalf("a resumed lobby is in state %v, want setup", st)
	}
	if b.r.Setup().Options() != h.Setup.Options() {
		t.Errorf("setup %+v, want the old lobby's %+v", b.r.Setup().Options(), h.Setup.Options())
	}
	if b.r.LobbyHeld() != 0b111 {
		t.Errorf("held seats %03b, want 111", b.r.LobbyHeld())
	}
	// Bob (its own machine's room) and Cy come back with their tokens.
	for conn, slot := range map[room.ConnID]int{1: 1, 2: 2} {
		b.send(conn, wire.Join{Token: tokens[slot], Resuming: true})
		if got := chatOf(b.peer(conn)); len(got) != 0 {
			t.Errorf("slot %d, moved here with its session (and its chat), was sent the chat again: %q", slot, got)
		}
		w, ok := last[wire.Welcome](b.peer(conn))
		if !ok || int(w.Slot) != slot || w.Token != tokens[slot] || w.State != wire.StateSetup {
			t.Fatalf("slot %d coming back: Welcome %+v (%v), want its slot and token in setup", slot, w, ok)
		}
	}
	b.tick(time.Second)
	st, _ := last[wire.SetupState](b.peer(1))
	want := map[uint8]wire.Player{
		0: {Slot: 0, Ready: true, Host: false, Connected: false, Colour: 4, Name: "Ada"},
		1: {Slot: 1, Ready: true, Host: true, Connected: true, Colour: 1, Name: "Bob"},
		2: {Slot: 2, Ready: false, Host: false, Connected: true, Colour: 2, Name: "Cy"},
	}
	if len(st.Players) != 3 {
		t.Fatalf("roster %+v, want three players", st.Players)
	}
	for _, p := range st.Players {
		w := want[p.Slot]
		if p.Ready != w.Ready || p.Host != w.Host || p.Connected != w.Connected || p.Colour != w.Colour || p.Name != w.Name {
			t.Errorf("slot %d: %+v, want %+v", p.Slot, p, w)
		}
	}
	if st.Name != "" && st.Revision <= h.Revision {
		t.Errorf("revision %d does not come after the old lobby's %d", st.Revision, h.Revision)
	}
	// Cy, back, is not ready: no start.
	b.send(1, wire.StartGame{Game: b.r.Game()})
	if s, _ := b.r.State(); s != wire.StateSetup {
		t.Fatal("the lobby started with Cy not ready")
	}
	// A stranger's token takes nothing.
	b.send(9, wire.Join{Token: [16]byte{0xee}, Resuming: true})
	if r, ok := last[wire.Refuse](b.peer(9)); !ok || r.Reason != wire.RefuseBadToken {
		t.Errorf("a stranger's token: %+v (%v), want RefuseBadToken", r, ok)
	}
	// Ada, who crashed, comes back with her token (a plain Rejoin).
	b.send(3, wire.Join{Token: tokens[0], Name: "Ada"})
	if got := chatOf(b.peer(3)); len(got) != 2 || got[0] != "gg, one more?" || got[1] != "sure" {
		t.Errorf("Ada, back on a new program, was sent the chat %q; want the lobby's two lines", got)
	}
	w, ok := last[wire.Welcome](b.peer(3))
	if !ok || w.Slot != 0 || w.State != wire.StateSetup {
		t.Fatalf("Ada's Rejoin: Welcome %+v (%v), want slot 0 in setup", w, ok)
	}
	st, _ = last[wire.SetupState](b.peer(3))
	for _, p := range st.Players {
		if p.Slot == 0 && (!p.Connected || p.Host) {
			t.Errorf("Ada back: %+v, want connected and a guest (Bob hosts)", p)
		}
	}
	if b.r.LobbyHeld() != 0 {
		t.Errorf("seats still held after everyone came back: %03b", b.r.LobbyHeld())
	}
}

// TestResumedLobbyFreesSeatsNobodyTakes: a seat held for a player who does
// not come back is freed after the vacancy timeout, and everyone is told.
func TestResumedLobbyFreesSeatsNobodyTakes(t *testing.T) {
	tokens := [3][16]byte{{0xa}, {0xb}, {0xc}}
	b := lobbyBench(t, lobbyOf(tokens))
	b.send(1, wire.Join{Token: tokens[1], Resuming: true})
	for range int(room.LAN().VacancyTimeout/time.Second) - 1 {
		b.tick(time.Second)
		b.send(1, wire.Ready{Ready: true}) // Bob is there all along
	}
	b.tick(time.Second - 2*time.Millisecond)
	if b.r.PlayerCount() != 3 {
		t.Fatalf("%d seats before the timeout, want 3", b.r.PlayerCount())
	}
	b.tick(10 * time.Millisecond)
	if b.r.PlayerCount() != 1 || b.r.LobbyHeld() != 0 {
		t.Fatalf("after the timeout: %d seats, held %03b; want Bob's alone", b.r.PlayerCount(), b.r.LobbyHeld())
	}
	st, ok := last[wire.SetupState](b.peer(1))
	if !ok || len(st.Players) != 1 || st.Players[0].Slot != 1 || !st.Players[0].Host {
		t.Errorf("roster after the timeout: %+v (%v), want Bob alone, hosting", st.Players, ok)
	}
}

// TestResumedLobbyStartsWithoutTheAbsent: a seat held for a player who
// has not come back keeps no Start off: every lobby is told it is held
// and for how long (the status's Vacant and VacancyMs, counting down),
// and when the players there are ready the host starts, the held seat
// released: the game is the players who came back.
func TestResumedLobbyStartsWithoutTheAbsent(t *testing.T) {
	tokens := [3][16]byte{{0xa}, {0xb}, {0xc}}
	b := lobbyBench(t, lobbyOf(tokens))
	b.send(1, wire.Join{Token: tokens[1], Resuming: true})
	b.send(2, wire.Join{Token: tokens[2], Resuming: true})
	b.tick(time.Second)
	st, ok := last[wire.RoomStatus](b.peer(2))
	if !ok || st.Vacant != 0b001 || st.VacancyMs == 0 || st.VacancyMs > uint32(room.LAN().VacancyTimeout.Milliseconds()) {
		t.Fatalf("status in the lobby with Ada's seat held: %+v (%v); want Vacant 001 and the time left", st, ok)
	}
	first := st.VacancyMs
	b.tick(2 * time.Second)
	if st, _ = last[wire.RoomStatus](b.peer(2)); st.VacancyMs >= first || st.Vacant != 0b001 {
		t.Errorf("2 s later: %+v; want Ada's seat still held, less time left than %d ms", st, first)
	}
	b.send(1, wire.Ready{Ready: true})
	b.send(2, wire.Ready{Ready: true})
	b.send(1, wire.StartGame{Game: b.r.Game()})
	if s, _ := b.r.State(); s != wire.StateRunning {
		t.Fatalf("state %v after Bob's Start with Bob and Cy ready and Ada away; want running", s)
	}
	if b.r.LobbyHeld() != 0 || b.r.PlayerCount() != 2 {
		t.Errorf("the game: %d players, held %03b; want Bob and Cy, nothing held", b.r.PlayerCount(), b.r.LobbyHeld())
	}
	start, ok := last[wire.Start](b.peer(2))
	if !ok || start.Setup.Players != 0b110 {
		t.Errorf("Start %+v (%v): want the players of slots 1 and 2", start.Setup.Players, ok)
	}
	// A guest cannot start it so.
	b2 := lobbyBench(t, lobbyOf(tokens))
	b2.send(1, wire.Join{Token: tokens[1], Resuming: true})
	b2.send(2, wire.Join{Token: tokens[2], Resuming: true})
	b2.send(1, wire.Ready{Ready: true})
	b2.send(2, wire.Ready{Ready: true})
	b2.send(2, wire.StartGame{Game: b2.r.Game()})
	if s, _ := b2.r.State(); s != wire.StateSetup || b2.r.LobbyHeld() != 0b001 {
		t.Errorf("Cy (a guest) asked to start: state %v, held %03b; want setup, Ada's seat held", s, b2.r.LobbyHeld())
	}
}

// chatOf returns the chat lines the peer received, without clearing its
// inbox.
func chatOf(p *peer) []string {
	var out []string
	for _, m := range p.got {
		if c, ok := m.(wire.Chat); ok {
			out = append(out, c.Text)
		}
	}
	return out
}

// TestLobbyShowsAFirstPingAtOnce: a lobby whose room knows no round trip
// for a player yet (a room that took the game over measured none) sends
// the roster again as soon as the player's first Pong comes, so that
// every lobby shows its ping within a round trip, not "–" until the next
// periodic setup.
func TestLobbyShowsAFirstPingAtOnce(t *testing.T) {
	tokens := [3][16]byte{{0xa}, {0xb}, {0xc}}
	h := lobbyOf(tokens)
	for i := range h.Roster {
		h.Roster[i].Ping = 0 // as a resumed game's room knows them
	}
	b := lobbyBench(t, h)
	b.send(1, wire.Join{Token: tokens[1], Resuming: true})
	b.send(2, wire.Join{Token: tokens[2], Resuming: true})
	b.tick(300 * time.Millisecond) // the room pings its lobby four times a second
	ping, ok := last[wire.Ping](b.peer(2))
	if !ok {
		t.Fatal("the lobby's room sent Cy no ping")
	}
	b.peer(1).got = nil
	b.tick(5 * time.Millisecond)
	b.send(2, wire.Pong{ID: ping.ID, Time: ping.Time})
	st, ok := last[wire.SetupState](b.peer(1))
	if !ok {
		t.Fatal("no roster sent on Cy's first pong")
	}
	for _, p := range st.Players {
		if p.Slot == 2 && p.Ping == 0 {
			t.Errorf("Cy's first pong answered: the roster sent shows %+v, no ping", p)
		}
	}
}

// TestHandedOverRoomKeepsItsRoster: a host that goes by choice (HandOver)
// in its lobby, or during a game, then loses a guest's connection: the
// guest follows the room's word to the successor (it cut its connection
// at the Leave). The room frees no seat for it and sends no roster
// without it: another guest still connected (its Leave in flight, or lost
// on a busy machine) takes the roster it last saw to the successor, and a
// successor's lobby carried on from a roster without the first guest held
// no seat for it and refused its token (the lobby split in two).
func TestHandedOverRoomKeepsItsRoster(t *testing.T) {
	for _, tc := range []struct {
		name    string
		playing bool
	}{
		{"lobby", false},
		{"game", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t, func(c *room.Config) {
				c.AddrOf = func(c room.ConnID) netip.Addr {
					if c == 1 {
						return netip.Addr{} // the Host button's own player, over a pipe
					}
					return netip.AddrFrom4([4]byte{10, 0, 0, byte(c)})
				}
			})
			if tc.playing {
				b.startGame(3)
				b.playIdle(0, 3)
			} else {
				b.join(1, "Ada")
				b.join(2, "Bob")
				b.join(3, "Cy")
			}
			b.send(2, wire.Standby{Port: 7002, Reach: 0b100})
			b.send(3, wire.Standby{Port: 7003, Reach: 0b010})
			if !tc.playing {
				b.send(1, wire.Leave{Reason: wire.LeaveQuit}) // Ada's window closes her player first
			}
			b.peer(2).got = nil
			if !b.r.HandOver(b.now, "Ada left") {
				t.Fatal("HandOver refused with two successors")
			}
			b.flush()
			if l, ok := last[wire.Leave](b.peer(2)); !ok || l.Reason != wire.LeaveHandover {
				t.Fatalf("Bob was not told the host is going: %+v", l)
			}
			// Cy follows the word at once: its connection ends. Bob, slower,
			// is still connected.
			b.r.Disconnected(b.now, 3)
			b.flush()
			for range 8 {
				b.tick(250 * time.Millisecond)
			}
			for _, m := range b.peer(2).got {
				su, ok := m.(wire.SetupState)
				if ok && !slices.ContainsFunc(su.Players, func(p wire.Player) bool { return p.Slot == 2 }) {
					t.Fatalf("after the hand-over Bob was sent a roster without Cy, who went to the successor: %+v", su.Players)
				}
			}
		})
	}
}
