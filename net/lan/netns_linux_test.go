package lan

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// isolate runs the calling test in a private network namespace, so that its
// mDNS traffic never reaches the machine's real interfaces. Outside one, it
// re-runs the test binary for this test alone under CLONE_NEWUSER|CLONE_NEWNET
// (like `unshare -rn`), reports the child's result and returns false: the
// caller returns at once. Inside, where TestMain has brought lo up with
// multicast and routes, it returns true and the caller runs the test. It skips
// when namespaces or the setup are unavailable.
func isolate(t *testing.T) bool {
	t.Helper()
	if os.Getenv(netnsEnv) == "1" {
		if netnsErr != nil {
			t.Skipf("private network namespace has no multicast: %v", netnsErr)
		}
		return true
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skipf("mDNS tests need the ip command to set up a private network namespace: %v", err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1", "-test.v", "-test.timeout=2m")
	cmd.Env = append(os.Environ(), netnsEnv+"=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
	}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Skipf("cannot create a private network namespace (user and network namespaces needed): %v", err)
	}
	if bytes.Contains(out, []byte("--- SKIP: "+t.Name()+" ")) {
		t.Skipf("in a private network namespace:\n%s", bytes.TrimSpace(out))
	}
	if err != nil {
		t.Fatalf("in a private network namespace: %v\n%s", err, out)
	}
	t.Logf("in a private network namespace:\n%s", out)
	return false
}

// setupNetns prepares the private namespace: lo up and multicast capable
// with a LAN-like IPv4 address (lo's own have host scope, which the kernel
// never picks as the source of a multicast packet) and the IPv4 multicast
// range routed to it. Then, best effort, a veth pair rs0–rs1 for IPv6 (which
// does not multicast over lo) and for answers over several interfaces;
// netnsVeth reports whether it is there.
func setupNetns() error {
	// Refuse to run anywhere but in a fresh namespace, whatever the
	// environment says: its only interface is lo.
	ifaces, err := net.Interfaces()
	if err != nil {
		return err
	}
	if len(ifaces) != 1 || ifaces[0].Name != "lo" {
		return fmt.Errorf("%d interfaces, not a fresh namespace with lo alone: refusing to multicast", len(ifaces))
	}
	ip := func(args ...string) error {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			return fmt.Errorf("ip %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(out))
		}
		return nil
	}
	if err := errors.Join(
		ip("link", "set", "lo", "up", "multicast", "on"),
		ip("addr", "add", netnsAddr4+"/32", "dev", "lo"),
		ip("route", "add", "224.0.0.0/4", "dev", "lo"),
	); err != nil {
		return err
	}
	// Link-local IPv6 addresses usable at once, not after duplicate
	// address detection.
	_ = os.WriteFile("/proc/sys/net/ipv6/conf/default/accept_dad", []byte("0"), 0o644)
	netnsVeth = ip("link", "add", "rs0", "type", "veth", "peer", "name", "rs1") == nil &&
		ip("link", "set", "rs0", "up") == nil && ip("link", "set", "rs1", "up") == nil
	return nil
}
