package web_test

import (
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"rockstep/internal/testwait"
	"rockstep/net/bots"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/invite"
	"rockstep/net/transport"
	"rockstep/net/web"
)

const testKey = "open-sesame"

// startWeb serves a host (with room keys, if any) and its web face on
// loopback.
func startWeb(t *testing.T, keys ...string) (*hosttest.Server, *httptest.Server) {
	t.Helper()
	hcfg := host.LAN()
	hcfg.RoomKeys = keys
	hs := hosttest.Start(t, transport.LAN(), hcfg)
	h := web.New(web.Config{Server: hs.Transport, Addrs: []netip.AddrPort{hs.Transport.Addr()}})
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return hs, ts
}

func post(t *testing.T, url, key, body string) (*http.Response, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&v)
	return resp, v
}

func listRooms(t *testing.T, url string) []web.ListedRoom {
	t.Helper()
	resp, err := http.Get(url + "/rooms")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /rooms: %s", resp.Status)
	}
	var l []web.ListedRoom
	if err := json.NewDecoder(resp.Body).Decode(&l); err != nil {
		t.Fatalf("GET /rooms: %v", err)
	}
	return l
}

// POST /rooms is the room key's: refused without it or with another (401),
// a room with it (201, an id, a code naming that room on this server, a
// /join/ link); GET /rooms lists the listed room and never the unlisted one.
func TestRoomsByHTTP(t *testing.T) {
	hs, ts := startWeb(t, testKey)
	setup := `{"name":"cup","mode":"versus","lives":2,"wave":3,"options":{"saucers":false},"seed":42}`
	for _, tc := range []struct {
		name, key string
		want      int
	}{
		{"no key", "", http.StatusUnauthorized},
		{"another key", "guess", http.StatusUnauthorized},
	} {
		resp, _ := post(t, ts.URL+"/rooms", tc.key, setup)
		if resp.StatusCode != tc.want {
			t.Errorf("%s: POST /rooms = %s, want %d", tc.name, resp.Status, tc.want)
		}
	}
	resp, v := post(t, ts.URL+"/rooms", testKey, `{"mode":"chess"}`)
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a bad setup: POST /rooms = %s, want 400", resp.Status)
	}
	resp, v = post(t, ts.URL+"/rooms", testKey, setup)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("with the key: POST /rooms = %s %v, want 201", resp.Status, v)
	}
	code, _ := v["code"].(string)
	c, err := invite.Decode(code)
	if err != nil {
		t.Fatalf("the answered code %q: %v", code, err)
	}
	if id, _ := v["id"].(float64); c.RoomID != uint32(id) || c.RoomID < 2 {
		t.Errorf("code's room %d, answer's id %v", c.RoomID, v["id"])
	}
	if c.Addrs[0] != hs.Transport.Addr() || !strings.HasPrefix(hs.Transport.HostKey().Fingerprint(), c.Fingerprint()) {
		t.Errorf("code names %v pin %s, want the server's address and key", c.Addrs, c.Fingerprint())
	}
	if url, _ := v["url"].(string); url != ts.URL+"/join/"+code {
		t.Errorf("url %q, want %q", url, ts.URL+"/join/"+code)
	}
	link, _ := invite.FromLink(v["url"].(string))
	if link != code {
		t.Errorf("invite.FromLink(url) = %q, want the code %q", link, code)
	}

	_, hidden := post(t, ts.URL+"/rooms", testKey, `{"name":"secret","unlisted":true}`)
	hiddenID, _ := hidden["id"].(float64)
	if hiddenID == 0 {
		t.Fatalf("unlisted room not created: %v", hidden)
	}
	ids := map[uint32]string{}
	for _, r := range listRooms(t, ts.URL) {
		ids[r.ID] = r.Name
	}
	if ids[c.RoomID] != "cup" {
		t.Errorf("GET /rooms = %v: no room %d named cup", ids, c.RoomID)
	}
	if _, ok := ids[uint32(hiddenID)]; ok {
		t.Errorf("GET /rooms = %v lists the unlisted room %v", ids, hiddenID)
	}
}

