package portmap

import (
	"net/netip"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// step is one event of a scripted run on virtual time: at (after t0),
// either a Tick or, with answer set, the router's answer to the last
// action sent.
type step struct {
	at     time.Duration
	answer *Result // Seq filled in from the last action
	close  bool
	// want: the kind and protocol of the one action expected (0: none),
	// and its external port where nonzero.
	wantKind  ActionKind
	wantProto Proto
	wantPort  uint16
}

func ans(o Outcome, ext string, life time.Duration) *Result {
	r := &Result{Outcome: o, Lifetime: life}
	if ext != "" {
		r.External = netip.MustParseAddrPort(ext)
	}
	return r
}

func TestMachine(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name  string
		order []Proto
		steps []step
		want  Verdict
		proto Proto
		ext   string
		says  string // a phrase of the player's sentence
	}{
		{
			name:  "PCP maps at once",
			steps: []step{{at: 3 * ms, answer: ans(OK, "203.0.113.7:7777", time.Hour)}},
			want:  Opened, proto: PCP, ext: "203.0.113.7:7777", says: "opened port 7777 by PCP",
		},
		{
			name: "PCP unsupported version: NAT-PMP maps",
			steps: []step{
				{at: 2 * ms, answer: ans(Unsupported, "", 0), wantKind: Map, wantProto: NATPMP, wantPort: 7777},
				{at: 4 * ms, answer: ans(OK, "203.0.113.7:7777", time.Hour)},
			},
			want: Opened, proto: NATPMP, ext: "203.0.113.7:7777", says: "by NAT-PMP",
		},
		{
			name: "silent PCP and NAT-PMP: UPnP maps",
			steps: []step{
				{at: 399 * ms},
				{at: 400 * ms, wantKind: Map, wantProto: NATPMP, wantPort: 7777},
				{at: 800 * ms, wantKind: Map, wantProto: UPnP, wantPort: 7777},
				{at: 900 * ms, answer: ans(OK, "203.0.113.7:7777", 0)},
			},
			want: Opened, proto: UPnP, ext: "203.0.113.7:7777", says: "by UPnP",
		},
		{
			name: "no router answers: verdict at 2.3 s",
			steps: []step{
				{at: 400 * ms, wantKind: Map, wantProto: NATPMP, wantPort: 7777},
				{at: 800 * ms, wantKind: Map, wantProto: UPnP, wantPort: 7777},
				{at: 2299 * ms},
				{at: 2300 * ms},
			},
			want: NoAnswer, says: "did not answer",
		},
		{
			name: "a late answer to a timed-out request is ignored",
			steps: []step{
				{at: 400 * ms, wantKind: Map, wantProto: NATPMP, wantPort: 7777},
				{at: 500 * ms, answer: &Result{Seq: 1, Outcome: OK, External: netip.MustParseAddrPort("203.0.113.7:7777")}},
				{at: 600 * ms, answer: ans(OK, "203.0.113.8:7777", time.Hour)},
			},
			want: Opened, proto: NATPMP, ext: "203.0.113.8:7777",
		},
		{
			name: "refused everywhere",
			steps: []step{
				{at: ms, answer: &Result{Outcome: Denied, Why: "not authorized"}, wantKind: Map, wantProto: NATPMP, wantPort: 7777},
				{at: 2 * ms, answer: ans(Denied, "", 0), wantKind: Map, wantProto: UPnP, wantPort: 7777},
				{at: 3 * ms, answer: ans(Denied, "", 0)},
			},
			want: Refused, says: "refused to open a port (not authorized)",
		},
		{
			name: "refused by one, silent others: refused",
			steps: []step{
				{at: ms, answer: ans(Unsupported, "", 0), wantKind: Map, wantProto: NATPMP, wantPort: 7777},
				{at: 2 * ms, answer: ans(Denied, "", 0), wantKind: Map, wantProto: UPnP, wantPort: 7777},
				{at: 2 * time.Second},
			},
			want: Refused, says: "forward UDP port 7777",
		},
		{
			name: "private outside address: double NAT, the useless mapping deleted",
			steps: []step{
				{at: ms, answer: ans(OK, "10.0.0.2:7777", time.Hour), wantKind: Unmap, wantProto: PCP, wantPort: 7777},
			},
			want: DoubleNAT, proto: PCP, says: "double NAT",
		},
		{
			name: "carrier-grade NAT outside address: double NAT",
			steps: []step{
				{at: ms, answer: ans(Unsupported, "", 0), wantKind: Map, wantProto: NATPMP, wantPort: 7777},
				{at: 2 * ms, answer: ans(OK, "100.64.3.4:7777", time.Hour), wantKind: Unmap, wantProto: NATPMP, wantPort: 7777},
			},
			want: DoubleNAT, proto: NATPMP, says: "double NAT",
		},
		{
			name: "router without a public address of its own: double NAT",
			steps: []step{
				{at: ms, answer: ans(NoPublic, "", 0), wantKind: Map, wantProto: NATPMP, wantPort: 7777},
				{at: 2 * ms, answer: ans(NoPublic, "", 0), wantKind: Map, wantProto: UPnP, wantPort: 7777},
				{at: 3 * ms, answer: ans(Denied, "", 0)},
			},
			want: DoubleNAT, proto: PCP, says: "double NAT",
		},
		{
			name:  "port taken: another port at or above 1024",
			order: []Proto{UPnP},
			steps: []step{
				{at: ms, answer: ans(PortTaken, "", 0), wantKind: Map, wantProto: UPnP, wantPort: 7777 + 97},
				{at: 2 * ms, answer: ans(OK, "203.0.113.7:7874", 0)},
			},
			want: Opened, proto: UPnP, ext: "203.0.113.7:7874", says: "opened port 7874 by UPnP",
		},
		{
			name:  "every port taken: refused",
			order: []Proto{UPnP},
			steps: []step{
				{at: ms, answer: ans(PortTaken, "", 0), wantKind: Map, wantProto: UPnP, wantPort: 7874},
				{at: 2 * ms, answer: ans(PortTaken, "", 0), wantKind: Map, wantProto: UPnP, wantPort: 7971},
				{at: 3 * ms, answer: ans(PortTaken, "", 0), wantKind: Map, wantProto: UPnP, wantPort: 8068},
				{at: 4 * ms, answer: ans(PortTaken, "", 0)},
			},
			want: Refused, says: "taken",
		},
		{
			name: "a mapping to port 0 is no mapping",
			steps: []step{
				{at: ms, answer: ans(OK, "203.0.113.7:0", time.Hour), wantKind: Map, wantProto: NATPMP, wantPort: 7777},
			},
			want: Asking,
		},
		{
			name: "renewed at half the granted life",
			steps: []step{
				{at: ms, answer: ans(OK, "203.0.113.7:7777", time.Hour)},
				{at: 30*time.Minute + ms - ms/2},
				{at: 30*time.Minute + ms, wantKind: Map, wantProto: PCP, wantPort: 7777},
				{at: 30*time.Minute + 2*ms, answer: ans(OK, "203.0.113.7:7777", time.Hour)},
				{at: 60 * time.Minute},
				{at: 60*time.Minute + 2*ms, wantKind: Map, wantProto: PCP, wantPort: 7777},
			},
			want: Opened, proto: PCP, ext: "203.0.113.7:7777",
		},
		{
			name: "a failed renewal keeps the mapping and retries; a lapsed one starts over",
			steps: []step{
				{at: ms, answer: ans(OK, "203.0.113.7:7777", 10*time.Minute)},
				{at: 5*time.Minute + ms, wantKind: Map, wantProto: PCP, wantPort: 7777},
				{at: 5*time.Minute + 401*ms},                                                // unanswered: retry in a minute
				{at: 6*time.Minute + 401*ms, wantKind: Map, wantProto: PCP, wantPort: 7777}, // ...and again
				{at: 6*time.Minute + 801*ms},
				{at: 7*time.Minute + 801*ms, wantKind: Map, wantProto: PCP, wantPort: 7777},
				{at: 7*time.Minute + 900*ms, answer: ans(Denied, "", 0)},
				{at: 8*time.Minute + 900*ms, wantKind: Map, wantProto: PCP, wantPort: 7777},
				{at: 9*time.Minute + 300*ms}, // under a minute left: retry at half of it
				{at: 9*time.Minute + 30*time.Second + 200*ms, wantKind: Map, wantProto: PCP, wantPort: 7777},
				{at: 9*time.Minute + 30*time.Second + 600*ms},
				{at: 10*time.Minute + 500*ms, wantKind: Map, wantProto: PCP, wantPort: 7777},
				{at: 10*time.Minute + 900*ms, wantKind: Map, wantProto: PCP, wantPort: 7777}, // lapsed: from the first protocol
			},
			want: Asking,
		},
		{
			name:  "close deletes the mapping held",
			steps: []step{{at: ms, answer: ans(OK, "203.0.113.7:7777", time.Hour)}, {at: 2 * ms, close: true, wantKind: Unmap, wantProto: PCP, wantPort: 7777}},
			want:  Opened, proto: PCP, ext: "203.0.113.7:7777",
		},
		{
			name:  "close while asking deletes nothing",
			steps: []step{{at: 2 * ms, close: true}},
			want:  Asking,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewMachine(7777, tt.order, DefaultTiming())
			acts := m.Start(t0)
			first := Proto(PCP)
			if tt.order != nil {
				first = tt.order[0]
			}
			if len(acts) != 1 || acts[0].Kind != Map || acts[0].Proto != first || acts[0].ExtPort != 7777 || acts[0].Lifetime != time.Hour {
				t.Fatalf("Start = %+v, want one Map by %v of 7777 for an hour", acts, first)
			}
			last := acts[0]
			for i, s := range tt.steps {
				now := t0.Add(s.at)
				var got []Action
				switch {
				case s.close:
					got = m.Close()
				case s.answer != nil:
					r := *s.answer
					if r.Seq == 0 {
						r.Seq = last.Seq
					}
					got = m.Report(now, r)
				default:
					got = m.Tick(now)
				}
				if s.wantKind == 0 {
					if len(got) != 0 {
						t.Fatalf("step %d (%v): actions %+v, want none", i, s.at, got)
					}
					continue
				}
				if len(got) != 1 || got[0].Kind != s.wantKind || got[0].Proto != s.wantProto || got[0].ExtPort != s.wantPort {
					t.Fatalf("step %d (%v): actions %+v, want one %v by %v of port %d", i, s.at, got, s.wantKind, s.wantProto, s.wantPort)
				}
				if got[0].ExtPort < 1024 {
					t.Fatalf("step %d: external port %d, want 1024 or above", i, got[0].ExtPort)
				}
				last = got[0]
			}
			st := m.Status()
			if st.Verdict != tt.want {
				t.Fatalf("verdict %v (%q), want %v", st.Verdict, st, tt.want)
			}
			if tt.proto != 0 && st.Proto != tt.proto {
				t.Errorf("proto %v, want %v", st.Proto, tt.proto)
			}
			if tt.ext != "" && st.External.String() != tt.ext {
				t.Errorf("external %v, want %v", st.External, tt.ext)
			}
			if !strings.Contains(st.String(), tt.says) {
				t.Errorf("says %q, want it to say %q", st, tt.says)
			}
		})
	}
}

