package lan

import (
	"encoding/binary"
	"net/netip"
	"testing"

	"github.com/miekg/dns"
)

// hugeQuery returns the query of issue 42: 9 KB asking 1,490 times for the
// service, each question after the first a 2-byte pointer to the first's
// name, so that every one of them matches and costs a lookup.
func hugeQuery(tb testing.TB) []byte {
	tb.Helper()
	const questions = 1490
	first, err := (&dns.Msg{Question: []dns.Question{{Name: serviceName, Qtype: dns.TypePTR, Qclass: dns.ClassINET}}}).Pack()
	if err != nil {
		tb.Fatal(err)
	}
	pkt := first
	for range questions - 1 {
		pkt = append(pkt, 0xC0, 12) // a pointer to the first question's name, at offset 12
		pkt = binary.BigEndian.AppendUint16(pkt, dns.TypePTR)
		pkt = binary.BigEndian.AppendUint16(pkt, dns.ClassINET)
	}
	binary.BigEndian.PutUint16(pkt[4:], questions)
	if len(pkt) < 8900 || len(pkt) > maxPacket {
		tb.Fatalf("huge query of %d bytes, want about 9 KB", len(pkt))
	}
	return pkt
}

// TestResponderDropsHugeQueryUnparsed: the 9 KB query with 1,490 questions
// is left unanswered and counted by its header alone: handling it
// allocates nothing, where parsing a single name would.
func TestResponderDropsHugeQueryUnparsed(t *testing.T) {
	c := testCore(t)
	pkt := hugeQuery(t)
	from := netip.MustParseAddrPort("192.168.1.9:5353")
	if a, ok := c.handle(t0, pkt, from, 2); ok {
		t.Fatalf("answered the huge query: %d bytes", len(a.packet))
	}
	if got := c.rejected[rejectSize]; got != 1 {
		t.Fatalf("rejected for its size: %d, want 1 (all: %v)", got, c.rejected)
	}
	if allocs := testing.AllocsPerRun(20, func() { c.handle(t0, pkt, from, 2) }); allocs != 0 {
		t.Errorf("handling the huge query allocates %.0f times: it is parsed", allocs)
	}
}

