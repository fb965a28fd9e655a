package portmap_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"rockstep/internal/natlab"
	"rockstep/internal/testwait"
	"rockstep/net/portmap"
)

// envLabHelper marks the test binary re-run inside a lab namespace as the
// host asking its router: it holds the protocols to try ("pcp,natpmp,upnp").
const envLabHelper = "ROCKSTEP_PORTMAP_LAB_HELPER"

// labReport is what the helper prints: the verdict and how long it took.
type labReport struct {
	Status portmap.Status
	Says   string
	MS     int64 // milliseconds from Start to the verdict
}

// TestLabHelper is not a test of its own: re-run by the lab tests inside
// a home namespace, it asks the router for UDP port 7777 as the Host
// button does, prints the verdict as one JSON line (and every status
// after it, and what the Mapper logs, one line each), calls Suspect when
// its input says "suspect", and deletes the mapping when its input says
// "close" (or ends).
func TestLabHelper(t *testing.T) {
	order := os.Getenv(envLabHelper)
	if order == "" {
		t.Skip("run by the lab tests inside a lab namespace")
	}
	var protos []portmap.Proto
	for _, p := range strings.Split(order, ",") {
		protos = append(protos, map[string]portmap.Proto{"pcp": portmap.PCP, "natpmp": portmap.NATPMP, "upnp": portmap.UPnP}[p])
	}
	start := time.Now()
	var out sync.Mutex // one line at a time on stdout
	verdict := false
	log := slog.New(slog.NewTextHandler(lockedWriter{&out, os.Stdout}, nil))
	m := portmap.Start(7777, portmap.Config{Order: protos, Log: log, OnChange: func(st portmap.Status) {
		out.Lock()
		defer out.Unlock()
		if verdict {
			fmt.Printf("LAB status %d %s\n", st.Verdict, st)
		}
	}})
	for !m.Status().Done() { // bounded: the machine gives a verdict within its waits (2.3 s)
		if time.Since(start) > 20*time.Second {
			t.Fatal("no verdict in 20 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	out.Lock()
	st := m.Status()
	b, _ := json.Marshal(labReport{Status: st, Says: st.String(), MS: time.Since(start).Milliseconds()})
	fmt.Printf("LAB %s\n", b)
	verdict = true
	out.Unlock()
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() && in.Text() != "close" {
		if in.Text() == "suspect" {
			m.Suspect()
		}
	}
	m.Close()
	fmt.Println("LAB closed")
}

// lockedWriter writes to w under mu.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// labHost is the helper running in a lab namespace.
type labHost struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	report labReport
}

func startLabHost(t *testing.T, lab *natlab.Lab, ns, order string) *labHost {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cmd := lab.Command(ctx, ns, os.Args[0], "-test.run=^TestLabHelper$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), envLabHelper+"="+order)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &labHost{cmd: cmd, stdin: stdin, lines: make(chan string, 100)}
	go func() {
		defer close(h.lines)
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			h.lines <- s.Text()
		}
	}()
	t.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	if !h.await(t, "LAB {") {
		t.Fatal("the host in the lab gave no verdict")
	}
	return h
}

// await reads the helper's lines until one starting with prefix (true),
// or its end (false). Bounded by the helper's own context.
func (h *labHost) await(t *testing.T, prefix string) bool {
	t.Helper()
	return h.awaitLine(t, func(l string) bool { return strings.HasPrefix(l, prefix) }, prefix) != ""
}

// awaitContains reads the helper's lines until one containing s, and
// returns it ("" at the helper's end).
func (h *labHost) awaitContains(t *testing.T, s string) string {
	t.Helper()
	return h.awaitLine(t, func(l string) bool { return strings.Contains(l, s) }, "")
}

func (h *labHost) awaitLine(t *testing.T, match func(string) bool, prefix string) string {
	t.Helper()
	for l := range h.lines {
		if match(l) {
			if prefix == "LAB {" {
				if err := json.Unmarshal([]byte(strings.TrimPrefix(l, "LAB ")), &h.report); err != nil {
					t.Fatalf("helper: %v: %s", err, l)
				}
			}
			return l
		}
	}
	return ""
}

func (h *labHost) close(t *testing.T) {
	t.Helper()
	fmt.Fprintln(h.stdin, "close")
	if !h.await(t, "LAB closed") {
		t.Fatal("the host in the lab did not close")
	}
}

// TestLabOpensPort: the host behind miniupnpd asks, the router maps UDP
// 7777 to it by the protocol expected, upnpc in the home namespace lists
// the mapping, and after Close it lists none.
func TestLabOpensPort(t *testing.T) {
	tests := []struct {
		name  string
		opt   natlab.Options
		order string
		want  portmap.Proto
	}{
		{"PCP first", natlab.Options{}, "pcp,natpmp,upnp", portmap.PCP},
		{"NAT-PMP", natlab.Options{}, "natpmp,upnp", portmap.NATPMP},
		{"UPnP when NAT-PMP and PCP are off", natlab.Options{NoPCP: true}, "pcp,natpmp,upnp", portmap.UPnP},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lab := natlab.Build(t, tt.opt)
			h := startLabHost(t, lab, lab.Home, tt.order)
			st := h.report.Status
			t.Logf("verdict after %d ms: %s", h.report.MS, h.report.Says)
			want := netip.AddrPortFrom(natlab.External, 7777)
			if st.Verdict != portmap.Opened || st.Proto != tt.want || st.External != want {
				t.Fatalf("status %+v (%q), want opened by %v at %v", st, h.report.Says, tt.want, want)
			}
			if !strings.Contains(h.report.Says, "by "+tt.want.String()) {
				t.Errorf("says %q, want %q", h.report.Says, "by "+tt.want.String())
			}
			m := lab.Mappings(t, lab.Home)
			if len(m) != 1 || !strings.Contains(m[0], "7777->"+natlab.HomeHost.String()+":7777") {
				t.Fatalf("upnpc -l lists %q, want the one mapping 7777->%v:7777", m, natlab.HomeHost)
			}
			if !tt.opt.NoPCP {
				out, err := lab.Output(lab.Home, "natpmpc", "-g", "10.10.0.1")
				if err != nil || !strings.Contains(out, natlab.External.String()) {
					t.Errorf("natpmpc -g: %v: %s; want the public address %v", err, out, natlab.External)
				}
			}
			h.close(t)
			if m := lab.Mappings(t, lab.Home); len(m) != 0 {
				t.Fatalf("after close upnpc -l lists %q, want no mapping", m)
			}
		})
	}
}

