package lockstep

import (
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// TestDigestAnswers: a player asked for its digest of a turn ahead answers
// as it completes that turn, with its world's checksum and digest there;
// one asked for a turn it completed answers from the worlds it keeps, and
// not at all for one it no longer keeps; under a hash fault both lie.
func TestDigestAnswers(t *testing.T) {
	for _, liar := range []bool{false, true} {
		cfg := Config{KeepWorlds: 4}
		if liar {
			cfg.Fault.HashFrom = 1
		}
		want := map[uint32]wire.Digest{}
		cfg.OnTurnEnd = func(turn uint32, _ uint64, w *game.World) {
			h, sum, err := WorldDigest(w)
			if err != nil {
				t.Fatal(err)
			}
			want[turn] = wire.Digest{Turn: turn, Hash: h, Sum: sum}
		}
		s := New(cfg)
		var got []wire.Digest
		flush := func() {
			s.Flush(func(f []byte) {
				if m, err := wire.Decode(f); err == nil {
					if d, ok := m.(wire.Digest); ok {
						got = append(got, d)
					}
				}
			})
		}
		now := time.Duration(0)
		recv := func(m wire.Message) {
			f, err := wire.Append(nil, m)
			if err != nil {
				t.Fatal(err)
			}
			s.Receive(now, f)
		}
		recv(wire.Welcome{Slot: 0, State: wire.StateSetup})
		recv(wire.Start{Setup: game.Setup{Seed: 7, Players: 1, Mode: game.Coop, Lives: 3, StartWave: 2}, K: 2, Delay: 1})
		if s.Phase() != Playing {
			t.Fatalf("phase %v", s.Phase())
		}
		recv(wire.DigestRequest{Turn: 5}) // ahead
		play := func(from, to uint32) {
			for turn := from; turn <= to; turn++ {
				recv(wire.MasterPacket{Turns: []wire.MasterTurn{{Turn: turn, Count: 2, Players: 1}}})
			}
			for i := 0; i < 40; i++ {
				now += tickDur
				s.advance(now)
				for s.execTick(nil) {
				}
			}
			flush()
		}
		play(0, 9)
		recv(wire.DigestRequest{Turn: 8}) // completed, kept
		recv(wire.DigestRequest{Turn: 2}) // completed, no longer kept
		flush()
		if len(got) != 2 || got[0].Turn != 5 || got[1].Turn != 8 {
			t.Fatalf("liar %v: digests %+v, want of turns 5 (when completed) and 8 (kept)", liar, got)
		}
		for _, d := range got {
			w := want[d.Turn]
			if honest := d == w; honest == liar {
				t.Errorf("liar %v: turn %d: sent %x %x, the world's %x %x", liar, d.Turn, d.Hash, d.Sum, w.Hash, w.Sum)
			}
			if liar && (d.Hash == w.Hash || d.Sum == w.Sum) {
				t.Errorf("a liar sent the true checksum or digest of turn %d", d.Turn)
			}
		}
	}
}

// TestSelfCheckBlamesTheEngineOnlyWhenItDisagrees: after a rewind and a
// split again, a player is told its engine is not deterministic only if
// executing its kept turns again gives another world than it kept.
func TestSelfCheckBlamesTheEngineOnlyWhenItDisagrees(t *testing.T) {
	s := New(Config{KeepWorlds: 6})
	now := time.Duration(0)
	recv := func(m wire.Message) {
		f, err := wire.Append(nil, m)
		if err != nil {
			t.Fatal(err)
		}
		s.Receive(now, f)
	}
	recv(wire.Welcome{Slot: 0, State: wire.StateSetup})
	recv(wire.Start{Setup: game.Setup{Seed: 9, Players: 3, Mode: game.Coop, Lives: 3, StartWave: 2}, K: 2, Delay: 1})
	for turn := uint32(0); turn < 12; turn++ {
		recv(wire.MasterPacket{Turns: []wire.MasterTurn{{Turn: turn, Count: 2, Players: 3,
			Inputs: [game.MaxPlayers][wire.MaxK]game.Input{{game.Up | game.Fire, game.Left}, {game.Right, game.Fire}}}}})
	}
	for i := 0; i < 60; i++ {
		now += tickDur
		s.advance(now)
		for s.execTick(nil) {
		}
	}
	if ok, checked := s.SelfCheck(); !ok || checked < 4 {
		t.Fatalf("self check ok %v over %d turns, want ok over the kept turns", ok, checked)
	}
	s.repair.rewound = true
	recv(wire.DesyncReport{Turn: 11, Entries: []wire.HashEntry{{Slot: 0, HashLow: 1}, {Slot: 1, HashLow: 2}}})
	if got := s.StoppedText(); got != UnprovenText {
		t.Errorf("words %q, want %q", got, UnprovenText)
	}
	// A kept world that its own turns do not give again.
	n := uint32(len(s.game.recent))
	s.game.recent[(s.game.turn-1)%n].w.Ships[0].Score ^= 1
	if ok, _ := s.SelfCheck(); ok {
		t.Fatal("self check passed a world its turns do not give")
	}
	s.room.desync = nil
	recv(wire.DesyncReport{Turn: 11, Entries: []wire.HashEntry{{Slot: 0, HashLow: 1}, {Slot: 1, HashLow: 2}}})
	if got := s.StoppedText(); got != NotDeterministicText {
		t.Errorf("words %q, want %q", got, NotDeterministicText)
	}
}
