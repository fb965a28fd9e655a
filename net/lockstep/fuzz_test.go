package lockstep_test

import (
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/lockstep"
	"rockstep/net/wire"
)

// FuzzReceive feeds arbitrary frames to a session in every phase it can
// reach by itself: nothing may panic.
func FuzzReceive(f *testing.F) {
	setup := game.Setup{Seed: 1, Players: 3, Mode: game.Coop, Lives: 3, StartWave: 1}
	for _, m := range []wire.Message{
		wire.Welcome{Slot: 0, State: wire.StateSetup},
		wire.Start{Setup: setup, K: 2, Delay: 1},
		wire.MasterPacket{Turns: []wire.MasterTurn{{Turn: 0, Count: 2, Players: 3}}},
		wire.SnapshotChunk{Turn: 9, Total: 1, Data: []byte("RSW\x01")},
		wire.Start{Setup: setup, FirstTurn: 10, K: 2, Delay: 1},
		wire.SnapshotRequest{Turn: 0},
		wire.RoomStatus{State: wire.StateFinished},
	} {
		b, err := wire.Append(nil, m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	welcome, _ := wire.Append(nil, wire.Welcome{Slot: 1, State: wire.StateSetup})
	start, _ := wire.Append(nil, wire.Start{Setup: setup, K: 2, Delay: 1})
	f.Fuzz(func(t *testing.T, frame []byte) {
		for prefix := 0; prefix < 3; prefix++ {
			s := lockstep.New(lockstep.LAN())
			now := time.Duration(0)
			s.Update(now, nil)
			if prefix >= 1 {
				s.Receive(now, welcome)
			}
			if prefix >= 2 {
				s.Receive(now, start)
			}
			for i := 0; i < 3; i++ {
				s.Receive(now, frame)
				now += 17 * time.Millisecond
				s.Update(now, func(uint32) game.Input { return game.Fire })
				s.Flush(func([]byte) {})
			}
		}
	})
}
