package host_test

import (
	"context"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/internal/testwait"
	"rockstep/net/host"
	"rockstep/net/room"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// moveAsk is a MoveGame of a three-player game under key.
func moveAsk(key byte) wire.MoveGame {
	return wire.MoveGame{
		Key: [16]byte{key, 1},
		State: wire.SetupState{Game: 2, Name: "Ada's game", Setup: game.Setup{Seed: 5, Players: 3, Mode: game.Coop, Lives: 3, StartWave: 1},
			Players: []wire.Player{{Slot: 0, ID: [16]byte{1}, Name: "Ada"}, {Slot: 1, ID: [16]byte{2}, Name: "Bea"}, {Slot: 2, ID: [16]byte{3}, Name: "Cy"}}},
		Names:   [game.MaxPlayers]string{"Ada", "Bea", "Cy"},
		Tokens:  [game.MaxPlayers][16]byte{{1}, {2}, {3}},
		Present: 0b111, Expected: 0b110, Next: 600, K: 1, Delay: 2,
	}
}

// sendFrames sends msgs in order on a new connection to addr and returns
// what the connection receives, until the test ends.
func sendFrames(t *testing.T, ctx context.Context, addr string, msgs ...wire.Message) *frameLog {
	t.Helper()
	tc, err := transport.Dial(ctx, addr, transport.LAN())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		frame, err := wire.Append(nil, m)
		if err != nil {
			t.Fatal(err)
		}
		if err := tc.Send(frame); err != nil {
			t.Fatal(err)
		}
	}
	log := &frameLog{}
	rctx, rcancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = tc.Run(rctx, log) }()
	t.Cleanup(func() { rcancel(); <-done })
	return log
}

// created returns the room ids of the RoomCreated l got, and its refusals.
func (l *frameLog) created() (rooms []uint32, refused []wire.Refuse) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, m := range l.msgs {
		switch m := m.(type) {
		case wire.RoomCreated:
			rooms = append(rooms, m.RoomID)
		case wire.Refuse:
			refused = append(refused, m)
		}
	}
	return rooms, refused
}

// TestMoveGameOneRoom: every player of a moved game asks with the game's
// key, each on its own connection: the first ask opens the room, the
// later ones are given the same room (never two); another game's key
// gets a room of its own, and a moved room is unlisted.
func TestMoveGameOneRoom(t *testing.T) {
	hs := serve(t, host.LAN())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var logs []*frameLog
	for range 3 {
		logs = append(logs, sendFrames(t, ctx, hs.Addr(), moveAsk(7)))
	}
	other := sendFrames(t, ctx, hs.Addr(), moveAsk(8))
	var got [3]uint32
	if !testwait.Until(time.Minute, func() bool {
		for i, l := range append(logs, other)[:3] {
			rooms, _ := l.created()
			if len(rooms) != 1 {
				return false
			}
			got[i] = rooms[0]
		}
		rooms, _ := other.created()
		return len(rooms) == 1
	}) {
		t.Fatal("waited a minute for every ask's answer")
	}
	if got[0] != got[1] || got[1] != got[2] {
		t.Errorf("rooms %v for one game's key, want one room", got)
	}
	if rooms, _ := other.created(); rooms[0] == got[0] {
		t.Errorf("another game's key got the same room %d", rooms[0])
	}
	if got[0] < wire.UnlistedRooms {
		t.Errorf("moved room %d is listed, want an unlisted one", got[0])
	}
}

