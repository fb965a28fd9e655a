package host_test

import (
	"context"
	"io"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"rockstep/net/host"
	"rockstep/net/wire"
)

// TestRoomKey: a server with room keys refuses a creator without one of
// them, in words, and counts the refusal in /metrics; a creator with one
// gets its room, counted too. A server with no keys opens rooms for all.
func TestRoomKey(t *testing.T) {
	for _, tc := range []struct {
		name    string
		keys    []string
		key     string
		created bool
	}{
		{"open server, no key", nil, "", true},
		{"open server, any key", nil, "whatever", true},
		{"keyed server, no key", []string{"friday-7", "sunday-2"}, "", false},
		{"keyed server, wrong key", []string{"friday-7", "sunday-2"}, "friday-8", false},
		{"keyed server, a prefix of the key", []string{"friday-7"}, "friday", false},
		{"keyed server, first key", []string{"friday-7", "sunday-2"}, "friday-7", true},
		{"keyed server, second key", []string{"friday-7", "sunday-2"}, "sunday-2", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := host.LAN()
			cfg.RoomKeys = tc.keys
			hs := serve(t, cfg)
			ctx, cancel := context.WithTimeout(context.Background(), stepLimit)
			defer cancel()
			log := askRooms(t, ctx, hs.Addr(), wire.CreateRoom{Name: "ours", Key: tc.key}, 1)
			waitFor(t, "the CreateRoom answered", func() bool { c, r := log.count(); return c+r > 0 })
			c, r := log.count()
			if got := c == 1 && r == 0; got != tc.created {
				t.Fatalf("created %d, refused %d; want created=%v", c, r, tc.created)
			}
			wantCreated, wantRefused := uint64(1), uint64(0)
			if !tc.created {
				wantCreated, wantRefused = 0, 1
				ref := log.first(func(m wire.Message) bool { _, ok := m.(wire.Refuse); return ok }).(wire.Refuse)
				if ref.Reason != wire.RefuseRoomKey || !strings.Contains(ref.Text, "room key") {
					t.Errorf("refusal %+v, want reason %d with words about the room key", ref, wire.RefuseRoomKey)
				}
			}
			waitFor(t, "the stats published", func() bool {
				s := hs.Host.Stats()
				return s.RoomsCreated == wantCreated && s.RoomsRefused["room_key"] == wantRefused
			})
			rec := httptest.NewRecorder()
			hs.Host.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
			body, _ := io.ReadAll(rec.Body)
			for _, line := range []string{
				"rockstep_rooms_created_total " + strconv.FormatUint(wantCreated, 10),
				`rockstep_rooms_refused_total{reason="room_key"} ` + strconv.FormatUint(wantRefused, 10),
			} {
				if !strings.Contains(string(body), line+"\n") {
					t.Errorf("/metrics lacks %q", line)
				}
			}
		})
	}
}

// first returns the first message kept that want accepts, or nil.
func (l *frameLog) first(want func(wire.Message) bool) wire.Message {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, m := range l.msgs {
		if want(m) {
			return m
		}
	}
	return nil
}
