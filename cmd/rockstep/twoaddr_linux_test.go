package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"rockstep/internal/netns"
	"rockstep/internal/testwait"
)

// envTwoAddrNetns marks the test binary re-run inside a private network
// namespace by TestServerAnswersAtEachAddress.
const envTwoAddrNetns = "ROCKSTEP_TWOADDR_NETNS"

// TestServerAnswersAtEachAddress: a `-server -listen [::]` (no port: 7777,
// as -h says) on a link with two addresses of each family answers at each
// of them a machine on that link that dialled it: `-rooms` with each
// address (no port either) lists the server's room, and a bot given the
// second address (`-bots 1 -join 10.9.0.2`) plays its game to the end.
// The other machine is a namespace of its own (unshare -n) holding the
// other end of the link: an answer from the link's first address to a
// client that dialled the second one would be dropped by the client, as
// the lab saw ("No answer from 90.0.0.2:7777 in 5 seconds").
func TestServerAnswersAtEachAddress(t *testing.T) {
	if testing.Short() {
		t.Skip("a server and its clients in two namespaces; not in -short")
	}
	if !netns.Isolate(t, envTwoAddrNetns, 4*time.Minute) {
		return
	}
	for _, c := range []string{"unshare", "nsenter"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Skipf("needs %s (util-linux): %v", c, err)
		}
	}
	if err := netns.IP("link", "set", "lo", "up"); err != nil {
		t.Skipf("private namespace: %v", err)
	}
	// The other machine: a namespace held open by a sleeping process.
	other := exec.Command("unshare", "-n", "sleep", "600")
	if err := other.Start(); err != nil {
		t.Skipf("cannot make a second namespace: %v", err)
	}
	t.Cleanup(func() { _ = other.Process.Kill(); _ = other.Wait() })
	pid := strconv.Itoa(other.Process.Pid)
	inOther := func(args ...string) error {
		out, err := exec.Command("nsenter", append([]string{"-t", pid, "-n", "ip"}, args...)...).CombinedOutput()
		if err != nil {
			t.Logf("nsenter ip %v: %v: %s", args, err, out)
		}
		return err
	}
	// The namespace may not be there the moment unshare starts.
	if !testwait.Until(startLimit, func() bool {
		return exec.Command("nsenter", "-t", pid, "-n", "true").Run() == nil && func() bool {
			self, err1 := os.Readlink("/proc/self/ns/net")
			theirs, err2 := os.Readlink("/proc/" + pid + "/ns/net")
			return err1 == nil && err2 == nil && self != theirs
		}()
	}) {
		t.Skip("the second namespace did not appear")
	}
	if err := netns.IP("link", "add", "two0", "type", "veth", "peer", "name", "two1", "netns", pid); err != nil {
		t.Skipf("private namespace: no veth link: %v", err)
	}
	for _, args := range [][]string{
		{"link", "set", "two0", "up"},
		{"addr", "add", "10.9.0.1/24", "dev", "two0"},
		{"addr", "add", "10.9.0.2/24", "dev", "two0"},
		{"-6", "addr", "add", "fd09::1/64", "dev", "two0", "nodad"},
		{"-6", "addr", "add", "fd09::2/64", "dev", "two0", "nodad"},
	} {
		if err := netns.IP(args...); err != nil {
			t.Fatalf("ip %v: %v", args, err)
		}
	}
	for _, args := range [][]string{
		{"link", "set", "lo", "up"},
		{"link", "set", "two1", "up"},
		{"addr", "add", "10.9.0.9/24", "dev", "two1"},
		{"-6", "addr", "add", "fd09::9/64", "dev", "two1", "nodad"},
	} {
		if err := inOther(args...); err != nil {
			t.Fatalf("the other namespace: ip %v: %v", args, err)
		}
	}
	srv := start(t, "-server", "-listen", "[::]", "-lan=false", "-record", "off", "-name", "Twin")
	if !testwait.Until(startLimit, func() bool { return strings.Contains(srv.stderr(), "msg=listening addr=[::]:7777") }) {
		t.Fatalf("the server did not listen on [::]:7777 within %v:\n%s", startLimit, srv.stderr())
	}
	for _, addr := range []string{"10.9.0.1", "10.9.0.2", "fd09::1", "[fd09::2]"} {
		p := startInNamespace(t, pid, "-rooms", addr)
		code, took := p.wait(t, startLimit)
		if code != 0 || !strings.Contains(p.stdout(), `"Twin"`) {
			t.Errorf("-rooms %s: exit %d after %v; stdout:\n%s\nstderr:\n%s", addr, code, took.Round(time.Millisecond), p.stdout(), p.stderr())
		}
	}
	bot := startInNamespace(t, pid, "-bots", "1", "-join", "10.9.0.2", "-ticks", "240", "-seed", "3")
	if code, _ := bot.wait(t, gameLimit); code != 0 || !strings.Contains(bot.stdout()+bot.stderr(), "hash_groups=1") {
		t.Fatalf("-bots 1 -join 10.9.0.2: exit %d; stdout:\n%s\nstderr:\n%s\nserver:\n%s", code, bot.stdout(), bot.stderr(), srv.stderr())
	}
}

// startInNamespace runs the command, as start does, in the network
// namespace of the process pid.
func startInNamespace(t *testing.T, pid string, args ...string) *proc {
	t.Helper()
	return startCmd(t, exec.Command("nsenter", append([]string{"-t", pid, "-n", os.Args[0]}, args...)...), false)
}
