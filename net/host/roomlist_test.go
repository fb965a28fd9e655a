package host_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/client"
	"rockstep/net/host"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// pipeExchange sends m to h over p and returns the first answer want
// accepts, ticking the host a bounded number of times.
func pipeExchange(t *testing.T, h *host.Host, p *transport.Pipe, m wire.Message, want func(wire.Message) bool) wire.Message {
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

func isRoomList(m wire.Message) bool    { _, ok := m.(wire.RoomList); return ok }
func isRoomCreated(m wire.Message) bool { _, ok := m.(wire.RoomCreated); return ok }

// TestRoomListPages: the room list holds the default room and every
// created room but the unlisted ones, in pages of wire.MaxListRooms from
// the request's After on, each page saying whether more follow.
func TestRoomListPages(t *testing.T) {
	cfg := host.LAN()
	cfg.MaxRoomsPerConn = 32
	h := host.New(cfg)
	p := transport.NewPipe()
	h.Attach(p)
	unlisted := map[uint32]bool{}
	for i := range 20 {
		ask := wire.CreateRoom{Name: fmt.Sprintf("room %d", i), Unlisted: i%5 == 4}
		rc := pipeExchange(t, h, p, ask, isRoomCreated).(wire.RoomCreated)
		if ask.Unlisted {
			unlisted[rc.RoomID] = true
		}
	}
	// 21 rooms (the default one and 20 created), 4 of them unlisted: 17
	// listed, rooms 1 to 17 with no gap where the unlisted ones were
	// made (their ids are of another range), a full page and one more.
	for id := range unlisted {
		if id < wire.UnlistedRooms {
			t.Errorf("unlisted room %d: want an id of the unlisted range, from %d", id, uint32(wire.UnlistedRooms))
		}
	}
	for _, c := range []struct {
		name  string
		after uint32
		ids   int
		first uint32
		more  bool
	}{
		{"first page", 0, wire.MaxListRooms, host.DefaultRoom, true},
		{"second page", 16, 1, 17, false},
		{"past the last listed room", 17, 0, 0, false},
		{"past the unlisted ids", wire.UnlistedRooms, 0, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := pipeExchange(t, h, p, wire.RoomListRequest{After: c.after}, isRoomList).(wire.RoomList)
			if len(l.Rooms) != c.ids || l.More != c.more {
				t.Fatalf("%d rooms, more %v; want %d, %v: %+v", len(l.Rooms), l.More, c.ids, c.more, l.Rooms)
			}
			if c.ids > 0 && l.Rooms[0].RoomID != c.first {
				t.Errorf("first room %d, want %d", l.Rooms[0].RoomID, c.first)
			}
			for i, ri := range l.Rooms {
				if i > 0 && ri.RoomID != l.Rooms[i-1].RoomID+1 {
					t.Errorf("room %d listed after room %d: a gap", ri.RoomID, l.Rooms[i-1].RoomID)
				}
				if unlisted[ri.RoomID] || ri.RoomID <= c.after {
					t.Errorf("room %d listed after %d (unlisted: %v)", ri.RoomID, c.after, unlisted[ri.RoomID])
				}
				if ri.Max != game.MaxPlayers || ri.State != wire.StateSetup || ri.Version != wire.Version {
					t.Errorf("room %+v: want max %d, setup, version %d", ri, game.MaxPlayers, wire.Version)
				}
			}
		})
	}
}

// TestRoomListFromStranger: a connection that is in no room asks a server
// for its rooms: it sees the default room and the listed room it was not
// told of, with the room's host and players, and not the unlisted one.
func TestRoomListFromStranger(t *testing.T) {
	hs := serve(t, host.LAN())
	addr := hs.Addr()
	ctx, cancel := context.WithTimeout(context.Background(), stepLimit)
	defer cancel()
	created := map[string]uint32{}
	for _, ask := range []wire.CreateRoom{{Name: "open \u202Eroom"}, {Name: "secret", Unlisted: true}} {
		log := askRooms(t, ctx, addr, ask, 1)
		waitFor(t, "the room created", func() bool { c, _ := log.count(); return c == 1 })
		created[ask.Name] = log.first(isRoomCreated).(wire.RoomCreated).RoomID
	}
	c, err := client.Dial(ctx, addr, client.Options{Session: lockstep.Config{Name: "Ada", RoomID: created["open \u202Eroom"]}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var l client.RoomList
	waitFor(t, "the list shows Ada in the open room", func() bool {
		l, err = client.ListRooms(ctx, []string{addr}, transport.LAN())
		return err == nil && len(l.Rooms) == 2 && l.Rooms[1].Host == "Ada"
	})
	want := []wire.RoomInfo{
		{RoomID: host.DefaultRoom, Name: "Rockstep", Max: game.MaxPlayers, State: wire.StateSetup, Version: wire.Version},
		{RoomID: created["open \u202Eroom"], Name: "open room", Host: "Ada", Players: 1, Max: game.MaxPlayers, State: wire.StateSetup, Version: wire.Version},
	}
	for i := range want {
		if l.Rooms[i] != want[i] {
			t.Errorf("room %d: %+v, want %+v", i, l.Rooms[i], want[i])
		}
	}
	if l.Truncated || l.Fingerprint == "" {
		t.Errorf("truncated %v, fingerprint %q; want a whole list from a proven key", l.Truncated, l.Fingerprint)
	}
}
