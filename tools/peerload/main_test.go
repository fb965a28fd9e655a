package main

import (
	"encoding/binary"
	"slices"
	"testing"
)

// frameMsg encodes an S2C_FrameMsg with these frame ids, each FrameData
// also carrying an input (field 2), as the peer's protobuf code would.
func frameMsg(ids ...uint32) []byte {
	var b []byte
	for _, id := range ids {
		input := appendVarintField(appendVarintField(nil, 1, 42), 2, 7) // InputData{id, sid}
		fd := appendVarintField(nil, 1, uint64(id))
		fd = binary.AppendUvarint(fd, 2<<3|2)
		fd = binary.AppendUvarint(fd, uint64(len(input)))
		fd = append(fd, input...)
		b = binary.AppendUvarint(b, 1<<3|2)
		b = binary.AppendUvarint(b, uint64(len(fd)))
		b = append(b, fd...)
	}
	return b
}

func TestFrames(t *testing.T) {
	var got []uint32
	forEachFrame(frameMsg(0, 1, 300, 70000), func(id uint32) { got = append(got, id) })
	if want := []uint32{0, 1, 300, 70000}; !slices.Equal(got, want) {
		t.Fatalf("frames %v, want %v", got, want)
	}
	// A truncated message yields the frames before the cut, no more.
	got = nil
	m := frameMsg(5, 6)
	forEachFrame(m[:len(m)-3], func(id uint32) { got = append(got, id) })
	if !slices.Equal(got, []uint32{5}) {
		t.Fatalf("truncated: frames %v, want [5]", got)
	}
	if code := varintField(appendVarintField(nil, 1, 3), 1); code != 3 {
		t.Fatalf("error code %d, want 3", code)
	}
	if code := varintField(nil, 1); code != 0 {
		t.Fatalf("absent error code %d, want 0", code)
	}
}

func TestQuantile(t *testing.T) {
	h := make([]uint64, len(lateBuckets)+1)
	h[0] = 98 // ≤ 1 ms
	h[4] = 1  // ≤ 20 ms
	h[len(h)-1] = 1
	if got := quantile(h, 0.99); got != "20" {
		t.Errorf("p99 %s, want 20", got)
	}
	if got := quantile(h, 1); got != ">5000" {
		t.Errorf("p100 %s, want >5000", got)
	}
	if got := quantile(make([]uint64, len(h)), 0.99); got != "none" {
		t.Errorf("empty: %s", got)
	}
}

func FuzzFields(f *testing.F) {
	f.Add(frameMsg(1, 2, 3))
	f.Add([]byte{0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		total := 0
		fields(b, func(_ int, _ int, _ uint64, sub []byte) { total += len(sub) })
		if total > len(b) {
			t.Fatalf("fields handed on %d bytes of a %d-byte message", total, len(b))
		}
		forEachFrame(b, func(uint32) {})
	})
}