// Without a room key configured, anyone may create rooms, as over UDP.
func TestRoomsOpenWithoutKey(t *testing.T) {
	_, ts := startWeb(t)
	resp, v := post(t, ts.URL+"/rooms", "", `{}`)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /rooms = %s %v, want 201", resp.Status, v)
	}
}

// A room made by POST /rooms is played to its end by bots over UDP and a
// bot over the WebSocket endpoint, together: one hash.
func TestWebSocketBotPlaysWithUDPBots(t *testing.T) {
	for _, tc := range []struct {
		name   string
		netsim transport.Impairment
	}{
		{"loopback", transport.Impairment{}},
		{"80ms 2% loss", transport.Impairment{Latency: 80 * time.Millisecond, Loss: 0.02}},
	} {
		t.Run(tc.name, func(t *testing.T) { wsBotGame(t, tc.netsim) })
	}
}

func wsBotGame(t *testing.T, netsim transport.Impairment) {
	hcfg := host.LAN()
	hcfg.RoomKeys = []string{testKey}
	hs := hosttest.Start(t, transport.LAN(), hcfg)
	ts := httptest.NewServer(web.New(web.Config{Server: hs.Transport, Addrs: []netip.AddrPort{hs.Transport.Addr()}, Netsim: netsim}))
	t.Cleanup(ts.Close)
	resp, v := post(t, ts.URL+"/rooms", testKey, `{"seed":7}`)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /rooms = %s %v", resp.Status, v)
	}
	c, err := invite.Decode(v["code"].(string))
	if err != nil {
		t.Fatal(err)
	}
	ws := "ws" + strings.TrimPrefix(ts.URL, "http") + "/ws"
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	sums := make([]bots.Summary, 2)
	errs := make([]error, 2)
	for i, addr := range []string{hs.Addr(), ws} {
		n := 2
		if i == 1 {
			n = 1
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sums[i], errs[i] = bots.RunRemote(ctx, bots.RemoteConfig{Addr: addr, Bots: n, Players: 3, Ticks: 300, Seed: uint64(i + 1),
				Transport: transport.LAN(), Pin: c.Fingerprint(), RoomID: c.RoomID})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("bots %d: %v", i, err)
		}
	}
	if sums[0].HashGroups != 1 || sums[1].HashGroups != 1 || sums[0].Hash != sums[1].Hash {
		t.Errorf("UDP bots hash %x (%d groups), WebSocket bot %x: want one hash", sums[0].Hash, sums[0].HashGroups, sums[1].Hash)
	}
	if sums[1].Played == 0 {
		t.Error("the WebSocket bot played no tick")
	}
}