// TestLabRouterSilentOrDoubleNAT: behind a router without miniupnpd the
// verdict is that the router did not answer; behind two NATs, that it is
// double NAT.
func TestLabRouterSilentOrDoubleNAT(t *testing.T) {
	lab := natlab.Build(t, natlab.Options{})
	tests := []struct {
		name string
		ns   string
		want portmap.Verdict
		says string
	}{
		{"router without miniupnpd", lab.Home2, portmap.NoAnswer, "did not answer"},
		{"double NAT", lab.Home3, portmap.DoubleNAT, "double NAT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := startLabHost(t, lab, tt.ns, "pcp,natpmp,upnp")
			t.Logf("verdict after %d ms: %s", h.report.MS, h.report.Says)
			if h.report.Status.Verdict != tt.want || !strings.Contains(h.report.Says, tt.says) {
				t.Fatalf("status %+v (%q), want %v saying %q", h.report.Status, h.report.Says, tt.want, tt.says)
			}
			h.close(t)
		})
	}
}

// TestLabRouterRestart: a router that forgets (issue 52). The host holds
// a mapping by PCP; the router loses power (miniupnpd killed, its nft
// rules, connection table and leases gone) and comes back. Either the
// host's guests fell silent meanwhile, so the host called Suspect and
// kept asking the silent router, or nothing told the host and the
// router's own announcement of its restart (RFC 6887 section 14.1.3)
// does: the mapping is asked again and is back in the router's table. The
// time from the router's return to the mapping is logged (the machine's
// tests hold the 10 s bound on virtual time).
var logTime = regexp.MustCompile(`^time=(\S+) `)

func TestLabRouterRestart(t *testing.T) {
	for _, tt := range []struct {
		name    string
		opt     natlab.Options
		proto   portmap.Proto
		suspect bool   // the host calls Suspect while the router is down
		noticed string // what the host logs on noticing
	}{
		{"guests fell silent: Suspect", natlab.Options{}, portmap.PCP, true, "did not renew"},
		{"the router announces its restart", natlab.Options{}, portmap.PCP, false, "the router restarted"},
		// UPnP alone: no epoch, no announcement; the router comes back on
		// another HTTP port, found by a new search.
		{"UPnP only, guests fell silent: Suspect", natlab.Options{NoPCP: true}, portmap.UPnP, true, "did not renew"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			lab := natlab.Build(t, tt.opt)
			h := startLabHost(t, lab, lab.Home, "pcp,natpmp,upnp")
			if st := h.report.Status; st.Verdict != portmap.Opened || st.Proto != tt.proto {
				t.Fatalf("status %+v (%q), want opened by %v", st, h.report.Says, tt.proto)
			}
			wantMapping := "7777->" + natlab.HomeHost.String() + ":7777"
			mapped := func() bool {
				m := lab.Mappings(t, lab.Home)
				return len(m) == 1 && strings.Contains(m[0], wantMapping)
			}
			if !mapped() {
				t.Fatalf("upnpc -l lists %q, want %s", lab.Mappings(t, lab.Home), wantMapping)
			}
			lab.StopRouter(t, lab.Router)
			// The outage itself: a router's reboot takes a minute; 3 s is
			// enough for its epoch (seconds since it started) to show the
			// restart beyond RFC 6887's 2 s of tolerance.
			outage := time.NewTimer(3 * time.Second)
			if tt.suspect {
				fmt.Fprintln(h.stdin, "suspect")
				if l := h.awaitContains(t, tt.noticed); l == "" {
					t.Fatal("the host did not notice the router was gone")
				} else {
					t.Logf("host: %s", l)
				}
			}
			<-outage.C
			back := time.Now() // the router starts: miniupnpd is up within about a second
			lab.StartRouter(t, lab.Router)
			if !testwait.Until(60*time.Second, mapped) {
				t.Fatalf("60 s after the router came back upnpc -l lists %q, want %s", lab.Mappings(t, lab.Home), wantMapping)
			}
			t.Logf("the mapping was back in the router's table (upnpc -l, itself slow) %v after it was started again", time.Since(back).Round(time.Millisecond))
			logged := "answered again"
			if !tt.suspect {
				logged = tt.noticed
			}
			l := h.awaitContains(t, logged)
			if l == "" {
				t.Fatalf("the host did not log %q", logged)
			}
			t.Logf("host: %s", l)
			if m := logTime.FindStringSubmatch(l); m != nil {
				if at, err := time.Parse(time.RFC3339Nano, m[1]); err == nil {
					t.Logf("asked again %v after the router was started again (by the host's log)", at.Sub(back).Round(time.Millisecond))
				}
			}
			h.close(t)
			if m := lab.Mappings(t, lab.Home); len(m) != 0 {
				t.Fatalf("after close upnpc -l lists %q, want no mapping", m)
			}
		})
	}
}
