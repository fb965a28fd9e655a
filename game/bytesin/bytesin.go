// Package bytesin reads the little-endian fields of a byte slice with a
// sticky error: after the first failure every read returns zero (and Take
// nil), so a decoder reads all its fields and checks the error once.
//
// It is the reading half shared by the world snapshot (game), the replay
// records (net/replay) and the wire codec (net/wire). It lives under game/
// because game may import only the pure standard library and its own
// subpackages (game/purity_test.go), which is also why it decodes by hand
// what encoding/binary would (that package brings io and sync). Its errors are sentinels; each format
// turns them into its own (the snapshot names the byte it stopped at, the
// wire codec the field), so a good read builds no error and allocates
// nothing.
package bytesin

import "errors"

// Errors a Reader fails with on its own.
var (
	ErrTruncated = errors.New("truncated")                // fewer bytes left than a read needs
	ErrOverflow  = errors.New("varint overflows 64 bits") // a varint longer than a uint64
)

// Reader reads b from its start. The zero Reader reads nothing.
type Reader struct {
	b   []byte
	off int
	err error
}

// New returns a Reader of b.
func New(b []byte) Reader { return Reader{b: b} }

// Err returns the first failure, or nil.
func (r *Reader) Err() error { return r.err }

// Fail records err as the Reader's failure if it has none yet.
func (r *Reader) Fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// Off returns how many bytes have been read.
func (r *Reader) Off() int { return r.off }

// Len returns how many bytes are left to read.
func (r *Reader) Len() int { return len(r.b) - r.off }

// Rest returns the bytes left to read, without reading them.
func (r *Reader) Rest() []byte { return r.b[r.off:] }

// Take reads the next n bytes. The slice shares memory with the Reader's
// bytes and is capped at n, so appending to it cannot overwrite what
// follows. It returns nil after a failure, and fails with ErrTruncated if
// fewer than n bytes are left.
func (r *Reader) Take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n > len(r.b)-r.off {
		r.err = ErrTruncated
		return nil
	}
	p := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return p
}

// zeros is what a fixed-width read decodes after a failure; never written.
var zeros [8]byte

// word reads a fixed-width field of n ≤ 8 bytes: its bytes, or zeros
// after a failure.
func (r *Reader) word(n int) []byte {
	if p := r.Take(n); p != nil {
		return p
	}
	return zeros[:n]
}

// U8 reads a byte.
func (r *Reader) U8() uint8 { return r.word(1)[0] }

// U16 reads a little-endian uint16.
func (r *Reader) U16() uint16 { return LE16(r.word(2)) }

// U32 reads a little-endian uint32.
func (r *Reader) U32() uint32 { return LE32(r.word(4)) }

// U64 reads a little-endian uint64.
func (r *Reader) U64() uint64 { return LE64(r.word(8)) }

// Uvarint reads an unsigned varint (encoding/binary's format), failing with
// ErrTruncated if it is cut short and ErrOverflow if it is longer than a
// uint64. It accepts a varint that is not minimally encoded; a format that
// must not (the wire codec) checks Rest itself.
func (r *Reader) Uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := uvarint(r.b[r.off:])
	switch {
	case n == 0:
		r.err = ErrTruncated
		return 0
	case n < 0:
		r.err = ErrOverflow
		return 0
	}
	r.off += n
	return v
}

// LE16 decodes a little-endian uint16 from the first 2 bytes of b: for a
// fixed-width block read with Take and decoded in place.
func LE16(b []byte) uint16 { _ = b[1]; return uint16(b[0]) | uint16(b[1])<<8 }

// LE32 decodes a little-endian uint32 from the first 4 bytes of b.
func LE32(b []byte) uint32 {
	_ = b[3]
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// LE64 decodes a little-endian uint64 from the first 8 bytes of b.
func LE64(b []byte) uint64 { return uint64(LE32(b)) | uint64(LE32(b[4:]))<<32 }

// uvarint is encoding/binary.Uvarint: the value and the bytes it took, 0
// if b ends first, negative if the value overflows a uint64.
func uvarint(b []byte) (uint64, int) {
	var x uint64
	var s uint
	for i, c := range b {
		if i == 10 {
			return 0, -(i + 1) // overflow
		}
		if c < 0x80 {
			if i == 9 && c > 1 {
				return 0, -(i + 1) // overflow
			}
			return x | uint64(c)<<s, i + 1
		}
		x |= uint64(c&0x7f) << s
		s += 7
	}
	return 0, 0
}
