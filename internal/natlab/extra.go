package natlab

import (
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Homes added to a built lab for the tests of a group cut apart (issue
// 52): a home behind a port-randomising NAT, and a machine on the
// internet with one address of its own (the internet namespace has one
// on every link, and a reply from a wildcard socket there leaves from
// whichever the route picks, which a NAT in front of the asker drops).
//
//	home4 (10.14.0.2) -- router4 (10.14.0.1 | 198.51.103.1, masquerade fully-random) --+
//	public (198.51.104.2) ----------------------------------------------------------+-- internet

// Addresses of the added hosts.
var (
	RandomHomeHost = netip.MustParseAddr("10.14.0.2")    // behind the port-randomising router
	PublicHost     = netip.MustParseAddr("198.51.104.2") // on the internet
)

// prefixOf returns the lab's namespace prefix (Build's p).
func (l *Lab) prefixOf() string { return strings.TrimSuffix(l.Home, "home") }

// addNS creates namespace ns with lo up, deleted when the test ends.
func (l *Lab) addNS(t testing.TB, ns string) {
	t.Helper()
	if err := run("ip", "netns", "add", ns); err != nil {
		t.Skipf("natlab: cannot create a network namespace: %v", err)
	}
	t.Cleanup(func() { _ = run("ip", "netns", "delete", ns) })
	l.must(t, ns, "ip", "link", "set", "lo", "up")
}

// veth joins a in namespace na to b in nb, addresses with their prefix
// length.
func (l *Lab) veth(t testing.TB, na, a, aAddr, nb, b, bAddr string) {
	t.Helper()
	if err := run("ip", "link", "add", a, "netns", na, "type", "veth", "peer", "name", b, "netns", nb); err != nil {
		t.Fatalf("natlab: %v", err)
	}
	l.must(t, na, "ip", "addr", "add", aAddr, "dev", a)
	l.must(t, na, "ip", "link", "set", a, "up")
	l.must(t, nb, "ip", "addr", "add", bAddr, "dev", b)
	l.must(t, nb, "ip", "link", "set", b, "up")
}

// AddRandomHome adds a home behind a router whose NAT gives every new
// flow a random outside port (nftables `masquerade fully-random`: an
// endpoint-dependent mapping, RFC 4787), with no port mapping daemon, and
// returns the home's namespace.
func (l *Lab) AddRandomHome(t testing.TB) string {
	t.Helper()
	p := l.prefixOf()
	return l.homeBehind(t, p+"home4", p+"router4", "10.14.0", "198.51.103", "r4", "masquerade fully-random", false)
}

// AddPublicHost adds a machine on the internet with the one address
// PublicHost, and returns its namespace.
func (l *Lab) AddPublicHost(t testing.TB) string {
	t.Helper()
	ns := l.prefixOf() + "public"
	l.addNS(t, ns)
	l.veth(t, ns, "eth0", "198.51.104.2/24", l.Internet, "r5", "198.51.104.254/24")
	l.must(t, ns, "ip", "route", "add", "default", "via", "198.51.104.254")
	l.forward(t)
	return ns
}

// forward makes the internet namespace route between its links, so that
// the homes and the added hosts reach each other and not only the
// miniupnpd router's outside address.
func (l *Lab) forward(t testing.TB) {
	t.Helper()
	l.must(t, l.Internet, "sysctl", "-q", "-w", "net.ipv4.ip_forward=1")
}

// PlainHomeHost returns the address of the machine in plain home n
// (AddPlainHome); RandomHomeHostN that in port-randomising home n
// (AddRandomHomeN).
func PlainHomeHost(n int) netip.Addr   { return netip.AddrFrom4([4]byte{10, byte(20 + n), 0, 2}) }
func RandomHomeHostN(n int) netip.Addr { return netip.AddrFrom4([4]byte{10, byte(30 + n), 0, 2}) }

// AddPlainHome adds home n (1 to 3) behind a router with plain NAT and no
// port mapping daemon: nftables `masquerade`, which keeps an inside
// socket's port on the outside when it is free (an endpoint-independent
// mapping, RFC 4787), and lets in only answers to what the inside sent
// (address- and port-dependent filtering). With firewall, the router
// drops what comes to the router itself unasked from the outside, as a
// home router's firewall does (OpenWrt's input policy on its WAN): such a
// datagram then leaves no entry in its connection table. Without, the
// router takes it in (and answers that no one listens), keeping an entry
// for it, as the lab's other routers do. It returns the home's namespace.
//
//	plainN (10.2N.0.2) -- routerpN (10.2N.0.1 | 198.51.11N.1, masquerade[, input drop]) --+-- internet
func (l *Lab) AddPlainHome(t testing.TB, n int, firewall bool) string {
	return l.addNATHome(t, "plain", "routerp", 20, 110, n, "masquerade", firewall)
}

// AddRandomHomeN adds home n (1 to 3) behind a router as AddPlainHome's
// but with `masquerade fully-random`: every new flow gets a random outside
// port (an endpoint-dependent mapping), which no keep-alive can open a
// path through. It returns the home's namespace.
//
//	randN (10.3N.0.2) -- routerrN (10.3N.0.1 | 198.51.12N.1, masquerade fully-random, input drop) --+-- internet
func (l *Lab) AddRandomHomeN(t testing.TB, n int) string {
	return l.addNATHome(t, "rand", "routerr", 30, 120, n, "masquerade fully-random", true)
}

// addNATHome adds home n behind a router whose NAT rule is nat, on the LAN
// 10.(lan+n).0.0/24 and the outside link 198.51.(wan+n).0/24, its input
// firewall dropping what comes unasked from outside if firewall is set.
func (l *Lab) addNATHome(t testing.TB, homeName, routerName string, lanBase, wanBase, n int, nat string, firewall bool) string {
	t.Helper()
	if n < 1 || n > 3 {
		t.Fatalf("natlab: home %s%d: 1 to 3", homeName, n)
	}
	p := l.prefixOf()
	home, router := fmt.Sprintf("%s%s%d", p, homeName, n), fmt.Sprintf("%s%s%d", p, routerName, n)
	return l.homeBehind(t, home, router, fmt.Sprintf("10.%d.0", lanBase+n), fmt.Sprintf("198.51.%d", wanBase+n), fmt.Sprintf("%s%d", homeName[:2], n), nat, firewall)
}

// homeBehind adds namespace home (lan.2/24) behind router (lan.1/24 inside,
// wan.1/24 outside, linked to the internet's ifname at wan.254), whose NAT
// rule is nat, its input firewall dropping what comes unasked from outside
// if firewall is set. It returns home.
func (l *Lab) homeBehind(t testing.TB, home, router, lan, wan, ifname, nat string, firewall bool) string {
	t.Helper()
	l.addNS(t, home)
	l.addNS(t, router)
	l.veth(t, home, "eth0", lan+".2/24", router, "lan0", lan+".1/24")
	l.veth(t, router, "wan0", wan+".1/24", l.Internet, ifname, wan+".254/24")
	l.must(t, home, "ip", "route", "add", "default", "via", lan+".1")
	l.must(t, router, "ip", "route", "add", "default", "via", wan+".254")
	l.must(t, router, "sysctl", "-q", "-w", "net.ipv4.ip_forward=1")
	rules := `table ip nat {
	chain postrouting {
		type nat hook postrouting priority srcnat; policy accept;
		oifname "wan0" ` + nat + `
	}
}
`
	if firewall {
		rules += `table inet filter {
	chain input {
		type filter hook input priority 0; policy accept;
		iifname "wan0" ct state new drop
	}
}
`
	}
	f := filepath.Join(l.dir, router+".nft")
	if err := os.WriteFile(f, []byte(rules), 0o644); err != nil {
		t.Fatal(err)
	}
	l.must(t, router, "nft", "-f", f)
	l.forward(t)
	return home
}

// DropUnasked gives router namespace ns (Outer, say) an input firewall as
// AddPlainHome's with firewall: what comes to the router itself unasked
// from its outside link is dropped, and leaves no entry in its connection
// table.
func (l *Lab) DropUnasked(t testing.TB, ns string) {
	t.Helper()
	l.must(t, ns, "nft", "add table inet guardin")
	l.must(t, ns, "nft", "add chain inet guardin input { type filter hook input priority 0; policy accept; }")
	l.must(t, ns, "nft", `add rule inet guardin input iifname "wan0" ct state new drop`)
}