// packQuery packs m and fails tb if it cannot.
func packQuery(tb testing.TB, m *dns.Msg) []byte {
	tb.Helper()
	b, err := m.Pack()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestQueryHeaderBounds: what real askers send passes the header check;
// each bound turns away what exceeds it, counted under its reason.
func TestQueryHeaderBounds(t *testing.T) {
	ptr := dns.Question{Name: serviceName, Qtype: dns.TypePTR, Qclass: dns.ClassINET}
	known := func(n int) []dns.RR {
		rrs := make([]dns.RR, n)
		for i := range rrs {
			rrs[i] = &dns.PTR{Hdr: dns.RR_Header{Name: serviceName, Rrtype: dns.TypePTR, Class: dns.ClassINET, Ttl: 4500},
				Ptr: NewGameID() + "." + serviceName}
		}
		return rrs
	}
	questions := func(n int) []dns.Question {
		qs := make([]dns.Question, n)
		for i := range qs {
			qs[i] = ptr
		}
		return qs
	}
	withEDNS := func(m *dns.Msg) *dns.Msg { m.SetEdns0(1440, false); return m }
	padded, err := paddedQuery()
	if err != nil {
		t.Fatal(err)
	}
	probe := &dns.Msg{Question: []dns.Question{{Name: "abc." + serviceName, Qtype: dns.TypeANY, Qclass: dns.ClassINET | 1<<15}},
		Ns: []dns.RR{
			&dns.SRV{Hdr: dns.RR_Header{Name: "abc." + serviceName, Rrtype: dns.TypeSRV, Class: dns.ClassINET, Ttl: 120}, Port: 7777, Target: "rockstep-abc.local."},
			&dns.TXT{Hdr: dns.RR_Header{Name: "abc." + serviceName, Rrtype: dns.TypeTXT, Class: dns.ClassINET, Ttl: 4500}, Txt: []string{"v=6"}},
		}}
	lying := packQuery(t, &dns.Msg{Question: questions(1)})
	binary.BigEndian.PutUint16(lying[4:], 20) // 20 questions announced, one there
	response := packQuery(t, &dns.Msg{MsgHdr: dns.MsgHdr{Response: true}, Question: questions(1)})
	notify := packQuery(t, &dns.Msg{MsgHdr: dns.MsgHdr{Opcode: dns.OpcodeNotify}, Question: questions(1)})
	oversized := append(append([]byte(nil), padded...), make([]byte, maxQueryBytes+1-len(padded))...)

	for _, tc := range []struct {
		name string
		pkt  []byte
		want int // a reject reason, or -1: parsed
	}{
		{"Rockstep's padded browse query", padded, -1},
		{"a plain PTR query", packQuery(t, &dns.Msg{Question: questions(1)}), -1},
		{"a DNS-SD querier's questions of one moment", packQuery(t, &dns.Msg{Question: questions(maxQuestions)}), -1},
		{"a browse with 30 known answers and EDNS(0)", packQuery(t, withEDNS(&dns.Msg{Compress: true, Question: questions(1), Answer: known(30)})), -1},
		{"a probe with its proposed records", packQuery(t, probe), -1},
		{"the 9 KB query of 1,490 questions", hugeQuery(t), rejectSize},
		{"one byte over the size", oversized, rejectSize},
		{"too many questions", packQuery(t, &dns.Msg{Question: questions(maxQuestions + 1)}), rejectQuestions},
		{"more known answers than one packet holds", packQuery(t, &dns.Msg{Question: questions(1), Answer: known(maxKnownAnswers + 1)}), rejectSize},
		{"a header announcing more than the packet holds", lying, rejectCounts},
		{"a response", response, rejectNotQuery},
		{"another opcode", notify, rejectNotQuery},
		{"no question", packQuery(t, &dns.Msg{Answer: known(1)}), rejectNotQuery},
		{"shorter than a header", []byte{0, 0, 0, 0, 0, 1}, rejectShort},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := precheck(tc.pkt); got != tc.want {
				t.Errorf("precheck of %d bytes = %d, want %d", len(tc.pkt), got, tc.want)
			}
		})
	}

	// The record bounds, each alone, in a packet that is small enough.
	for _, tc := range []struct {
		name       string
		an, ns, ar int
	}{
		{"answers", maxKnownAnswers + 1, 0, 0},
		{"authority", 0, maxAuthority + 1, 0},
		{"additional", 0, 0, maxAdditional + 1},
	} {
		t.Run("too many "+tc.name+" records", func(t *testing.T) {
			pkt := make([]byte, maxQueryBytes)
			binary.BigEndian.PutUint16(pkt[4:], 1)
			binary.BigEndian.PutUint16(pkt[6:], uint16(tc.an))
			binary.BigEndian.PutUint16(pkt[8:], uint16(tc.ns))
			binary.BigEndian.PutUint16(pkt[10:], uint16(tc.ar))
			if got := precheck(pkt); got != rejectRecords {
				t.Errorf("precheck = %d, want %d (records)", got, rejectRecords)
			}
		})
	}
}

// BenchmarkRespondHugeQuery is the responder's cost per query received:
// the 9 KB query of 1,490 questions of issue 42, and Rockstep's own
// browse query for comparison.
func BenchmarkRespondHugeQuery(b *testing.B) {
	padded, err := paddedQuery()
	if err != nil {
		b.Fatal(err)
	}
	from := netip.AddrPortFrom(netip.AddrFrom4([4]byte{192, 168, 1, 9}), 40000)
	for _, bc := range []struct {
		name string
		pkt  []byte
	}{{"huge", hugeQuery(b)}, {"browse", padded}} {
		b.Run(bc.name, func(b *testing.B) {
			c := testCore(b)
			b.SetBytes(int64(len(bc.pkt)))
			b.ReportAllocs()
			for b.Loop() {
				c.handle(t0, bc.pkt, from, 2)
			}
		})
	}
}
