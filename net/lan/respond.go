package lan

import (
	"encoding/binary"
	"errors"
	"hash/maphash"
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/miekg/dns"
	"golang.org/x/net/ipv4"
	"golang.org/x/net/ipv6"

	"rockstep/internal/tokenbucket"
)

// The responder answers mDNS queries for the advertised game as RFC 6762
// asks, so that it cannot be used to reflect or amplify traffic:
//
//   - only queries from on-link sources are answered (§11): the source
//     address is in a prefix of the interface the query arrived on, or
//     IPv6 link-local;
//   - answers are multicast on that interface, at most once per
//     multicastGap (§6: a record is not multicast on an interface more
//     than once a second), unless the asker wants a unicast answer (the QU
//     bit, or a legacy query from a port other than 5353, §6.7) and the
//     answer is no larger than twice its query: then it gets it by unicast,
//     within a per-source rate;
//   - each record goes once per packet, however many questions ask for it;
//   - it listens, and so answers, only on the interfaces the game is
//     advertised on.
const (
	multicastGap   = time.Second // between multicast answers on one interface
	unicastRate    = 2           // unicast answers a second to one source address
	unicastBurst   = 4
	maxAmplify     = 2  // a unicast answer is at most this many times its query
	legacyTTL      = 10 // seconds, the most a legacy unicast answer may say (§6.7)
	limiterBuckets = 1024
)

// Bounds on a query the responder reads, checked on its 12-byte header
// before anything else, so that a query built to be expensive costs no
// more than reading that header: parsing and answering cost in proportion
// to the questions (each is looked up and its records packed), and a 9 KB
// query can hold about 1,500. A real asker stays far inside them:
// Rockstep's browser sends one question and one additional record (an
// EDNS(0) OPT) in queryPadding bytes; DNS-SD queriers (mDNSResponder,
// Avahi, hashicorp/mdns) put the questions due at one moment in one packet
// and keep each packet within an Ethernet frame, carrying a known-answer
// list too long for one over several packets (RFC 6762 §7.2).
const (
	maxQueryBytes   = 1500      // bytes of UDP payload: one Ethernet frame's (1472 over IPv4, 1452 over IPv6) and a little
	maxQuestions    = 32        // a querier's questions of one moment; ours asks 1
	maxKnownAnswers = 128       // answer section (§7.1): the known answers that fit in maxQueryBytes
	maxAuthority    = 32        // authority section: a probe's proposed records (§8.2), a host's own few
	maxAdditional   = 8         // additional section: an OPT (EDNS(0)) and an NSEC or two
	minQuestion     = 1 + 2 + 2 // bytes: root name, type, class
	minRecord       = 1 + 10    // bytes: root name, type, class, TTL, RDLENGTH
)

// Why the responder turned a packet away before parsing it (respCore.rejected).
const (
	rejectNotQuery  = iota // a response, another opcode or no question: not for a responder
	rejectShort            // shorter than a DNS header
	rejectSize             // over maxQueryBytes
	rejectQuestions        // over maxQuestions
	rejectRecords          // over maxKnownAnswers, maxAuthority or maxAdditional
	rejectCounts           // the counts need more bytes than the packet has
	numRejects
)

var rejectNames = [numRejects]string{"not_query", "short", "size", "questions", "records", "counts"}

// precheck returns why a packet is not a query worth parsing, reading
// only its header, or -1 if it is one.
func precheck(pkt []byte) int {
	if len(pkt) < 12 {
		return rejectShort
	}
	if len(pkt) > maxQueryBytes {
		return rejectSize
	}
	flags := binary.BigEndian.Uint16(pkt[2:])
	qd := int(binary.BigEndian.Uint16(pkt[4:]))
	an := int(binary.BigEndian.Uint16(pkt[6:]))
	ns := int(binary.BigEndian.Uint16(pkt[8:]))
	ar := int(binary.BigEndian.Uint16(pkt[10:]))
	switch {
	case flags&(1<<15) != 0 || int(flags>>11)&0xf != dns.OpcodeQuery || qd == 0:
		return rejectNotQuery
	case qd > maxQuestions:
		return rejectQuestions
	case an > maxKnownAnswers || ns > maxAuthority || ar > maxAdditional:
		return rejectRecords
	case 12+qd*minQuestion+(an+ns+ar)*minRecord > len(pkt):
		return rejectCounts
	}
	return -1
}

