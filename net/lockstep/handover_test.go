package lockstep_test

import (
	"net/netip"
	"testing"
	"time"

	"rockstep/net/lockstep"
	"rockstep/net/wire"
)

// TestHandoverOutlivesTheOldRoomsStatus: a room that hands its game over
// says so (LeaveHandover) and then reports itself finished. A session that
// reads both before its client acts on the first (a busy machine delivers
// them in one batch) must still be playing, asked to go to a successor:
// the old room's end is not the game's.
func TestHandoverOutlivesTheOldRoomsStatus(t *testing.T) {
	s := lockstep.New(lockstep.LAN())
	s.Update(0, nil)
	succ := wire.Successors{List: []wire.Successor{{Slot: 1, Addr: netip.MustParseAddrPort("127.0.0.1:4000"), Confirmed: true}}}
	for _, m := range []wire.Message{
		wire.Welcome{Slot: 1, State: wire.StateSetup},
		wire.Start{Setup: fuzzSetup, K: 2, Delay: 1},
		succ,
	} {
		s.Receive(0, frame(t, m))
	}
	if s.Phase() != lockstep.Playing || len(s.Successors().List) != 1 {
		t.Fatalf("phase %s with %d successors, want playing with 1", s.Phase(), len(s.Successors().List))
	}
	s.Receive(time.Millisecond, frame(t, wire.Leave{Reason: wire.LeaveHandover, Text: "the host left"}))
	s.Receive(time.Millisecond, frame(t, wire.RoomStatus{State: wire.StateFinished, Turn: 3}))
	if !s.HandoverAsked() || s.Phase() != lockstep.Playing {
		t.Fatalf("after the handover and the old room's end: phase %s, asked %v; want playing, asked", s.Phase(), s.HandoverAsked())
	}
	if !s.Migrate() {
		t.Fatal("Migrate refused a game that goes on")
	}

	// Without the handover, the room's end is the game's.
	s = lockstep.New(lockstep.LAN())
	s.Update(0, nil)
	for _, m := range []wire.Message{wire.Welcome{Slot: 1, State: wire.StateSetup}, wire.Start{Setup: fuzzSetup, K: 2, Delay: 1}, succ, wire.RoomStatus{State: wire.StateFinished, Turn: 3}} {
		s.Receive(0, frame(t, m))
	}
	if s.Phase() != lockstep.Finished {
		t.Fatalf("a room's end without a handover: phase %s, want finished", s.Phase())
	}
}

// TestYieldedGameRejoinsFresh: a room that gives its game to an earlier
// successor (LeaveYield) compiled turns that successor's room never did;
// its players go there as plain rejoins (no Resuming), to catch up from a
// snapshot, while a plain handover resumes in place. A successor that
// turns the session away (it does not host) sends it on to the next room
// with the same kind of Join; other refusals do not.
func TestYieldedGameRejoinsFresh(t *testing.T) {
	for _, reason := range []wire.LeaveReason{wire.LeaveHandover, wire.LeaveYield} {
		s := lockstep.New(lockstep.LAN())
		s.Update(0, nil)
		succ := wire.Successors{List: []wire.Successor{{Slot: 0, Addr: netip.MustParseAddrPort("127.0.0.1:4000")}}}
		for _, m := range []wire.Message{wire.Welcome{Slot: 1, State: wire.StateSetup}, wire.Start{Setup: fuzzSetup, K: 2, Delay: 1}, succ, wire.Leave{Reason: reason}} {
			s.Receive(0, frame(t, m))
		}
		if !s.HandoverAsked() {
			t.Fatalf("reason %d: not asked to go to the successor", reason)
		}
		flush(t, s)
		for try := range 2 {
			if !s.Migrate() {
				t.Fatalf("reason %d, try %d: Migrate refused", reason, try)
			}
			if s.TurnedAway() {
				t.Fatalf("reason %d, try %d: turned away before any refusal", reason, try)
			}
			join := sentJoin(s)
			if join == nil {
				t.Fatalf("reason %d, try %d: no Join sent", reason, try)
			}
			if want := reason == wire.LeaveHandover; join.Resuming != want {
				t.Errorf("reason %d, try %d: Join.Resuming %v, want %v", reason, try, join.Resuming, want)
			}
			s.Receive(time.Millisecond, frame(t, wire.Refuse{Reason: wire.RefuseRateLimit}))
			if s.TurnedAway() {
				t.Fatalf("reason %d, try %d: a rate limit turned the session away", reason, try)
			}
			// A successor that still has the host, then one on its way
			// to another successor's room.
			why := []wire.RefuseReason{wire.RefuseNotHosting, wire.RefuseMoving}[try]
			s.Receive(time.Millisecond, frame(t, wire.Refuse{Reason: why}))
			if !s.TurnedAway() || s.Phase() != lockstep.Playing {
				t.Fatalf("reason %d, try %d: after refusal %d: turned away %v, phase %s; want turned away, playing", reason, try, why, s.TurnedAway(), s.Phase())
			}
		}
	}
}

