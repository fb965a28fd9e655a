package portmap

import (
	"bytes"
	"encoding/binary"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"rockstep/internal/testwait"
)

// fakePCP is a PCP server on loopback: it grants every MAP with the
// external address ext, or answers with result code res, and records the
// requests' lifetimes.
type fakePCP struct {
	conn *net.UDPConn
	ext  netip.Addr
	res  byte
	v0   bool // answer as a NAT-PMP-only router: version 0, UNSUPP_VERSION

	mu    sync.Mutex
	lives []uint32
}

func newFakePCP(t *testing.T, ext string, res byte, v0 bool) *fakePCP {
	t.Helper()
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	f := &fakePCP{conn: c, ext: netip.MustParseAddr(ext), res: res, v0: v0}
	t.Cleanup(func() { c.Close() })
	go f.serve()
	return f
}

func (f *fakePCP) port() uint16 { return uint16(f.conn.LocalAddr().(*net.UDPAddr).Port) }

func (f *fakePCP) serve() {
	buf := make([]byte, 1100)
	for {
		n, from, err := f.conn.ReadFromUDP(buf)
		if err != nil {
			return
		}
		if n < pcpMapLen {
			continue
		}
		req := buf[:n]
		if f.v0 {
			_, _ = f.conn.WriteToUDP([]byte{0, 0x80 | req[1], 0, 1, 0, 0, 0, 0}, from)
			continue
		}
		life := binary.BigEndian.Uint32(req[4:8])
		f.mu.Lock()
		f.lives = append(f.lives, life)
		f.mu.Unlock()
		resp := make([]byte, pcpMapLen)
		resp[0], resp[1], resp[3] = 2, 0x81, f.res
		binary.BigEndian.PutUint32(resp[4:8], life)
		copy(resp[24:36], req[24:36])
		resp[36] = req[36]
		copy(resp[40:42], req[40:42])
		copy(resp[42:44], req[42:44])
		a := netip.AddrFrom16(f.ext.As16())
		b := a.As16()
		copy(resp[44:60], b[:])
		_, _ = f.conn.WriteToUDP(resp, from)
	}
}

func (f *fakePCP) lifetimes() []uint32 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]uint32(nil), f.lives...)
}

func loopbackGateway() (netip.Addr, error) { return netip.MustParseAddr("127.0.0.1"), nil }

// TestMapperPCP runs the edge against a PCP server on loopback: the
// mapping is granted, reported, and deleted (lifetime 0) on Close.
func TestMapperPCP(t *testing.T) {
	f := newFakePCP(t, "203.0.113.9", pcpSuccess, false)
	m := Start(7777, Config{Gateway: loopbackGateway, Order: []Proto{PCP}, PCPPort: f.port()})
	if !testwait.Until(10*time.Second, func() bool { return m.Status().Done() }) {
		t.Fatalf("no verdict: %+v", m.Status())
	}
	st := m.Status()
	if st.Verdict != Opened || st.Proto != PCP || st.External != netip.MustParseAddrPort("203.0.113.9:7777") {
		t.Fatalf("status %+v (%q), want opened by PCP at 203.0.113.9:7777", st, st)
	}
	m.Close()
	lives := f.lifetimes()
	if len(lives) != 2 || lives[0] != 3600 || lives[1] != 0 {
		t.Fatalf("lifetimes asked %v, want [3600 0] (map for an hour, then delete)", lives)
	}
}

func TestMapperVerdicts(t *testing.T) {
	tests := []struct {
		name string
		ext  string
		res  byte
		v0   bool
		want Verdict
	}{
		{"private outside address", "192.168.0.2", pcpSuccess, false, DoubleNAT},
		{"not authorized", "203.0.113.9", pcpNotAuthorized, false, Refused},
		{"NAT-PMP-only router answers UNSUPP_VERSION: on to the next", "203.0.113.9", 0, true, NoAnswer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakePCP(t, tt.ext, tt.res, tt.v0)
			m := Start(7777, Config{Gateway: loopbackGateway, Order: []Proto{PCP}, PCPPort: f.port()})
			defer m.Close()
			if !testwait.Until(10*time.Second, func() bool { return m.Status().Done() }) {
				t.Fatalf("no verdict: %+v", m.Status())
			}
			if got := m.Status(); got.Verdict != tt.want {
				t.Fatalf("verdict %v (%q), want %v", got.Verdict, got, tt.want)
			}
		})
	}
}

