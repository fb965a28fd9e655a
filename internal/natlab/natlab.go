// Package natlab builds, for a test, a small internet of network
// namespaces with home routers that do NAT, one of them running a real
// UPnP IGD / NAT-PMP / PCP daemon (miniupnpd), so that port mapping is
// proven against a real router. It is for tests only, and needs root, the
// ip and nft commands and miniupnpd; where it cannot be built the test is
// skipped with the reason.
//
// The topology (every name prefixed with the lab's unique prefix):
//
//	home  (10.10.0.2) -- router  (10.10.0.1 | 198.51.100.1, miniupnpd, masquerade) --+
//	home2 (10.11.0.2) -- router2 (10.11.0.1 | 198.51.101.1, masquerade, drops 1900 and 5351) --+-- internet (.254 on each link)
//	home3 (10.12.0.2) -- inner   (10.12.0.1 | 10.13.0.2, miniupnpd, masquerade)      |
//	                       -- outer (10.13.0.1 | 198.51.102.1, masquerade only) -----+
//
// No namespace has a link to the machine's own network: nothing the lab
// sends can leave it. miniupnpd refuses to map when its outside address is
// reserved (as 198.51.100.0/24 is) unless ext_ip names a public one, which
// it then reports as the external address: the lab names External, and
// the internet namespace routes External to the router's outside link,
// where miniupnpd's DNAT rule (matching interface and port only) takes
// it. The inner router of the double NAT has no ext_ip: it is behind
// another NAT, as such a router is.
package natlab

import (
	"bytes"
	"context"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"rockstep/internal/testwait"
)

// External is the address the lab's miniupnpd reports as its outside
// address, and that players in the internet namespace dial. It exists
// only inside the lab (a route in the internet namespace).
var External = netip.MustParseAddr("7.7.7.7")

// Addresses of the lab's hosts.
var (
	HomeHost  = netip.MustParseAddr("10.10.0.2") // behind the miniupnpd router
	Home2Host = netip.MustParseAddr("10.11.0.2") // behind the router without miniupnpd
	Home3Host = netip.MustParseAddr("10.12.0.2") // behind two NATs, the inner one with miniupnpd
)

// Options choose the routers' daemons.
type Options struct {
	// NoPCP turns NAT-PMP and PCP off in the miniupnpd routers (they
	// share one switch): only UPnP answers.
	NoPCP bool
}

// Lab is a built lab. Its namespaces are deleted and its daemons killed
// when the test ends.
type Lab struct {
	// Namespace names.
	Home, Router, Home2, Router2, Home3, Inner, Outer, Internet string

	dir     string
	mu      sync.Mutex
	daemons map[string]*daemon // the miniupnpd running in each router namespace
}

// daemon is a miniupnpd the lab started.
type daemon struct {
	cancel context.CancelFunc
	waited chan struct{} // closed when it has exited
	out    *syncBuffer
}

var labSeq atomic.Uint32

// prefix starts the name of every lab namespace, followed by the process
// id of the test that made it.
const prefix = "rsl"

// sweep deletes the namespaces of labs whose test process is gone (one
// killed by a timeout never ran its cleanups): nothing of a lab outlives
// the next.
func sweep() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ip", "netns", "list").Output()
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(out), "\n") {
		name, _, _ := strings.Cut(strings.TrimSpace(line), " ")
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok {
			continue
		}
		pid, _, ok := strings.Cut(rest, "-")
		if n, err := strconv.Atoi(pid); !ok || err != nil || n <= 0 {
			continue
		} else if _, err := os.Stat(fmt.Sprintf("/proc/%d", n)); err == nil {
			continue // its test still runs
		}
		_ = run("ip", "netns", "delete", name)
	}
}