// sentJoin returns the Join among what s sends now, or nil.
func sentJoin(s *lockstep.Session) *wire.Join {
	var join *wire.Join
	s.Flush(func(f []byte) {
		if m, err := wire.Decode(f); err == nil {
			if j, ok := m.(wire.Join); ok {
				join = &j
			}
		}
	})
	return join
}

// TestCatchingUpSessionFollowsTheMove: a player back in a running game
// with its token, still waiting for the room's snapshot, has no world to
// resume from; when the host goes away it must not give its place up: it
// joins the successor's room as a plain rejoin with its token (no
// Resuming) and catches up from that room's snapshot.
func TestCatchingUpSessionFollowsTheMove(t *testing.T) {
	tok := [16]byte{7, 7}
	s := lockstep.New(lockstep.LAN())
	s.Update(0, nil)
	if s.CatchingUp() || s.Migrate() {
		t.Fatal("a session that never joined is catching up, or moves")
	}
	for _, m := range []wire.Message{
		wire.Welcome{Slot: 1, State: wire.StateRunning, Token: tok},
		wire.Successors{List: []wire.Successor{{Slot: 0, Addr: netip.MustParseAddrPort("127.0.0.1:4000")}}},
	} {
		s.Receive(0, frame(t, m))
	}
	flush(t, s)
	if s.Phase() != lockstep.Starting || !s.CatchingUp() {
		t.Fatalf("back in a running game: phase %s, catching up %v; want starting, catching up", s.Phase(), s.CatchingUp())
	}
	// Its room gives the game to a successor (a yield) while it catches up:
	// it goes along, not away.
	s.Receive(0, frame(t, wire.Leave{Reason: wire.LeaveYield}))
	if !s.HandoverAsked() || s.Phase() != lockstep.Starting {
		t.Fatalf("a yield while catching up: asked %v, phase %s; want asked, starting", s.HandoverAsked(), s.Phase())
	}
	if !s.Migrate() {
		t.Fatal("Migrate refused a player catching up: it would lose its place in the game")
	}
	join := sentJoin(s)
	if join == nil || join.Resuming || join.Token != tok || join.RoomID != 0 {
		t.Fatalf("Join sent to the successor: %+v; want a plain rejoin with the token to its default room", join)
	}
	s.Receive(time.Millisecond, frame(t, wire.Welcome{Slot: 1, State: wire.StateRunning, Token: tok}))
	if s.Migrating() || s.Phase() != lockstep.Starting {
		t.Fatalf("the successor took it in: migrating %v, phase %s; want not migrating, starting (its snapshot comes next)", s.Migrating(), s.Phase())
	}
}

// TestLobbyHandedOver: a host that leaves its lobby by choice says so
// (LeaveHandover after the lobby's successor list): a player that keeps a
// standby port stays in the lobby, asked to follow the list; one without
// (nothing would walk the list for it) reads that the host left.
func TestLobbyHandedOver(t *testing.T) {
	for _, standby := range []bool{true, false} {
		s := lockstep.New(lockstep.LAN())
		s.Update(0, nil)
		for _, m := range []wire.Message{
			wire.Welcome{Slot: 1, State: wire.StateSetup},
			wire.SetupState{Game: 1, Name: "Ada’s game", MaxSlots: 8, Players: []wire.Player{{Slot: 0, Name: "Ada", Host: true, Connected: true}, {Slot: 1, Name: "Bo", Connected: true}}},
			wire.Successors{Game: 1, List: []wire.Successor{{Slot: 1, Addr: netip.MustParseAddrPort("127.0.0.1:4000")}}},
		} {
			s.Receive(0, frame(t, m))
		}
		if standby {
			s.SetStandby(wire.Standby{Port: 4000})
		}
		s.Receive(time.Millisecond, frame(t, wire.Leave{Reason: wire.LeaveHandover, Text: "the host left"}))
		switch {
		case standby && (s.Phase() != lockstep.Lobby || !s.HandoverAsked()):
			t.Errorf("with a standby port: phase %s, asked %v; want the lobby, asked to follow", s.Phase(), s.HandoverAsked())
		case !standby && s.Phase() != lockstep.Left:
			t.Errorf("without a standby port: phase %s, want left", s.Phase())
		}
	}
}
