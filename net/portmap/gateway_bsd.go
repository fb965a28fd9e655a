//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package portmap

import (
	"fmt"
	"net/netip"
	"syscall"

	"golang.org/x/net/route"
)

// defaultGateway reads the kernel's routing table: the first route that
// is up, through a gateway, to 0.0.0.0.
func defaultGateway() (netip.Addr, error) {
	rib, err := route.FetchRIB(syscall.AF_INET, route.RIBTypeRoute, 0)
	if err != nil {
		return netip.Addr{}, fmt.Errorf("%w: %v", errNoGateway, err)
	}
	msgs, err := route.ParseRIB(route.RIBTypeRoute, rib)
	if err != nil {
		return netip.Addr{}, fmt.Errorf("%w: %v", errNoGateway, err)
	}
	for _, m := range msgs {
		rm, ok := m.(*route.RouteMessage)
		if !ok || rm.Flags&syscall.RTF_UP == 0 || rm.Flags&syscall.RTF_GATEWAY == 0 || len(rm.Addrs) <= syscall.RTAX_GATEWAY {
			continue
		}
		dst, ok := rm.Addrs[syscall.RTAX_DST].(*route.Inet4Addr)
		if !ok || dst.IP != [4]byte{} {
			continue
		}
		if len(rm.Addrs) > syscall.RTAX_NETMASK {
			if mask, ok := rm.Addrs[syscall.RTAX_NETMASK].(*route.Inet4Addr); ok && mask.IP != [4]byte{} {
				continue // a route to 0.0.0.0 with a mask is not the default
			}
		}
		gw, ok := rm.Addrs[syscall.RTAX_GATEWAY].(*route.Inet4Addr)
		if !ok {
			continue
		}
		if a := netip.AddrFrom4(gw.IP); !a.IsUnspecified() {
			return a, nil
		}
	}
	return netip.Addr{}, errNoGateway
}
