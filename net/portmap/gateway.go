package portmap

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"strings"
)

// errNoGateway: the route table has no default route through a gateway.
var errNoGateway = errors.New("no default gateway")

// DefaultGateway returns the gateway of the default IPv4 route: the router
// to ask (gateway_*.go: Linux reads /proc/net/route, macOS and the BSDs
// the routing table, Windows the adapters' gateways).
func DefaultGateway() (netip.Addr, error) { return defaultGateway() }

// parseProcRoute finds the default route's gateway in Linux's
// /proc/net/route: lines of "Iface Destination Gateway Flags ...", with
// addresses as 8 hex digits in the machine's byte order (little-endian on
// every machine Rockstep runs on). Of several default routes, the one of
// lowest metric wins.
func parseProcRoute(r io.Reader) (netip.Addr, error) {
	const rtfGateway = 0x2 // RTF_GATEWAY
	var best netip.Addr
	bestMetric := -1
	s := bufio.NewScanner(r)
	for first := true; s.Scan(); first = false {
		f := strings.Fields(s.Text())
		if first || len(f) < 7 {
			continue // the header, or a line not understood
		}
		var flags, metric int
		if _, err := fmt.Sscanf(f[3]+" "+f[6], "%x %d", &flags, &metric); err != nil {
			continue
		}
		if f[1] != "00000000" || flags&rtfGateway == 0 {
			continue
		}
		b, err := hex.DecodeString(f[2])
		if err != nil || len(b) != 4 {
			continue
		}
		var a4 [4]byte
		binary.LittleEndian.PutUint32(a4[:], binary.BigEndian.Uint32(b))
		gw := netip.AddrFrom4(a4)
		if gw.IsUnspecified() {
			continue
		}
		if bestMetric < 0 || metric < bestMetric {
			best, bestMetric = gw, metric
		}
	}
	if !best.IsValid() {
		return netip.Addr{}, errNoGateway
	}
	return best, nil
}
