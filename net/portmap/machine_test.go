package portmap

import (
	"fmt"
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
	// unmapFirst: the wanted action comes after an Unmap of this external
	// port (0: alone).
	unmapFirst uint16
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
			name: "an hour's lease is renewed every 5 minutes",
			steps: []step{
				{at: ms, answer: ans(OK, "203.0.113.7:7777", time.Hour)},
				{at: 5*time.Minute + ms - ms/2},
				{at: 5*time.Minute + ms, wantKind: Map, wantProto: PCP, wantPort: 7777},
				{at: 5*time.Minute + 2*ms, answer: ans(OK, "203.0.113.7:7777", time.Hour)},
				{at: 10 * time.Minute},
				{at: 10*time.Minute + 2*ms, wantKind: Map, wantProto: PCP, wantPort: 7777},
			},
			want: Opened, proto: PCP, ext: "203.0.113.7:7777",
		},
		{
			name: "a short lease is renewed at half its life",
			steps: []step{
				{at: ms, answer: ans(OK, "203.0.113.7:7777", 4*time.Minute)},
				{at: 2*time.Minute + ms, wantKind: Map, wantProto: PCP, wantPort: 7777},
			},
			want: Opened, proto: PCP, ext: "203.0.113.7:7777",
		},
		{
			name:  "a permanent mapping is still asked again every 5 minutes",
			order: []Proto{UPnP},
			steps: []step{
				{at: ms, answer: ans(OK, "203.0.113.7:7777", 0)},
				{at: 5*time.Minute + ms, wantKind: Map, wantProto: UPnP, wantPort: 7777},
			},
			want: Opened, proto: UPnP, ext: "203.0.113.7:7777",
		},
		{
			name: "a failed renewal keeps the mapping and retries at 1, 2, 4, 8, 8 s; a lapsed one starts over",
			steps: []step{
				{at: ms, answer: ans(OK, "203.0.113.7:7777", 3*time.Minute)},
				{at: 90*time.Second + ms, wantKind: Map, wantProto: PCP, wantPort: 7777},
				{at: 90*time.Second + 401*ms},                                                // unanswered: again in 1 s
				{at: 91*time.Second + 401*ms, wantKind: Map, wantProto: PCP, wantPort: 7777}, // ...
				{at: 91*time.Second + 801*ms},                                                // in 2 s
				{at: 93*time.Second + 801*ms, wantKind: Map, wantProto: PCP, wantPort: 7777},
				{at: 93*time.Second + 900*ms, answer: ans(Denied, "", 0)}, // in 4 s
				{at: 97*time.Second + 899*ms},
				{at: 97*time.Second + 900*ms, wantKind: Map, wantProto: PCP, wantPort: 7777},
				{at: 98*time.Second + 300*ms}, // in 8 s
				{at: 106*time.Second + 300*ms, wantKind: Map, wantProto: PCP, wantPort: 7777},
				{at: 106*time.Second + 700*ms}, // in 8 s again: the cap
				{at: 114*time.Second + 700*ms, wantKind: Map, wantProto: PCP, wantPort: 7777},
				{at: 115 * time.Second, answer: ans(OK, "203.0.113.7:7777", 3*time.Minute)}, // back: half the life again
				{at: 205*time.Second - ms},
				{at: 205 * time.Second, wantKind: Map, wantProto: PCP, wantPort: 7777},
				{at: 205*time.Second + 400*ms},
				{at: 206*time.Second + 400*ms, wantKind: Map, wantProto: PCP, wantPort: 7777}, // a new failure: 1 s again
				{at: 295 * time.Second, wantKind: Map, wantProto: PCP, wantPort: 7777},        // unanswered, and lapsed: a round from the first protocol
			},
			want: Asking,
		},
		{
			name: "a lifetime of 1 s counts as 120 s: renewed after 60 s, not twice a second",
			steps: []step{
				{at: ms, answer: ans(OK, "203.0.113.7:7777", time.Second)},
				{at: 500 * ms},
				{at: 2 * time.Second},
				{at: 60*time.Second + ms - ms/2},
				{at: 60*time.Second + ms, wantKind: Map, wantProto: PCP, wantPort: 7777},
				{at: 60*time.Second + 2*ms, answer: ans(OK, "203.0.113.7:7777", time.Second)},
				{at: 61 * time.Second},
				{at: 120*time.Second + 2*ms, wantKind: Map, wantProto: PCP, wantPort: 7777},
			},
			want: Opened, proto: PCP, ext: "203.0.113.7:7777",
		},
		{
			name:  "a renewal naming the loopback: the mapping is dropped, and the round that follows refused",
			order: []Proto{PCP},
			steps: []step{
				{at: ms, answer: ans(OK, "203.0.113.7:7777", time.Hour)},
				{at: 5*time.Minute + ms, wantKind: Map, wantProto: PCP, wantPort: 7777},
				{at: 5*time.Minute + 2*ms, answer: ans(OK, "127.0.0.1:7777", time.Hour), unmapFirst: 7777, wantKind: Map, wantProto: PCP, wantPort: 7777},
				{at: 5*time.Minute + 3*ms, answer: ans(OK, "0.0.0.0:0", time.Hour)},
			},
			want: Refused, says: "no one can reach",
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
				if s.unmapFirst != 0 {
					if len(got) == 0 || got[0].Kind != Unmap || got[0].ExtPort != s.unmapFirst {
						t.Fatalf("step %d (%v): actions %+v, want an Unmap of %d first", i, s.at, got, s.unmapFirst)
					}
					got = got[1:]
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
		{"100.128.0.1", false}, {"203.0.113.7", false}, {"8.8.8.8", false}, {"0.0.0.0", false}, {"127.0.0.1", false}, {"::ffff:10.0.0.1", true},
		{"fd00::1", true}, {"2001:db8::1", false},
	}
	for _, tt := range tests {
		if got := IsPrivate(netip.MustParseAddr(tt.addr)); got != tt.want {
			t.Errorf("IsPrivate(%s) = %v, want %v", tt.addr, got, tt.want)
		}
	}
}