// readQuestions returns the id and questions of a query that passed
// precheck; the other sections are not read (the responder has no use for
// them: it does not suppress known answers).
func readQuestions(pkt []byte) (id uint16, qs []dns.Question, err error) {
	qd := int(binary.BigEndian.Uint16(pkt[4:]))
	qs = make([]dns.Question, 0, qd)
	off := 12
	for range qd {
		name, next, err := dns.UnpackDomainName(pkt, off)
		if err != nil || next+4 > len(pkt) {
			return 0, nil, errShort
		}
		qs = append(qs, dns.Question{
			Name:   name,
			Qtype:  binary.BigEndian.Uint16(pkt[next:]),
			Qclass: binary.BigEndian.Uint16(pkt[next+2:]),
		})
		off = next + 4
	}
	return binary.BigEndian.Uint16(pkt), qs, nil
}

// respAction is what the responder does with a query: nothing, a unicast
// answer to a source, or a multicast answer on an interface.
type respAction struct {
	packet    []byte
	to        netip.AddrPort // unicast destination; invalid: multicast
	ifIndex   int            // the interface to multicast on
	multicast bool
}

// respCore is the responder's decisions, without sockets or clocks, for
// tests. It is not safe for concurrent use.
type respCore struct {
	zone     *zone
	prefixes func(ifIndex int) []netip.Prefix // on-link prefixes of an interface; ifIndex 0: of all of them
	lastMC   map[int]time.Time
	limiter  srcLimiter
	dropped  uint64             // queries left unanswered: off-link, rate, or not ours
	rejected [numRejects]uint64 // packets turned away by their header (precheck), by reason
}

func newRespCore(z *zone, prefixes func(int) []netip.Prefix) *respCore {
	return &respCore{zone: z, prefixes: prefixes, lastMC: map[int]time.Time{}, limiter: srcLimiter{seed: maphash.MakeSeed()}}
}

// onLink reports whether src may be answered on interface ifIndex.
func (c *respCore) onLink(src netip.Addr, ifIndex int) bool {
	src = src.Unmap()
	if !src.IsValid() || src.IsUnspecified() || src.IsMulticast() {
		return false
	}
	if src.Is6() && src.IsLinkLocalUnicast() && ifIndex != 0 {
		return true // a link-local source is on the link it arrived on
	}
	for _, p := range c.prefixes(ifIndex) {
		if p.Contains(src.WithZone("")) {
			return true
		}
	}
	return false
}

// handle decides what to do with one packet that arrived at now from src
// on interface ifIndex (0: unknown).
func (c *respCore) handle(now time.Time, pkt []byte, src netip.AddrPort, ifIndex int) (respAction, bool) {
	// Answers, garbage, other opcodes and queries no real asker sends are
	// turned away by the header alone, before any parsing.
	if why := precheck(pkt); why >= 0 {
		c.rejected[why]++
		return respAction{}, false
	}
	id, questions, err := readQuestions(pkt)
	if err != nil {
		c.rejected[rejectCounts]++ // the questions end past the packet
		return respAction{}, false
	}
	var answers []dns.RR
	seen := map[string]bool{}
	asked := make(map[dns.Question]bool, len(questions))
	unicastAsked := src.Port() != 5353 // a legacy resolver: answers go to its port (§6.7)
	for _, q := range questions {
		if q.Qclass&(1<<15) != 0 {
			unicastAsked = true // the QU bit (§5.4)
		}
		q.Qclass &^= 1 << 15
		if asked[q] {
			continue // a question repeated: its records are in already
		}
		asked[q] = true
		for _, rr := range c.zone.Records(q) {
			if key := rr.String(); !seen[key] {
				seen[key] = true
				answers = append(answers, rr)
			}
		}
	}
	if len(answers) == 0 {
		return respAction{}, false
	}
	if !c.onLink(src.Addr(), ifIndex) {
		c.dropped++
		return respAction{}, false
	}
	if unicastAsked {
		resp := dns.Msg{MsgHdr: dns.MsgHdr{Response: true, Authoritative: true}, Compress: true, Answer: answers}
		if src.Port() != 5353 {
			// A legacy answer echoes the id and the questions, with
			// short TTLs (§6.7).
			resp.Id, resp.Question = id, questions
			for i, rr := range answers {
				rr = dns.Copy(rr)
				if rr.Header().Ttl > legacyTTL {
					rr.Header().Ttl = legacyTTL
				}
				rr.Header().Class &^= 1 << 15
				resp.Answer[i] = rr
			}
		}
		if packet, err := resp.Pack(); err == nil && len(packet) <= maxAmplify*len(pkt) {
			if !c.limiter.allow(now, src.Addr()) {
				c.dropped++
				return respAction{}, false
			}
			return respAction{packet: packet, to: src}, true
		}
		// Too large to send to one asker: everyone on the link hears it
		// instead, the asker included.
	}
	if ifIndex == 0 || now.Sub(c.lastMC[ifIndex]) < multicastGap {
		c.dropped++
		return respAction{}, false
	}
	resp := dns.Msg{MsgHdr: dns.MsgHdr{Response: true, Authoritative: true}, Compress: true, Answer: answers}
	packet, err := resp.Pack()
	if err != nil {
		return respAction{}, false
	}
	c.lastMC[ifIndex] = now
	return respAction{packet: packet, ifIndex: ifIndex, multicast: true}, true
}

