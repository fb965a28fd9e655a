package ui

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rockstep/internal/testwait"
	"rockstep/net/client"
	"rockstep/net/migrate"
	"rockstep/net/wire"
)

func TestSessionKeptUntilForgotten(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	if _, ok, err := loadSession(dir, now); ok || err != nil {
		t.Fatalf("no file: ok %v err %v", ok, err)
	}
	want := savedSession{Addr: "192.0.2.7:7777", GameID: "g1", Room: "Ada’s game", RoomID: 3, Slot: 2,
		Token: "00112233445566778899aabbccddeeff", Saved: now}
	if err := saveSession(dir, want); err != nil {
		t.Fatal(err)
	}
	got, ok, err := loadSession(dir, now.Add(time.Minute))
	if !ok || err != nil || got != want {
		t.Fatalf("load = %+v %v %v, want %+v", got, ok, err, want)
	}
	if tok, ok := got.token(); !ok || tok[0] != 0x00 || tok[15] != 0xff {
		t.Fatalf("token %x %v", tok, ok)
	}
	if _, ok, _ := loadSession(dir, now.Add(sessionMaxAge+time.Minute)); ok {
		t.Error("a session older than its age limit is still offered")
	}
	if _, err := os.Stat(filepath.Join(dir, sessionFile)); !os.IsNotExist(err) {
		t.Error("a stale session file was not removed")
	}
	if err := saveSession(dir, want); err != nil {
		t.Fatal(err)
	}
	clearSession(dir)
	if _, ok, _ := loadSession(dir, now); ok {
		t.Error("a cleared session is still offered")
	}
}

