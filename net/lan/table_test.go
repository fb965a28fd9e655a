package lan

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/mdns"
	"github.com/miekg/dns"

	"rockstep/net/wire"
)

var (
	t0       = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	src4     = netip.MustParseAddrPort("192.168.1.5:5353")
	src6     = netip.MustParseAddrPort("[fe80::5%eth0]:5353")
	stranger = netip.MustParseAddrPort("192.168.1.66:5353")
)

// answerPacket is what an advertiser of info on port sends: an announcement,
// or with goodbye its withdrawal.
func answerPacket(tb testing.TB, info Info, port int, goodbye bool) []byte {
	tb.Helper()
	svc, err := mdns.NewMDNSService(info.ID, Service, Domain, "rockstep-"+info.ID+"."+Domain, port,
		[]net.IP{net.IPv4(192, 168, 1, 5)}, encodeTXT(info.clean()))
	if err != nil {
		tb.Fatalf("service of %+v: %v", info, err)
	}
	packet, err := responsePacket(svc, goodbye)
	if err != nil {
		tb.Fatalf("pack answer of %+v: %v", info, err)
	}
	return packet
}

// rawPacket packs a response made of records.
func rawPacket(tb testing.TB, rrs ...dns.RR) []byte {
	tb.Helper()
	msg := dns.Msg{MsgHdr: dns.MsgHdr{Response: true, Authoritative: true}, Answer: rrs}
	packet, err := msg.Pack()
	if err != nil {
		tb.Fatalf("pack %v: %v", rrs, err)
	}
	return packet
}

func hdr(name string, rrtype uint16, ttl uint32) dns.RR_Header {
	return dns.RR_Header{Name: name, Rrtype: rrtype, Class: dns.ClassINET, Ttl: ttl}
}

func ptr(instance string) *dns.PTR {
	return &dns.PTR{Hdr: hdr(serviceName, dns.TypePTR, 120), Ptr: instance}
}

func srv(instance string, port uint16) *dns.SRV {
	return &dns.SRV{Hdr: hdr(instance, dns.TypeSRV, 120), Port: port, Target: "h.local."}
}

func txt(instance string, raw ...string) *dns.TXT {
	escaped := make([]string, len(raw))
	for i, s := range raw {
		escaped[i] = escapeTXT(s)
	}
	return &dns.TXT{Hdr: hdr(instance, dns.TypeTXT, 120), Txt: escaped}
}

// gameTXT is a valid TXT of game id at protocol version v.
func gameTXT(id string, v int) []string {
	return []string{"v=" + strconv.Itoa(v), "id=" + id, "name=Room " + id, "host=h", "players=1", "max=8", "state=setup"}
}

func inst(id string) string { return id + "." + serviceName }

func summary(games []Game) string {
	var s []string
	for _, g := range games {
		s = append(s, fmt.Sprintf("%s@%s %s %d/%d %s", g.ID, g.Addr, g.Name, g.Players, g.Max, g.State))
	}
	return strings.Join(s, "; ")
}

