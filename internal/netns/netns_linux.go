//go:build linux

package netns

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
	"time"
)

// Isolate returns true when the test already runs inside its private
// namespace (env is "1"). Otherwise it re-runs the test there, passes on
// its result (skip, failure, or its log) and returns false: the caller
// returns at once.
func Isolate(t *testing.T, env string, timeout time.Duration) bool {
	t.Helper()
	if os.Getenv(env) == "1" {
		return true
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skipf("needs the ip command (Debian: apt-get install -y iproute2; make test installs it as root) to set up a private network namespace: %v", err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1", "-test.v", "-test.timeout="+timeout.String())
	cmd.Env = append(os.Environ(), env+"=1")
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

// SetupLoopback prepares a fresh namespace for multicast: lo up and
// multicast capable, with the LAN-like IPv4 address addr4 (lo's own
// addresses have host scope, which the kernel never picks as the source of
// a multicast packet) and the IPv4 multicast range routed to it. It refuses
// to run anywhere but in a fresh namespace, whatever the environment says:
// there, lo is the only interface.
func SetupLoopback(addr4 string) error {
	ifaces, err := net.Interfaces()
	if err != nil {
		return err
	}
	if len(ifaces) != 1 || ifaces[0].Name != "lo" {
		return fmt.Errorf("%d interfaces, not a fresh namespace with lo alone: refusing to multicast", len(ifaces))
	}
	return errors.Join(
		IP("link", "set", "lo", "up", "multicast", "on"),
		IP("addr", "add", addr4+"/32", "dev", "lo"),
		IP("route", "add", "224.0.0.0/4", "dev", "lo"),
	)
}

// IP runs the ip command with args, returning its output in the error.
func IP(args ...string) error {
	if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("ip %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	return nil
}
