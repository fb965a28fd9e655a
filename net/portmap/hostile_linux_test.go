package portmap

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"rockstep/internal/netns"
	"rockstep/internal/testwait"
)

// hostileEnv marks the test binary re-run inside its private namespace.
const hostileEnv = "ROCKSTEP_PORTMAP_HOSTILE_NETNS"

// hostileGW is the hostile router's address, on lo of the test's own
// namespace: nothing it answers leaves the namespace.
var hostileGW = netip.MustParseAddr("10.77.0.1")

// hostileRouter answers PCP and NAT-PMP on 5351 and UPnP (an SSDP search
// on 1900, a description and a control URL over HTTP) as the test tells
// it: answer(proto, n) gives the outside address and port of its nth
// answer (from 0) to a mapping request of proto, and life its lifetime.
type hostileRouter struct {
	answer func(p Proto, n int) netip.AddrPort
	life   uint32 // seconds
	// description, if set, is the body served as the device description
	// (the default is a minimal IGD with WANIPConnection1).
	description func(w io.Writer) (int64, error)

	httpPort int
	mu       sync.Mutex
	asked    map[Proto]int
	requests []time.Time // every mapping request of any protocol, when it came
	served   atomic.Int64
}

func startHostileRouter(t *testing.T, h *hostileRouter) *hostileRouter {
	t.Helper()
	h.asked = map[Proto]int{}
	udp, err := net.ListenUDP("udp", net.UDPAddrFromAddrPort(netip.AddrPortFrom(hostileGW, pcpPort)))
	if err != nil {
		t.Fatal(err)
	}
	ssdp, err := net.ListenUDP("udp", net.UDPAddrFromAddrPort(netip.AddrPortFrom(hostileGW, ssdpPort)))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", netip.AddrPortFrom(hostileGW, 0).String())
	if err != nil {
		t.Fatal(err)
	}
	h.httpPort = ln.Addr().(*net.TCPAddr).Port
	srv := &http.Server{Handler: http.HandlerFunc(h.serveHTTP), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	go h.serveUDP(udp)
	go h.serveSSDP(ssdp)
	t.Cleanup(func() { udp.Close(); ssdp.Close(); srv.Close() })
	return h
}

// next counts a mapping request of p and returns its number.
func (h *hostileRouter) next(p Proto) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := h.asked[p]
	h.asked[p]++
	h.requests = append(h.requests, time.Now())
	return n
}

func (h *hostileRouter) mappingRequests() []time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]time.Time(nil), h.requests...)
}

func (h *hostileRouter) serveUDP(c *net.UDPConn) {
	buf := make([]byte, 1100)
	for {
		n, from, err := c.ReadFromUDP(buf)
		if err != nil {
			return
		}
		req := buf[:n]
		switch {
		case n >= pcpMapLen && req[0] == pcpVersion && req[1] == pcpOpMap:
			life := binary.BigEndian.Uint32(req[4:8])
			if life == 0 { // a delete
				_, _ = c.WriteToUDP(pcpResponse(req, netip.AddrPortFrom(netip.IPv4Unspecified(), 0), 0), from)
				continue
			}
			ext := h.answer(PCP, h.next(PCP))
			_, _ = c.WriteToUDP(pcpResponse(req, ext, h.life), from)
		case n == 2 && req[0] == 0 && req[1] == natpmpOpAddress:
			// The outside address of the answer to come.
			h.mu.Lock()
			ext := h.answer(NATPMP, h.asked[NATPMP])
			h.mu.Unlock()
			b := []byte{0, 128, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0}
			if a := ext.Addr().Unmap(); a.Is4() {
				a4 := a.As4()
				copy(b[8:], a4[:])
			}
			_, _ = c.WriteToUDP(b, from)
		case n == 12 && req[0] == 0 && req[1] == natpmpOpMapUDP:
			b := make([]byte, natpmpMapLen)
			b[1] = 129
			binary.BigEndian.PutUint32(b[4:8], 300)
			copy(b[8:10], req[4:6])
			if binary.BigEndian.Uint32(req[8:12]) != 0 {
				ext := h.answer(NATPMP, h.next(NATPMP))
				binary.BigEndian.PutUint16(b[10:12], ext.Port())
				binary.BigEndian.PutUint32(b[12:16], h.life)
			}
			_, _ = c.WriteToUDP(b, from)
		}
	}
}