func TestDamagedSessionFileGivesNoRejoin(t *testing.T) {
	for name, data := range map[string]string{
		"not json":    "{{{",
		"bad token":   `{"addr":"192.0.2.7:7777","token":"xyz","saved":"2026-11-23T12:00:00Z"}`,
		"zero token":  `{"addr":"192.0.2.7:7777","token":"00000000000000000000000000000000","saved":"2026-11-23T12:00:00Z"}`,
		"no address":  `{"token":"00112233445566778899aabbccddeeff","saved":"2026-11-23T12:00:00Z"}`,
		"short token": `{"addr":"h:1","token":"0011","saved":"2026-11-23T12:00:00Z"}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, sessionFile)
			if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, ok, err := loadSession(dir, time.Date(2026, 11, 23, 12, 1, 0, 0, time.UTC)); ok || err == nil {
				t.Fatalf("ok %v err %v: want no session and a message", ok, err)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Error("the damaged file was kept")
			}
		})
	}
}

// TestKeptSessionFollowsTheGame: a guest's kept session points at the
// game's host; when the game moves to a successor (host migration), a
// Rejoin must go there, under the same LAN id.
func TestKeptSessionFollowsTheGame(t *testing.T) {
	app := newTestApp(t, nil)
	tok := [16]byte{1, 2, 3}
	app.net = &netGame{addr: "192.0.2.7:7777"}
	app.joinedID = "00aa11bb22cc33dd"
	app.nv = netView{ok: true, phase: phasePlaying, slot: 1, token: tok}
	app.keepSession()
	saved, ok, err := loadSession(app.settingsDir, time.Now())
	if !ok || err != nil || saved.Addr != "192.0.2.7:7777" {
		t.Fatalf("kept session %+v ok %v err %v, want one for 192.0.2.7:7777", saved, ok, err)
	}
	app.net.addr = "192.0.2.9:40001" // the host went away: a successor hosts
	app.keepSession()
	moved, ok, err := loadSession(app.settingsDir, time.Now())
	if !ok || err != nil {
		t.Fatalf("after the handover: ok %v err %v", ok, err)
	}
	if moved.Addr != "192.0.2.9:40001" || moved.GameID != saved.GameID || moved.Token != saved.Token || moved.Slot != 1 {
		t.Fatalf("after the handover the kept session is %+v, want %+v at 192.0.2.9:40001", moved, saved)
	}
	app.nv.phase = phaseFinished
	app.keepSession()
	if _, ok, _ := loadSession(app.settingsDir, time.Now()); ok {
		t.Error("the session is still kept after the game ended")
	}
}

// TestHostsKeptSessionNamesTheSuccessor: the room of a player who hosts
// dies with its process, while the game goes on at the first successor the
// room names. So the host's kept session points there, under that
// successor's key and the game's LAN id, follows the list as it changes,
// passes over our own slot, and is forgotten when no one could take over.
func TestHostsKeptSessionNamesTheSuccessor(t *testing.T) {
	app := newTestApp(t, nil)
	tok := [16]byte{9, 8, 7}
	app.net = &netGame{addr: "127.0.0.1:7777"}
	app.nv = netView{ok: true, phase: phasePlaying, slot: 0, token: tok, roomHere: true}
	kept := func() (savedSession, bool) {
		t.Helper()
		app.keepSession()
		s, ok, err := loadSession(app.settingsDir, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return s, ok
	}
	if s, ok := kept(); ok {
		t.Fatalf("kept %+v before the room named a successor: a Rejoin would dial our own dead room", s)
	}
	bob := wire.Successor{Slot: 1, Addr: netip.MustParseAddrPort("192.0.2.9:40001"), Key: [16]byte{0xb0}}
	cy := wire.Successor{Slot: 2, Addr: netip.MustParseAddrPort("192.0.2.10:40002"), Key: [16]byte{0xc0}}
	app.nv.succ = wire.Successors{List: []wire.Successor{bob, cy}, Listing: [8]byte{0xaa, 0xbb}}
	s, ok := kept()
	want := savedSession{Addr: "192.0.2.9:40001", Key: "b0000000000000000000000000000000", GameID: "aabb000000000000", Slot: 0, Token: "090807" + strings.Repeat("0", 26)}
	if !ok || s.Addr != want.Addr || s.Key != want.Key || s.GameID != want.GameID || s.Slot != want.Slot || s.Token != want.Token {
		t.Fatalf("kept %+v (ok %v), want %+v", s, ok, want)
	}
	app.nv.succ.List = []wire.Successor{cy} // Bob left
	if s, ok = kept(); !ok || s.Addr != cy.Addr.String() || s.Key != "c0000000000000000000000000000000" {
		t.Fatalf("after Bob left: kept %+v (ok %v), want Cy's %v", s, ok, cy.Addr)
	}
	app.nv.slot = 1 // a list made before we, Bob, took the game over
	app.nv.succ.List = []wire.Successor{bob, cy}
	if s, ok = kept(); !ok || s.Addr != cy.Addr.String() {
		t.Fatalf("a list naming us first: kept %+v (ok %v), want Cy's %v", s, ok, cy.Addr)
	}
	app.nv.succ.List = nil
	if s, ok = kept(); ok {
		t.Fatalf("no successor left, but kept %+v", s)
	}
	app.nv.succ.List = []wire.Successor{cy}
	if _, ok = kept(); !ok {
		t.Fatal("a successor named again, but no session kept")
	}
	app.nv.phase = phaseFinished
	if s, ok = kept(); ok {
		t.Fatalf("the game is over, but kept %+v", s)
	}
}

// TestServerRoomSessionKeepsTheRoomID: the kept session of a player in a
// room on a server names that room (room_id), so that a Rejoin goes back
// to it and not to the server's default room; no other session names
// one: a home host's room, a room this machine runs, or a game that moved
// to a successor (its room is the successor's own). A file written before
// room_id existed loads as the default room.
func TestServerRoomSessionKeepsTheRoomID(t *testing.T) {
	tok := [16]byte{4, 4}
	for _, tc := range []struct {
		name      string
		addr      string // dialled, or the address that answered a code
		server    string // the known server the room was opened on, if it was
		roomID    uint32
		wantAddr  string
		wantRoom  uint32
		handovers int // seen after the first save, the game then at 192.0.2.9:40001
	}{
		{name: "server room", addr: "127.0.0.1:7793", server: "127.0.0.1:7793", roomID: 7, wantAddr: "127.0.0.1:7793", wantRoom: 7},
		{name: "joined by code", addr: "127.0.0.1:7793", roomID: 9, wantAddr: "127.0.0.1:7793", wantRoom: 9},
		{name: "home host", addr: "192.0.2.7:7777", wantAddr: "192.0.2.7:7777"},
		{name: "handed over", addr: "127.0.0.1:7793", roomID: 7, handovers: 1, wantAddr: "192.0.2.9:40001"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			app := newTestApp(t, nil)
			app.net = &netGame{addr: tc.addr, server: tc.server, roomID: tc.roomID}
			app.nv = netView{ok: true, phase: phasePlaying, slot: 1, token: tok}
			app.keepSession()
			if tc.handovers > 0 {
				app.net.handovers, app.net.addr = tc.handovers, "192.0.2.9:40001"
				app.keepSession()
			}
			got, ok, err := loadSession(app.settingsDir, time.Now())
			if !ok || err != nil {
				t.Fatalf("no kept session: ok %v err %v", ok, err)
			}
			if got.Addr != tc.wantAddr || got.RoomID != tc.wantRoom {
				t.Errorf("kept %s room %d, want %s room %d", got.Addr, got.RoomID, tc.wantAddr, tc.wantRoom)
			}
		})
	}
	t.Run("older file", func(t *testing.T) {
		dir := t.TempDir()
		old := `{"addr":"127.0.0.1:7793","room":"Ada’s game","slot":1,"token":"00112233445566778899aabbccddeeff","saved":"2026-11-28T08:00:00Z"}`
		if err := os.WriteFile(filepath.Join(dir, sessionFile), []byte(old), 0o600); err != nil {
			t.Fatal(err)
		}
		got, ok, err := loadSession(dir, time.Date(2026, 11, 28, 8, 1, 0, 0, time.UTC))
		if !ok || err != nil || got.RoomID != 0 || got.Addr != "127.0.0.1:7793" {
			t.Fatalf("load = %+v %v %v, want the session in the default room", got, ok, err)
		}
	})
}

// TestRejoinDialsTheKeptServerRoom: Rejoin on the main menu dials the room
// the kept session names on its server, with its token and key, and the
// lobby then knows it is a room on a server; a join of another address
// does not borrow that room.
func TestRejoinDialsTheKeptServerRoom(t *testing.T) {
	const addr = "127.0.0.1:9" // loopback, the discard port: nothing answers
	for _, tc := range []struct {
		name     string
		in       Intent
		wantRoom uint32
		wantTok  bool
	}{
		{name: "rejoin", in: Intent{Kind: IntentRejoin, Addr: addr}, wantRoom: 7, wantTok: true},
		{name: "another address", in: Intent{Kind: IntentRejoin, Addr: "127.0.0.1:10"}, wantTok: true},
		{name: "a plain join", in: Intent{Kind: IntentJoinAddr, Addr: addr}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			app := newTestApp(t, nil)
			app.flow.screen = screenMenu
			if tc.in.Kind == IntentJoinAddr {
				app.flow.screen = screenJoin
			}
			app.saved = &savedSession{Addr: addr, Key: "b0000000000000000000000000000000", RoomID: 7, Slot: 1,
				Token: "00112233445566778899aabbccddeeff", Saved: time.Now()}
			if err := app.carry(app.flow.apply(tc.in)); err != nil {
				t.Fatal(err)
			}
			g := app.net
			if g == nil {
				t.Fatal("nothing dialled")
			}
			defer func() {
				app.Close()
				// The dial writes the host key into the settings folder:
				// it must be over before the test's folder is removed.
				testwait.Until(10*time.Second, func() bool { g.mu.Lock(); defer g.mu.Unlock(); return !g.dialing })
			}()
			g.mu.Lock()
			room, server := g.roomID, g.server
			g.mu.Unlock()
			if g.cfg.room != tc.wantRoom || room != tc.wantRoom {
				t.Errorf("dialled room %d (the lobby's %d), want %d", g.cfg.room, room, tc.wantRoom)
			}
			if tc.wantRoom != 0 && server != addr {
				t.Errorf("the lobby's server is %q, want %s", server, addr)
			}
			if gotTok := g.cfg.token != ([16]byte{}); gotTok != tc.wantTok {
				t.Errorf("dialled with the kept token: %v, want %v", gotTok, tc.wantTok)
			}
		})
	}
}

// TestGoneServerRoomForgetsTheSession: a Rejoin to a room on a server that
// the server has closed since (the others left) is refused as no room;
// the kept session is then forgotten, so that the main menu offers no
// Rejoin that can never work. A refusal for another reason, or of
// another room, keeps it.
func TestGoneServerRoomForgetsTheSession(t *testing.T) {
	const addr = "127.0.0.1:7793"
	for _, tc := range []struct {
		name     string
		roomID   uint32 // the room dialled
		server   string
		reason   wire.RefuseReason
		wantKept bool
	}{
		{name: "room gone", roomID: 7, server: addr, reason: wire.RefuseNoRoom},
		{name: "another room gone", roomID: 9, server: addr, reason: wire.RefuseNoRoom, wantKept: true},
		{name: "same id, another server", roomID: 7, server: "127.0.0.2:7793", reason: wire.RefuseNoRoom, wantKept: true},
		{name: "room full", roomID: 7, server: addr, reason: wire.RefuseFull, wantKept: true},
		{name: "token unknown", roomID: 7, server: addr, reason: wire.RefuseBadToken},
	} {
		t.Run(tc.name, func(t *testing.T) {
			app := newTestApp(t, nil)
			sv := savedSession{Addr: addr, RoomID: 7, Room: "Ada’s game", Slot: 1, Token: "00112233445566778899aabbccddeeff", Saved: time.Now()}
			if err := saveSession(app.settingsDir, sv); err != nil {
				t.Fatal(err)
			}
			app.saved = &sv
			app.net = &netGame{addr: tc.server, server: tc.server, roomID: tc.roomID}
			app.nv = netView{ok: true, phase: phaseRefused, slot: -1, refusal: wire.Refuse{Reason: tc.reason}}
			app.keepSession()
			_, onDisk, err := loadSession(app.settingsDir, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if kept := app.saved != nil; kept != tc.wantKept || onDisk != tc.wantKept {
				t.Errorf("session kept %v (on disk %v), want %v", kept, onDisk, tc.wantKept)
			}
		})
	}
}

// TestRejoinCountsDown: the kept session says when the player was last
// seen playing (renewed every sessionSeenEvery while it plays, no more
// often); after a crash, the main menu's Rejoin button says how long the
// room still holds its place, and once that is past, only where it goes.
func TestRejoinCountsDown(t *testing.T) {
	seen := time.Date(2026, 11, 29, 4, 0, 0, 0, time.UTC)
	sv := savedSession{Addr: "192.0.2.7:7777", Room: "Ada’s game", Token: "00112233445566778899aabbccddeeff", Saved: seen, Seen: seen}
	for _, tc := range []struct {
		after time.Duration
		want  string
	}{
		{0, "Rejoin “Ada’s game” · 30 s left"},
		{2500 * time.Millisecond, "Rejoin “Ada’s game” · 28 s left"},
		{29*time.Second + time.Millisecond, "Rejoin “Ada’s game” · 1 s left"},
		{rejoinHold, "Rejoin “Ada’s game”"},
		{time.Hour, "Rejoin “Ada’s game”"},
	} {
		if got := sv.rejoinLabel(seen.Add(tc.after)); got != tc.want {
			t.Errorf("%v after it was last seen: %q, want %q", tc.after, got, tc.want)
		}
	}
	old := sv
	old.Seen, old.Room = time.Time{}, ""
	if got := old.rejoinLabel(seen); got != "Rejoin 192.0.2.7:7777" {
		t.Errorf("a file from before Seen was kept: %q, want no countdown", got)
	}

	app := newTestApp(t, nil)
	kept := sv
	app.saved = &kept
	app.touchSession(seen.Add(sessionSeenEvery - time.Millisecond))
	if app.saved.Seen != seen {
		t.Errorf("Seen renewed after %v: want every %v", sessionSeenEvery-time.Millisecond, sessionSeenEvery)
	}
	app.touchSession(seen.Add(sessionSeenEvery))
	got, ok, err := loadSession(app.settingsDir, seen.Add(sessionSeenEvery))
	if !ok || err != nil || !got.Seen.Equal(seen.Add(sessionSeenEvery)) {
		t.Fatalf("kept %+v (%v, %v): want Seen renewed at %v", got, ok, err, seen.Add(sessionSeenEvery))
	}

	// The menu's button counts down (from the clock's now: the menu reads it).
	got.Seen = time.Now()
	app.saved = &got
	m := newMenuScreen(app)
	if m.rejoin == nil || !strings.HasSuffix(m.rejoinLabel, " s left") {
		t.Fatalf("the menu's Rejoin button: %v, %q", m.rejoin, m.rejoinLabel)
	}
	m.tickRejoin(got.Seen.Add(10 * time.Second))
	if want := "Rejoin “Ada’s game” · 20 s left"; m.rejoinLabel != want {
		t.Errorf("the button after 10 s: %q, want %q", m.rejoinLabel, want)
	}
}

// TestKeptSessionFollowsTheGameToTheServer: when no player could carry
// the game on and it moved to a room on a community server, the kept
// session names the server and that room, with its secret (it is
// unlisted: a Join without it is refused), so that a Rejoin after a crash
// lands in the moved game, not in the server's default room. The room and
// the secret are the client's report (client.Client.ServerRoom), as the
// window reads it; the game moved whether this player had joined a home
// host or a room on another server.
func TestKeptSessionFollowsTheGameToTheServer(t *testing.T) {
	const server = "192.0.2.50:7777"
	for _, tc := range []struct {
		name   string
		before *netGame
	}{
		{name: "from a home host", before: &netGame{addr: "192.0.2.7:7777"}},
		{name: "from a server room", before: &netGame{addr: "127.0.0.1:7793", server: "127.0.0.1:7793", roomID: 7, roomSecret: 5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			app := newTestApp(t, nil)
			app.net = tc.before
			app.nv = netView{ok: true, phase: phasePlaying, slot: 2, token: [16]byte{7, 7}}
			app.keepSession()
			// The host went away; the game plays on at the server.
			app.net.addr, app.net.handovers = server, 1
			app.nv.server, app.nv.movedRoom, app.nv.movedSecret = "Friday night", 0x80001234, 0xfedcba9876543210
			app.keepSession()
			got, ok, err := loadSession(app.settingsDir, time.Now())
			if !ok || err != nil {
				t.Fatalf("no kept session: ok %v err %v", ok, err)
			}
			if got.Addr != server || got.RoomID != 0x80001234 || got.RoomSecret != 0xfedcba9876543210 || got.Slot != 2 {
				t.Errorf("kept %s room %#x secret %#x slot %d, want %s room 0x80001234 secret 0xfedcba9876543210 slot 2",
					got.Addr, got.RoomID, got.RoomSecret, got.Slot, server)
			}
		})
	}
}

// TestRejoinOnServer: the room runs here, and our crash moves the game
// to a community server when no other successor is one a majority can
// reach (all Unreached) and the room names a server: the kept session
// then names that server, its pinned key and the game's move key.
// Otherwise it does not (a successor carries the game on, or nobody).
func TestRejoinOnServer(t *testing.T) {
	bob := wire.Successor{Slot: 1, Addr: netip.MustParseAddrPort("192.0.2.9:40001"), Unreached: true}
	cy := wire.Successor{Slot: 2, Addr: netip.MustParseAddrPort("192.0.2.10:40002"), Unreached: true}
	me := wire.Successor{Slot: 0, Addr: netip.MustParseAddrPort("192.0.2.7:40000")}
	friday := []wire.FallbackServer{{Name: "Friday night", Addr: "198.51.100.9:7777", Key: [16]byte{0xf0}}, {Addr: "203.0.113.1:7777"}}
	reached := cy
	reached.Unreached = false
	for _, tc := range []struct {
		name string
		list []wire.Successor
		srv  []wire.FallbackServer
		want bool
	}{
		{"every other successor unreached, a server", []wire.Successor{bob, cy}, friday, true},
		{"our own entry passed over", []wire.Successor{me, bob, cy}, friday, true},
		{"no server", []wire.Successor{bob, cy}, nil, false},
		{"a reachable successor carries it on", []wire.Successor{bob, reached}, friday, false},
		{"nobody to take it there", []wire.Successor{me}, friday, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			succ := wire.Successors{Game: 3, List: tc.list, Servers: tc.srv, Tokens: [8][16]byte{{1}, {2}, {3}}}
			addr, fp, key, ok := rejoinOnServer(0, succ)
			if ok != tc.want {
				t.Fatalf("ok %v, want %v", ok, tc.want)
			}
			if ok && (addr != "198.51.100.9:7777" || fp != "f0000000000000000000000000000000" || key != migrate.MoveKey(succ)) {
				t.Errorf("got %s %s %x, want the first server, its pinned key and the game's move key", addr, fp, key)
			}
		})
	}
}

// TestHostsKeptSessionFollowsTheGameToTheServer: the host's kept session
// names the server its crash would move the game to, with the game's move
// key, while no other successor is reachable; once one is, it names that
// successor and no key. A Rejoin of a session with a move key finds the
// room on the server by it.
func TestHostsKeptSessionFollowsTheGameToTheServer(t *testing.T) {
	app := newTestApp(t, nil)
	tok := [16]byte{9, 8, 7}
	bob := wire.Successor{Slot: 1, Addr: netip.MustParseAddrPort("192.0.2.9:40001"), Key: [16]byte{0xb0}, Unreached: true}
	cy := wire.Successor{Slot: 2, Addr: netip.MustParseAddrPort("192.0.2.10:40002"), Key: [16]byte{0xc0}, Unreached: true}
	succ := wire.Successors{Game: 2, List: []wire.Successor{bob, cy}, Servers: []wire.FallbackServer{{Name: "Friday night", Addr: "127.0.0.1:9"}},
		Tokens: [8][16]byte{{1}, {2}, {3}}}
	app.net = &netGame{addr: "127.0.0.1:7777"}
	app.nv = netView{ok: true, phase: phasePlaying, slot: 0, token: tok, roomHere: true, succ: succ}
	app.keepSession()
	s, ok, err := loadSession(app.settingsDir, time.Now())
	key := migrate.MoveKey(succ)
	if !ok || err != nil || s.Addr != "127.0.0.1:9" || s.MoveKey != hex.EncodeToString(key[:]) || s.Key != "" || s.RoomID != 0 {
		t.Fatalf("kept %+v (ok %v, err %v), want the server 127.0.0.1:9 with the game's move key %x", s, ok, err, key)
	}

	rejoin := newTestApp(t, nil)
	rejoin.flow.screen = screenMenu
	rejoin.saved = &s
	if err := rejoin.carry(rejoin.flow.apply(Intent{Kind: IntentRejoin, Addr: s.Addr})); err != nil {
		t.Fatal(err)
	}
	g := rejoin.net
	if g == nil {
		t.Fatal("nothing dialled")
	}
	if g.cfg.moveKey != key || g.cfg.token != tok || g.cfg.room != 0 {
		t.Errorf("the Rejoin dialled with move key %x, token %x, room %d; want %x, %x, 0", g.cfg.moveKey, g.cfg.token, g.cfg.room, key, tok)
	}
	rejoin.Close()
	testwait.Until(10*time.Second, func() bool { g.mu.Lock(); defer g.mu.Unlock(); return !g.dialing })

	reached := cy
	reached.Unreached = false
	app.nv.succ.List = []wire.Successor{reached, bob} // the room lists the unreached last
	app.keepSession()
	s, ok, _ = loadSession(app.settingsDir, time.Now())
	if !ok || s.Addr != "192.0.2.10:40002" || s.MoveKey != "" {
		t.Errorf("with Cy reachable the kept session is %+v, want Cy's address and no move key", s)
	}
}

// TestAskMovedWaitsForThePlayers: a Rejoin of the moved game pressed
// before the players reached the server is asked again until the room is
// there; any other answer, or the last try, is final.
func TestAskMovedWaitsForThePlayers(t *testing.T) {
	notYet := fmt.Errorf("rejoin the moved game at x: %w", client.ErrNoMovedGame)
	refused := errors.New("refused")
	for _, tt := range []struct {
		name    string
		answers []error // what each ask returns, in order
		tries   int
		want    error
		asked   int
	}{
		{"the room is there at once", []error{nil}, 10, nil, 1},
		{"the players arrive at the third ask", []error{notYet, notYet, nil}, 10, nil, 3},
		{"another refusal is final", []error{refused}, 10, refused, 1},
		{"nobody comes: the last try's answer", []error{notYet, notYet, notYet, notYet}, 3, notYet, 3},
	} {
		asked := 0
		err := askMoved(context.Background(), time.Millisecond, tt.tries, func() error {
			asked++
			return tt.answers[min(asked, len(tt.answers))-1]
		})
		if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) || asked != tt.asked {
			t.Errorf("%s: %v after %d asks, want %v after %d", tt.name, err, asked, tt.want, tt.asked)
		}
	}
}