// bogusOutside are the outside addresses a hostile or broken router was
// seen to give (issue 53): none may be believed, first answer or renewal.
var bogusOutside = []string{
	"255.255.255.255:7777", "0.1.2.3:7777", "240.0.0.1:7777", "224.0.0.1:7777", "127.0.0.1:7777",
	"0.0.0.0:7777", "0.0.0.0:0", "203.0.113.7:0", "169.254.1.1:7777", "[fe80::1]:7777", "[ff02::1]:7777", "[::1]:7777",
}

// TestMachineBogusOutside: an answer naming an address no one can reach,
// or port 0, is that protocol failing, on the first answer and on a
// renewal: the verdict says refused and the address is nowhere in the
// status, and the next protocol is asked.
func TestMachineBogusOutside(t *testing.T) {
	for _, bogus := range bogusOutside {
		for _, renewal := range []bool{false, true} {
			name := bogus + " first"
			if renewal {
				name = bogus + " on renewal"
			}
			t.Run(name, func(t *testing.T) {
				m := NewMachine(7777, []Proto{PCP, NATPMP}, DefaultTiming())
				acts := m.Start(t0)
				now := t0
				if renewal {
					now = now.Add(time.Millisecond)
					if got := m.Report(now, Result{Seq: acts[0].Seq, Outcome: OK, External: netip.MustParseAddrPort("203.0.113.7:7777"), Lifetime: time.Hour}); len(got) != 0 {
						t.Fatalf("grant: actions %+v", got)
					}
					now = m.Deadline()
					acts = m.Tick(now)
					if len(acts) != 1 || acts[0].Kind != Map {
						t.Fatalf("renewal: %+v", acts)
					}
				}
				ext := netip.MustParseAddrPort(bogus)
				got := m.Report(now, Result{Seq: acts[0].Seq, Outcome: OK, External: ext, Lifetime: time.Hour})
				if ext.Port() != 0 {
					if len(got) == 0 || got[0].Kind != Unmap || got[0].ExtPort != ext.Port() {
						t.Fatalf("actions %+v, want the mapping deleted first", got)
					}
					got = got[1:]
				}
				wantNext := NATPMP
				if renewal {
					wantNext = PCP // a new round
				}
				if len(got) != 1 || got[0].Kind != Map || got[0].Proto != wantNext {
					t.Fatalf("actions %+v, want a Map by %v", got, wantNext)
				}
				if st := m.Status(); st.Verdict == Opened || st.External.IsValid() {
					t.Fatalf("status %+v (%q) after %s", st, st, bogus)
				}
				// Every protocol left says the same: refused, in words
				// that do not carry the address.
				for len(got) == 1 && got[0].Kind == Map {
					got = m.Report(now, Result{Seq: got[0].Seq, Outcome: OK, External: ext, Lifetime: time.Hour})
					if len(got) > 0 && got[0].Kind == Unmap {
						got = got[1:]
					}
				}
				st := m.Status()
				if st.Verdict != Refused || st.External.IsValid() || !strings.Contains(st.String(), "refused") || !strings.Contains(st.String(), unreachableWhy) {
					t.Fatalf("status %+v (%q), want refused because %q", st, st, unreachableWhy)
				}
				if a := ext.Addr().String(); ext.Port() != 0 && strings.Contains(st.String(), a) {
					t.Fatalf("the words %q carry the address %s", st, a)
				}
			})
		}
	}
}