// The endpoint refuses a foreign Origin, limits connections per address as
// UDP sessions are, and an oversized message closes only its connection.
func TestWebSocketEndpointLimits(t *testing.T) {
	tc := transport.LAN()
	tc.MaxPerIP = 2
	hcfg := host.LAN()
	hs := hosttest.Start(t, tc, hcfg)
	ts := httptest.NewServer(web.New(web.Config{Server: hs.Transport, Addrs: []netip.AddrPort{hs.Transport.Addr()}}))
	t.Cleanup(ts.Close)
	ws := "ws" + strings.TrimPrefix(ts.URL, "http") + "/ws"
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	_, resp, err := websocket.Dial(ctx, ws, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"https://evil.example"}}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("a foreign Origin: err %v, resp %v; want 403", err, resp)
	}

	var conns []*websocket.Conn
	for range 2 {
		c, _, err := websocket.Dial(ctx, ws, nil)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	if !testwait.Until(20*time.Second, func() bool { return hs.Transport.CarriedConns() == 2 }) {
		t.Fatalf("CarriedConns = %d, want 2", hs.Transport.CarriedConns())
	}
	third, _, err := websocket.Dial(ctx, ws, nil)
	if err == nil {
		_, _, err = third.Read(ctx)
	}
	if websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
		t.Errorf("a third connection from one address: %v, want closed for policy (1008)", err)
	}
	if err := conns[0].Write(ctx, websocket.MessageBinary, make([]byte, 4000)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := conns[0].Read(ctx); websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
		t.Errorf("after an oversized message: %v, want closed as too big (1009)", err)
	}
	if !testwait.Until(20*time.Second, func() bool { return hs.Transport.CarriedConns() == 1 }) {
		t.Fatalf("CarriedConns = %d, want 1 (only the oversized message's connection closed)", hs.Transport.CarriedConns())
	}
	// Garbage (random bytes, truncated handshakes, forged sealed kinds) on
	// the other connection is dropped and counted, as a UDP datagram's
	// would be; the connection stays, and a handshake over it works.
	rng := rand.New(rand.NewPCG(54, 1))
	dropsBefore := malformed(hs.Transport.Stats())
	for i := range 200 {
		msg := make([]byte, 1+rng.IntN(transport.LAN().MTU)) // larger: an oversized message, which closes (above)
		for j := range msg {
			msg[j] = byte(rng.Uint32())
		}
		msg[0] = byte(i % 12) // every kind, known or not
		if err := conns[1].Write(ctx, websocket.MessageBinary, msg); err != nil {
			t.Fatalf("garbage %d: %v", i, err)
		}
	}
	if !testwait.Until(20*time.Second, func() bool { return malformed(hs.Transport.Stats()) > dropsBefore }) {
		t.Error("no garbage counted as dropped")
	}
	// The other connection is still served: a handshake over it works.
	cfg := transport.LAN()
	cfg.HostFingerprint = hs.Transport.HostKey().Fingerprint()
	cl, err := transport.DialCarrier(ctx, "ws", transport.WebSocketCarrier(conns[1]), cfg)
	if err != nil {
		t.Fatalf("handshake over the other connection: %v", err)
	}
	cl.Close()
}

// malformed counts the datagrams a server dropped, for every reason.
func malformed(st transport.ServerStats) uint64 {
	var n uint64
	for _, d := range st.Dropped {
		n += d
	}
	return n
}

// A server built without the game for browsers (go build, go run) still
// serves the page, rooms and the WebSocket; the game's URL says how to
// build it.
func TestPageWithoutGame(t *testing.T) {
	_, ts := startWeb(t)
	for _, tc := range []struct {
		path, want string
		status     int
	}{
		{"/", "Loading the game", http.StatusOK},
		{"/join/K7QM-ABCD", "Loading the game", http.StatusOK},
		{"/rockstep.wasm", "Build it with `make`", http.StatusNotFound},
		{"/healthz", "ok", http.StatusOK},
	} {
		resp, err := http.Get(ts.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || !strings.Contains(string(body), tc.want) {
			t.Errorf("GET %s = %s %.60q, want %d with %q", tc.path, resp.Status, body, tc.status, tc.want)
		}
	}
}

// Config.Origins (-web-origin) lets pages of other hosts in, and only them.
func TestWebSocketOrigins(t *testing.T) {
	hs := hosttest.Start(t, transport.LAN(), host.LAN())
	ts := httptest.NewServer(web.New(web.Config{Server: hs.Transport, Origins: []string{"*.example.org"}}))
	t.Cleanup(ts.Close)
	ws := "ws" + strings.TrimPrefix(ts.URL, "http") + "/ws"
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, tc := range []struct {
		origin string
		ok     bool
	}{
		{"https://play.example.org", true},
		{"https://example.com", false},
		{ts.URL, true}, // the page's own host, always
	} {
		c, resp, err := websocket.Dial(ctx, ws, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {tc.origin}}})
		if tc.ok != (err == nil) {
			t.Errorf("Origin %s: err %v (resp %v), want accepted %v", tc.origin, err, resp, tc.ok)
		}
		if c != nil {
			c.CloseNow()
		}
	}
}