func TestMapperNoGateway(t *testing.T) {
	m := Start(7777, Config{Gateway: func() (netip.Addr, error) { return netip.Addr{}, errNoGateway }})
	if !testwait.Until(10*time.Second, func() bool { return m.Status().Done() }) {
		t.Fatal("no verdict")
	}
	if got := m.Status(); got.Verdict != NoRouter {
		t.Fatalf("verdict %v, want NoRouter", got.Verdict)
	}
	m.Close()
	m.Close() // twice is fine
	var nilM *Mapper
	nilM.Close()
	if got := Disabled(7777).Status(); got.Verdict != Off {
		t.Fatalf("Disabled: %v, want Off", got.Verdict)
	}
}

func TestParsePCPAnswer(t *testing.T) {
	nonce := [12]byte{1, 2, 3}
	ok := make([]byte, pcpMapLen)
	ok[0], ok[1] = 2, 0x81
	binary.BigEndian.PutUint32(ok[4:8], 7200)
	copy(ok[24:36], nonce[:])
	binary.BigEndian.PutUint16(ok[42:44], 7777)
	copy(ok[44:60], []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 203, 0, 113, 7})
	other := append([]byte(nil), ok...)
	other[24] = 9
	tests := []struct {
		name    string
		b       []byte
		wantErr bool
		result  byte
		ext     string
	}{
		{"success", ok, false, pcpSuccess, "203.0.113.7:7777"},
		{"another nonce", other, true, 0, ""},
		{"NAT-PMP router: unsupported version", []byte{0, 0x81, 0, 1, 0, 0, 0, 0}, false, pcpUnsuppVersion, ""},
		{"truncated", ok[:30], true, 0, ""},
		{"empty", nil, true, 0, ""},
		{"a request, not an answer", pcpMapRequest(netip.MustParseAddr("10.0.0.2"), nonce, 7777, 7777, 3600), true, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := parsePCPAnswer(tt.b, nonce)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err %v, want error %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if a.result != tt.result || (tt.ext != "" && a.external.String() != tt.ext) {
				t.Fatalf("got %+v, want result %d external %s", a, tt.result, tt.ext)
			}
		})
	}
}

func FuzzParsePCPAnswer(f *testing.F) {
	f.Add([]byte{0, 0x81, 0, 1})
	f.Add(make([]byte, pcpMapLen))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = parsePCPAnswer(b, [12]byte{})
	})
}

func TestParseNATPMPAnswer(t *testing.T) {
	addr := []byte{0, 128, 0, 0, 0, 0, 1, 44, 7, 7, 7, 7}
	mapped := []byte{0, 129, 0, 0, 0, 0, 1, 44, 0x1e, 0x61, 0x1e, 0x62, 0, 0, 0x0e, 0x10}
	tests := []struct {
		name     string
		b        []byte
		op       byte
		wantErr  bool
		result   uint16
		epoch    uint32
		ext      string
		port     uint16
		lifetime uint32
		outcome  Outcome
	}{
		{"outside address", addr, natpmpOpAddress, false, 0, 300, "7.7.7.7", 0, 0, OK},
		{"mapping", mapped, natpmpOpMapUDP, false, 0, 300, "", 7778, 3600, OK},
		{"another port's mapping", mapped, natpmpOpMapUDP, true, 0, 0, "", 0, 0, 0},
		{"no public address: code 3", []byte{0, 128, 0, 3, 0, 0, 0, 9}, natpmpOpAddress, false, 3, 9, "", 0, 0, NoPublic},
		{"not authorized: code 2", []byte{0, 129, 0, 2, 0, 0, 0, 9}, natpmpOpMapUDP, false, 2, 9, "", 0, 0, Denied},
		{"out of resources: code 4", []byte{0, 129, 0, 4}, natpmpOpMapUDP, false, 4, 0, "", 0, 0, Denied},
		{"a PCP router: version 2, UNSUPP_VERSION", []byte{2, 128, 0, 1}, natpmpOpAddress, false, 1, 0, "", 0, 0, Unsupported},
		{"unknown code", []byte{0, 129, 0, 77, 0, 0, 0, 0}, natpmpOpMapUDP, false, 77, 0, "", 0, 0, Denied},
		{"the answer to another opcode", addr, natpmpOpMapUDP, true, 0, 0, "", 0, 0, 0},
		{"truncated success", addr[:10], natpmpOpAddress, true, 0, 0, "", 0, 0, 0},
		{"empty", nil, natpmpOpAddress, true, 0, 0, "", 0, 0, 0},
		{"a request", natpmpMapRequest(7777, 7777, 3600), natpmpOpMapUDP, true, 0, 0, "", 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			internal := uint16(0x1e61) // 7777
			if tt.name == "another port's mapping" {
				internal = 7000
			}
			a, err := parseNATPMPAnswer(tt.b, tt.op, internal)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err %v, want error %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if a.result != tt.result || a.epoch != tt.epoch || (tt.ext != "" && a.external.String() != tt.ext) || a.mapped != tt.port || a.lifetime != tt.lifetime {
				t.Fatalf("got %+v, want result %d epoch %d external %s port %d lifetime %d", a, tt.result, tt.epoch, tt.ext, tt.port, tt.lifetime)
			}
			if o, _ := natpmpOutcome(a.result); o != tt.outcome {
				t.Fatalf("outcome %v, want %v", o, tt.outcome)
			}
		})
	}
}