func TestTableMerge(t *testing.T) {
	room := Info{ID: "a1", Name: "Room", Host: "Ann", Players: 1, Max: 8, State: wire.StateSetup.String()}
	later := Info{ID: "a1", Name: "Room", Host: "Ann", Players: 3, Max: 8, State: wire.StateRunning.String()}
	evil := Info{ID: "a1", Name: "Evil", Host: "Eve", Players: 8, Max: 8, State: wire.StateSetup.String()}
	alpha := Info{ID: "b2", Name: "alpha", Players: 1, Max: 2, State: wire.StateSetup.String()}
	type step struct {
		at     time.Duration // after t0
		packet []byte        // nil: only look
		src    netip.AddrPort
		want   string // summary of the list after the step
	}
	const (
		room4  = "a1@192.168.1.5:7000 Room 1/8 setup"
		room6  = "a1@[fe80::5%eth0]:7000 Room 1/8 setup"
		alpha4 = "b2@192.168.1.5:7001 alpha 1/2 setup"
	)
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"listed, then expires after 3 s unseen", []step{
			{0, answerPacket(t, room, 7000, false), src4, room4},
			{3 * time.Second, nil, src4, room4},
			{3*time.Second + time.Millisecond, nil, src4, ""},
		}},
		{"answers keep it listed", []step{
			{0, answerPacket(t, room, 7000, false), src4, room4},
			{2 * time.Second, answerPacket(t, room, 7000, false), src4, room4},
			{4 * time.Second, answerPacket(t, room, 7000, false), src4, room4},
			{6500 * time.Millisecond, nil, src4, room4},
			{7100 * time.Millisecond, nil, src4, ""},
		}},
		{"fields follow the latest answer", []step{
			{0, answerPacket(t, room, 7000, false), src4, room4},
			{time.Second, answerPacket(t, later, 7000, false), src4, "a1@192.168.1.5:7000 Room 3/8 running"},
		}},
		{"IPv4 and IPv6 answers merge, IPv4 preferred", []step{
			{0, answerPacket(t, room, 7000, false), src6, room6},
			{100 * time.Millisecond, answerPacket(t, room, 7000, false), src4, room4},
			{2 * time.Second, answerPacket(t, room, 7000, false), src6, room4},
			{3200 * time.Millisecond, nil, src6, room6},
			{5100 * time.Millisecond, nil, src6, ""},
		}},
		{"a port change is another address", []step{
			{0, answerPacket(t, room, 7000, false), src4, room4},
			{time.Second, answerPacket(t, room, 7002, false), src4, room4},
			{3500 * time.Millisecond, nil, src4, "a1@192.168.1.5:7002 Room 1/8 setup"},
		}},
		{"an answer arriving just after the goodbye does not bring the game back", []step{
			{0, answerPacket(t, room, 7000, false), src4, room4},
			{time.Second, answerPacket(t, room, 7000, true), src4, ""},
			{time.Second + 5*time.Millisecond, answerPacket(t, room, 7000, false), src4, ""},
			{3500 * time.Millisecond, answerPacket(t, room, 7000, false), src4, room4},
		}},
		{"goodbyes withdraw addresses, then the game", []step{
			{0, answerPacket(t, room, 7000, false), src4, room4},
			{0, answerPacket(t, room, 7000, false), src6, room4},
			{time.Second, answerPacket(t, room, 7000, true), src4, room6},
			{time.Second, answerPacket(t, room, 7000, true), src6, ""},
		}},
		{"a goodbye from a stranger is ignored", []step{
			{0, answerPacket(t, room, 7000, false), src4, room4},
			{0, answerPacket(t, room, 7000, true), stranger, room4},
		}},
		{"a goodbye for an unknown game is ignored", []step{
			{0, answerPacket(t, room, 7000, true), src4, ""},
		}},
		{"another address cannot rename a game", []step{
			{0, answerPacket(t, room, 7000, false), src4, room4},
			{time.Second, answerPacket(t, evil, 7000, false), stranger, room4},
			{3500 * time.Millisecond, answerPacket(t, evil, 7000, false), stranger, "a1@192.168.1.66:7000 Evil 8/8 setup"},
		}},
		{"sorted by name, case-insensitively", []step{
			{0, answerPacket(t, room, 7000, false), src4, room4},
			{0, answerPacket(t, alpha, 7001, false), src4, alpha4 + "; " + room4},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := newTable(3*time.Second, MaxGames)
			for i, s := range tc.steps {
				now := t0.Add(s.at)
				if s.packet != nil {
					if err := tab.receive(now, s.packet, s.src); err != nil {
						t.Fatalf("step %d: receive: %v", i, err)
					}
				}
				if got := summary(tab.list(now)); got != s.want {
					t.Fatalf("step %d at %v: games %q, want %q", i, s.at, got, s.want)
				}
			}
			if st := tab.stats; st.Malformed != 0 {
				t.Errorf("stats %+v, want no malformed", st)
			}
		})
	}
}

