package wire

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

func TestPeek(t *testing.T) {
	chat := mustAppend(t, Chat{From: 1, Text: "hi"})
	cases := []struct {
		name        string
		frame       []byte
		wantType    Type
		wantPayload []byte
		wantErr     error
	}{
		{"chat", chat, TypeChat, chat[2:], nil},
		{"header only", []byte{Version, byte(TypePing)}, TypePing, []byte{}, nil},
		{"unknown type passes", []byte{Version, 200, 1}, 200, []byte{1}, nil},
		{"MaxFrame", append([]byte{Version, byte(TypeChat)}, make([]byte, MaxFrame-2)...), TypeChat, make([]byte, MaxFrame-2), nil},
		{"empty", nil, 0, nil, ErrTruncated},
		{"one byte", []byte{Version}, 0, nil, ErrTruncated},
		{"wrong version", []byte{Version + 1, byte(TypeChat)}, 0, nil, ErrVersion},
		{"over MaxFrame", make([]byte, MaxFrame+1), 0, nil, ErrTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ty, pl, err := Peek(c.frame)
			if !errors.Is(err, c.wantErr) || (err == nil) != (c.wantErr == nil) {
				t.Fatalf("Peek error %v, want %v", err, c.wantErr)
			}
			if ty != c.wantType || !bytes.Equal(pl, c.wantPayload) {
				t.Errorf("Peek = %v, % x; want %v, % x", ty, pl, c.wantType, c.wantPayload)
			}
		})
	}
}

// stream returns the frames of every sample, length-prefixed.
func stream(tb testing.TB) ([]byte, [][]byte) {
	var b []byte
	var frames [][]byte
	for _, s := range samples() {
		f := mustAppend(tb, s.m)
		frames = append(frames, f)
		b = AppendStreamFrame(b, f)
	}
	return b, frames
}

func TestStreamReader(t *testing.T) {
	b, frames := stream(t)
	readers := []struct {
		name string
		r    func() io.Reader
	}{
		{"bytes.Reader", func() io.Reader { return bytes.NewReader(b) }},
		{"one byte at a time", func() io.Reader { return iotest.OneByteReader(bytes.NewReader(b)) }},
		{"half reads", func() io.Reader { return iotest.HalfReader(bytes.NewReader(b)) }},
		{"EOF with the data", func() io.Reader { return iotest.DataErrReader(bytes.NewReader(b)) }},
	}
	for _, rc := range readers {
		t.Run(rc.name, func(t *testing.T) {
			s := NewStreamReader(rc.r())
			for i, want := range frames {
				got, err := s.Next()
				if err != nil {
					t.Fatalf("frame %d: %v", i, err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("frame %d = % x, want % x", i, got, want)
				}
				if _, err := Decode(got); err != nil {
					t.Fatalf("frame %d: %v", i, err)
				}
			}
			if got, err := s.Next(); err != io.EOF {
				t.Fatalf("after the last frame: % x, %v; want io.EOF", got, err)
			}
		})
	}
}

func TestStreamReaderRejects(t *testing.T) {
	ping := mustAppend(t, Ping{ID: 9})
	good := AppendStreamFrame(nil, ping)
	cases := []struct {
		name   string
		stream []byte
		want   error
	}{
		{"length 0", []byte{0, 1, 2}, ErrInvalid},
		{"length MaxFrame+1", append([]byte{0xf9, 0x0a}, make([]byte, MaxFrame+1)...), ErrTooLarge},
		{"length 16383", []byte{0xff, 0x7f}, ErrTooLarge},
		{"three-byte length", []byte{0x80, 0x80, 0x01}, ErrTooLarge},
		{"huge length", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, ErrTooLarge},
		{"non-minimal length", append([]byte{0x85, 0x00}, make([]byte, 5)...), ErrInvalid},
		{"cut in the length", []byte{0x85}, io.ErrUnexpectedEOF},
		{"cut in the frame", good[:len(good)-1], io.ErrUnexpectedEOF},
		{"good then cut", append(append([]byte{}, good...), good[:3]...), io.ErrUnexpectedEOF},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewStreamReader(bytes.NewReader(c.stream))
			var err error
			for range 3 {
				var f []byte
				if f, err = s.Next(); err != nil {
					break
				}
				if !bytes.Equal(f, ping) {
					t.Fatalf("frame % x, want % x", f, ping)
				}
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("Next error %v, want %v", err, c.want)
			}
			if _, again := s.Next(); !errors.Is(again, c.want) {
				t.Errorf("Next after the error: %v, want the same error again", again)
			}
		})
	}
}

func TestStreamReaderPassesReadErrors(t *testing.T) {
	boom := errors.New("connection reset")
	cases := []struct {
		name string
		r    io.Reader
	}{
		{"in the length", iotest.ErrReader(boom)},
		{"in the frame", io.MultiReader(bytes.NewReader([]byte{5, Version}), iotest.ErrReader(boom))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := NewStreamReader(c.r).Next(); !errors.Is(err, boom) {
				t.Fatalf("Next error %v, want %v", err, boom)
			}
		})
	}
}

func TestStreamReaderAllocs(t *testing.T) {
	b, frames := stream(t)
	r := bytes.NewReader(b)
	s := NewStreamReader(r)
	n := testing.AllocsPerRun(10, func() {
		r.Reset(b)
		for range frames {
			if _, err := s.Next(); err != nil {
				t.Fatal(err)
			}
		}
	})
	if n != 0 {
		t.Errorf("%v allocations per pass over %d frames, want 0", n, len(frames))
	}
}