// TestMoveGameLimits: a MoveGame opens rooms only within a CreateRoom's
// limits: one connection asking for rooms of many games gets at most
// MaxRoomsPerConn; the rest within the pace are refused (beyond it,
// dropped unanswered).
// A resuming Join after a refused ask is refused as "not hosting", never
// sent to the server's default room.
func TestMoveGameLimits(t *testing.T) {
	cfg := host.LAN()
	cfg.MaxRoomsPerConn = 2 // below the pace's burst (4): the asks past it are refused, not dropped
	hs := serve(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var msgs []wire.Message
	for k := range 10 {
		msgs = append(msgs, moveAsk(byte(k+1)))
	}
	l := sendFrames(t, ctx, hs.Addr(), msgs...)
	if !testwait.Until(time.Minute, func() bool {
		rooms, refused := l.created()
		return len(rooms) == cfg.MaxRoomsPerConn && len(refused) == 2
	}) {
		rooms, refused := l.created()
		t.Fatalf("%d rooms, %d refusals; want %d rooms and refusals", len(rooms), len(refused), cfg.MaxRoomsPerConn)
	}
	if st := hs.Host.Stats(); st.RoomsCreated > uint64(cfg.MaxRoomsPerConn) {
		t.Errorf("%d rooms created, want at most %d", st.RoomsCreated, cfg.MaxRoomsPerConn)
	}

	bad := moveAsk(99)
	bad.Present = 0 // describes no game: refused
	j := sendFrames(t, ctx, hs.Addr(), bad, wire.Join{PlayerID: [16]byte{9}, Name: "Eve", Token: [16]byte{1}, Resuming: true, Resume: 600})
	if !testwait.Until(time.Minute, func() bool {
		_, refused := j.created()
		return len(refused) == 2
	}) {
		t.Fatal("waited a minute for the refusals of the ask and the Join")
	}
	if _, refused := j.created(); refused[1].Reason != wire.RefuseNotHosting {
		t.Errorf("the Join after a refused move: %+v, want RefuseNotHosting", refused[1])
	}
}

// TestMoveLobby: a lobby's MoveGame (no turn, no timing: K zero) opens a
// room on the server that is a resumed lobby: the setup, the roster with
// the ready marks as pressed, each seat held for its token. A player that
// joins it with its token (its resuming Join on the same connection) has
// its seat back in the lobby; nobody owns the room, so the lowest seat
// whose player is there hosts it, not the seat held for the crashed host.
// A player back on a new program reads the lobby's chat there. A lobby's
// ask with a turn or timing is no lobby and no game: refused.
func TestMoveLobby(t *testing.T) {
	hs := serve(t, host.LAN())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tokens := [3][16]byte{{1}, {2}, {3}}
	ask := wire.MoveGame{
		Key: [16]byte{42},
		State: wire.SetupState{Game: 1, Revision: 9, Name: "Ada's game", MaxSlots: 4, Setup: game.Setup{Mode: game.Versus, Lives: 7, StartWave: 4},
			Players: []wire.Player{{Slot: 0, ID: [16]byte{1}, Name: "Ada", Host: true}, {Slot: 1, ID: [16]byte{2}, Name: "Bea", Ready: true}, {Slot: 2, ID: [16]byte{3}, Name: "Cy"}}},
		Names:   [game.MaxPlayers]string{"Ada", "Bea", "Cy"},
		Present: 0b111, Expected: 0b110,
		Chat: []wire.Chat{{From: 2, Text: "see you on the server"}},
	}
	for i, tok := range tokens {
		ask.Tokens[i] = room.TokenHash(tok)
	}
	join := wire.Join{PlayerID: [16]byte{3}, Name: "Cy", Token: tokens[2], Resuming: true}
	cy := sendFrames(t, ctx, hs.Addr(), ask, join)
	var st wire.SetupState
	if !testwait.Until(time.Minute, func() bool {
		cy.mu.Lock()
		defer cy.mu.Unlock()
		welcomed := false
		for _, m := range cy.msgs {
			switch m := m.(type) {
			case wire.Welcome:
				welcomed = welcomed || m.Slot == 2
			case wire.SetupState:
				st = m
			}
		}
		return welcomed && len(st.Players) == 3
	}) {
		t.Fatalf("waited a minute for Cy's seat in the moved lobby: %+v", cy.msgs)
	}
	if st.Setup.Options() != ask.State.Setup.Options() || st.RoomID < wire.UnlistedRooms {
		t.Errorf("the moved lobby: setup %+v in room %d, want %+v in an unlisted room", st.Setup.Options(), st.RoomID, ask.State.Setup.Options())
	}
	for _, p := range st.Players {
		want := wire.Player{Slot: p.Slot, ID: p.ID, Name: p.Name, Ready: p.Name == "Bea", Host: p.Name == "Cy", Connected: p.Name == "Cy"}
		if p.Ready != want.Ready || p.Host != want.Host || p.Connected != want.Connected {
			t.Errorf("%s in the moved lobby: ready %v host %v connected %v; want %v %v %v", p.Name, p.Ready, p.Host, p.Connected, want.Ready, want.Host, want.Connected)
		}
	}

	// Bea comes back on a new program (a plain Join with her token, no
	// chat of her own): the lobby's lines are sent to her.
	bea := sendFrames(t, ctx, hs.Addr(), ask, wire.Join{PlayerID: [16]byte{2}, Name: "Bea", Token: tokens[1]})
	if !testwait.Until(time.Minute, func() bool {
		bea.mu.Lock()
		defer bea.mu.Unlock()
		for _, m := range bea.msgs {
			if c, ok := m.(wire.Chat); ok && c == ask.Chat[0] {
				return true
			}
		}
		return false
	}) {
		t.Errorf("waited a minute for the moved lobby's chat at Bea's Rejoin: %+v", bea.msgs)
	}

	timed := ask
	timed.Key, timed.Next = [16]byte{43}, 600 // a turn without a timing
	bad := sendFrames(t, ctx, hs.Addr(), timed)
	if !testwait.Until(time.Minute, func() bool { _, refused := bad.created(); return len(refused) == 1 }) {
		t.Fatal("waited a minute for the refusal of a lobby's ask with a turn")
	}
}
