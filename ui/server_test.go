package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"rockstep/internal/testwait"
	"rockstep/net/client"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/portmap"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// serverPatience bounds the waits of these tests.
const serverPatience = 30 * time.Second

// startKeyedServer serves a host on addr ("127.0.0.1:0": any port) with
// the host key k.
func startKeyedServer(t *testing.T, k *transport.HostKey, addr string) (*transport.Server, func()) {
	t.Helper()
	tc := transport.LAN()
	tc.HostKey = k
	srv, err := transport.Listen(addr, tc)
	if err != nil {
		t.Fatal(err)
	}
	h := host.New(host.LAN())
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { done <- h.Serve(ctx, srv) }()
	var once bool
	stopFn := func() {
		if once {
			return
		}
		once = true
		cancel()
		select {
		case <-done:
		case <-time.After(hosttest.StopLimit):
			t.Error("the server did not stop")
		}
	}
	t.Cleanup(stopFn)
	return srv, stopFn
}

// waitServerGame waits until the dial or create of g is over.
func waitServerGame(t *testing.T, g *netGame) {
	t.Helper()
	if !testwait.Until(serverPatience, func() bool { dialing, _ := g.status(); return !dialing }) {
		t.Fatal("the server was not reached")
	}
}

// TestServerKeyPinned: the first room opened on a known server pins its
// host key (trust on first use); the same server restarted with a new key
// is refused, and the player is told both fingerprints.
func TestServerKeyPinned(t *testing.T) {
	k1, err1 := transport.NewHostKey()
	k2, err2 := transport.NewHostKey()
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	srv, stop := startKeyedServer(t, k1, "127.0.0.1:0")
	addr := srv.Addr().String()

	a := &App{settings: DefaultSettings()}
	if _, err := a.settings.addServer(addr); err != nil {
		t.Fatal(err)
	}
	a.flow.hosting = true
	known, _ := a.settings.server(addr)
	a.net = hostOnServer(a.netConfig(), known, "first")
	waitServerGame(t, a.net)
	if _, err := a.net.status(); err != nil {
		t.Fatalf("first room: %v", err)
	}
	a.net.read(&a.nv)
	a.pinServers()
	if got, _ := a.settings.server(addr); got.Fingerprint != k1.Fingerprint() {
		t.Fatalf("pinned %q after the first room, want the server's key %q", got.Fingerprint, k1.Fingerprint())
	}
	if id, at, _ := a.nv.serverRoom(); id == 0 || at != addr {
		t.Fatalf("serverRoom = %d at %q, want a room at %s", id, at, addr)
	}
	<-a.net.close()
	stop()

	startKeyedServer(t, k2, addr) // restarted, with another key
	known, _ = a.settings.server(addr)
	g := hostOnServer(a.netConfig(), known, "second")
	defer func() { <-g.close() }()
	waitServerGame(t, g)
	_, err := g.status()
	var changed *ServerKeyError
	if !errors.As(err, &changed) {
		t.Fatalf("after the restart with a new key: %v, want a ServerKeyError", err)
	}
	text := dialErrorText(addr, err)
	for _, want := range []string{transport.FormatFingerprint(k1.Fingerprint()), transport.FormatFingerprint(k2.Fingerprint()), addr} {
		if !strings.Contains(text, want) {
			t.Errorf("the player is told %q: want it to name %q", text, want)
		}
	}
	if got, _ := a.settings.server(addr); got.Fingerprint != k1.Fingerprint() {
		t.Errorf("the pin changed to %q: want the first key kept", got.Fingerprint)
	}
}