func TestTableGameFields(t *testing.T) {
	tab := newTable(3*time.Second, MaxGames)
	info := Info{ID: "0123456789abcdef", Name: "Zoë's", Host: "Guest-1F2E", Players: 2, Max: 4, State: wire.StateRunning.String()}
	if err := tab.receive(t0, answerPacket(t, info, 7777, false), src4); err != nil {
		t.Fatal(err)
	}
	want := Game{ID: info.ID, Addr: netip.MustParseAddrPort("192.168.1.5:7777"), Name: "Zoë's", Host: "Guest-1F2E",
		Players: 2, Max: 4, State: wire.StateRunning.String(), Version: wire.Version, Compatible: true, Seen: t0}
	games := tab.list(t0)
	if len(games) != 1 || games[0] != want {
		t.Fatalf("games %+v, want [%+v]", games, want)
	}
}

func TestTableIncompatible(t *testing.T) {
	tab := newTable(3*time.Second, MaxGames)
	id := "0ld"
	packet := rawPacket(t, ptr(inst(id)), srv(inst(id), 7000), txt(inst(id), gameTXT(id, wire.Version+1)...))
	if err := tab.receive(t0, packet, src4); err != nil {
		t.Fatal(err)
	}
	games := tab.list(t0)
	if len(games) != 1 || games[0].Compatible || games[0].Version != wire.Version+1 {
		t.Fatalf("games %+v, want one incompatible game of version %d", games, wire.Version+1)
	}
	if s := games[0].String(); !strings.HasSuffix(s, " incompatible") {
		t.Errorf("String() = %q, want it marked incompatible", s)
	}
}

func TestTableBounded(t *testing.T) {
	tab := newTable(3*time.Second, MaxGames)
	for i := range MaxGames + 44 {
		id := fmt.Sprintf("g%d", i)
		_ = tab.receive(t0, rawPacket(t, ptr(inst(id)), srv(inst(id), 7000), txt(inst(id), gameTXT(id, wire.Version)...)), stranger)
	}
	if n := len(tab.list(t0)); n != MaxGames {
		t.Errorf("%d games listed, want %d", n, MaxGames)
	}
	if tab.stats.Dropped != 44 || tab.stats.Answers != MaxGames {
		t.Errorf("stats %+v, want %d answers and 44 dropped", tab.stats, MaxGames)
	}
	// Once the flood expires, new games are listed again.
	later := t0.Add(4 * time.Second)
	if err := tab.receive(later, answerPacket(t, Info{ID: "new", Name: "n", Max: 2}, 7000, false), src4); err != nil {
		t.Fatal(err)
	}
	if got := summary(tab.list(later)); got != "new@192.168.1.5:7000 n 0/2 setup" {
		t.Errorf("games after expiry %q, want only the new one", got)
	}
	// One game keeps at most maxAddrs addresses.
	for i := range 10 {
		src := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, 0, byte(i)}), 5353)
		_ = tab.receive(later, answerPacket(t, Info{ID: "new", Name: "n", Max: 2}, 7000, false), src)
	}
	if n := len(tab.games["new"].addrs); n != maxAddrs {
		t.Errorf("%d addresses kept, want %d", n, maxAddrs)
	}
}

