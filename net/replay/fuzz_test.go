package replay_test

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"maps"
	"reflect"
	"slices"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/replay"
	"rockstep/net/room"
	"rockstep/net/wire"
)

// FuzzRead reads arbitrary bytes as a replay. Nothing may panic, and
// whatever Read returns (a whole replay or the good part of a damaged one)
// must survive a round trip: written again by a Writer, as a room records
// a game, it reads back without error as an equal Replay. It must also
// verify and report without a panic.
func FuzzRead(f *testing.F) {
	f.Add(everyRecord(f))
	f.Add([]byte("RSRP\x01"))
	f.Add([]byte("RSRP\x01\x02\x05hello\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		roundTrip(t, data)
		roundTrip(t, withChecksums(data))
	})
}

// roundTrip reads data and checks the replay survives a round trip.
func roundTrip(t *testing.T, data []byte) {
	t.Helper()
	rp, _ := replay.Read(bytes.NewReader(data))
	if rp == nil {
		return
	}
	again, err := replay.Read(bytes.NewReader(rewrite(t, rp)))
	if err != nil {
		t.Fatalf("the replay written again does not read: %v", err)
	}
	if rp.Setup.Validate() == nil {
		// The two fields a Writer stamps itself, not from its caller:
		// the wall clock at Started and this build's protocol version.
		again.Started, again.Protocol = rp.Started, rp.Protocol
	}
	if d := differences(rp, again); len(d) > 0 {
		t.Fatalf("the replay written again reads differently:\n%s", d)
	}
	if rp.Setup.Validate() == nil {
		_, _ = replay.Verify(rp)
	}
	_ = replay.Report(rp)
}

// withChecksums returns data with the checksum of every record it frames
// made right: a mutated record then reaches the decoder of its kind, which
// the fuzzer could not reach through a checksum it cannot forge.
func withChecksums(data []byte) []byte {
	out := bytes.Clone(data)
	for i := len(replay.Magic) + 1; i < len(out); {
		n, k := binary.Uvarint(out[i+1:])
		if k <= 0 || n > replay.MaxRecord {
			break
		}
		end := i + 1 + k + int(n) + 4
		if end > len(out) {
			break
		}
		crc := crc32.NewIEEE()
		crc.Write(out[i : i+1])
		crc.Write(out[i+1+k : end-4])
		binary.LittleEndian.PutUint32(out[end-4:], crc.Sum32())
		i = end
	}
	return out
}

// rewrite writes rp with a Writer, calling it as a room does.
func rewrite(t testing.TB, rp *replay.Replay) []byte {
	var buf bytes.Buffer
	w := replay.NewWriter(&buf, 0)
	if rp.Setup.Validate() == nil {
		w.Started(rp.Setup, rp.RoomName, rp.Names, rp.K, rp.Delay)
	}
	for i := range rp.Turns {
		w.Turn(&rp.Turns[i].MasterTurn, room.TurnLog{Live: rp.Turns[i].Log.Live, Wait: rp.Turns[i].Log.Wait})
	}
	for _, turn := range slices.Sorted(maps.Keys(rp.Hashes)) {
		for _, e := range rp.Hashes[turn] {
			w.Hash(turn, int(e.Slot), e.HashLow)
		}
	}
	if rp.Desync != nil {
		w.Desync(&room.DesyncInfo{Turn: rp.Desync.Turn, Entries: rp.Desync.Entries})
	}
	for _, s := range rp.Snapshots {
		w.Snapshot(int(s.Slot), s.Turn, s.Data)
	}
	for _, n := range rp.Notes {
		w.Note(n)
	}
	if rp.EndReason != 0 || rp.EndTurn != 0 {
		w.Finished(rp.EndTurn, rp.EndReason)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// differences lists the fields in which two replays differ. The order of a
// turn's hashes is not compared: the Writer groups the slots that agree.
func differences(a, b *replay.Replay) string {
	var d bytes.Buffer
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	for i := 0; i < va.NumField(); i++ {
		name := va.Type().Field(i).Name
		x, y := va.Field(i).Interface(), vb.Field(i).Interface()
		if name == "Hashes" {
			x, y = sortedHashes(a.Hashes), sortedHashes(b.Hashes)
		}
		if !reflect.DeepEqual(x, y) {
			fmt.Fprintf(&d, "%s:\n  read    %+v\n  written %+v\n", name, x, y)
		}
	}
	return d.String()
}

func sortedHashes(m map[uint32][]wire.HashEntry) map[uint32][]wire.HashEntry {
	out := make(map[uint32][]wire.HashEntry, len(m))
	for turn, es := range m {
		out[turn] = slices.SortedFunc(slices.Values(es), func(a, b wire.HashEntry) int {
			return cmp.Or(cmp.Compare(a.Slot, b.Slot), cmp.Compare(a.HashLow, b.HashLow))
		})
	}
	return out
}

// everyRecord returns a replay with a record of every kind.
func everyRecord(tb testing.TB) []byte {
	var buf bytes.Buffer
	w := replay.NewWriter(&buf, 0)
	setup := game.Setup{Seed: 3, Players: 0b111, Mode: game.Versus, Lives: 3, StartWave: 1, FriendlyFire: true}
	w.Started(setup, "room", [game.MaxPlayers]string{"Ada", "Bo", "Cy"}, 2, 1)
	for turn := uint32(0); turn < 20; turn++ {
		mt := wire.MasterTurn{Turn: turn, Count: 2, Players: 0b111}
		mt.Inputs[0][0], mt.Inputs[2][1] = game.Fire, game.Up|game.Left
		if turn == 3 {
			mt.Events = []wire.RoomEvent{{Kind: wire.EventTiming, At: 5, K: 3, Delay: 2}, {Kind: wire.EventVacant, Slot: 1}}
		}
		w.Turn(&mt, room.TurnLog{Live: 0b101, Wait: time.Duration(turn) * time.Millisecond})
		w.Hash(turn, 0, 1000+turn)
		w.Hash(turn, 2, 1000+turn)
		if turn == 19 {
			w.Hash(turn, 1, 7) // a disagreement
		}
	}
	w.Desync(&room.DesyncInfo{Turn: 19, Entries: []wire.HashEntry{{Slot: 0, HashLow: 1019}, {Slot: 1, HashLow: 7}}})
	world, err := game.New(setup)
	if err != nil {
		tb.Fatal(err)
	}
	snap, err := world.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	w.Snapshot(1, 19, snap)
	w.Note("a note")
	w.Finished(19, replay.EndDesync)
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}
