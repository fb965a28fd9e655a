package lan

import (
	"os"
	"testing"
	"time"

	"rockstep/internal/netns"
)

// isolate runs the calling test, in parallel with the others (each in a
// namespace of its own), in a private network namespace, so that its mDNS
// traffic never reaches the machine's real interfaces. Outside one, it
// re-runs the test binary for this test alone under CLONE_NEWUSER|CLONE_NEWNET
// (like `unshare -rn`), reports the child's result and returns false: the
// caller returns at once. Inside, where TestMain has brought lo up with
// multicast and routes, it returns true and the caller runs the test. It skips
// when namespaces or the setup are unavailable.
func isolate(t *testing.T) bool {
	t.Helper()
	t.Parallel()
	if !netns.Isolate(t, netnsEnv, 2*time.Minute) {
		return false
	}
	if netnsErr != nil {
		t.Skipf("private network namespace has no multicast: %v", netnsErr)
	}
	return true
}

// setupNetns prepares the private namespace: lo up and multicast capable
// with a LAN-like IPv4 address (lo's own have host scope, which the kernel
// never picks as the source of a multicast packet) and the IPv4 multicast
// range routed to it. Then, best effort, a veth pair rs0–rs1 for IPv6 (which
// does not multicast over lo) and for answers over several interfaces;
// netnsVeth reports whether it is there.
func setupNetns() error {
	if err := netns.SetupLoopback(netnsAddr4); err != nil {
		return err
	}
	// Link-local IPv6 addresses usable at once, not after duplicate
	// address detection.
	_ = os.WriteFile("/proc/sys/net/ipv6/conf/default/accept_dad", []byte("0"), 0o644)
	netnsVeth = netns.IP("link", "add", "rs0", "type", "veth", "peer", "name", "rs1") == nil &&
		netns.IP("link", "set", "rs0", "up") == nil && netns.IP("link", "set", "rs1", "up") == nil
	return nil
}
