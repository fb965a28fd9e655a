package main

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"rockstep/net/transport"
	"rockstep/net/wire"
)

// createRoom asks the server at addr for a room, with key, and returns
// its id.
func createRoom(t *testing.T, addr string, ask wire.CreateRoom) uint32 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), startLimit)
	defer cancel()
	tc, err := transport.Dial(ctx, addr, transport.LAN())
	if err != nil {
		t.Fatal(err)
	}
	f, _ := wire.Append(nil, ask)
	if err := tc.Send(f); err != nil { // before Run: then only its loop may send
		t.Fatal(err)
	}
	got := make(chan wire.Message, 1)
	h := &answerOnce{got: got}
	done := make(chan struct{})
	go func() { defer close(done); _ = tc.Run(ctx, h) }()
	defer func() { cancel(); <-done }()
	select {
	case m := <-got:
		rc, ok := m.(wire.RoomCreated)
		if !ok {
			t.Fatalf("CreateRoom %+v: %+v", ask, m)
		}
		return rc.RoomID
	case <-ctx.Done():
		t.Fatalf("CreateRoom %+v: no answer within %v", ask, startLimit)
	}
	return 0
}

// answerOnce hands on the first RoomCreated or Refuse a connection gets.
type answerOnce struct {
	got  chan wire.Message
	sent bool
}

func (a *answerOnce) Message(f []byte) {
	m, err := wire.Decode(f)
	if err != nil || a.sent {
		return
	}
	switch m.(type) {
	case wire.RoomCreated, wire.Refuse:
		a.sent = true
		a.got <- m
	}
}
func (a *answerOnce) Tick(time.Time) {}

// TestBrowseServerRooms: `rockstep -rooms ADDR` prints the rooms a
// server lists publicly, one a line: the default room and a listed room,
// not an unlisted one.
func TestBrowseServerRooms(t *testing.T) {
	_, addr := startServer(t, "-name", "Club", "-room-key", "k")
	listed := createRoom(t, addr, wire.CreateRoom{Name: "Friday", Key: "k"})
	createRoom(t, addr, wire.CreateRoom{Name: "Secret", Key: "k", Unlisted: true})
	p := start(t, "-rooms", addr)
	code, _ := p.wait(t, startLimit)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr())
	}
	want := []string{
		addr + ` room=1 "Club" host="" 0/8 setup v` + itoa(wire.Version),
		addr + ` room=` + itoa(int(listed)) + ` "Friday" host="" 0/8 setup v` + itoa(wire.Version),
	}
	got := strings.Split(strings.TrimSpace(p.stdout()), "\n")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("printed:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(p.stderr(), "host key ") {
		t.Errorf("the host key is not printed:\n%s", p.stderr())
	}
}

func itoa[T ~int | ~uint8](n T) string { return strconv.Itoa(int(n)) }
