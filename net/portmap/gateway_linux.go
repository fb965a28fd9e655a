package portmap

import (
	"fmt"
	"net/netip"
	"os"
)

func defaultGateway() (netip.Addr, error) {
	f, err := os.Open("/proc/net/route")
	if err != nil {
		return netip.Addr{}, fmt.Errorf("%w: %v", errNoGateway, err)
	}
	defer f.Close()
	return parseProcRoute(f)
}
