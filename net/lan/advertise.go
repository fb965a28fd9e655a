package lan

import (
	"fmt"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/mdns"
	"github.com/miekg/dns"
)

const (
	maxIPs          = 8                      // addresses in the A and AAAA records of a game
	announceGap     = 100 * time.Millisecond // between announcements of successive updates
	announceRepeat  = time.Second            // before the second announcement of a new game (RFC 6762 §8.3)
	announceRepeats = 2                      // announcements of a new game
)

// Advertisement is a game published over mDNS: it answers queries for
// _rockstep._udp.local. on the interfaces the game listens on (its own
// responder, which follows RFC 6762: see respond.go), announces itself
// when it starts and whenever it changes, and says goodbye when closed.
type Advertisement struct {
	port int
	ips  []net.IP
	zone zone
	resp *responder
	out  *sender
	kick chan struct{} // an update to announce; capacity 1
	done chan struct{} // closed by Close
	wg   sync.WaitGroup

	mu     sync.Mutex
	info   Info // as published
	closed bool

	noGoodbye bool // for tests: withdraw silently, as if the goodbye were lost
}

// zone answers queries from the current record set, which Update swaps:
// hashicorp's MDNSService is immutable.
type zone struct {
	svc atomic.Pointer[mdns.MDNSService] // nil: answer nothing
}

// Records implements mdns.Zone.
func (z *zone) Records(q dns.Question) []dns.RR {
	if svc := z.svc.Load(); svc != nil {
		return svc.Records(q)
	}
	return nil
}

// Advertise publishes a game whose room listens on UDP port port of every
// address, on every multicast interface that is up. An empty info.ID gets a
// NewGameID; names and counts are cleaned as browsers would (see Info).
func Advertise(info Info, port int) (*Advertisement, error) {
	if port < 1 || port > 65535 {
		return nil, fmt.Errorf("advertise game: port %d out of range", port)
	}
	return AdvertiseOn(info, netip.AddrPortFrom(netip.IPv6Unspecified(), uint16(port)))
}

// AdvertiseOn publishes a game whose room listens on listen: on every
// multicast interface if its address is unspecified, else only on the
// interface that holds that address, with only that address in its
// records. A room reachable on no multicast interface (one on 127.0.0.1)
// is an error: nobody on the LAN could join it.
func AdvertiseOn(info Info, listen netip.AddrPort) (*Advertisement, error) {
	port := int(listen.Port())
	if port < 1 {
		return nil, fmt.Errorf("advertise game: port %d out of range", port)
	}
	if info.ID == "" {
		info.ID = NewGameID()
	}
	if !validID(info.ID) {
		return nil, fmt.Errorf("advertise game: id %q: want 1 to %d letters, digits, '-' or '_'", info.ID, maxIDLen)
	}
	ifaces, err := multicastInterfaces(nil)
	if err != nil {
		return nil, fmt.Errorf("advertise game %s: %w", info.ID, err)
	}
	var only net.IP
	if ip := listen.Addr().Unmap(); ip.IsValid() && !ip.IsUnspecified() {
		if ifaces = interfacesWith(ifaces, ip); len(ifaces) == 0 {
			return nil, fmt.Errorf("advertise game %s: the room listens on %v, which no multicast interface has: it cannot be joined from the LAN", info.ID, ip)
		}
		only = net.IP(ip.AsSlice())
	}
	a := &Advertisement{
		port: port,
		ips:  interfaceIPs(ifaces),
		info: info.clean(),
		kick: make(chan struct{}, 1),
		done: make(chan struct{}),
	}
	if only != nil {
		a.ips = []net.IP{only} // the only address that works
	}
	if len(a.ips) == 0 {
		return nil, fmt.Errorf("advertise game %s: no address on the multicast interfaces", info.ID)
	}
	svc, err := a.service(a.info)
	if err != nil {
		return nil, fmt.Errorf("advertise game %s: %w", info.ID, err)
	}
	a.zone.svc.Store(svc)

	if a.resp, err = newResponder(&a.zone, ifaces); err != nil {
		return nil, fmt.Errorf("advertise game %s: %w", info.ID, err)
	}
	if a.out, err = newSender(ifaces); err != nil {
		a.shutdown()
		return nil, fmt.Errorf("advertise game %s: %w", info.ID, err)
	}
	a.wg.Add(1)
	go a.announce()
	return a, nil
}