// TestKnownServers: adding, re-adding, removing and repairing the list.
func TestKnownServers(t *testing.T) {
	var s Settings
	for _, tt := range []struct {
		name, in, want string
		n              int
	}{
		{"a name gets the default port", "rocks.example", "rocks.example:7777", 1},
		{"an address with a port", "192.0.2.1:9000", "192.0.2.1:9000", 2},
		{"a known one is not added twice", "rocks.example:7777", "rocks.example:7777", 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.addServer(tt.in)
			if err != nil || got != tt.want || len(s.Servers) != tt.n {
				t.Fatalf("addServer(%q) = %q, %v with %d known; want %q with %d", tt.in, got, err, len(s.Servers), tt.want, tt.n)
			}
		})
	}
	if _, err := s.addServer("bad address/"); err == nil {
		t.Error("a bad address was added")
	}
	if !s.pinServer("192.0.2.1:9000", strings.Repeat("ab", 16)) || s.pinServer("192.0.2.1:9000", strings.Repeat("cd", 16)) {
		t.Error("pinServer: want the first key pinned and a later one refused")
	}
	s.removeServer("rocks.example:7777")
	if len(s.Servers) != 1 || s.Servers[0].Addr != "192.0.2.1:9000" {
		t.Fatalf("after remove: %+v", s.Servers)
	}
	s.Servers = append(s.Servers, KnownServer{Addr: "192.0.2.1:9000"}, KnownServer{Addr: "x:1", Fingerprint: "nothex"}, KnownServer{Addr: "bad address/"})
	if fixed := s.repairServers(); len(fixed) != 3 || len(s.Servers) != 2 || s.Servers[1].Fingerprint != "" {
		t.Errorf("repairServers said %q and kept %+v: want the duplicate and the bad address dropped, the bad key forgotten", fixed, s.Servers)
	}
}

// TestMoveOffer: the lobby offers to move our room to a known server only
// while the room runs here, nobody else joined, and the router left it
// closed.
func TestMoveOffer(t *testing.T) {
	for _, tt := range []struct {
		name    string
		verdict portmap.Verdict
		players int
		servers int
		want    bool
	}{
		{"no answer, alone, a server known", portmap.NoAnswer, 1, 1, true},
		{"double NAT", portmap.DoubleNAT, 1, 1, true},
		{"still asking", portmap.Asking, 1, 1, false},
		{"the router opened the port", portmap.Opened, 1, 1, false},
		{"port mapping off", portmap.Off, 1, 1, false},
		{"someone joined", portmap.NoAnswer, 2, 1, false},
		{"no server known", portmap.NoAnswer, 1, 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := &App{settings: DefaultSettings()}
			for i := 0; i < tt.servers; i++ {
				a.settings.Servers = append(a.settings.Servers, KnownServer{Addr: "192.0.2.1:7777"})
			}
			a.flow.hosting = true
			a.net = &netGame{h: host.New(host.LAN())}
			a.nv = netView{g: a.net, ok: true, phase: phaseLobby, portmap: portmap.Status{Verdict: tt.verdict}}
			a.nv.setup.Players = make([]wire.Player, tt.players)
			if _, got := a.moveServer(); got != tt.want {
				t.Errorf("offered %v, want %v", got, tt.want)
			}
		})
	}
}

// TestServerFlow: Host on a server opens the lobby and asks the shell for
// a room there; the host's lobby moves its room; Join's server row dials
// the room pinned to the server's key; a guest cannot move a room.
func TestServerFlow(t *testing.T) {
	for _, tt := range []struct {
		name    string
		from    flow
		in      Intent
		screen  screenID
		want    []effect
		hosting bool
	}{
		{"host on a server", flow{screen: screenMenu}, Intent{Kind: IntentHostServer, Addr: "192.0.2.1:7777"},
			screenLobby, []effect{{kind: effHostServer, addr: "192.0.2.1:7777"}}, true},
		{"move the room", flow{screen: screenLobby, hosting: true}, Intent{Kind: IntentMoveToServer, Addr: "192.0.2.1:7777"},
			screenLobby, []effect{{kind: effHostServer, addr: "192.0.2.1:7777"}}, true},
		{"a guest moves nothing", flow{screen: screenLobby}, Intent{Kind: IntentMoveToServer, Addr: "192.0.2.1:7777"},
			screenLobby, nil, false},
		{"join a server room", flow{screen: screenJoin}, Intent{Kind: IntentJoinRoom, Addr: "192.0.2.1:7777", Room: 5, Pin: "ab12", Name: "Friday"},
			screenJoin, []effect{{kind: effDial, addr: "192.0.2.1:7777", hostFP: "ab12", room: 5}}, false},
		{"one join at a time", flow{screen: screenJoin, target: "elsewhere"}, Intent{Kind: IntentJoinRoom, Addr: "192.0.2.1:7777", Room: 5},
			screenJoin, nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.from
			got := f.apply(tt.in)
			if fmt.Sprint(got) != fmt.Sprint(tt.want) || f.screen != tt.screen || f.hosting != tt.hosting {
				t.Errorf("effects %+v, screen %v, hosting %v; want %+v, %v, %v", got, f.screen, f.hosting, tt.want, tt.screen, tt.hosting)
			}
		})
	}
}

