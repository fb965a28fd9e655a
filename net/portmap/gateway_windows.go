package portmap

import (
	"fmt"
	"net/netip"
	"unsafe"

	"golang.org/x/sys/windows"
)

// defaultGateway asks Windows for its adapters with their gateways, and
// takes the IPv4 gateway of the one that is up with the lowest metric.
func defaultGateway() (netip.Addr, error) {
	size := uint32(15000) // bytes: Microsoft's advice for a first try
	var buf []byte
	for try := 0; try < 3; try++ {
		buf = make([]byte, size)
		err := windows.GetAdaptersAddresses(windows.AF_INET, windows.GAA_FLAG_INCLUDE_GATEWAYS, 0,
			(*windows.IpAdapterAddresses)(unsafe.Pointer(&buf[0])), &size)
		if err == nil {
			break
		}
		if err != windows.ERROR_BUFFER_OVERFLOW || try == 2 {
			return netip.Addr{}, fmt.Errorf("%w: %v", errNoGateway, err)
		}
	}
	var best netip.Addr
	bestMetric := ^uint32(0)
	for a := (*windows.IpAdapterAddresses)(unsafe.Pointer(&buf[0])); a != nil; a = a.Next {
		if a.OperStatus != windows.IfOperStatusUp {
			continue
		}
		for g := a.FirstGatewayAddress; g != nil; g = g.Next {
			ip, ok := netip.AddrFromSlice(g.Address.IP())
			if !ok {
				continue
			}
			if ip = ip.Unmap(); ip.Is4() && !ip.IsUnspecified() && a.Ipv4Metric < bestMetric {
				best, bestMetric = ip, a.Ipv4Metric
			}
		}
	}
	if !best.IsValid() {
		return netip.Addr{}, errNoGateway
	}
	return best, nil
}