func TestTableHostile(t *testing.T) {
	valid := answerPacket(t, Info{ID: "ok", Name: "Room", Max: 8}, 7000, false)
	query := new(dns.Msg)
	query.SetQuestion(serviceName, dns.TypePTR)
	queryPacket, _ := query.Pack()
	refused := dns.Msg{MsgHdr: dns.MsgHdr{Response: true, Rcode: dns.RcodeRefused}, Answer: []dns.RR{ptr(inst("x")), srv(inst("x"), 1), txt(inst("x"), gameTXT("x", wire.Version)...)}}
	refusedPacket, _ := refused.Pack()
	var flood []dns.RR
	for i := range 100 {
		flood = append(flood, ptr(inst(fmt.Sprintf("f%d", i))))
	}
	for _, tc := range []struct {
		name      string
		packet    []byte
		malformed uint64
		answers   uint64
		sanitised uint64
		want      string
	}{
		{name: "garbage", packet: []byte("hello, mDNS"), malformed: 1},
		{name: "empty", packet: nil, malformed: 1},
		{name: "truncated answer", packet: valid[:len(valid)/2], malformed: 1},
		{name: "trailing junk tolerated", packet: append(append([]byte{}, valid...), 0xde, 0xad), answers: 1, want: "ok@192.168.1.66:7000 Room 0/8 setup"},
		{name: "a query", packet: queryPacket},
		{name: "an error response", packet: refusedPacket},
		{name: "another service", packet: rawPacket(t, &dns.PTR{Hdr: hdr("_http._tcp.local.", dns.TypePTR, 120), Ptr: "web._http._tcp.local."})},
		{name: "PTR only", packet: rawPacket(t, ptr(inst("p"))), malformed: 1},
		{name: "no TXT", packet: rawPacket(t, ptr(inst("p")), srv(inst("p"), 7000)), malformed: 1},
		{name: "no SRV", packet: rawPacket(t, ptr(inst("p")), txt(inst("p"), gameTXT("p", wire.Version)...)), malformed: 1},
		{name: "port 0", packet: rawPacket(t, ptr(inst("p")), srv(inst("p"), 0), txt(inst("p"), gameTXT("p", wire.Version)...)), malformed: 1},
		{name: "garbage TXT", packet: rawPacket(t, ptr(inst("p")), srv(inst("p"), 7000), txt(inst("p"), "\xff\xfe\x00", "=", "v=v")), malformed: 1},
		{name: "empty TXT", packet: rawPacket(t, ptr(inst("p")), srv(inst("p"), 7000), txt(inst("p"))), malformed: 1},
		{name: "TXT of another id", packet: rawPacket(t, ptr(inst("p")), srv(inst("p"), 7000), txt(inst("p"), gameTXT("q", wire.Version)...)), malformed: 1},
		{name: "instance name with two labels", packet: rawPacket(t, ptr("a.b."+serviceName), srv("a.b."+serviceName, 7000), txt("a.b."+serviceName, gameTXT("a", wire.Version)...)), malformed: 1},
		{name: "instance outside the service", packet: rawPacket(t, ptr("evil.example."), srv("evil.example.", 7000), txt("evil.example.", gameTXT("evil", wire.Version)...)), malformed: 1},
		{name: "100 instances, 32 read", packet: rawPacket(t, flood...), malformed: maxInstances},
		{name: "one bad, one good", packet: rawPacket(t, ptr(inst("p")), ptr(inst("ok")), srv(inst("ok"), 7000), txt(inst("ok"), gameTXT("ok", wire.Version)...)),
			malformed: 1, answers: 1, want: "ok@192.168.1.66:7000 Room ok 1/8 setup"},
		{name: "hostile name sanitised", packet: rawPacket(t, ptr(inst("s")), srv(inst("s"), 7000), txt(inst("s"), "v=1", "id=s", "name=\x1b[31m"+strings.Repeat("Ω", 40), "players=1", "max=2", "state=setup")),
			answers: 1, sanitised: 1, want: "s@192.168.1.66:7000 [31m" + strings.Repeat("Ω", 10) + " 1/2 setup"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := newTable(3*time.Second, MaxGames)
			err := tab.receive(t0, tc.packet, stranger)
			if (err != nil) != (tc.malformed > 0) {
				t.Errorf("receive error %v, want one: %v", err, tc.malformed > 0)
			}
			st := tab.stats
			if st.Packets != 1 || st.Malformed != tc.malformed || st.Answers != tc.answers || st.Sanitised != tc.sanitised {
				t.Errorf("stats %+v, want 1 packet, %d malformed, %d answers, %d sanitised", st, tc.malformed, tc.answers, tc.sanitised)
			}
			if got := summary(tab.list(t0)); got != tc.want {
				t.Errorf("games %q, want %q", got, tc.want)
			}
		})
	}
}