func TestUnreachable(t *testing.T) {
	for _, a := range []string{"255.255.255.255", "0.1.2.3", "240.0.0.1", "224.0.0.1", "239.255.255.250", "127.0.0.1", "0.0.0.0",
		"169.254.1.1", "fe80::1", "ff02::1", "::1", "::", "::ffff:127.0.0.1"} {
		if !Unreachable(netip.MustParseAddr(a)) {
			t.Errorf("Unreachable(%s) = false, want true", a)
		}
	}
	for _, a := range []string{"203.0.113.7", "7.7.7.7", "10.0.0.1", "100.64.0.1", "192.168.1.1", "2001:db8::1", "223.255.255.254", "1.0.0.0"} {
		if Unreachable(netip.MustParseAddr(a)) {
			t.Errorf("Unreachable(%s) = true, want false", a)
		}
	}
}

// TestMachineRenewsNoMoreThanEveryMinute: a router granting 1 s each
// time, for an hour of virtual time: no two requests less than 60 s
// apart.
func TestMachineRenewsNoMoreThanEveryMinute(t *testing.T) {
	m := NewMachine(7777, nil, DefaultTiming())
	acts := m.Start(t0)
	now := t0
	var sent []time.Time
	for now.Before(t0.Add(time.Hour)) {
		for _, a := range acts {
			if a.Kind == Map {
				sent = append(sent, now)
				acts = m.Report(now, Result{Seq: a.Seq, Outcome: OK, External: netip.MustParseAddrPort("203.0.113.7:7777"), Lifetime: time.Second})
			}
		}
		now = m.Deadline()
		acts = m.Tick(now)
	}
	for i := 1; i < len(sent); i++ {
		if d := sent[i].Sub(sent[i-1]); d < 60*time.Second {
			t.Fatalf("request %d came %v after the one before, want at least 60 s", i, d)
		}
	}
	if len(sent) < 2 || len(sent) > 61 {
		t.Fatalf("%d requests in an hour, want 2..61", len(sent))
	}
}