// pcpResponse answers the PCP MAP request req with ext for life seconds.
func pcpResponse(req []byte, ext netip.AddrPort, life uint32) []byte {
	b := make([]byte, pcpMapLen)
	b[0], b[1] = pcpVersion, pcpResponseOp|pcpOpMap
	binary.BigEndian.PutUint32(b[4:8], life)
	binary.BigEndian.PutUint32(b[8:12], 300) // epoch: seconds
	copy(b[24:42], req[24:42])               // nonce, protocol, internal port
	binary.BigEndian.PutUint16(b[42:44], ext.Port())
	a := netip.AddrFrom16(ext.Addr().As16())
	if ext.Addr().Is4() {
		a = netip.AddrFrom16(netip.AddrFrom4(ext.Addr().As4()).As16()) // IPv4-mapped
	}
	a16 := a.As16()
	copy(b[44:60], a16[:])
	return b
}

func (h *hostileRouter) serveSSDP(c *net.UDPConn) {
	buf := make([]byte, 2048)
	for {
		_, from, err := c.ReadFromUDP(buf)
		if err != nil {
			return
		}
		resp := fmt.Sprintf("HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=120\r\nST: urn:schemas-upnp-org:device:InternetGatewayDevice:1\r\nUSN: uuid:hostile\r\nLOCATION: http://%v:%d/desc.xml\r\n\r\n", hostileGW, h.httpPort)
		_, _ = c.WriteToUDP([]byte(resp), from)
	}
}

const igdDescription = `<?xml version="1.0"?>
<root xmlns="urn:schemas-upnp-org:device-1-0"><specVersion><major>1</major><minor>0</minor></specVersion>
<device><deviceType>urn:schemas-upnp-org:device:InternetGatewayDevice:1</deviceType><friendlyName>hostile</friendlyName><UDN>uuid:hostile</UDN>
<deviceList><device><deviceType>urn:schemas-upnp-org:device:WANDevice:1</deviceType><UDN>uuid:hostile-wan</UDN>
<deviceList><device><deviceType>urn:schemas-upnp-org:device:WANConnectionDevice:1</deviceType><UDN>uuid:hostile-wanc</UDN>
<serviceList><service><serviceType>urn:schemas-upnp-org:service:WANIPConnection:1</serviceType><serviceId>urn:upnp-org:serviceId:WANIPConn1</serviceId>
<SCPDURL>/scpd.xml</SCPDURL><controlURL>/ctl</controlURL><eventSubURL>/evt</eventSubURL></service></serviceList>
</device></deviceList></device></deviceList></device></root>`

func (h *hostileRouter) serveHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/desc.xml":
		w.Header().Set("Content-Type", "text/xml")
		if h.description != nil {
			n, _ := h.description(w)
			h.served.Add(n)
			return
		}
		_, _ = io.WriteString(w, igdDescription)
	case "/ctl":
		action := r.Header.Get("SOAPACTION")
		_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 1<<16))
		var inner string
		switch {
		case strings.Contains(action, "#GetExternalIPAddress"):
			h.mu.Lock()
			ext := h.answer(UPnP, h.asked[UPnP])
			h.mu.Unlock()
			inner = `<u:GetExternalIPAddressResponse xmlns:u="urn:schemas-upnp-org:service:WANIPConnection:1"><NewExternalIPAddress>` + ext.Addr().String() + `</NewExternalIPAddress></u:GetExternalIPAddressResponse>`
		case strings.Contains(action, "#AddPortMapping"):
			h.next(UPnP)
			inner = `<u:AddPortMappingResponse xmlns:u="urn:schemas-upnp-org:service:WANIPConnection:1"/>`
		case strings.Contains(action, "#DeletePortMapping"):
			inner = `<u:DeletePortMappingResponse xmlns:u="urn:schemas-upnp-org:service:WANIPConnection:1"/>`
		default:
			http.Error(w, "no such action", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", `text/xml; charset="utf-8"`)
		_, _ = io.WriteString(w, `<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body>`+inner+`</s:Body></s:Envelope>`)
	default:
		http.NotFound(w, r)
	}
}

// inHostileNamespace runs the calling test in a private network namespace
// with the hostile router's address on lo; false: the caller returns (the
// test ran in the child, or was skipped).
func inHostileNamespace(t *testing.T) bool {
	t.Helper()
	if !netns.Isolate(t, hostileEnv, 5*time.Minute) {
		return false
	}
	if err := netns.IP("link", "set", "lo", "up"); err != nil {
		t.Fatal(err)
	}
	if err := netns.IP("addr", "add", hostileGW.String()+"/32", "dev", "lo"); err != nil {
		t.Fatal(err)
	}
	return true
}

