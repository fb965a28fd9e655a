package lan

import (
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/hashicorp/mdns"
	"github.com/miekg/dns"
)

// testCore is a responder core for a game on an interface (index 2) whose
// prefix is 192.168.1.0/24 and fe80::/64.
func testCore(t testing.TB) *respCore {
	t.Helper()
	info := Info{ID: "abc", Name: "Friday night rocks", Host: "a-long-host-name", Players: 3, Max: 8, State: "setup", Fingerprint: "00112233445566778899aabbccddeeff"}
	svc, err := mdns.NewMDNSService(info.ID, Service, Domain, "rockstep-"+info.ID+"."+Domain, 7777,
		[]net.IP{net.IPv4(192, 168, 1, 5)}, encodeTXT(info.clean()))
	if err != nil {
		t.Fatal(err)
	}
	z := &zone{}
	z.svc.Store(svc)
	lan := []netip.Prefix{netip.MustParsePrefix("192.168.1.0/24"), netip.MustParsePrefix("fe80::/64")}
	return newRespCore(z, func(ifIndex int) []netip.Prefix {
		if ifIndex == 2 || ifIndex == 0 {
			return lan
		}
		return nil
	})
}

// query packs a query with the questions given; qu sets the unicast bit.
func query(t *testing.T, qu bool, names ...string) []byte {
	t.Helper()
	msg := new(dns.Msg)
	for _, n := range names {
		q := dns.Question{Name: n, Qtype: dns.TypePTR, Qclass: dns.ClassINET}
		if qu {
			q.Qclass |= 1 << 15
		}
		msg.Question = append(msg.Question, q)
	}
	b, err := msg.Pack()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestResponderRFC6762(t *testing.T) {
	padded, err := paddedQuery()
	if err != nil {
		t.Fatal(err)
	}
	plain := query(t, false, serviceName)
	onLink := netip.MustParseAddrPort("192.168.1.9:40000")
	onLinkMDNS := netip.MustParseAddrPort("192.168.1.9:5353")
	onLink6 := netip.MustParseAddrPort("[fe80::9]:40000")
	offLink := netip.MustParseAddrPort("203.0.113.7:40000")
	offLinkMDNS := netip.MustParseAddrPort("203.0.113.7:5353")

	// unicastOK checks the 2× rule on every unicast answer.
	check := func(name string, q []byte, a respAction, ok bool) {
		t.Helper()
		if ok && !a.multicast && len(a.packet) > maxAmplify*len(q) {
			t.Errorf("%s: %d-byte unicast answer to a %d-byte query", name, len(a.packet), len(q))
		}
	}

	t.Run("off-link sources get nothing", func(t *testing.T) {
		c := testCore(t)
		for i, tc := range []struct {
			q    []byte
			from netip.AddrPort
		}{{padded, offLink}, {plain, offLink}, {query(t, true, serviceName), offLinkMDNS}, {plain, offLinkMDNS}} {
			if a, ok := c.handle(t0, tc.q, tc.from, 2); ok {
				t.Errorf("query %d from %v: answered %+v", i, tc.from, a)
			}
			// Off-link on an interface whose prefixes it is not in.
			if _, ok := c.handle(t0, tc.q, onLink, 3); ok {
				t.Errorf("query %d from %v arriving on another interface: answered", i, onLink)
			}
		}
	})

	t.Run("padded legacy query: unicast answer, as the browser needs", func(t *testing.T) {
		c := testCore(t)
		a, ok := c.handle(t0, padded, onLink, 2)
		check("padded", padded, a, ok)
		if !ok || a.multicast || a.to != onLink {
			t.Fatalf("answer %+v, %v: want unicast to %v", a, ok, onLink)
		}
		var msg dns.Msg
		if err := msg.Unpack(a.packet); err != nil || len(msg.Question) != 1 || len(msg.Answer) == 0 {
			t.Fatalf("answer: %v, %d questions, %d answers", err, len(msg.Question), len(msg.Answer))
		}
		for _, rr := range msg.Answer {
			if rr.Header().Ttl > legacyTTL {
				t.Errorf("legacy answer TTL %d", rr.Header().Ttl)
			}
		}
		tab := newTable(3*time.Second, MaxGames)
		if err := tab.receive(t0, a.packet, netip.MustParseAddrPort("192.168.1.5:5353")); err != nil || len(tab.list(t0)) != 1 {
			t.Errorf("a browser makes of it: %v, %v", err, tab.list(t0))
		}
	})

	t.Run("small query: no amplified unicast, one multicast a second", func(t *testing.T) {
		c := testCore(t)
		for _, from := range []netip.AddrPort{onLink, onLink6} {
			c = testCore(t)
			a, ok := c.handle(t0, plain, from, 2)
			check("plain", plain, a, ok)
			if !ok || !a.multicast || a.ifIndex != 2 {
				t.Fatalf("from %v: answer %+v, %v: want a multicast on interface 2", from, a, ok)
			}
			if a, ok := c.handle(t0.Add(500*time.Millisecond), plain, from, 2); ok {
				t.Errorf("a second multicast within a second: %+v", a)
			}
			if _, ok := c.handle(t0.Add(1100*time.Millisecond), plain, from, 2); !ok {
				t.Errorf("no multicast a second later")
			}
		}
	})

	t.Run("each record once, however often asked", func(t *testing.T) {
		c := testCore(t)
		names := make([]string, maxQuestions) // as many as a query may ask
		for i := range names {
			names[i] = serviceName
		}
		q := query(t, true, names...)
		a, ok := c.handle(t0, q, onLinkMDNS, 2)
		check("identical questions", q, a, ok)
		if !ok {
			t.Fatal("no answer")
		}
		var msg dns.Msg
		if err := msg.Unpack(a.packet); err != nil {
			t.Fatal(err)
		}
		one := len(c.zone.Records(dns.Question{Name: serviceName, Qtype: dns.TypePTR, Qclass: dns.ClassINET}))
		if len(msg.Answer) != one {
			t.Errorf("%d records for %d identical questions, want %d", len(msg.Answer), len(names), one)
		}
	})

	t.Run("unicast answers limited per source", func(t *testing.T) {
		c := testCore(t)
		got := 0
		for range 100 {
			if a, ok := c.handle(t0, padded, onLink, 2); ok && !a.multicast {
				got++
			}
		}
		if got != unicastBurst {
			t.Errorf("100 queries at once: %d answered, want %d", got, unicastBurst)
		}
	})

	t.Run("other services and answers are not answered", func(t *testing.T) {
		c := testCore(t)
		if _, ok := c.handle(t0, query(t, false, "_http._tcp.local."), onLink, 2); ok {
			t.Error("answered a query for another service")
		}
		if _, ok := c.handle(t0, answerPacket(t, Info{ID: "x", Max: 2}, 7777, false), onLink, 2); ok {
			t.Error("answered an answer")
		}
		if _, ok := c.handle(t0, []byte{1, 2, 3}, onLink, 2); ok {
			t.Error("answered garbage")
		}
	})
}

// TestAdvertiseOnlyWhereListening: a room listening on an address no
// multicast interface has is not advertised (its address would not work);
// the interfaces chosen for an address are those that hold it.
func TestAdvertiseOnlyWhereListening(t *testing.T) {
	if a, err := AdvertiseOn(Info{Name: "nowhere", Max: 2}, netip.MustParseAddrPort("192.0.2.123:7777")); err == nil {
		a.Close()
		t.Fatal("advertised a room on an address this machine does not have")
	}
	all, err := net.Interfaces()
	if err != nil {
		t.Skip(err)
	}
	for _, ifi := range interfacesWith(all, netip.MustParseAddr("127.0.0.1")) {
		if ifi.Flags&net.FlagLoopback == 0 {
			t.Errorf("127.0.0.1 found on %s, not a loopback interface", ifi.Name)
		}
	}
}