func FuzzParseNATPMPAnswer(f *testing.F) {
	f.Add([]byte{0, 128, 0, 0, 0, 0, 1, 44, 7, 7, 7, 7}, byte(0))
	f.Add([]byte{0, 129, 0, 0, 0, 0, 1, 44, 0x1e, 0x61, 0x1e, 0x62, 0, 0, 0x0e, 0x10}, byte(1))
	f.Fuzz(func(t *testing.T, b []byte, op byte) {
		_, _ = parseNATPMPAnswer(b, op%2, 7777)
	})
}

// TestMapperSuspect: the host's hint asks the router again: the fake
// router sees a second mapping request, the mapping stays open, and the
// log says when the router mapped the port again (what a router that
// forgot is measured by: BENCHMARKS.md).
func TestMapperSuspect(t *testing.T) {
	f := newFakePCP(t, "203.0.113.9", pcpSuccess, false)
	var out logBuf
	m := Start(7777, Config{Gateway: loopbackGateway, Order: []Proto{PCP}, PCPPort: f.port(), Log: slog.New(slog.NewTextHandler(&out, nil))})
	defer m.Close()
	if !testwait.Until(10*time.Second, func() bool { return m.Status().Done() }) {
		t.Fatalf("no verdict: %+v", m.Status())
	}
	// Hints until the router is asked again (the first may come within
	// the 2 s after the grant, and waits for them to pass).
	if !testwait.Until(20*time.Second, func() bool { m.Suspect(); return len(f.lifetimes()) >= 2 }) {
		t.Fatalf("lifetimes asked %v, want a second request after Suspect", f.lifetimes())
	}
	if st := m.Status(); st.Verdict != Opened {
		t.Fatalf("status %+v after Suspect, want opened", st)
	}
	if !testwait.Until(10*time.Second, func() bool { return strings.Contains(out.String(), "the router mapped the port again") }) {
		t.Fatalf("the log does not say the port was mapped again:\n%s", out.String())
	}
	var nilM *Mapper
	nilM.Suspect()
	Disabled(7777).Suspect()
}

func TestParseAnnouncement(t *testing.T) {
	pcp := make([]byte, 24)
	pcp[0], pcp[1] = pcpVersion, pcpResponseOp
	binary.BigEndian.PutUint32(pcp[8:12], 42)
	pcpFail := append([]byte(nil), pcp...)
	pcpFail[3] = pcpNetworkFailure
	tests := []struct {
		name  string
		b     []byte
		epoch uint32
		ok    bool
	}{
		{"PCP ANNOUNCE", pcp, 42, true},
		{"PCP ANNOUNCE with an error", pcpFail, 0, false},
		{"NAT-PMP address notice", []byte{0, 128, 0, 0, 0, 0, 0, 7, 7, 7, 7, 7}, 7, true},
		{"NAT-PMP mapping answer", []byte{0, 129, 0, 0, 0, 0, 0, 7, 7, 7, 7, 7}, 0, false},
		{"truncated", pcp[:20], 0, false},
		{"empty", nil, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			epoch, ok := parseAnnouncement(tt.b)
			if epoch != tt.epoch || ok != tt.ok {
				t.Fatalf("got %d, %v; want %d, %v", epoch, ok, tt.epoch, tt.ok)
			}
		})
	}
}

func FuzzParseAnnouncement(f *testing.F) {
	f.Add([]byte{2, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 42, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{0, 128, 0, 0, 0, 0, 0, 7, 7, 7, 7, 7})
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = parseAnnouncement(b)
	})
}

// logBuf is a log's output, written and read by different goroutines.
type logBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
