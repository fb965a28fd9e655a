package wire

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"rockstep/game"
)

// typicalClientPacket is what a player sends every turn on a LAN: one turn
// of K=2, the master ack and a hash of a turn a little in the past.
func typicalClientPacket() ClientPacket {
	return ClientPacket{
		Turns:     []TurnInput{{Turn: 100_000, Count: 2, Inputs: [MaxK]game.Input{game.Up | game.Left, game.Fire}}},
		MasterAck: 99_998, // D = 2 turns behind the input turn
		HasHash:   true, HashTurn: 99_990, HashLow: 0x89abcdef,
	}
}

// typicalMasterPacket is one turn of K=2 for a full room.
func typicalMasterPacket() MasterPacket {
	t := MasterTurn{Turn: 100_000, Count: 2, Players: 0xFF}
	for s := range t.Inputs {
		t.Inputs[s][0], t.Inputs[s][1] = game.Up, game.Input(s)&game.ClientInputMask
	}
	return MasterPacket{ClientAck: 100_002, Turns: []MasterTurn{t}}
}

// TestClientPacketBudget: docs/ARCHITECTURE.md §6 budgets a client packet
// payload at K=2 to 16 bytes.
func TestClientPacketBudget(t *testing.T) {
	const budget = 16 // bytes of payload
	cases := []struct {
		name string
		p    ClientPacket
	}{
		{"turn 100000, ack, hash", typicalClientPacket()},
		{"turn 100000, ack, hash, stats", func() ClientPacket {
			p := typicalClientPacket()
			p.HasStats, p.RTT, p.FPS = true, 120, 60
			return p
		}()},
		{"turn 2000000 (18 h at 30 turns/s), ack, hash", func() ClientPacket {
			p := typicalClientPacket()
			p.Turns[0].Turn, p.MasterAck, p.HashTurn = 2_000_000, 1_999_998, 1_999_990
			return p
		}()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			frame, err := c.p.AppendFrame(nil)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(frame) - headerSize; n > budget {
				t.Fatalf("payload %d bytes, budget %d", n, budget)
			} else {
				t.Logf("payload %d bytes (frame %d)", n, len(frame))
			}
		})
	}
	typical := typicalClientPacket()
	frame, _ := typical.AppendFrame(nil)
	if n := len(frame) - headerSize; n != 13 {
		t.Errorf("typical payload %d bytes, documented as 13 in packet.go", n)
	}
}

// TestClientPacketNumbers round-trips the delta-coded fields at their
// extremes, on both sides of the newest turn.
func TestClientPacketNumbers(t *testing.T) {
	values := []uint32{0, 1, 63, 64, 99_998, 100_000, 100_001, 1 << 31, math.MaxUint32 - 1, math.MaxUint32}
	for _, first := range []uint32{0, 100_000, math.MaxUint32 - 2} {
		for _, n := range []int{0, 1, 3} {
			for _, v := range values {
				p := ClientPacket{MasterAck: v, HasHash: true, HashTurn: math.MaxUint32 - v, HashLow: v}
				for i := range n {
					p.Turns = append(p.Turns, TurnInput{Turn: first + uint32(i), Count: 2, Inputs: [MaxK]game.Input{game.Input(i), game.Fire}})
				}
				frame, err := p.AppendFrame(nil)
				if err != nil {
					t.Fatalf("first %d, %d turns, value %d: %v", first, n, v, err)
				}
				var got ClientPacket
				if err := got.DecodePayload(frame[headerSize:]); err != nil {
					t.Fatalf("first %d, %d turns, value %d: %v", first, n, v, err)
				}
				if !reflect.DeepEqual(got, canonical(p)) {
					t.Fatalf("first %d, %d turns, value %d:\n got %+v\nwant %+v", first, n, v, got, p)
				}
			}
		}
	}
}

// TestClientPacketInputs round-trips every client input in every tick
// position of a full batch.
func TestClientPacketInputs(t *testing.T) {
	for k := uint8(1); k <= MaxK; k++ {
		for _, n := range []int{1, 2, 7, MaxBatch} {
			p := ClientPacket{MasterAck: 10}
			for i := range n {
				ti := TurnInput{Turn: 20 + uint32(i), Count: k}
				for j := range ti.Inputs[:k] {
					ti.Inputs[j] = game.Input(i*7+j*3) & game.ClientInputMask
				}
				p.Turns = append(p.Turns, ti)
			}
			frame, err := p.AppendFrame(nil)
			if err != nil {
				t.Fatalf("k %d, %d turns: %v", k, n, err)
			}
			if want := headerSize + 1 + 1 + 1 + (n*int(k)*inputBits+7)/8 + 1; len(frame) != want {
				t.Errorf("k %d, %d turns: frame %d bytes, want %d", k, n, len(frame), want)
			}
			var got ClientPacket
			if err := got.DecodePayload(frame[headerSize:]); err != nil {
				t.Fatalf("k %d, %d turns: %v", k, n, err)
			}
			if !reflect.DeepEqual(got, p) {
				t.Fatalf("k %d, %d turns:\n got %+v\nwant %+v", k, n, got, p)
			}
		}
	}
}

