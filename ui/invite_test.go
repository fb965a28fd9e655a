package ui

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"rockstep/internal/testwait"
	"rockstep/net/client"
	"rockstep/net/invite"
	"rockstep/net/lan"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

const uiTestFP = "0123456789abcdef0123456789abcdef"

// inviteTestPatience bounds the wait for the lobby: generous, not a budget.
const inviteTestPatience = 30 * time.Second

func testCode(t *testing.T, addrs ...string) string {
	t.Helper()
	var list []netip.AddrPort
	for _, a := range addrs {
		list = append(list, netip.MustParseAddrPort(a))
	}
	c, err := invite.New(list, uiTestFP)
	if err != nil {
		t.Fatal(err)
	}
	return c.String()
}

// TestJoinCodeFlow: a code typed in the code field, or given to -join (the
// address field's intent), dials all its addresses pinned to its key; a
// garbled one says so and dials nothing.
func TestJoinCodeFlow(t *testing.T) {
	code := testCode(t, "203.0.113.7:7777", "192.168.1.20:7777")
	garbled := []byte(code)
	garbled[0], garbled[1] = garbled[1], garbled[0]
	if garbled[0] == garbled[1] {
		garbled[0] = map[bool]byte{true: 'A', false: 'B'}[garbled[0] != 'A'] // another symbol
	}
	for _, tc := range []struct {
		name      string
		in        Intent
		wantAddrs []string
		wantErr   string
	}{
		{"code field", Intent{Kind: IntentJoinCode, Addr: code}, []string{"203.0.113.7:7777", "192.168.1.20:7777"}, ""},
		{"code field, typed loosely", Intent{Kind: IntentJoinCode, Addr: strings.ToLower(strings.ReplaceAll(code, "-", " "))}, []string{"203.0.113.7:7777", "192.168.1.20:7777"}, ""},
		{"address field, or -join", Intent{Kind: IntentJoinAddr, Addr: code}, []string{"203.0.113.7:7777", "192.168.1.20:7777"}, ""},
		{"a room's link in the code field", Intent{Kind: IntentJoinCode, Addr: "https://play.example.org/join/" + code}, []string{"203.0.113.7:7777", "192.168.1.20:7777"}, ""},
		{"a room's link in the address field", Intent{Kind: IntentJoinAddr, Addr: "http://127.0.0.1:8080/join/" + code}, []string{"203.0.113.7:7777", "192.168.1.20:7777"}, ""},
		{"two symbols swapped", Intent{Kind: IntentJoinCode, Addr: string(garbled)}, nil, "This invite code is garbled"},
		{"letter O", Intent{Kind: IntentJoinCode, Addr: "O" + code[1:]}, nil, "no 0, O, 1, I or L"},
		{"empty", Intent{Kind: IntentJoinCode, Addr: "  "}, nil, "Type or paste the invite code"},
		{"garbled, in the address field or -join", Intent{Kind: IntentJoinAddr, Addr: string(garbled)}, nil, "This invite code is garbled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &flow{screen: screenJoin}
			effs := f.apply(tc.in)
			if tc.wantErr != "" {
				wantEffects(t, "join", effs)
				if !strings.Contains(f.joinErr, tc.wantErr) {
					t.Errorf("join screen says %q, want %q", f.joinErr, tc.wantErr)
				}
				return
			}
			wantEffects(t, "join", effs, effDial)
			if e := effs[0]; !slices.Equal(e.addrs, tc.wantAddrs) || e.hostFP != uiTestFP[:16] || e.addr != "" {
				t.Errorf("dial %q %q pin %q, want %q pin %q", e.addr, e.addrs, e.hostFP, tc.wantAddrs, uiTestFP[:16])
			}
			if f.joinErr != "" || f.target != codeTarget {
				t.Errorf("joinErr %q target %q, want none and %q", f.joinErr, f.target, codeTarget)
			}
		})
	}
}

