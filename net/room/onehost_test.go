package room_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/room"
	"rockstep/net/wire"
)

// rosterHosts returns, for every roster (SetupState) p received, the slot
// it marks host (-1: none; -2: more than one), and clears p's inbox.
func rosterHosts(p *peer) []int {
	var out []int
	for _, m := range p.got {
		ss, ok := m.(wire.SetupState)
		if !ok {
			continue
		}
		host := -1
		for _, pl := range ss.Players {
			switch {
			case pl.Host && host == -1:
				host = int(pl.Slot)
			case pl.Host:
				host = -2
			}
		}
		out = append(out, host)
	}
	p.got = p.got[:0]
	return out
}

// checkRosters fails unless every roster each conn received names slot
// host alone, and each received at least one.
func checkRosters(t *testing.T, b *bench, conns []room.ConnID, host int) {
	t.Helper()
	for _, conn := range conns {
		hosts := rosterHosts(b.peer(conn))
		if len(hosts) == 0 {
			t.Errorf("conn %d: no roster received", conn)
		}
		for _, h := range hosts {
			if h != host {
				t.Errorf("conn %d: a roster names slot %d host (-2: several), want slot %d alone", conn, h, host)
				break
			}
		}
	}
}

// TestOneHostAfterAMove: a game moved to slot 1's machine (room.Resume
// with Handover.Host 1). The old host (slot 0) crashed and comes back
// with its token: it is not host, though it holds the lowest slot. Every
// roster names slot 1; a Pause or EndGame from anyone else is refused and
// counted (DropSpoof), the host's is taken.
func TestOneHostAfterAMove(t *testing.T) {
	tokens := [3][16]byte{{1}, {2}, {3}}
	setup := game.Setup{Seed: 5, Players: 0b111, Mode: game.Coop, Lives: 3, StartWave: 1}
	hd := room.Handover{Game: 1, Setup: setup, Present: 0b111, Expected: 0b110, Next: 100, K: 2, Delay: 1, Host: 1,
		Names:  [game.MaxPlayers]string{"Ada", "Bo", "Cy"},
		Roster: []wire.Player{{Slot: 0, ID: [16]byte{10}}, {Slot: 1, ID: [16]byte{11}}, {Slot: 2, ID: [16]byte{12}}}}
	for i, tok := range tokens {
		hd.Tokens[i] = room.TokenHash(tok)
	}
	for turn := uint32(90); turn < 100; turn++ {
		hd.History = append(hd.History, wire.MasterTurn{Turn: turn, Count: 2, Players: 0b111})
	}
	cfg := room.LAN()
	cfg.Random = rand.NewChaCha8([32]byte{1})
	cfg.FixedTiming = true
	b := &bench{t: t, r: room.Resume(cfg, hd), peers: map[room.ConnID]*peer{}}
	b.tick(time.Millisecond)
	// conn: the slot it plays.
	conns := map[room.ConnID]int{1: 1, 2: 2, 3: 0}
	b.send(1, wire.Join{Token: tokens[1], Resuming: true, Resume: 100}) // the successor's own player
	b.send(2, wire.Join{Token: tokens[2], Resuming: true, Resume: 100})
	b.send(3, wire.Join{Token: tokens[0]}) // the old host, restarted: from a snapshot
	for conn, slot := range conns {
		for _, m := range b.peer(conn).got {
			if w, ok := m.(wire.Welcome); ok && int(w.Slot) != slot {
				t.Fatalf("conn %d: Welcome %+v, want slot %d", conn, w, slot)
			}
		}
	}
	// The old host catches up and plays again: its slot is no longer
	// vacant, the lowest in the game, and still not the host's.
	for i := 0; i < 20 && b.r.Status().Vacant != 0; i++ {
		for conn := range conns {
			b.play(conn, b.r.Turn(), 0)
		}
		b.tick(10 * time.Millisecond)
	}
	if v := b.r.Status().Vacant; v != 0 {
		t.Fatalf("vacant slots %08b after the old host came back, want none", v)
	}
	tests := []struct {
		name   string
		conn   room.ConnID
		msg    wire.Message
		refuse bool
	}{
		{"the returned old host pauses", 3, wire.Pause{Paused: true}, true},
		{"another guest pauses", 2, wire.Pause{Paused: true}, true},
		{"the returned old host ends the game", 3, wire.EndGame{}, true},
		{"another guest ends the game", 2, wire.EndGame{}, true},
		{"the returned old host kicks", 3, wire.Kick{Slot: 2}, true},
		{"the host pauses", 1, wire.Pause{Paused: true}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spoof := b.r.Stats().Dropped[room.DropSpoof]
			b.send(tc.conn, tc.msg)
			got := b.r.Stats().Dropped[room.DropSpoof] - spoof
			if want := map[bool]uint64{true: 1, false: 0}[tc.refuse]; got != want {
				t.Errorf("spoof drops counted %d, want %d (refused: %v)", got, want, tc.refuse)
			}
		})
	}
	if reason, _ := b.r.Ended(); reason != 0 {
		t.Fatalf("the game ended (reason %d) at a guest's word", reason)
	}
	// Every roster sent since the old host came back names slot 1 alone.
	checkRosters(t, b, []room.ConnID{1, 2, 3}, 1)
	b.send(1, wire.EndGame{})
	for i := 0; i < 20; i++ {
		if reason, _ := b.r.Ended(); reason == wire.EndByHost {
			break
		}
		b.send(1, wire.Pause{Paused: false})
		for conn := range conns {
			b.play(conn, b.r.Turn(), 0)
		}
		b.tick(10 * time.Millisecond)
	}
	if reason, _ := b.r.Ended(); reason != wire.EndByHost {
		t.Errorf("Ended() = %d after the host's EndGame, want EndByHost", reason)
	}
}

