package lan

import (
	"fmt"
	"os"
	"testing"
)

// netnsEnv marks a test binary re-run inside a private network namespace.
const netnsEnv = "ROCKSTEP_LAN_NETNS"

// netnsAddr4 is the IPv4 address of lo in the private namespace (a
// documentation address), the only IPv4 address there.
const netnsAddr4 = "192.0.2.53"

var (
	// netnsErr is why the private namespace this binary runs in cannot
	// carry multicast, when it runs in one.
	netnsErr error
	// netnsVeth reports that the namespace also has a veth pair, and
	// with it IPv6 multicast.
	netnsVeth bool
)

func TestMain(m *testing.M) {
	if os.Getenv(netnsEnv) == "1" {
		netnsErr = setupNetns()
		if netnsErr != nil {
			fmt.Fprintf(os.Stderr, "private network namespace: %v\n", netnsErr)
		}
	}
	os.Exit(m.Run())
}