func TestMachineNoGateway(t *testing.T) {
	m := NewMachine(7777, nil, DefaultTiming())
	m.NoGateway()
	if got := m.Status(); got.Verdict != NoRouter || !got.Done() {
		t.Fatalf("status %+v, want NoRouter, done", got)
	}
	if acts := m.Close(); len(acts) != 0 {
		t.Fatalf("Close = %+v, want nothing to delete", acts)
	}
}

func TestOtherPort(t *testing.T) {
	tests := []struct {
		name string
		p    uint16
		n    int
		want uint16
	}{
		{"above the port", 7777, 1, 7874},
		{"a privileged port moves up", 80, 1, 1121},
		{"wraps below 65536", 65535, 1, 1120},
		{"the top port itself", 65500, 1, 1085},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := otherPort(tt.p, tt.n); got != tt.want || got < 1024 {
				t.Errorf("otherPort(%d, %d) = %d, want %d", tt.p, tt.n, got, tt.want)
			}
		})
	}
}

func TestIsPrivate(t *testing.T) {
	tests := []struct {
		addr string
		want bool
	}{
		{"10.1.2.3", true}, {"172.16.0.1", true}, {"192.168.1.1", true}, {"100.64.0.1", true}, {"100.127.255.255", true},
		{"100.128.0.1", false}, {"203.0.113.7", false}, {"8.8.8.8", false}, {"0.0.0.0", true}, {"::ffff:10.0.0.1", true},
		{"fd00::1", true}, {"2001:db8::1", false},
	}
	for _, tt := range tests {
		if got := IsPrivate(netip.MustParseAddr(tt.addr)); got != tt.want {
			t.Errorf("IsPrivate(%s) = %v, want %v", tt.addr, got, tt.want)
		}
	}
}