// Info returns what is published.
func (a *Advertisement) Info() Info {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.info
}

// Update publishes info in place of the previous one and announces the
// change; the id stays that of the game. Updates faster than one per 100 ms
// are announced together. After Close it does nothing.
func (a *Advertisement) Update(info Info) {
	a.mu.Lock()
	defer a.mu.Unlock()
	info.ID = a.info.ID
	info = info.clean()
	if a.closed || info == a.info {
		return
	}
	svc, err := a.service(info)
	if err != nil {
		return // cannot happen: the first service was built from the same parts
	}
	a.info = info
	a.zone.svc.Store(svc)
	select {
	case a.kick <- struct{}{}:
	default:
	}
}

// Close withdraws the game: it stops answering and multicasts a goodbye
// (every record with TTL 0) so that browsers drop it at once rather than
// when it expires.
func (a *Advertisement) Close() error {
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return nil
	}
	a.closed = true
	svc := a.zone.svc.Swap(nil)
	a.mu.Unlock()

	close(a.done)
	a.wg.Wait()
	if svc != nil && !a.noGoodbye {
		if packet, err := responsePacket(svc, true); err == nil {
			a.out.send(packet)
		}
	}
	a.shutdown()
	return nil
}

func (a *Advertisement) shutdown() {
	if a.resp != nil {
		a.resp.close()
	}
	if a.out != nil {
		a.out.close()
	}
}

// announce multicasts the records of the game when it starts (twice, a
// second apart) and after each update, at most one per announceGap.
func (a *Advertisement) announce() {
	defer a.wg.Done()
	repeat := time.NewTimer(0)
	defer repeat.Stop()
	repeats := 0
	for {
		select {
		case <-a.done:
			return
		case <-repeat.C:
			if repeats++; repeats < announceRepeats {
				repeat.Reset(announceRepeat)
			}
		case <-a.kick:
		}
		if svc := a.zone.svc.Load(); svc != nil {
			if packet, err := responsePacket(svc, false); err == nil {
				a.out.send(packet)
			}
		}
		select {
		case <-a.done:
			return
		case <-time.After(announceGap):
		}
	}
}

// service builds the record set of info.
func (a *Advertisement) service(info Info) (*mdns.MDNSService, error) {
	return mdns.NewMDNSService(info.ID, Service, Domain, "rockstep-"+info.ID+"."+Domain, a.port, a.ips, encodeTXT(info))
}

// responsePacket packs an unsolicited response carrying every record of svc:
// PTR, SRV, A, AAAA and TXT. A goodbye gives them all TTL 0.
func responsePacket(svc *mdns.MDNSService, goodbye bool) ([]byte, error) {
	recs := svc.Records(dns.Question{Name: serviceName, Qtype: dns.TypePTR, Qclass: dns.ClassINET})
	if goodbye {
		for _, rr := range recs {
			rr.Header().Ttl = 0
		}
	}
	msg := dns.Msg{
		MsgHdr:   dns.MsgHdr{Response: true, Authoritative: true},
		Compress: true,
		Answer:   recs,
	}
	return msg.Pack()
}

// interfacesWith returns those of ifaces that hold ip.
func interfacesWith(ifaces []net.Interface, ip netip.Addr) []net.Interface {
	var out []net.Interface
	for i := range ifaces {
		addrs, err := ifaces[i].Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok {
				if x, ok := netip.AddrFromSlice(ipn.IP); ok && x.Unmap() == ip {
					out = append(out, ifaces[i])
					break
				}
			}
		}
	}
	return out
}

// interfaceIPs returns up to maxIPs unicast addresses of ifaces, for the A
// and AAAA records. Browsers join the address an answer came from, so these
// serve other mDNS tools.
func interfaceIPs(ifaces []net.Interface) []net.IP {
	var ips []net.IP
	for i := range ifaces {
		addrs, err := ifaces[i].Addrs()
		if err != nil {
			continue
		}
		for _, addr := range addrs {
			ipn, ok := addr.(*net.IPNet)
			if !ok || ipn.IP.IsMulticast() || ipn.IP.IsUnspecified() {
				continue
			}
			if ips = append(ips, ipn.IP); len(ips) == maxIPs {
				return ips
			}
		}
	}
	return ips
}