// Build builds the lab, or skips the test saying why it cannot.
func Build(t testing.TB, o Options) *Lab {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("natlab: needs root to create network namespaces and run miniupnpd (make test runs as root)")
	}
	for _, c := range []string{"ip", "nft", "miniupnpd", "upnpc", "natpmpc"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Skipf("natlab: needs %s (Debian: apt-get install -y iproute2 nftables miniupnpd-nftables miniupnpc natpmpc; make test installs them as root): %v", c, err)
		}
	}
	sweep()
	// Short names: unique per process and lab.
	p := fmt.Sprintf("%s%d-%d-", prefix, os.Getpid(), labSeq.Add(1))
	l := &Lab{Home: p + "home", Router: p + "router", Home2: p + "home2", Router2: p + "router2",
		Home3: p + "home3", Inner: p + "inner", Outer: p + "outer", Internet: p + "inet", dir: t.TempDir(),
		daemons: map[string]*daemon{}}
	all := []string{l.Home, l.Router, l.Home2, l.Router2, l.Home3, l.Inner, l.Outer, l.Internet}
	for _, ns := range all {
		if err := run("ip", "netns", "add", ns); err != nil {
			t.Skipf("natlab: cannot create a network namespace: %v", err)
		}
		t.Cleanup(func() { _ = run("ip", "netns", "delete", ns) })
		l.must(t, ns, "ip", "link", "set", "lo", "up")
	}
	// link joins a in namespace na to b in nb with a veth pair, addresses given with their prefix length.
	link := func(na, a, aAddr, nb, b, bAddr string) {
		if err := run("ip", "link", "add", a, "netns", na, "type", "veth", "peer", "name", b, "netns", nb); err != nil {
			t.Fatalf("natlab: %v", err)
		}
		l.must(t, na, "ip", "addr", "add", aAddr, "dev", a)
		l.must(t, na, "ip", "link", "set", a, "up")
		l.must(t, nb, "ip", "addr", "add", bAddr, "dev", b)
		l.must(t, nb, "ip", "link", "set", b, "up")
	}
	link(l.Home, "eth0", "10.10.0.2/24", l.Router, "lan0", "10.10.0.1/24")
	link(l.Router, "wan0", "198.51.100.1/24", l.Internet, "r1", "198.51.100.254/24")
	link(l.Home2, "eth0", "10.11.0.2/24", l.Router2, "lan0", "10.11.0.1/24")
	link(l.Router2, "wan0", "198.51.101.1/24", l.Internet, "r2", "198.51.101.254/24")
	link(l.Home3, "eth0", "10.12.0.2/24", l.Inner, "lan0", "10.12.0.1/24")
	link(l.Inner, "wan0", "10.13.0.2/24", l.Outer, "lan0", "10.13.0.1/24")
	link(l.Outer, "wan0", "198.51.102.1/24", l.Internet, "r3", "198.51.102.254/24")
	l.must(t, l.Home, "ip", "route", "add", "default", "via", "10.10.0.1")
	l.must(t, l.Home2, "ip", "route", "add", "default", "via", "10.11.0.1")
	l.must(t, l.Home3, "ip", "route", "add", "default", "via", "10.12.0.1")
	l.must(t, l.Router, "ip", "route", "add", "default", "via", "198.51.100.254")
	l.must(t, l.Router2, "ip", "route", "add", "default", "via", "198.51.101.254")
	l.must(t, l.Inner, "ip", "route", "add", "default", "via", "10.13.0.1")
	l.must(t, l.Outer, "ip", "route", "add", "default", "via", "198.51.102.254")
	// The internet reaches the miniupnpd router's reported address over
	// its outside link.
	l.must(t, l.Internet, "ip", "route", "add", External.String()+"/32", "via", "198.51.100.1")
	for _, r := range []string{l.Router, l.Router2, l.Inner, l.Outer} {
		l.must(t, r, "sysctl", "-q", "-w", "net.ipv4.ip_forward=1")
		l.nft(t, r)
	}
	// The router without miniupnpd drops what is sent to the ports of
	// PCP, NAT-PMP and UPnP, as many do, rather than answering that no
	// one listens: the slowest "did not answer".
	l.must(t, l.Router2, "nft", "add table inet guard")
	l.must(t, l.Router2, "nft", "add chain inet guard input { type filter hook input priority 0; policy accept; }")
	l.must(t, l.Router2, "nft", "add rule inet guard input udp dport { 1900, 5351 } drop")
	l.configure(t, l.Router, "10.10.0.0/24", External.String(), o)
	l.configure(t, l.Inner, "10.12.0.0/24", "", o)
	l.startDaemon(t, l.Router)
	l.startDaemon(t, l.Inner)
	return l
}

// StopRouter does to router namespace ns (Router or Inner) what a power
// cut does: its miniupnpd is killed without a chance to clean up, and on
// its way back up the router has forgotten everything: its nft rules are
// flushed and laid again bare (masquerade only), its connection table
// (conntrack) is flushed, and its lease file is gone. Until StartRouter,
// no daemon answers PCP, NAT-PMP or UPnP.
func (l *Lab) StopRouter(t testing.TB, ns string) {
	t.Helper()
	l.mu.Lock()
	d := l.daemons[ns]
	delete(l.daemons, ns)
	l.mu.Unlock()
	if d == nil {
		t.Fatalf("natlab: no miniupnpd runs in %s", ns)
	}
	d.cancel() // SIGKILL: no clean-up of its rules
	select {
	case <-d.waited:
	case <-time.After(30 * time.Second):
		t.Fatalf("natlab: miniupnpd in %s did not exit", ns)
	}
	l.must(t, ns, "nft", "flush", "ruleset")
	l.nft(t, ns)
	if err := flushConntrack(ns); err != nil {
		t.Fatal(err)
	}
	_ = os.Remove(filepath.Join(l.dir, ns+".leases"))
}

// StartRouter starts router namespace ns's miniupnpd again, after
// StopRouter, and returns once it listens.
func (l *Lab) StartRouter(t testing.TB, ns string) {
	t.Helper()
	l.startDaemon(t, ns)
}