// TestJoinCodeFailures: a code's game that is gone says the host did not
// answer; a host with another key is not joined, and the screen says why.
func TestJoinCodeFailures(t *testing.T) {
	code := testCode(t, "192.168.1.20:7777")
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"gone", &client.NoAnswerError{Addrs: []string{"203.0.113.7:7777", "192.168.1.20:7777"}, Err: transport.ErrTimeout}, "The host did not answer (at 203.0.113.7:7777, 192.168.1.20:7777)"},
		{"another key", fmt.Errorf("dial: %w", &transport.HostKeyError{Want: uiTestFP[:16], Got: strings.Repeat("f", 32)}), "is not the host of the game of the invite code (its host key differs)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &flow{screen: screenJoin}
			wantEffects(t, "join", f.apply(Intent{Kind: IntentJoinCode, Addr: code}), effDial)
			wantEffects(t, "failure", f.observe(netStatus{active: true, dialErr: tc.err}), effDisconnect)
			if !strings.Contains(f.joinErr, tc.want) {
				t.Errorf("join screen says %q, want %q", f.joinErr, tc.want)
			}
			if !errors.Is(tc.err, transport.ErrTimeout) && !errors.Is(tc.err, transport.ErrHostKey) {
				t.Fatal("the test's error is not what it says")
			}
		})
	}
}

func TestHostCode(t *testing.T) {
	ifaces := []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("192.168.1.20")}
	for _, tc := range []struct {
		name, listen string
		external     netip.AddrPort
		fp           string
		want         []netip.AddrPort
	}{
		{"LAN", "[::]:7777", netip.AddrPort{}, uiTestFP, []netip.AddrPort{netip.MustParseAddrPort("192.168.1.20:7777")}},
		{"router opened a port", "[::]:7777", netip.MustParseAddrPort("203.0.113.7:40000"), uiTestFP, []netip.AddrPort{netip.MustParseAddrPort("203.0.113.7:40000")}}, // the LAN's left out: a short code
		{"no key yet", "[::]:7777", netip.AddrPort{}, "", nil},
		{"no usable address", "[::]:7777", netip.AddrPort{}, uiTestFP, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := ifaces
			if tc.want == nil && tc.fp != "" {
				in = ifaces[:1]
			}
			got := hostCode(tc.listen, in, tc.external, tc.fp)
			if tc.want == nil {
				if got != "" {
					t.Errorf("hostCode = %q, want none", got)
				}
				return
			}
			c, err := invite.Decode(got)
			if err != nil || !slices.Equal(c.Addrs, tc.want) || c.Fingerprint() != tc.fp[:16] {
				t.Errorf("hostCode = %q → %v, %v; want %v pinned to %s", got, c.Addrs, err, tc.want, tc.fp[:16])
			}
		})
	}
}

