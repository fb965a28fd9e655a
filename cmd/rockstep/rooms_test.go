package main

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"rockstep/net/invite"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// createRoom asks the server at addr for a room, with key, and returns
// its id.
func createRoom(t *testing.T, addr string, ask wire.CreateRoom) uint32 {
	t.Helper()
	return createdRoom(t, addr, ask).RoomID
}

// createdRoom asks the server at addr for a room and returns its answer.
func createdRoom(t *testing.T, addr string, ask wire.CreateRoom) wire.RoomCreated {
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
		return rc
	case <-ctx.Done():
		t.Fatalf("CreateRoom %+v: no answer within %v", ask, startLimit)
	}
	return wire.RoomCreated{}
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
		addr + ` room=1 "Club" host="" 0/8 setup v` + itoa(wire.Version) + ` code=`,
		addr + ` room=` + itoa(int(listed)) + ` "Friday" host="" 0/8 setup v` + itoa(wire.Version) + ` code=`,
	}
	got := strings.Split(strings.TrimSpace(p.stdout()), "\n")
	if len(got) != len(want) {
		t.Fatalf("printed:\n%s\nwant %d lines like:\n%s", p.stdout(), len(want), strings.Join(want, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("line %d: %s\nwant: %s…", i, got[i], want[i])
		}
	}
	if !strings.Contains(p.stderr(), "host key ") {
		t.Errorf("the host key is not printed:\n%s", p.stderr())
	}
}

func itoa[T ~int | ~uint8](n T) string { return strconv.Itoa(int(n)) }

var roomCode = regexp.MustCompile(`room=(\d+) .* code=(\S+)`)

// codesOf returns the invite codes `rockstep -rooms addr` prints, by room.
func codesOf(t *testing.T, addr string) map[string]string {
	t.Helper()
	p := start(t, "-rooms", addr)
	if code, _ := p.wait(t, startLimit); code != 0 {
		t.Fatalf("-rooms: exit %d; stderr:\n%s", code, p.stderr())
	}
	codes := map[string]string{}
	for _, m := range roomCode.FindAllStringSubmatch(p.stdout(), -1) {
		codes[m[1]] = m[2]
	}
	return codes
}

// TestJoinServerRoomCode: an invite code naming a room on a server takes
// the bots to that room, not the server's default one; a code naming a
// room that is gone is refused in words.
func TestJoinServerRoomCode(t *testing.T) {
	srv, addr := startServer(t, "-room-key", "k")
	id := createRoom(t, addr, wire.CreateRoom{Name: "Friday", Key: "k"})
	codes := codesOf(t, addr)
	code, ok := codes[itoa(int(id))]
	if !ok {
		t.Fatalf("no code for room %d among %v", id, codes)
	}
	b := start(t, "-bots", "2", "-players", "2", "-join", code, "-ticks", "120", "-seed", "5")
	if exit, _ := b.wait(t, gameLimit); exit != 0 {
		t.Fatalf("bots: exit %d\nstdout: %s\nstderr: %s", exit, b.stdout(), b.stderr())
	}
	if !strings.Contains(srv.stderr(), `msg="room state" room=`+itoa(int(id))+` state=running players=2`) {
		t.Errorf("room %d never ran the bots' game; server log:\n%s", id, srv.stderr())
	}
	if strings.Contains(srv.stderr(), `msg="room state" room=1 state=running`) {
		t.Errorf("the default room ran a game; server log:\n%s", srv.stderr())
	}

	// The same server's code for a room it never opened.
	c, err := invite.Decode(code)
	if err != nil {
		t.Fatal(err)
	}
	c.RoomID = 999
	gone := start(t, "-bots", "1", "-join", c.String(), "-ticks", "120")
	if exit, _ := gone.wait(t, gameLimit); exit == 0 || !strings.Contains(gone.stderr(), "no room") {
		t.Errorf("a code for a room that is gone: exit %d, stderr:\n%s\nwant a failure saying there is no such room", exit, gone.stderr())
	}
}

// TestJoinUnlistedRoomCode: an unlisted room's code (its secret in it)
// takes bots there; the code of the server with the wrong secret is told
// there is no such room.
func TestJoinUnlistedRoomCode(t *testing.T) {
	srv, addr := startServer(t)
	rc := createdRoom(t, addr, wire.CreateRoom{Name: "Hidden", Unlisted: true})
	if rc.Secret == 0 || rc.RoomID != wire.SecretRoom(rc.Secret) {
		t.Fatalf("unlisted room: %+v, want the id of a secret", rc)
	}
	codes := codesOf(t, addr)
	if len(codes) != 1 {
		t.Fatalf("-rooms lists %v, want the default room only", codes)
	}
	var code invite.Code
	for _, s := range codes {
		c, err := invite.Decode(s)
		if err != nil {
			t.Fatal(err)
		}
		code = c
	}
	code.Secret = rc.Secret
	b := start(t, "-bots", "2", "-players", "2", "-join", code.String(), "-ticks", "120", "-seed", "5")
	if exit, _ := b.wait(t, gameLimit); exit != 0 {
		t.Fatalf("bots: exit %d\nstdout: %s\nstderr: %s", exit, b.stdout(), b.stderr())
	}
	if !strings.Contains(srv.stderr(), `msg="room state" room=`+itoa(int(rc.RoomID))+` state=running players=2`) {
		t.Errorf("room %d never ran the bots' game; server log:\n%s", rc.RoomID, srv.stderr())
	}
	code.Secret ^= 1 // the same room's id, another secret
	code.RoomID = 0
	if wire.SecretRoom(code.Secret) != rc.RoomID {
		t.Fatal("a flipped low bit changed the room's id")
	}
	wrong := start(t, "-bots", "1", "-join", code.String(), "-ticks", "120")
	if exit, _ := wrong.wait(t, gameLimit); exit == 0 || !strings.Contains(wrong.stderr(), "no room") {
		t.Errorf("a code with the wrong secret: exit %d, stderr:\n%s\nwant a failure saying there is no such room", exit, wrong.stderr())
	}
}
