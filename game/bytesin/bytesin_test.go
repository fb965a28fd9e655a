package bytesin

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"
)

func TestReads(t *testing.T) {
	var b []byte
	b = append(b, 0xab)
	b = binary.LittleEndian.AppendUint16(b, 0x1234)
	b = binary.LittleEndian.AppendUint32(b, 0xdeadbeef)
	b = binary.LittleEndian.AppendUint64(b, 0x0102030405060708)
	b = binary.AppendUvarint(b, math.MaxUint64)
	b = binary.AppendUvarint(b, 300)
	b = append(b, "tail"...)
	r := New(b)
	if got, want := r.U8(), uint8(0xab); got != want {
		t.Errorf("U8 = %#x, want %#x", got, want)
	}
	if got, want := r.U16(), uint16(0x1234); got != want {
		t.Errorf("U16 = %#x, want %#x", got, want)
	}
	if got, want := r.U32(), uint32(0xdeadbeef); got != want {
		t.Errorf("U32 = %#x, want %#x", got, want)
	}
	if got, want := r.U64(), uint64(0x0102030405060708); got != want {
		t.Errorf("U64 = %#x, want %#x", got, want)
	}
	if got, want := r.Uvarint(), uint64(math.MaxUint64); got != want {
		t.Errorf("Uvarint = %d, want %d", got, want)
	}
	if got, want := r.Uvarint(), uint64(300); got != want {
		t.Errorf("Uvarint = %d, want %d", got, want)
	}
	if got, want := string(r.Rest()), "tail"; got != want {
		t.Errorf("Rest = %q, want %q", got, want)
	}
	p := r.Take(2)
	if got, want := cap(p), 2; got != want {
		t.Errorf("cap(Take(2)) = %d, want %d", got, want)
	}
	if got, want := r.Off(), len(b)-2; got != want {
		t.Errorf("Off = %d, want %d", got, want)
	}
	if r.Err() != nil || r.Len() != 2 {
		t.Errorf("Err %v, Len %d; want nil, 2", r.Err(), r.Len())
	}
}

func TestFailures(t *testing.T) {
	other := errors.New("other")
	tests := []struct {
		name string
		in   []byte
		read func(r *Reader)
		want error
	}{
		{"short u8", nil, func(r *Reader) { r.U8() }, ErrTruncated},
		{"short u16", []byte{1}, func(r *Reader) { r.U16() }, ErrTruncated},
		{"short u32", []byte{1, 2, 3}, func(r *Reader) { r.U32() }, ErrTruncated},
		{"short u64", []byte{1, 2, 3, 4, 5, 6, 7}, func(r *Reader) { r.U64() }, ErrTruncated},
		{"short take", []byte{1, 2}, func(r *Reader) { r.Take(3) }, ErrTruncated},
		{"cut varint", []byte{0x80, 0x80}, func(r *Reader) { r.Uvarint() }, ErrTruncated},
		{"long varint", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}, func(r *Reader) { r.Uvarint() }, ErrOverflow},
		{"first failure sticks", []byte{1}, func(r *Reader) { r.Fail(other); r.U8(); r.Fail(ErrOverflow) }, other},
		{"short read sticks", []byte{1}, func(r *Reader) { r.U16(); r.Fail(other) }, ErrTruncated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := New(tt.in)
			tt.read(&r)
			if got := r.Err(); got != tt.want {
				t.Errorf("Err = %v, want %v", got, tt.want)
			}
			if got := r.U8(); got != 0 {
				t.Errorf("U8 after a failure = %d, want 0", got)
			}
			if got := r.Take(0); got != nil {
				t.Errorf("Take after a failure = %v, want nil", got)
			}
		})
	}
}

func TestUvarintAgreesWithBinary(t *testing.T) {
	for _, v := range []uint64{0, 1, 127, 128, 16383, 16384, 1<<32 - 1, 1 << 63, math.MaxUint64} {
		r := New(binary.AppendUvarint(nil, v))
		if got := r.Uvarint(); got != v || r.Err() != nil || r.Len() != 0 {
			t.Errorf("Uvarint of %d = %d, err %v, %d left; want %d, nil, 0", v, got, r.Err(), r.Len(), v)
		}
	}
}