// TestJoinScreenGarbledCode: on the join screen, a garbled code typed in
// the invite code field and submitted says so on the screen.
func TestJoinScreenGarbledCode(t *testing.T) {
	app, err := NewApp(Options{Seed: 7, ConfigDir: t.TempDir(), Discovery: &lan.Fake{}, Silent: true})
	if err != nil {
		t.Fatalf("NewApp: %v", err)
	}
	defer app.Close()
	app.script = func(int) Intents { return Intents{} }
	app.emit(Intent{Kind: IntentOpenJoin})
	for range 3 {
		if err := app.Update(); err != nil {
			t.Fatal(err)
		}
	}
	s, ok := app.cur.(*joinScreen)
	if !ok {
		t.Fatalf("screen %T, want the join screen", app.cur)
	}
	code := []byte(testCode(t, "192.168.1.20:7777"))
	code[len(code)-1] = map[bool]byte{true: 'A', false: 'B'}[code[len(code)-1] != 'A']
	s.code.input.SetText(string(code))
	s.code.join.Click()
	for range 3 {
		if err := app.Update(); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(s.status.Label, "This invite code is garbled") {
		t.Errorf("the join screen says %q, want that the code is garbled", s.status.Label)
	}
	if app.net != nil {
		t.Error("a garbled code started a dial")
	}
}

// TestLobbyShowsInviteCode: the lobby of a game we host shows its invite
// code, which holds the room's address and pins our host key.
func TestLobbyShowsInviteCode(t *testing.T) {
	app, err := NewApp(Options{Seed: 7, ConfigDir: t.TempDir(), Discovery: &lan.Fake{}, Listen: "127.0.0.1:0", Name: "Grace", Silent: true})
	if err != nil {
		t.Fatalf("NewApp: %v", err)
	}
	defer app.Close()
	app.script = func(int) Intents { return Intents{} }
	app.emit(Intent{Kind: IntentHost})
	var shown string
	if !testwait.Until(inviteTestPatience, func() bool {
		if err := app.Update(); err != nil {
			t.Fatal(err)
		}
		if s, ok := app.cur.(*lobbyScreen); ok {
			shown = s.invite.code.Label
			return s.invite.shown != ""
		}
		return false
	}) {
		t.Fatalf("no invite code in the lobby (screen %T)", app.cur)
	}
	c, err := invite.Decode(shown)
	if err != nil {
		t.Fatalf("the lobby shows %q: %v", shown, err)
	}
	want := netip.MustParseAddrPort(app.net.addr)
	if len(c.Addrs) != 1 || c.Addrs[0] != want || c.Fingerprint() != app.nv.hostFingerprint()[:16] {
		t.Errorf("the code holds %v pinned to %s, want %v pinned to %s", c.Addrs, c.Fingerprint(), want, app.nv.hostFingerprint()[:16])
	}
}

func TestCodeLines(t *testing.T) {
	for _, tc := range []struct{ code, want string }{
		{"AAAA-BBBB-CC", "AAAA-BBBB-CC"},
		{"AAAA-BBBB-CCCC-DDDD-EEEE-FF", "AAAA-BBBB-CCCC-DDDD-EEEE-FF"},
		{"AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GG", "AAAA-BBBB-CCCC-DDDD\nEEEE-FFFF-GG"},
		{"A1-A2-A3-A4-A5-A6-A7-A8-A9-B1-B2-B3-B4", "A1-A2-A3-A4-A5\nA6-A7-A8-A9-B1\nB2-B3-B4"},
	} {
		if got := codeLines(tc.code); got != tc.want {
			t.Errorf("codeLines(%s) = %q, want %q", tc.code, got, tc.want)
		}
	}
}

// TestCodeNeverBreaksInsideAGroup: however long the code, its lines hold
// whole groups only, with no dash left at a line's end, and read back as
// the code.
func TestCodeNeverBreaksInsideAGroup(t *testing.T) {
	for n := 1; n <= 20; n++ {
		var groups []string
		for i := range n {
			groups = append(groups, fmt.Sprintf("G%03d", i))
		}
		code := strings.Join(groups, "-")
		shown := codeLines(code)
		for _, line := range strings.Split(shown, "\n") {
			if strings.HasSuffix(line, "-") || strings.HasPrefix(line, "-") {
				t.Errorf("%d groups: line %q has a dash at its end", n, line)
			}
			for _, g := range strings.Split(line, "-") {
				if len(g) != 4 {
					t.Errorf("%d groups: line %q breaks a group (%q)", n, line, g)
				}
			}
		}
		if got := strings.ReplaceAll(shown, "\n", "-"); got != code {
			t.Errorf("%d groups: %q reads back as %q", n, shown, got)
		}
	}
}

// TestInviteLabelSaysWhoItReaches: the label of a code says how far it
// reaches: the LAN only while no port is open, the internet through the
// router's port, anyone through a server.
func TestInviteLabelSaysWhoItReaches(t *testing.T) {
	for _, tc := range []struct {
		reach      codeReach
		want, dont string
	}{
		{reachLAN, "your network only", "internet"},
		{reachInternet, "internet", "only"},
		{reachServer, "through the server", "only"},
	} {
		got := inviteLabel(tc.reach, copyUnknown)
		if !strings.Contains(got, tc.want) || strings.Contains(got, tc.dont) {
			t.Errorf("label of reach %d = %q, want %q and not %q", tc.reach, got, tc.want, tc.dont)
		}
	}
	code, reach := guestCode("192.168.1.20:7777", uiTestFP)
	if c, err := invite.Decode(code); err != nil || reach != reachLAN || len(c.Addrs) != 1 {
		t.Errorf("a guest at a LAN address passes on %q (%v), reach %d; want that address, LAN only", code, err, reach)
	}
	if _, reach := guestCode("203.0.113.7:7777", uiTestFP); reach != reachInternet {
		t.Errorf("a guest at a public address: reach %d, want the internet", reach)
	}
}

// TestInviteCopyAndPaste: with a clipboard tool (a fake one here: a file),
// the lobby's Copy puts the code on the clipboard, and the join screen's
// Paste puts it in the code field.
func TestInviteCopyAndPaste(t *testing.T) {
	file := filepath.Join(t.TempDir(), "clipboard")
	old := clipboard
	clipboard = func() *clipTool {
		return &clipTool{copy: []string{"sh", "-c", `cat > "$0"`, file}, paste: []string{"cat", file}}
	}
	t.Cleanup(func() { clipboard = old })

	host, err := NewApp(Options{Seed: 7, ConfigDir: t.TempDir(), Discovery: &lan.Fake{}, Listen: "127.0.0.1:0", Name: "Grace", Silent: true})
	if err != nil {
		t.Fatalf("NewApp: %v", err)
	}
	defer host.Close()
	host.script = func(int) Intents { return Intents{} }
	host.emit(Intent{Kind: IntentHost})
	var lobby *lobbyScreen
	if !testwait.Until(inviteTestPatience, func() bool {
		if err := host.Update(); err != nil {
			t.Fatal(err)
		}
		lobby, _ = host.cur.(*lobbyScreen)
		return lobby != nil && lobby.invite.shown != ""
	}) {
		t.Fatalf("no invite code in the lobby (screen %T)", host.cur)
	}
	code := lobby.invite.shown
	lobby.invite.copy.Click()
	if !testwait.Until(inviteTestPatience, func() bool {
		if err := host.Update(); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(file)
		return string(b) == code && strings.Contains(lobby.invite.label.Label, "copied")
	}) {
		b, _ := os.ReadFile(file)
		t.Fatalf("after Copy the clipboard holds %q and the lobby says %q; want %q, copied", b, lobby.invite.label.Label, code)
	}

	guest, err := NewApp(Options{Seed: 8, ConfigDir: t.TempDir(), Discovery: &lan.Fake{}, Silent: true})
	if err != nil {
		t.Fatalf("NewApp: %v", err)
	}
	defer guest.Close()
	guest.script = func(int) Intents { return Intents{} }
	guest.emit(Intent{Kind: IntentOpenJoin})
	if err := guest.Update(); err != nil {
		t.Fatal(err)
	}
	join, ok := guest.cur.(*joinScreen)
	if !ok || join.code.paste == nil {
		t.Fatalf("screen %T, want the join screen with Paste", guest.cur)
	}
	join.code.paste.Click()
	if !testwait.Until(inviteTestPatience, func() bool {
		if err := guest.Update(); err != nil {
			t.Fatal(err)
		}
		return join.code.input.GetText() == code
	}) {
		t.Fatalf("after Paste the code field holds %q, want %q", join.code.input.GetText(), code)
	}
}

// TestJoinByCodeInTheApp: a guest's game given a code whose first address
// never answers and whose second is the host's joins the host's lobby,
// and then names the address that answered.
func TestJoinByCodeInTheApp(t *testing.T) {
	host, err := NewApp(Options{Seed: 7, ConfigDir: t.TempDir(), Discovery: &lan.Fake{}, Listen: "127.0.0.1:0", Name: "Grace", Silent: true})
	if err != nil {
		t.Fatalf("NewApp: %v", err)
	}
	defer host.Close()
	host.script = func(int) Intents { return Intents{} }
	host.emit(Intent{Kind: IntentHost})
	if !testwait.Until(inviteTestPatience, func() bool {
		if err := host.Update(); err != nil {
			t.Fatal(err)
		}
		return host.nv.hostFingerprint() != "" && host.net.addr != ""
	}) {
		t.Fatal("the host's game did not open")
	}
	silent, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	hostAddr := host.net.addr
	c, err := invite.New([]netip.AddrPort{netip.MustParseAddrPort(silent.LocalAddr().String()), netip.MustParseAddrPort(hostAddr)}, host.nv.hostFingerprint())
	if err != nil {
		t.Fatal(err)
	}

	guest, err := NewApp(Options{Seed: 8, ConfigDir: t.TempDir(), Discovery: &lan.Fake{}, Name: "Ada", Silent: true})
	if err != nil {
		t.Fatalf("NewApp: %v", err)
	}
	defer guest.Close()
	guest.script = func(int) Intents { return Intents{} }
	guest.emit(Intent{Kind: IntentOpenJoin})
	guest.emit(Intent{Kind: IntentJoinCode, Addr: c.String()})
	if !testwait.Until(inviteTestPatience, func() bool {
		if err := guest.Update(); err != nil {
			t.Fatal(err)
		}
		if err := host.Update(); err != nil {
			t.Fatal(err)
		}
		return guest.cur.id() == screenLobby && len(guest.nv.setup.Players) == 2
	}) {
		t.Fatalf("the guest is on %v (join screen says %q), want the host's lobby with both players", guest.cur.id(), guest.flow.joinErr)
	}
	if got := guest.nv.addr(); got != hostAddr {
		t.Errorf("the guest's game is at %q, want %q", got, hostAddr)
	}
}

// TestJoinServerRoomCode: a code that names a room on a server dials its
// addresses and asks for that room, not the server's default one; a
// host's code asks for none.
func TestJoinServerRoomCode(t *testing.T) {
	c, err := invite.New([]netip.AddrPort{netip.MustParseAddrPort("203.0.113.9:7777")}, uiTestFP)
	if err != nil {
		t.Fatal(err)
	}
	for _, room := range []uint32{0, 2, 70000} {
		c.RoomID = room
		f := &flow{screen: screenJoin}
		effs := f.apply(Intent{Kind: IntentJoinCode, Addr: c.String()})
		wantEffects(t, "join", effs, effDial)
		if e := effs[0]; e.room != room || !slices.Equal(e.addrs, []string{"203.0.113.9:7777"}) {
			t.Errorf("room %d: dial %q room %d", room, e.addrs, e.room)
		}
	}
	cfg := netConfig{room: 70000}
	if got := cfg.guestOptions().Session.RoomID; got != 70000 {
		t.Errorf("the dial's session asks for room %d, want 70000", got)
	}
}

// TestUnlistedRoomCodeCarriesItsSecret: the invite code of an unlisted
// room on a server (format 2) dials that room with its secret, which
// every Join to it must carry, and the lobby's code of such a room gives
// it on; the kept session keeps it for a Rejoin.
func TestUnlistedRoomCodeCarriesItsSecret(t *testing.T) {
	const secret = 0x8123_4567_89ab_cdef
	code := serverRoomCode("203.0.113.7:7777", uiTestFP, wire.SecretRoom(secret), secret)
	if code == "" {
		t.Fatal("no code for an unlisted room")
	}
	f := &flow{screen: screenJoin}
	effs := f.apply(Intent{Kind: IntentJoinCode, Addr: code})
	wantEffects(t, "join", effs, effDial)
	if e := effs[0]; e.room != wire.SecretRoom(secret) || e.secret != secret {
		t.Errorf("dial room %d secret %#x, want room %d secret %#x", e.room, e.secret, wire.SecretRoom(secret), uint64(secret))
	}
	if cfg := (netConfig{room: wire.SecretRoom(secret), secret: secret}).options(); cfg.Session.RoomSecret != secret {
		t.Errorf("the session's Join carries secret %#x, want %#x", cfg.Session.RoomSecret, uint64(secret))
	}
	dir := t.TempDir()
	now := time.Now()
	if err := saveSession(dir, savedSession{Addr: "203.0.113.7:7777", RoomID: wire.SecretRoom(secret), RoomSecret: secret, Token: strings.Repeat("ab", 16), Saved: now}); err != nil {
		t.Fatal(err)
	}
	if s, ok, err := loadSession(dir, now); err != nil || !ok || s.RoomSecret != secret {
		t.Errorf("kept session: secret %#x (ok %v, %v), want %#x", s.RoomSecret, ok, err, uint64(secret))
	}
}