// TestServerRows: the Join screen's rows of a server's rooms say which
// can be joined, and why not; a server that did not answer says so.
func TestServerRows(t *testing.T) {
	servers := []KnownServer{{Addr: "192.0.2.1:7777"}, {Addr: "192.0.2.2:7777"}, {Addr: "192.0.2.3:7777"}}
	lists := map[string]serverListing{
		"192.0.2.1:7777": {list: client.RoomList{Addr: "192.0.2.1:7777", Fingerprint: "ff", Rooms: []wire.RoomInfo{
			{RoomID: 2, Name: "open", Players: 1, Max: 8, State: wire.StateSetup, Version: wire.Version},
			{RoomID: 3, Name: "full", Players: 4, Max: 4, State: wire.StateSetup, Version: wire.Version},
			{RoomID: 4, Name: "running", Players: 3, Max: 8, State: wire.StateRunning, Version: wire.Version},
			{RoomID: 5, Name: "old", Players: 1, Max: 8, State: wire.StateSetup, Version: wire.Version + 1},
		}}, gone: goneRooms([]wire.RoomInfo{{RoomID: 2}, {RoomID: 9, Name: "closed"}}, []wire.RoomInfo{{RoomID: 2}})},
		"192.0.2.2:7777": {err: &ServerKeyError{Addr: "192.0.2.2:7777", Old: strings.Repeat("a", 32), New: strings.Repeat("b", 32)}},
	}
	rows := serverRows(servers, func(a string) (serverListing, bool) { l, ok := lists[a]; return l, ok })
	want := []struct {
		action string
		join   bool
		note   string
	}{{"Gone", false, ""}, {"Join", true, ""}, {"Full", false, ""}, {"Watch", true, ""}, {"Incompatible", false, ""},
		{"", false, "aaaa aaaa"}, {"", false, "asking 192.0.2.3:7777"}}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(rows), len(want), rows)
	}
	for i, w := range want {
		r := rows[i]
		if r.Action != w.action || r.Joinable != w.join || !strings.Contains(r.Note, w.note) {
			t.Errorf("row %d: %q joinable %v note %q; want %q %v %q", i, r.Action, r.Joinable, r.Note, w.action, w.join, w.note)
		}
	}
	if rows[0].Room.Name != "closed" {
		t.Errorf("the gone row is room %q, want the one closed since the last listing", rows[0].Room.Name)
	}
	if rows[1].Pin != "ff" || rows[1].Addr != "192.0.2.1:7777" {
		t.Errorf("the open room's row dials %s pinned to %q", rows[1].Addr, rows[1].Pin)
	}
}

// TestServerWhere: the lobby of a server room says where it is, that the
// pings are to the server, and the input delay once a game has set it.
func TestServerWhere(t *testing.T) {
	for _, tt := range []struct {
		name     string
		hosting  bool
		k, delay int
		want     []string
	}{
		{"the host, before the first game", true, 0, 0, []string{"You host this game on the server 192.0.2.1:7777 (room 4)", "Pings are to the server", "sets the input delay from them when the game starts"}},
		{"a guest, after a game", false, 2, 3, []string{"A room on the server 192.0.2.1:7777 (room 4)", "Pings are to the server", "input delay is 3 turns (100 ms)"}},
		{"one turn", false, 1, 1, []string{"input delay is 1 turn (16 ms)"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			nv := &netView{}
			nv.stats.K, nv.stats.Delay = tt.k, tt.delay
			got := serverWhere(4, "192.0.2.1:7777", tt.hosting, nv)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("serverWhere = %q, want it to say %q", got, w)
				}
			}
		})
	}
}