func hostileGateway() (netip.Addr, error) { return hostileGW, nil }

// quickRenewal renews 300 ms after each grant, so that a test sees the
// edge renew without waiting minutes (the machine's own tests hold the
// real timing).
func quickRenewal() Timing {
	tm := DefaultTiming()
	tm.MaxRenew = 300 * time.Millisecond
	return tm
}

// TestHostileRouter: a router whose PCP, NAT-PMP and UPnP answers name an
// outside address no one can reach (or port 0), on the first answer or on
// a renewal, gives the verdict that it refused, and the address never
// appears in any status the Mapper reports (what the invite code and the
// lobby's words are made of).
func TestHostileRouter(t *testing.T) {
	if !inHostileNamespace(t) {
		return
	}
	good := netip.MustParseAddrPort("203.0.113.7:7777")
	for _, proto := range []Proto{PCP, NATPMP, UPnP} {
		for _, bogus := range []string{"255.255.255.255:7777", "0.1.2.3:7777", "240.0.0.1:7777", "224.0.0.1:7777", "127.0.0.1:7777", "0.0.0.0:7777", "203.0.113.7:0"} {
			bad := netip.MustParseAddrPort(bogus)
			if proto == UPnP && bad.Port() == 0 {
				continue // UPnP maps the port asked for: only the address is the router's word
			}
			for _, renewal := range []bool{false, true} {
				when := "first answer"
				if renewal {
					when = "renewal"
				}
				t.Run(fmt.Sprintf("%v %s %s", proto, bogus, when), func(t *testing.T) {
					r := startHostileRouter(t, &hostileRouter{life: 3600, answer: func(_ Proto, n int) netip.AddrPort {
						if renewal && n == 0 {
							return good
						}
						return bad
					}})
					var mu sync.Mutex
					var seen []Status
					m := Start(7777, Config{Gateway: hostileGateway, Order: []Proto{proto}, Timing: quickRenewal(),
						OnChange: func(s Status) { mu.Lock(); seen = append(seen, s); mu.Unlock() }})
					defer m.Close()
					if renewal {
						if !testwait.Until(20*time.Second, func() bool { return m.Status().Done() }) {
							t.Fatalf("no verdict: %+v", m.Status())
						}
						if st := m.Status(); st.Verdict != Opened || st.External != good {
							t.Fatalf("first answer: %+v (%q), want opened at %v", st, st, good)
						}
					}
					if !testwait.Until(20*time.Second, func() bool { return m.Status().Verdict == Refused }) {
						t.Fatalf("status %+v (%q), want refused; the router was asked %d times", m.Status(), m.Status(), len(r.mappingRequests()))
					}
					st := m.Status()
					if !strings.Contains(st.String(), "refused") || !strings.Contains(st.String(), unreachableWhy) {
						t.Fatalf("says %q, want refused because %q", st, unreachableWhy)
					}
					mu.Lock()
					defer mu.Unlock()
					for _, s := range seen {
						carries := bad.Addr() != good.Addr() && (s.External.Addr() == bad.Addr() || strings.Contains(s.String(), bad.Addr().String()))
						if carries || s.External == bad || (s.Verdict == Opened && s.External != good) {
							t.Fatalf("a status carried the router's bogus answer %v: %+v (%q)", bad, s, s)
						}
					}
				})
			}
		}
	}
}

// TestHostileRouterLifetime: a router granting 1 s is not asked again
// within the next 2 s (the old machine renewed every 0.5 s).
func TestHostileRouterLifetime(t *testing.T) {
	if !inHostileNamespace(t) {
		return
	}
	for _, proto := range []Proto{PCP, NATPMP} {
		t.Run(proto.String(), func(t *testing.T) {
			r := startHostileRouter(t, &hostileRouter{life: 1, answer: func(Proto, int) netip.AddrPort { return netip.MustParseAddrPort("203.0.113.7:7777") }})
			m := Start(7777, Config{Gateway: hostileGateway, Order: []Proto{proto}})
			defer m.Close()
			if !testwait.Until(20*time.Second, func() bool { return m.Status().Done() }) {
				t.Fatalf("no verdict: %+v", m.Status())
			}
			if st := m.Status(); st.Verdict != Opened {
				t.Fatalf("status %+v, want opened", st)
			}
			first := r.mappingRequests()[0]
			// Wait until 2 s have passed since the grant, by the router's
			// clock; what is asked meanwhile is the outcome.
			testwait.Until(10*time.Second, func() bool { return time.Since(first) > 2*time.Second })
			if got := r.mappingRequests(); len(got) != 1 {
				t.Fatalf("%d mapping requests in the 2 s after a 1 s grant, want 1 (the floor is 120 s: renewed after 60 s)", len(got))
			}
		})
	}
}

