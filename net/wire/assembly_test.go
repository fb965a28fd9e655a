package wire

import (
	"bytes"
	"testing"
)

func TestAssemblyInAnyOrder(t *testing.T) {
	data := make([]byte, 2*MaxChunk+100)
	for i := range data {
		data[i] = byte(i * 7)
	}
	chunk := func(i int) SnapshotChunk {
		end := min((i+1)*MaxChunk, len(data))
		return SnapshotChunk{Turn: 9, Hash: 42, Total: 3, Index: uint8(i), Data: data[i*MaxChunk : end]}
	}
	var a Assembly
	// A stale chunk of another snapshot, then the real ones out of order,
	// with a repeat.
	a.Add(SnapshotChunk{Turn: 3, Hash: 1, Total: 2, Index: 0, Data: make([]byte, MaxChunk)})
	for _, i := range []int{2, 0, 2} {
		if got, _, _ := a.Add(chunk(i)); got != nil {
			t.Fatalf("complete after chunk %d of 3", i)
		}
	}
	got, turn, hash := a.Add(chunk(1))
	if !bytes.Equal(got, data) || turn != 9 || hash != 42 {
		t.Fatalf("assembled %d bytes turn %d hash %d, want %d bytes turn 9 hash 42", len(got), turn, hash, len(data))
	}
	// A short chunk that is not the last is refused.
	if got, _, _ := a.Add(SnapshotChunk{Turn: 1, Hash: 2, Total: 2, Index: 0, Data: []byte{1}}); got != nil {
		t.Error("a short middle chunk completed a snapshot")
	}
	if got, _, _ := a.Add(SnapshotChunk{Turn: 1, Total: 1, Index: 1}); got != nil {
		t.Error("an index beyond the total was taken")
	}
}

func TestUnreliable(t *testing.T) {
	for typ, want := range map[Type]bool{TypeMasterPacket: true, TypeClientPacket: true, TypePing: true, TypePong: true, TypeJoin: false, TypeSetupState: false, TypeSnapshotChunk: false} {
		if got := Unreliable([]byte{Version, byte(typ)}); got != want {
			t.Errorf("%v: %v, want %v", typ, got, want)
		}
	}
	if Unreliable(nil) {
		t.Error("an empty frame is unreliable")
	}
}
