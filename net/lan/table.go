package lan

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/miekg/dns"
)

// Stats counts what a browser received.
type Stats struct {
	Packets   uint64 // mDNS packets received
	Answers   uint64 // game answers accepted (Sanitised of them needed cleaning)
	Sanitised uint64 // accepted answers whose names had to be cleaned
	Goodbyes  uint64 // withdrawals (TTL 0) of an address of a game
	Malformed uint64 // undecodable packets and answers ignored as malformed or hostile
	Dropped   uint64 // answers for new games ignored because MaxGames were listed
}

// Bounds of the merge core.
const (
	maxInstances = 32 // game instances read from one packet; the rest are ignored
	maxAddrs     = 4  // addresses kept per game (e.g. IPv4 and IPv6 of one host)
)

var errMalformed = errors.New("malformed answer")

// table is the browser's merge and expiry core, without sockets or clocks:
// packets and the time come in, the sorted list of games comes out. It is not
// safe for concurrent use.
type table struct {
	expire time.Duration // a game address not heard from for longer is dropped
	limit  int           // games listed at most
	games  map[string]*entry
	gone   map[string]time.Time // games withdrawn by a goodbye, and when
	stats  Stats
}

// quarantine is how long after its goodbye a game's answers are ignored:
// an answer sent just before the goodbye may arrive just after it, and
// must not bring the game back for an expiry period.
const quarantine = 2 * time.Second

// entry is one game, by id, with the addresses it answered from.
type entry struct {
	game  Game       // fields from the preferred address's last answer
	addrs []seenAddr // at most maxAddrs, in order of first sighting
}

type seenAddr struct {
	ap   netip.AddrPort
	last time.Time
}

func newTable(expire time.Duration, limit int) *table {
	return &table{expire: expire, limit: limit, games: make(map[string]*entry), gone: make(map[string]time.Time)}
}

// receive merges one mDNS packet received at now from src. Queries and
// answers for other services are ignored; a packet that does not decode and
// every malformed answer for our service are counted in Stats.Malformed and
// reported in the returned error (for a rate-limited log), which never stops
// the rest of the packet from being used.
func (t *table) receive(now time.Time, packet []byte, src netip.AddrPort) error {
	t.stats.Packets++
	// The records that decode are used, whatever else the packet holds:
	// one record another responder sends that miekg/dns cannot read (an
	// NSEC, say) must not hide the games beside it.
	msg, skipped, err := unpackLenient(packet)
	if err != nil { // the framing broke: nothing in it can be trusted to be whole
		t.stats.Malformed++
		return fmt.Errorf("mDNS packet from %v: %w: %w", src, errMalformed, err)
	}
	if !msg.Response || msg.Opcode != dns.OpcodeQuery || msg.Rcode != dns.RcodeSuccess {
		return nil // a query, or a response to be silently ignored (RFC 6762 §18)
	}
	var errs []error
	if skipped > 0 {
		t.stats.Malformed++
		errs = append(errs, fmt.Errorf("mDNS packet from %v: %w: %d records that do not decode skipped", src, errMalformed, skipped))
	}
	from := src.Addr().Unmap()
	if !from.IsValid() || from.IsUnspecified() || from.IsMulticast() {
		t.stats.Malformed++
		return fmt.Errorf("mDNS packet from %v: %w: no address to join", src, errMalformed)
	}

	insts := instances(&msg)
	if len(insts) == 0 {
		return errors.Join(errs...)
	}

	bad := func(in instance, err error) {
		t.stats.Malformed++
		errs = append(errs, fmt.Errorf("instance %.80q from %v: %w: %w", in.name, src, errMalformed, err))
	}
	for _, in := range insts {
		id, ok := instanceID(in.name)
		if !ok {
			bad(in, errors.New("instance name is not <id>."+serviceName))
			continue
		}
		if in.ttl == 0 {
			t.goodbye(now, id, from)
			continue
		}
		if in.srv == nil || in.txt == nil {
			bad(in, errors.New("no SRV or TXT record"))
			continue
		}
		if in.srv.Port == 0 {
			bad(in, errors.New("port 0"))
			continue
		}
		g, sanitised, err := decodeTXT(in.txt.Txt)
		if err != nil {
			bad(in, err)
			continue
		}
		if g.ID != id {
			bad(in, fmt.Errorf("txt id %q names another instance", g.ID))
			continue
		}
		if sanitised {
			t.stats.Sanitised++
		}
		g.Addr = netip.AddrPortFrom(from, in.srv.Port)
		t.observe(now, g)
	}
	return errors.Join(errs...)
}

// instance is one of our service's instances announced in a packet, with
// its SRV and TXT records when the packet holds them.
type instance struct {
	name string
	ttl  uint32
	srv  *dns.SRV
	txt  *dns.TXT
}

// instances returns our service's instances in msg (at most maxInstances),
// then their SRV and TXT records, all from this one packet: a responder
// sends them together.
func instances(msg *dns.Msg) []instance {
	var insts []instance
	find := func(name string) *instance {
		for i := range insts {
			if strings.EqualFold(insts[i].name, name) {
				return &insts[i]
			}
		}
		return nil
	}
	sections := [][]dns.RR{msg.Answer, msg.Extra}
	for _, rrs := range sections {
		for _, rr := range rrs {
			if ptr, ok := rr.(*dns.PTR); ok && strings.EqualFold(ptr.Hdr.Name, serviceName) &&
				len(insts) < maxInstances && find(ptr.Ptr) == nil {
				insts = append(insts, instance{name: ptr.Ptr, ttl: ptr.Hdr.Ttl})
			}
		}
	}
	if len(insts) == 0 {
		return nil
	}
	for _, rrs := range sections {
		for _, rr := range rrs {
			switch rr := rr.(type) {
			case *dns.SRV:
				if in := find(rr.Hdr.Name); in != nil && in.srv == nil {
					in.srv = rr
				}
			case *dns.TXT:
				if in := find(rr.Hdr.Name); in != nil && in.txt == nil {
					in.txt = rr
				}
			}
		}
	}
	return insts
}