// TestMachineRouterReturns: the router goes away (unanswered) while a
// mapping is held and comes back; whatever the lease and whenever it
// returns, the mapping is asked again (and granted) within 10 s of its
// return, and the verdict says open again.
func TestMachineRouterReturns(t *testing.T) {
	ext := netip.MustParseAddrPort("203.0.113.7:7777")
	for _, lease := range []time.Duration{0, 3 * time.Minute, time.Hour} {
		for _, away := range []time.Duration{2 * time.Second, 40 * time.Second, 10 * time.Minute, 2 * time.Hour} {
			t.Run(fmt.Sprintf("lease %v, away %v", lease, away), func(t *testing.T) {
				m := NewMachine(7777, nil, DefaultTiming())
				// Gone from 1 minute in, noticed by the host's Suspect
				// (guests silent) 5 s later; back after away.
				down, up := t0.Add(time.Minute), t0.Add(time.Minute+away)
				routerUp := func(at time.Time) bool { return at.Before(down) || !at.Before(up) }
				suspected := false
				now := t0
				acts := m.Start(now)
				var back time.Time // the first grant after the return
				for i := 0; i < 100000 && back.IsZero(); i++ {
					for len(acts) > 0 {
						a := acts[0]
						acts = acts[1:]
						if a.Kind == Map && routerUp(now) {
							acts = append(acts, m.Report(now, Result{Seq: a.Seq, Outcome: OK, External: ext, Lifetime: lease})...)
							if !now.Before(up) {
								back = now
							}
						}
					}
					next := m.Deadline()
					if !suspected && !next.Before(down.Add(5*time.Second)) {
						now, suspected = down.Add(5*time.Second), true
						acts = m.Suspect(now)
						continue
					}
					if next.IsZero() {
						t.Fatalf("at %v the machine waits for nothing: %+v", now.Sub(t0), m.Status())
					}
					now = next
					acts = m.Tick(now)
				}
				if back.IsZero() {
					t.Fatal("never mapped again")
				}
				if d := back.Sub(up); d > 10*time.Second {
					t.Fatalf("mapped again %v after the router's return, want within 10 s", d)
				}
				if st := m.Status(); st.Verdict != Opened || st.External != ext {
					t.Fatalf("status %+v after the return", st)
				}
			})
		}
	}
}

// TestMachineSuspect: Suspect asks again at once when nothing was asked
// for SuspectGap, else at the gap's end; it does nothing while asking or
// when no mapping was ever held. Each answer that grants the mapping
// counts (Grants).
func TestMachineSuspect(t *testing.T) {
	m := NewMachine(7777, []Proto{PCP}, DefaultTiming())
	acts := m.Start(t0)
	if got := m.Suspect(t0.Add(time.Millisecond)); len(got) != 0 {
		t.Fatalf("Suspect while asking: %+v, want nothing", got)
	}
	m.Report(t0.Add(time.Millisecond), Result{Seq: acts[0].Seq, Outcome: OK, External: netip.MustParseAddrPort("203.0.113.7:7777"), Lifetime: time.Hour})
	if got := m.Suspect(t0.Add(time.Second)); len(got) != 0 {
		t.Fatalf("Suspect 1 s after the last request: %+v, want it put off to 2 s", got)
	}
	if d := m.Deadline().Sub(t0); d != 2*time.Second {
		t.Fatalf("next request at %v, want 2 s", d)
	}
	got := m.Tick(t0.Add(2 * time.Second))
	if len(got) != 1 || got[0].Kind != Map || got[0].Proto != PCP {
		t.Fatalf("Tick at 2 s: %+v, want the mapping asked again", got)
	}
	if m.Grants() != 1 {
		t.Fatalf("grants before the suspicion's answer: %d, want 1", m.Grants())
	}
	m.Report(t0.Add(2*time.Second), Result{Seq: got[0].Seq, Outcome: OK, External: netip.MustParseAddrPort("203.0.113.7:7777"), Lifetime: time.Hour})
	if m.Grants() != 2 {
		t.Fatalf("grants after the suspicion's answer: %d, want 2 (the Mapper logs the mapping made again by it)", m.Grants())
	}
	got = m.Suspect(t0.Add(10 * time.Second))
	if len(got) != 1 || got[0].Kind != Map {
		t.Fatalf("Suspect 8 s after the last request: %+v, want the mapping asked at once", got)
	}

	never := NewMachine(7777, []Proto{PCP}, DefaultTiming())
	acts = never.Start(t0)
	never.Report(t0, Result{Seq: acts[0].Seq, Outcome: Denied})
	if got := never.Suspect(t0.Add(time.Minute)); len(got) != 0 || never.Deadline() != (time.Time{}) {
		t.Fatalf("Suspect after a refusal and no mapping: %+v, want nothing", got)
	}
}