// TestTheRoomsMachineHosts: in a room a player's machine runs (the Host
// button: Config.Hosts names its in-process connection), the host is that
// player even when another took a lower slot first; a SetupChange, Kick or
// StartGame from anyone else is refused and counted, and every roster
// names the one host.
func TestTheRoomsMachineHosts(t *testing.T) {
	const inProcess = room.ConnID(2)
	b := newBench(t, func(c *room.Config) { c.Hosts = func(conn room.ConnID) bool { return conn == inProcess } })
	b.join(1, "early")   // slot 0
	b.join(2, "machine") // slot 1: runs the room
	b.join(3, "guest")   // slot 2
	other := game.DefaultSetup()
	other.Lives++
	tests := []struct {
		name   string
		conn   room.ConnID
		msg    wire.Message
		refuse bool
	}{
		{"the lowest slot changes the setup", 1, wire.SetupChange{Setup: other}, true},
		{"the lowest slot kicks", 1, wire.Kick{Slot: 2}, true},
		{"the lowest slot starts", 1, wire.StartGame{Game: b.r.Game()}, true},
		{"a guest kicks the machine's player", 3, wire.Kick{Slot: 1}, true},
		{"the machine's player changes the setup", 2, wire.SetupChange{Setup: other}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spoof := b.r.Stats().Dropped[room.DropSpoof]
			b.send(tc.conn, tc.msg)
			b.tick(250 * time.Millisecond) // past the setup pace (SetupPerS): a held change is taken
			got := b.r.Stats().Dropped[room.DropSpoof] - spoof
			if want := map[bool]uint64{true: 1, false: 0}[tc.refuse]; got != want {
				t.Errorf("spoof drops counted %d, want %d", got, want)
			}
		})
	}
	if n := b.r.PlayerCount(); n != 3 {
		t.Errorf("%d players after kicks the host did not make, want 3", n)
	}
	if st, _ := b.r.State(); st != wire.StateSetup {
		t.Errorf("state %d after a guest's start, want setup", st)
	}
	if got := b.r.Setup().Lives; got != other.Lives {
		t.Errorf("lives %d after the host's SetupChange, want %d", got, other.Lives)
	}
	checkRosters(t, b, []room.ConnID{1, 2, 3}, 1)
}
