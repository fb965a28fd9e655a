package room_test

import (
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/room"
	"rockstep/net/wire"
)

// FuzzReceive feeds arbitrary frames from members and strangers to a room
// in setup and to a running one: nothing may panic, and the room keeps its
// bounds.
func FuzzReceive(f *testing.F) {
	for _, m := range []wire.Message{
		wire.Join{Name: "x"}, wire.Ready{Ready: true}, wire.StartGame{Game: 1}, wire.Chat{Text: "hi"},
		wire.ClientPacket{Turns: []wire.TurnInput{{Turn: 0, Count: 2, Inputs: [wire.MaxK]game.Input{game.Fire}}}, HasHash: true},
		wire.SnapshotChunk{Turn: 0, Total: 1, Data: []byte{1}}, wire.Pause{Paused: true}, wire.Leave{Reason: wire.LeaveQuit},
		wire.SetupChange{Setup: game.DefaultSetup()},
	} {
		b, err := wire.Append(nil, m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint8(1))
	}
	f.Fuzz(func(t *testing.T, frame []byte, conn uint8) {
		for _, running := range []bool{false, true} {
			b := newBench(t, nil)
			if running {
				b.startGame(2)
			} else {
				b.join(1, "a")
			}
			c := room.ConnID(conn%4 + 1)
			for i := 0; i < 3; i++ {
				b.r.Receive(b.now, c, frame)
				b.now += 20 * time.Millisecond
				b.r.Tick(b.now)
				b.r.Flush(func(room.ConnID, []byte) {})
			}
			if b.r.PlayerCount() > game.MaxPlayers || b.r.Connections() > 8 {
				t.Fatalf("room grew: %d players, %d connections", b.r.PlayerCount(), b.r.Connections())
			}
		}
	})
}