// TestMachineEpoch: the router's epoch, from its answers and
// announcements, shows a restart when it goes back or lags the clock
// (RFC 6887 section 8.5); an announcement of a restart asks again.
func TestMachineEpoch(t *testing.T) {
	tests := []struct {
		name    string
		later   time.Duration // after the first answer (epoch 1000)
		epoch   uint32
		restart bool
	}{
		{"in step", 5 * time.Minute, 1300, false},
		{"a second short of the clock: jitter", 2 * time.Second, 1001, false},
		{"back to 3 s: rebooted", 5 * time.Minute, 3, true},
		{"lagging the clock: rebooted and up for a while", 10 * time.Minute, 1000 + 60, true},
		{"running ahead of the clock", time.Minute, 1000 + 600, true},
		{"a sixteenth of drift", 16 * time.Minute, 1000 + 15*60 + 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewMachine(7777, []Proto{PCP}, DefaultTiming())
			acts := m.Start(t0)
			m.Report(t0, Result{Seq: acts[0].Seq, Outcome: OK, External: netip.MustParseAddrPort("203.0.113.7:7777"), Lifetime: time.Hour, Epoch: 1000, HasEpoch: true})
			// Heard in an announcement: a restart asks at once.
			got := m.Announce(t0.Add(tt.later), tt.epoch)
			if tt.restart != (len(got) == 1 && got[0].Kind == Map) || m.Restarts() != map[bool]int{false: 0, true: 1}[tt.restart] {
				t.Fatalf("Announce: %+v, restarts %d; want a restart %v", got, m.Restarts(), tt.restart)
			}
			// Heard in a renewal's answer: counted (the renewal itself
			// made the mapping again).
			r := NewMachine(7777, []Proto{PCP}, DefaultTiming())
			acts = r.Start(t0)
			r.Report(t0, Result{Seq: acts[0].Seq, Outcome: OK, External: netip.MustParseAddrPort("203.0.113.7:7777"), Lifetime: time.Hour, Epoch: 1000, HasEpoch: true})
			acts = r.Suspect(t0.Add(tt.later))
			r.Report(t0.Add(tt.later), Result{Seq: acts[0].Seq, Outcome: OK, External: netip.MustParseAddrPort("203.0.113.7:7777"), Lifetime: time.Hour, Epoch: tt.epoch, HasEpoch: true})
			if r.Restarts() != map[bool]int{false: 0, true: 1}[tt.restart] || r.Status().Verdict != Opened {
				t.Fatalf("renewal: restarts %d, status %v; want a restart %v, opened", r.Restarts(), r.Status().Verdict, tt.restart)
			}
		})
	}
}

// TestMachineAnnounceWithoutEpoch: a mapping held by UPnP has no epoch to
// compare: an announcement from the router asks again all the same (at
// most one request per SuspectGap), and a second one with an epoch in
// step does not.
func TestMachineAnnounceWithoutEpoch(t *testing.T) {
	m := NewMachine(7777, []Proto{UPnP}, DefaultTiming())
	acts := m.Start(t0)
	m.Report(t0, Result{Seq: acts[0].Seq, Outcome: OK, External: netip.MustParseAddrPort("203.0.113.7:7777")})
	got := m.Announce(t0.Add(time.Minute), 5)
	if len(got) != 1 || got[0].Kind != Map || got[0].Proto != UPnP {
		t.Fatalf("Announce: %+v, want the UPnP mapping asked again", got)
	}
	m.Report(t0.Add(time.Minute), Result{Seq: got[0].Seq, Outcome: OK, External: netip.MustParseAddrPort("203.0.113.7:7777")})
	if got := m.Announce(t0.Add(time.Minute+10*time.Second), 15); len(got) != 0 {
		t.Fatalf("an announcement in step: %+v, want nothing", got)
	}
}
