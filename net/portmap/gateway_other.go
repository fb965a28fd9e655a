//go:build !linux && !windows && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package portmap

import "net/netip"

// defaultGateway: not known on this system; port mapping says there is no
// router.
func defaultGateway() (netip.Addr, error) { return netip.Addr{}, errNoGateway }