// FuzzReceive feeds arbitrary packets to the merge core: it must never panic,
// must count every packet, must report an error exactly when it counts
// something malformed, and whatever it lists must be within bounds.
func FuzzReceive(f *testing.F) {
	f.Add(answerPacket(f, Info{ID: "a1", Name: "Room", Host: "Ann", Players: 1, Max: 8, State: wire.StateSetup.String()}, 7000, false))
	f.Add(answerPacket(f, Info{ID: "a1", Name: "Room", Max: 8}, 7000, true))
	f.Add(rawPacket(f, ptr(inst("p")), srv(inst("p"), 7000), txt(inst("p"), "v=2", "id=p", "name=\xff", "players=1", "max=2", "state=lobby")))
	f.Add([]byte("garbage"))
	f.Fuzz(func(t *testing.T, packet []byte) {
		tab := newTable(3*time.Second, MaxGames)
		for i, src := range []netip.AddrPort{src4, src6} {
			before := tab.stats
			err := tab.receive(t0, packet, src)
			if tab.stats.Packets != before.Packets+1 {
				t.Errorf("packet %d: Packets %d → %d, want one more", i, before.Packets, tab.stats.Packets)
			}
			if malformed := tab.stats.Malformed > before.Malformed; malformed != (err != nil) || err != nil && !errors.Is(err, errMalformed) {
				t.Errorf("packet %d: Malformed %d → %d, error %v", i, before.Malformed, tab.stats.Malformed, err)
			}
		}
		if n := len(tab.list(t0)); n > MaxGames {
			t.Errorf("%d games listed, at most %d allowed", n, MaxGames)
		}
		for _, g := range tab.list(t0) {
			if !validID(g.ID) || !g.Addr.IsValid() || g.Addr.Port() == 0 {
				t.Errorf("listed game with bad id or address: %+v", g)
			}
			if !utf8.ValidString(g.Name) || len(g.Name) > MaxName || !utf8.ValidString(g.Host) || len(g.Host) > MaxName {
				t.Errorf("listed game with unsafe names: %+v", g)
			}
			if g.Players < 0 || g.Max < 1 || g.Players > g.Max || g.Max > maxCount {
				t.Errorf("listed game with absurd counts: %+v", g)
			}
			if g.Compatible && !knownState(g.State) || !validStateToken(g.State) {
				t.Errorf("listed game with bad state: %+v", g)
			}
			if strings.ContainsAny(g.String(), "\n\r") {
				t.Errorf("String() spans lines: %q", g.String())
			}
		}
	})
}

func TestGameString(t *testing.T) {
	for _, tc := range []struct {
		name string
		game Game
		want string
	}{
		{"compatible", Game{Addr: netip.MustParseAddrPort("192.168.1.5:7777"), Name: "Friday", Host: "Ann", Players: 2, Max: 8, State: wire.StateSetup.String(), Version: 1, Compatible: true},
			`192.168.1.5:7777 "Friday" host="Ann" 2/8 setup v1`},
		{"incompatible IPv6", Game{Addr: netip.MustParseAddrPort("[fe80::1%eth0]:7777"), Name: `say "hi"`, Players: 0, Max: 4, State: "lobby", Version: 9},
			`[fe80::1%eth0]:7777 "say \"hi\"" host="" 0/4 lobby v9 incompatible`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.game.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestFake(t *testing.T) {
	var f Fake
	if got := f.Games(); len(got) != 0 {
		t.Fatalf("zero Fake lists %v", got)
	}
	in := []Game{
		{ID: "2", Name: "beta", Addr: netip.MustParseAddrPort("10.0.0.2:1")},
		{ID: "3", Name: "Alpha", Addr: netip.MustParseAddrPort("10.0.0.3:1")},
		{ID: "1", Name: "Alpha", Addr: netip.MustParseAddrPort("10.0.0.1:1")},
	}
	f.Set(in)
	in[0].Name = "changed after Set"
	var ids []string
	for _, g := range f.Games() {
		ids = append(ids, g.ID+":"+g.Name)
	}
	if got, want := strings.Join(ids, " "), "1:Alpha 3:Alpha 2:beta"; got != want {
		t.Errorf("Games() = %s, want %s", got, want)
	}
	f.Close()
	if got := f.Games(); len(got) != 0 {
		t.Errorf("closed Fake lists %v", got)
	}
}