// instanceID returns the id in an instance name "<id>._rockstep._udp.local.".
func instanceID(name string) (string, bool) {
	suffix := "." + serviceName
	if len(name) <= len(suffix) || !strings.EqualFold(name[len(name)-len(suffix):], suffix) {
		return "", false
	}
	id := name[:len(name)-len(suffix)]
	return id, validID(id)
}

// observe merges a valid answer seen at now.
func (t *table) observe(now time.Time, g Game) {
	if at, ok := t.gone[g.ID]; ok {
		if now.Sub(at) < quarantine {
			return // a late answer from a game that said goodbye
		}
		delete(t.gone, g.ID)
	}
	e := t.games[g.ID]
	if e == nil {
		if len(t.games) >= t.limit {
			t.prune(now)
		}
		if len(t.games) >= t.limit {
			t.stats.Dropped++
			return
		}
		e = &entry{}
		t.games[g.ID] = e
	}
	t.stats.Answers++
	if e.addrs = t.live(now, e.addrs); len(e.addrs) == 0 {
		e.game = Game{} // expired, though not yet pruned: a new game
	}
	i := e.find(g.Addr)
	switch {
	case i >= 0:
		e.addrs[i].last = now
		g.Addr = e.addrs[i].ap // with the zone first seen
	case len(e.addrs) < maxAddrs:
		e.addrs = append(e.addrs, seenAddr{ap: g.Addr, last: now})
	case g.Addr.Addr().Is4() && e.stalestV6() >= 0:
		// IPv4 is preferred for joining: it displaces IPv6.
		e.addrs = append(slices.Delete(e.addrs, e.stalestV6(), e.stalestV6()+1), seenAddr{ap: g.Addr, last: now})
	default:
		return // one address too many for one game: keep the first ones
	}
	// The preferred address speaks for the game, so that another address
	// claiming the same id cannot rename it while the first still answers.
	if best := e.best(); best.ap == g.Addr || e.game.ID == "" {
		g.Seen = now
		e.game = g
	}
	e.game.Addr = e.best().ap
	e.game.Seen = now
}

// goodbye withdraws one address of a game; the game goes when none is left.
func (t *table) goodbye(now time.Time, id string, from netip.Addr) {
	e := t.games[id]
	if e == nil {
		return
	}
	n := len(e.addrs)
	// Without zones: a host's link-local address may come back through
	// another interface than the one its goodbye left by.
	e.addrs = deleteAddrs(e.addrs, func(a seenAddr) bool { return a.ap.Addr().WithZone("") == from.WithZone("") })
	if len(e.addrs) == n {
		return // a goodbye from an address the game never answered from
	}
	t.stats.Goodbyes++
	if len(e.addrs) == 0 {
		delete(t.games, id)
		if len(t.gone) < t.limit {
			t.gone[id] = now
		}
		return
	}
	e.game.Addr = e.best().ap
}

// prune drops addresses not heard from for longer than the expiry, and games
// left without an address.
func (t *table) prune(now time.Time) {
	for id, at := range t.gone {
		if now.Sub(at) >= quarantine {
			delete(t.gone, id)
		}
	}
	for id, e := range t.games {
		e.addrs = t.live(now, e.addrs)
		if len(e.addrs) == 0 {
			delete(t.games, id)
			continue
		}
		e.game.Addr = e.best().ap
	}
}

// list returns the games known at now, sorted for display.
func (t *table) list(now time.Time) []Game {
	t.prune(now)
	games := make([]Game, 0, len(t.games))
	for _, e := range t.games {
		games = append(games, e.game)
	}
	sortGames(games)
	return games
}

// find returns the index of ap among the addresses, ignoring zones: a
// host's link-local address heard on two interfaces is one address.
func (e *entry) find(ap netip.AddrPort) int {
	for i, a := range e.addrs {
		if a.ap.Port() == ap.Port() && a.ap.Addr().WithZone("") == ap.Addr().WithZone("") {
			return i
		}
	}
	return -1
}

// stalestV6 returns the index of the IPv6 address heard from least
// recently, or -1.
func (e *entry) stalestV6() int {
	i := -1
	for j, a := range e.addrs {
		if a.ap.Addr().Is6() && (i < 0 || a.last.Before(e.addrs[i].last)) {
			i = j
		}
	}
	return i
}

// best is the address to join: the first IPv4 address seen, else the first
// address seen.
func (e *entry) best() seenAddr {
	for _, a := range e.addrs {
		if a.ap.Addr().Is4() {
			return a
		}
	}
	return e.addrs[0]
}

// live returns the addresses heard from within the expiry, in place.
func (t *table) live(now time.Time, addrs []seenAddr) []seenAddr {
	return deleteAddrs(addrs, func(a seenAddr) bool { return now.Sub(a.last) > t.expire })
}

func deleteAddrs(addrs []seenAddr, del func(seenAddr) bool) []seenAddr {
	out := addrs[:0]
	for _, a := range addrs {
		if !del(a) {
			out = append(out, a)
		}
	}
	return out
}
