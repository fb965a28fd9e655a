package wire

import (
	"bytes"
	"errors"
	"testing"
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
