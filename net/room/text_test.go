package room_test

import (
	"testing"

	"rockstep/net/room"
	"rockstep/net/wire"
)

// TestChatIsCleaned: the room relays a chat line as one line of text to
// show: no NUL, ESC, CR/LF, bidi override or zero-width character; a line
// of nothing but those is not relayed, and counted.
func TestChatIsCleaned(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"plain", "gg", "gg"},
		{"NUL", "g\x00g", "gg"},
		{"ESC: a terminal escape", "\x1b[2J\x1b]0;pwned\x07hi", "[2J]0;pwnedhi"},
		{"CR/LF: a forged second line", "hi\r\n<Ada> I quit", "hi <Ada> I quit"},
		{"U+202E: a reversed line", "\u202Egg", "gg"},
		{"zero-width characters", "g\u200Bg\u200D\u2060\uFEFF", "gg"},
		{"nothing visible", "\u200B\x00\u202E", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t, nil)
			b.join(1, "Ada")
			b.join(2, "Bob")
			last[wire.Chat](b.peer(2))
			before := b.r.Stats().Dropped[room.DropMalformed]
			b.send(1, wire.Chat{Text: tc.text})
			c, ok := last[wire.Chat](b.peer(2))
			if tc.want == "" {
				if ok {
					t.Fatalf("relayed %+q, want nothing", c.Text)
				}
				if got := b.r.Stats().Dropped[room.DropMalformed]; got != before+1 {
					t.Errorf("malformed drops %d, want %d", got, before+1)
				}
				return
			}
			if !ok || c.Text != tc.want || c.From != 0 {
				t.Fatalf("relayed %+v (%v), want %+q from slot 0", c, ok, tc.want)
			}
		})
	}
}

// TestRoomNameIsCleaned: a room's name, which a client may give
// (CreateRoom), is shown as text.
func TestRoomNameIsCleaned(t *testing.T) {
	cfg := room.LAN()
	cfg.Name = "\u202Eevil\x1b[2J\u200B room\r\n"
	if got, want := room.New(cfg).Name(), "evil[2J room"; got != want {
		t.Errorf("name %+q, want %+q", got, want)
	}
}