// vmRSS is this process's resident set, in bytes (/proc/self/status).
func vmRSS(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("cannot read /proc/self/status: %v", err)
	}
	s := bufio.NewScanner(bytes.NewReader(b))
	for s.Scan() {
		if f := strings.Fields(s.Text()); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Skip("no VmRSS in /proc/self/status")
	return 0
}

// TestHostileRouterHugeDescription: a UPnP description of 10 MB (a device
// name that never ends) is read no further than 64 KB: the process's resident set
// stays within 10 MB of before, and the verdict is that the router did
// not answer.
func TestHostileRouterHugeDescription(t *testing.T) {
	if !inHostileNamespace(t) {
		return
	}
	const size = 10 << 20 // bytes
	r := startHostileRouter(t, &hostileRouter{life: 3600,
		answer: func(Proto, int) netip.AddrPort { return netip.MustParseAddrPort("203.0.113.7:7777") },
		description: func(w io.Writer) (int64, error) {
			// One name that never ends: a decoder that reads it all keeps it all.
			head := `<?xml version="1.0"?><root xmlns="urn:schemas-upnp-org:device-1-0"><device><friendlyName>`
			k, err := io.WriteString(w, head)
			n := int64(k)
			if err != nil {
				return n, err
			}
			chunk := bytes.Repeat([]byte("x"), 32<<10)
			for n < size {
				k, err := w.Write(chunk)
				n += int64(k)
				if err != nil {
					return n, err
				}
			}
			return n, nil
		}})
	before := vmRSS(t)
	m := Start(7777, Config{Gateway: hostileGateway, Order: []Proto{UPnP}})
	defer m.Close()
	if !testwait.Until(20*time.Second, func() bool { return m.Status().Done() }) {
		t.Fatalf("no verdict: %+v", m.Status())
	}
	after := vmRSS(t)
	st := m.Status()
	t.Logf("RSS %d KB before, %d KB after; the router wrote %d KB of its description", before>>10, after>>10, r.served.Load()>>10)
	if st.Verdict != NoAnswer {
		t.Fatalf("status %+v (%q), want no answer", st, st)
	}
	if after-before > 10<<20 {
		t.Fatalf("RSS grew by %d KB reading a 10 MB description, want under 10 MB", (after-before)>>10)
	}
}

// TestHostileRouterNATPMPCodes: NAT-PMP result codes, read as numbers,
// give their verdicts through the edge.
func TestHostileRouterNATPMPCodes(t *testing.T) {
	if !inHostileNamespace(t) {
		return
	}
	tests := []struct {
		code uint16
		want Verdict
		says string
	}{
		{natpmpNotAuthorized, Refused, "not authorized"},
		{natpmpNetworkFailure, DoubleNAT, "double NAT"},
		{natpmpOutOfResources, Refused, "no room"},
		{natpmpUnsuppVersion, NoAnswer, "did not answer"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.code), func(t *testing.T) {
			c, err := net.ListenUDP("udp", net.UDPAddrFromAddrPort(netip.AddrPortFrom(hostileGW, pcpPort)))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			go func() {
				buf := make([]byte, 64)
				for {
					n, from, err := c.ReadFromUDP(buf)
					if err != nil {
						return
					}
					if n < 2 {
						continue
					}
					b := []byte{0, 128 + buf[1], 0, 0, 0, 0, 0, 5}
					binary.BigEndian.PutUint16(b[2:4], tt.code)
					_, _ = c.WriteToUDP(b, from)
				}
			}()
			m := Start(7777, Config{Gateway: hostileGateway, Order: []Proto{NATPMP}})
			defer m.Close()
			if !testwait.Until(20*time.Second, func() bool { return m.Status().Done() }) {
				t.Fatalf("no verdict: %+v", m.Status())
			}
			if st := m.Status(); st.Verdict != tt.want || !strings.Contains(st.String(), tt.says) {
				t.Fatalf("status %+v (%q), want %v saying %q", st, st, tt.want, tt.says)
			}
		})
	}
}
