package main

import (
	"net/netip"
	"regexp"
	"strings"
	"testing"

	"rockstep/net/invite"
	"rockstep/net/transport"
)

var inviteLine = regexp.MustCompile(`msg="invite code" code=(\S+)`)

// TestServerInviteCodeJoinsBots: `-server` logs its invite code at start,
// and bots given that code with -join find the server by it and play a
// game to the end on one hash.
func TestServerInviteCodeJoinsBots(t *testing.T) {
	srv, addr := startServer(t)
	m := inviteLine.FindStringSubmatch(srv.stderr())
	if m == nil {
		t.Fatalf("the server logged no invite code:\n%s", srv.stderr())
	}
	code, err := invite.Decode(m[1])
	if err != nil {
		t.Fatalf("the server's code %s: %v", m[1], err)
	}
	if want := []netip.AddrPort{netip.MustParseAddrPort(addr)}; len(code.Addrs) != 1 || code.Addrs[0] != want[0] {
		t.Errorf("the code holds %v, want %v (the listen address)", code.Addrs, want)
	}
	bots := start(t, "-bots", "2", "-join", m[1], "-ticks", "240", "-seed", "5")
	if exit, _ := bots.wait(t, gameLimit); exit != 0 {
		t.Fatalf("bots with the code: exit %d; stderr:\n%s", exit, bots.stderr())
	}
	if !strings.Contains(bots.stderr(), "the host answers at "+addr) {
		t.Errorf("the bots do not say where the code led:\n%s", bots.stderr())
	}
}

// TestJoinCodeOfAnotherKey: bots given a code with the server's address
// but another key's pin refuse the server, saying why, and exit 1.
func TestJoinCodeOfAnotherKey(t *testing.T) {
	_, addr := startServer(t)
	other, err := transport.NewHostKey()
	if err != nil {
		t.Fatal(err)
	}
	code, err := invite.New([]netip.AddrPort{netip.MustParseAddrPort(addr)}, other.Fingerprint())
	if err != nil {
		t.Fatal(err)
	}
	bots := start(t, "-bots", "1", "-join", code.String(), "-ticks", "60")
	if exit, _ := bots.wait(t, gameLimit); exit != 1 {
		t.Fatalf("bots with another key's code: exit %d, want 1; stderr:\n%s", exit, bots.stderr())
	}
	if !strings.Contains(bots.stderr(), "is not the expected") {
		t.Errorf("stderr does not say the key is not the code's:\n%s", bots.stderr())
	}
}

// TestJoinGarbledCode: bots given a garbled code say so and exit 2, and
// dial nothing.
func TestJoinGarbledCode(t *testing.T) {
	bots := start(t, "-bots", "1", "-join", "K7QM-XXXX-ABCD-EFGH-JKMN", "-ticks", "60")
	if exit, _ := bots.wait(t, gameLimit); exit != 2 {
		t.Fatalf("bots with a garbled code: exit %d, want 2; stderr:\n%s", exit, bots.stderr())
	}
	if !strings.Contains(bots.stderr(), "this invite code is garbled") {
		t.Errorf("stderr does not say the code is garbled:\n%s", bots.stderr())
	}
}