// srcLimiter is a fixed table of token buckets by a keyed hash of the
// source address: sources that hash alike share one.
type srcLimiter struct {
	seed    maphash.Seed
	start   time.Time // the first allow's now: the buckets' clock starts there
	buckets [limiterBuckets]tokenbucket.Bucket
}

func (l *srcLimiter) allow(now time.Time, ip netip.Addr) bool {
	if l.start.IsZero() {
		l.start = now
	}
	a := ip.Unmap().WithZone("").As16()
	b := &l.buckets[maphash.Bytes(l.seed, a[:])%limiterBuckets]
	return b.Take(now.Sub(l.start)+1, unicastRate, unicastBurst)
}

// responder runs a respCore on the mDNS sockets of some interfaces.
type responder struct {
	core   *respCore
	mu     sync.Mutex // guards core
	ifaces []net.Interface
	c4, c6 *net.UDPConn
	p4     *ipv4.PacketConn
	p6     *ipv6.PacketConn
	wg     sync.WaitGroup
}

// interfacePrefixes returns the on-link prefixes of ifaces, by index.
func interfacePrefixes(ifaces []net.Interface) map[int][]netip.Prefix {
	out := map[int][]netip.Prefix{}
	for i := range ifaces {
		addrs, err := ifaces[i].Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			ipn, ok := a.(*net.IPNet)
			if !ok {
				continue
			}
			ip, ok := netip.AddrFromSlice(ipn.IP)
			if !ok {
				continue
			}
			bits, _ := ipn.Mask.Size()
			if p, err := ip.Unmap().Prefix(bits); err == nil {
				out[ifaces[i].Index] = append(out[ifaces[i].Index], p)
			}
		}
	}
	return out
}

// newResponder listens on the mDNS port and groups of ifaces and answers
// from z until close.
func newResponder(z *zone, ifaces []net.Interface) (*responder, error) {
	prefixes := interfacePrefixes(ifaces)
	r := &responder{ifaces: ifaces}
	r.core = newRespCore(z, func(ifIndex int) []netip.Prefix {
		if ifIndex != 0 {
			return prefixes[ifIndex]
		}
		var all []netip.Prefix
		for _, ps := range prefixes {
			all = append(all, ps...)
		}
		return all
	})
	var errs []error
	for _, c := range listenGroups(ifaces) {
		if c.LocalAddr().(*net.UDPAddr).IP.To4() != nil {
			r.c4, r.p4 = c, ipv4.NewPacketConn(c)
			_ = r.p4.SetControlMessage(ipv4.FlagInterface, true)
			_ = r.p4.SetMulticastTTL(255)
		} else {
			r.c6, r.p6 = c, ipv6.NewPacketConn(c)
			_ = r.p6.SetControlMessage(ipv6.FlagInterface, true)
			_ = r.p6.SetMulticastHopLimit(255)
		}
	}
	if r.c4 == nil && r.c6 == nil {
		errs = append(errs, errors.New("cannot listen on the mDNS port"))
		return nil, errors.Join(errs...)
	}
	if r.p4 != nil {
		r.wg.Go(func() { r.read(r.read4) })
	}
	if r.p6 != nil {
		r.wg.Go(func() { r.read(r.read6) })
	}
	return r, nil
}

