package host_test

import (
	"testing"
	"time"

	"rockstep/net/host"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// TestCreatedRoomNameIsCleaned: the name a client gives a room it creates
// is shown as text (peertext.Clean); one of nothing visible is the
// server's name, as an empty one is.
func TestCreatedRoomNameIsCleaned(t *testing.T) {
	for _, tc := range []struct {
		name, ask, want string
	}{
		{"plain", "Friday", "Friday"},
		{"escapes, bidi override, zero-width, CR/LF", "\x1b[31mred\u202E\u200B\r\nroom", "[31mred room"},
		{"nothing visible", "\u200B\u202E\x00", "Rockstep"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := host.New(host.LAN())
			p := transport.NewPipe()
			h.Attach(p)
			// exchange sends m and returns the first message of type T
			// the host answers with within a few ticks.
			exchange := func(m wire.Message, want func(wire.Message) bool) wire.Message {
				t.Helper()
				f, _ := wire.Append(nil, m)
				if err := p.SendToHost(f); err != nil {
					t.Fatal(err)
				}
				var got wire.Message
				for range 10 {
					h.Tick(time.Now())
					p.DrainClient(func(f []byte) {
						if m, err := wire.Decode(f); err == nil && got == nil && want(m) {
							got = m
						}
					})
					if got != nil {
						return got
					}
				}
				t.Fatalf("no answer to %T", m)
				return nil
			}
			rc := exchange(wire.CreateRoom{Name: tc.ask}, func(m wire.Message) bool { _, ok := m.(wire.RoomCreated); return ok }).(wire.RoomCreated)
			st := exchange(wire.Join{RoomID: rc.RoomID, Name: "Ada", PlayerID: [16]byte{1}}, func(m wire.Message) bool { _, ok := m.(wire.SetupState); return ok }).(wire.SetupState)
			if st.Name != tc.want {
				t.Errorf("room name %+q, want %+q", st.Name, tc.want)
			}
		})
	}
}