// TestDecodePayloadReuse decodes packets of shrinking size into the same
// value: nothing of an earlier packet may show through.
func TestDecodePayloadReuse(t *testing.T) {
	var clients, masters []Message
	for _, s := range samples() {
		switch s.m.(type) {
		case ClientPacket:
			clients = append(clients, s.m)
		case MasterPacket:
			masters = append(masters, s.m)
		}
	}
	t.Run("client packet", func(t *testing.T) { testDecodeReuse(t, clients, equalClient) })
	t.Run("master packet", func(t *testing.T) { testDecodeReuse(t, masters, equalMaster) })
}

// packet is a pointer to a client or a master packet: the messages with a
// typed encoder and a decoder that reuses the packet's memory.
type packet[T any] interface {
	*T
	AppendFrame(b []byte) ([]byte, error)
	DecodePayload(payload []byte) error
}

// testDecodeReuse decodes msgs, packets of type T, from the largest to the
// smallest into one value, twice; equal compares it with what was encoded.
func testDecodeReuse[T any, P packet[T]](t *testing.T, msgs []Message, equal func(a, b T) bool) {
	var p T
	for range 2 {
		for _, m := range slices.Backward(msgs) {
			frame := mustAppend(t, m)
			if err := P(&p).DecodePayload(frame[headerSize:]); err != nil {
				t.Fatal(err)
			}
			if want := canonical(m).(T); !equal(p, want) {
				t.Fatalf("reused decode:\n got %+v\nwant %+v", p, want)
			}
		}
	}
}

// encodeDecode encodes p into buf and decodes its payload into into.
func encodeDecode[T any, P packet[T]](tb testing.TB, p, into P, buf []byte) {
	frame, err := p.AppendFrame(buf[:0])
	if err != nil {
		tb.Fatal(err)
	}
	if err := into.DecodePayload(frame[headerSize:]); err != nil {
		tb.Fatal(err)
	}
}

// equalClient compares like reflect.DeepEqual, but a reused packet's empty
// slice equals nil.
func equalClient(a, b ClientPacket) bool {
	if len(a.Turns) == 0 && len(b.Turns) == 0 {
		a.Turns, b.Turns = nil, nil
	}
	return reflect.DeepEqual(a, b)
}

func equalMaster(a, b MasterPacket) bool {
	if a.ClientAck != b.ClientAck || len(a.Turns) != len(b.Turns) {
		return false
	}
	for i := range a.Turns {
		x, y := a.Turns[i], b.Turns[i]
		if !slices.Equal(x.Events, y.Events) {
			return false
		}
		x.Events, y.Events = nil, nil
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// TestHotPathAllocs: the room encodes and decodes client and master
// packets without allocating (docs/ARCHITECTURE.md §6).
func TestHotPathAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts are not meaningful in -short")
	}
	client := typicalClientPacket()
	master := typicalMasterPacket()
	master.Turns[0].Events = []RoomEvent{{Kind: EventTiming, At: 100_010, K: 2, Delay: 1}}
	buf := make([]byte, 0, MaxFrame)
	var c ClientPacket
	var m MasterPacket
	// Grow the reused packets once.
	frame, _ := master.AppendFrame(buf[:0])
	if err := m.DecodePayload(frame[headerSize:]); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		f    func()
	}{
		{"client packet", func() { encodeDecode(t, &client, &c, buf) }},
		{"master packet", func() { encodeDecode(t, &master, &m, buf) }},
		{"client packet via Peek", func() {
			frame, _ := client.AppendFrame(buf[:0])
			ty, pl, err := Peek(frame)
			if err != nil || ty != TypeClientPacket {
				t.Fatal(ty, err)
			}
			if err := c.DecodePayload(pl); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range cases {
		if n := testing.AllocsPerRun(100, tc.f); n != 0 {
			t.Errorf("%s: %v allocations per encode+decode, want 0", tc.name, n)
		}
	}
}

func BenchmarkClientPacket(b *testing.B) { benchPacket(b, typicalClientPacket()) }

func BenchmarkMasterPacket(b *testing.B) { benchPacket(b, typicalMasterPacket()) }

// benchPacket encodes p and decodes it into a reused packet.
func benchPacket[T any, P packet[T]](b *testing.B, p T) {
	var got T
	buf := make([]byte, 0, MaxFrame)
	frame, _ := P(&p).AppendFrame(buf)
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		encodeDecode(b, P(&p), P(&got), buf)
	}
}

// BenchmarkDecodeSetupState is a cold-path message, for comparison.
func BenchmarkDecodeSetupState(b *testing.B) {
	var frame []byte
	for _, s := range samples() {
		if s.name == "setup-state-full" {
			frame = mustAppend(b, s.m)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(frame); err != nil {
			b.Fatal(err)
		}
	}
}