// nft sets up router ns's NAT: masquerade on its outside link, and the
// chains miniupnpd's nftables backend adds its rules to (it creates none
// itself: Debian's nft_init.sh is the iptables helper's).
func (l *Lab) nft(t testing.TB, ns string) {
	t.Helper()
	rules := `table inet filter {
	chain miniupnpd {
	}
	chain prerouting_miniupnpd {
	}
	chain postrouting_miniupnpd {
	}
	chain forward {
		type filter hook forward priority 0; policy accept;
		jump miniupnpd
	}
	chain prerouting {
		type nat hook prerouting priority dstnat; policy accept;
		jump prerouting_miniupnpd
	}
	chain postrouting {
		type nat hook postrouting priority srcnat; policy accept;
		jump postrouting_miniupnpd
		oifname "wan0" masquerade
	}
}
`
	f := filepath.Join(l.dir, ns+".nft")
	if err := os.WriteFile(f, []byte(rules), 0o644); err != nil {
		t.Fatal(err)
	}
	l.must(t, ns, "nft", "-f", f)
}

// configure writes the miniupnpd configuration of router ns, for the LAN
// lan, reporting extIP as its outside address ("" : its outside link's
// own).
func (l *Lab) configure(t testing.TB, ns, lan, extIP string, o Options) {
	t.Helper()
	natpmp := "yes"
	if o.NoPCP {
		natpmp = "no"
	}
	conf := fmt.Sprintf(`ext_ifname=wan0
listening_ip=lan0
http_port=0
enable_natpmp=%s
enable_upnp=yes
secure_mode=yes
system_uptime=no
uuid=3d3cec3a-8cf0-11e0-98ee-001a6bd2d07b
friendly_name=natlab router
lease_file=%s
allow 1024-65535 %s 1024-65535
deny 0-65535 0.0.0.0/0 0-65535
`, natpmp, filepath.Join(l.dir, ns+".leases"), lan)
	if extIP != "" {
		conf = "ext_ip=" + extIP + "\n" + conf
	}
	if err := os.WriteFile(filepath.Join(l.dir, ns+".conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
}

// startDaemon starts miniupnpd in router ns with its configuration, and
// returns once it listens; it is killed when the test ends.
func (l *Lab) startDaemon(t testing.TB, ns string) {
	t.Helper()
	cf := filepath.Join(l.dir, ns+".conf")
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "ip", "netns", "exec", ns, "miniupnpd", "-d", "-f", cf, "-P", filepath.Join(l.dir, ns+".pid"))
	cmd.WaitDelay = waitDelay
	d := &daemon{cancel: cancel, waited: make(chan struct{}), out: &syncBuffer{}}
	cmd.Stdout, cmd.Stderr = d.out, d.out
	if err := cmd.Start(); err != nil {
		cancel()
		t.Skipf("natlab: cannot run miniupnpd: %v", err)
	}
	go func() { _ = cmd.Wait(); close(d.waited) }()
	l.mu.Lock()
	l.daemons[ns] = d
	l.mu.Unlock()
	t.Cleanup(func() {
		cancel() // kills the daemon (ip netns exec execs it: same process)
		select {
		case <-d.waited:
		case <-time.After(10 * time.Second):
		}
		if t.Failed() {
			t.Logf("miniupnpd in %s said:\n%s", ns, d.out.String())
		}
	})
	// Ready once it listens: its SSDP port, and HTTP.
	if !testwait.Until(10*time.Second, func() bool {
		o, _ := l.Output(ns, "ss", "-lun")
		return strings.Contains(o, ":1900")
	}) {
		t.Fatalf("natlab: miniupnpd in %s did not start:\n%s", ns, d.out.String())
	}
}

// waitDelay bounds how long a lab command's Wait waits for its output
// once it is killed or has exited: a child that kept the pipes open must
// not hang a test.
const waitDelay = 5 * time.Second

// Command returns a command running name with args in namespace ns. Its
// Wait returns at most waitDelay after ctx ends or the command exits.
func (l *Lab) Command(ctx context.Context, ns, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "ip", append([]string{"netns", "exec", ns, name}, args...)...)
	cmd.WaitDelay = waitDelay
	return cmd
}

// Output runs name with args in namespace ns and returns its output.
func (l *Lab) Output(ns, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := l.Command(ctx, ns, name, args...).CombinedOutput()
	return string(out), err
}

// Mappings lists the UDP port mappings of the router in front of ns, as
// upnpc run in ns shows them (miniupnpd lists those made by PCP and
// NAT-PMP there too): one line of its table each.
func (l *Lab) Mappings(t testing.TB, ns string) []string {
	t.Helper()
	out, err := l.Output(ns, "upnpc", "-l")
	if err != nil {
		t.Fatalf("natlab: upnpc -l in %s: %v\n%s", ns, err, out)
	}
	var m []string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "UDP") && strings.Contains(line, "->") {
			m = append(m, strings.TrimSpace(line))
		}
	}
	return m
}

func (l *Lab) must(t testing.TB, ns string, name string, args ...string) {
	t.Helper()
	if out, err := l.Output(ns, name, args...); err != nil {
		t.Fatalf("natlab: in %s: %s %s: %v: %s", ns, name, strings.Join(args, " "), err, out)
	}
}

// run runs a command in the machine's own namespace (creating and
// deleting the lab's), for 30 s at most.
func run(name string, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.WaitDelay = waitDelay
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	return nil
}

// syncBuffer is a bytes.Buffer safe for a process's output and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
