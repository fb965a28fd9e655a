package host_test

import (
	"testing"

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
			rc := pipeExchange(t, h, p, wire.CreateRoom{Name: tc.ask}, func(m wire.Message) bool { _, ok := m.(wire.RoomCreated); return ok }).(wire.RoomCreated)
			st := pipeExchange(t, h, p, wire.Join{RoomID: rc.RoomID, Name: "Ada", PlayerID: [16]byte{1}}, func(m wire.Message) bool { _, ok := m.(wire.SetupState); return ok }).(wire.SetupState)
			if st.Name != tc.want {
				t.Errorf("room name %+q, want %+q", st.Name, tc.want)
			}
		})
	}
}