// read hands each packet that arrives on one of the responder's sockets
// to handle until the socket is closed. readFrom reads one packet and says
// the interface it came in on (0: unknown).
func (r *responder) read(readFrom func([]byte) (n, ifIndex int, src net.Addr, err error)) {
	buf := make([]byte, maxPacket)
	for {
		n, ifIndex, src, err := readFrom(buf)
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			time.Sleep(10 * time.Millisecond) // transient; never a busy loop
			continue
		}
		r.handle(buf[:n], src, ifIndex)
	}
}

func (r *responder) read4(b []byte) (n, ifIndex int, src net.Addr, err error) {
	n, cm, src, err := r.p4.ReadFrom(b)
	if cm != nil {
		ifIndex = cm.IfIndex
	}
	return n, ifIndex, src, err
}

func (r *responder) read6(b []byte) (n, ifIndex int, src net.Addr, err error) {
	n, cm, src, err := r.p6.ReadFrom(b)
	if cm != nil {
		ifIndex = cm.IfIndex
	}
	return n, ifIndex, src, err
}

func (r *responder) handle(pkt []byte, from net.Addr, ifIndex int) {
	ua, ok := from.(*net.UDPAddr)
	if !ok {
		return
	}
	r.mu.Lock()
	act, ok := r.core.handle(time.Now(), pkt, ua.AddrPort(), ifIndex)
	r.mu.Unlock()
	if !ok {
		return
	}
	if !act.multicast {
		to := net.UDPAddrFromAddrPort(act.to)
		if act.to.Addr().Unmap().Is4() && r.c4 != nil {
			_, _ = r.c4.WriteToUDP(act.packet, to)
		} else if r.c6 != nil {
			_, _ = r.c6.WriteToUDP(act.packet, to)
		}
		return
	}
	var ifi *net.Interface
	for i := range r.ifaces {
		if r.ifaces[i].Index == act.ifIndex {
			ifi = &r.ifaces[i]
		}
	}
	if ifi == nil {
		return
	}
	// The answer goes back in the family the query came in.
	if ua.IP.To4() != nil && r.p4 != nil && r.p4.SetMulticastInterface(ifi) == nil {
		_, _ = r.c4.WriteToUDP(act.packet, group4)
	} else if ua.IP.To4() == nil && r.p6 != nil && r.p6.SetMulticastInterface(ifi) == nil {
		_, _ = r.c6.WriteToUDP(act.packet, group6)
	}
}

// close stops the responder and waits for its goroutines.
func (r *responder) close() {
	for _, c := range []*net.UDPConn{r.c4, r.c6} {
		if c != nil {
			c.Close()
		}
	}
	r.wg.Wait()
}

// queryPadding is the size the browser pads its query to (an EDNS(0)
// padding option, RFC 7830), so that a responder that answers no more
// than twice a query's size can answer it by unicast.
const queryPadding = 512

// paddedQuery returns the browser's PTR query for the service, padded.
func paddedQuery() ([]byte, error) {
	msg := new(dns.Msg)
	msg.SetQuestion(serviceName, dns.TypePTR)
	msg.RecursionDesired = false
	msg.Id = 0 // RFC 6762 §18.1
	plain, err := msg.Pack()
	if err != nil {
		return nil, err
	}
	// An OPT record: root name, type OPT, class = UDP size, TTL 0, then
	// the padding option (code 12) filling up to queryPadding bytes.
	const optHead = 1 + 2 + 2 + 4 + 2 + 4
	pad := max(queryPadding-len(plain)-optHead, 0)
	out := append(plain, 0)
	out = binary.BigEndian.AppendUint16(out, dns.TypeOPT)
	out = binary.BigEndian.AppendUint16(out, maxPacket)
	out = binary.BigEndian.AppendUint32(out, 0)
	out = binary.BigEndian.AppendUint16(out, uint16(4+pad))
	out = binary.BigEndian.AppendUint16(out, dns.EDNS0PADDING)
	out = binary.BigEndian.AppendUint16(out, uint16(pad))
	out = append(out, make([]byte, pad)...)
	binary.BigEndian.PutUint16(out[10:], 1) // ARCOUNT
	return out, nil
}
