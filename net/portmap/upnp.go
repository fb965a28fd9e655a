package portmap

import (
	"bufio"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"time"

	"github.com/huin/goupnp"
	"github.com/huin/goupnp/dcps/internetgateway2"
	"github.com/huin/goupnp/soap"
)

// igdService is what the three UPnP WAN connection services have in
// common (WANIPConnection2, WANIPConnection1, WANPPPConnection1).
type igdService interface {
	GetExternalIPAddressCtx(ctx context.Context) (string, error)
	AddPortMappingCtx(ctx context.Context, remoteHost string, extPort uint16, proto string, intPort uint16, intClient string, enabled bool, desc string, lease uint32) error
	DeletePortMappingCtx(ctx context.Context, remoteHost string, extPort uint16, proto string) error
	GetServiceClient() *goupnp.ServiceClient
}

// maxUPnPBody bounds what is read of a router's HTTP answer (the device
// description, a SOAP answer): a real IGD's description is a few KB; an
// endless one must not grow the game. Bytes.
const maxUPnPBody = 64 << 10

// errUPnPTooLarge: the router's answer went past maxUPnPBody.
var errUPnPTooLarge = fmt.Errorf("upnp: answer larger than %d bytes", maxUPnPBody)

// upnpHTTP is the HTTP client for the router: no proxy (the router is on
// the LAN), no redirect away from it, a bounded header, every body read
// through maxUPnPBody; the machine's wait (a context deadline) bounds the
// time.
var upnpHTTP = &http.Client{
	Transport: limitedTransport{&http.Transport{
		Proxy:                  nil,
		MaxResponseHeaderBytes: 16 << 10, // bytes
		ResponseHeaderTimeout:  5 * time.Second,
		DisableKeepAlives:      true,
	}},
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	Timeout:       10 * time.Second, // the longest any request may take, whatever its context says
}

// limitedTransport cuts every answer's body at maxUPnPBody with an error.
type limitedTransport struct{ base http.RoundTripper }

func (t limitedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &limitedBody{rc: resp.Body, left: maxUPnPBody}
	return resp, nil
}

// limitedBody reads at most left bytes, then fails with errUPnPTooLarge.
type limitedBody struct {
	rc   io.ReadCloser
	left int64 // bytes
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more tells a body of exactly the limit from a longer one.
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n > 0 {
			return 0, errUPnPTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *limitedBody) Close() error { return b.rc.Close() }

// igdClient is the router's UPnP service found by discovery, and the LAN
// address the router sees us at.
type igdClient struct {
	svc   igdService
	local netip.Addr
}

// upnpDescription names the mapping in the router's list.
const upnpDescription = "Rockstep"

// upnp maps (or unmaps) by UPnP IGD, discovering the router's service
// first if it is not known yet.
func (m *Mapper) upnp(ctx context.Context, gw netip.Addr, a Action) Result {
	m.edgeMu.Lock()
	igd := m.igd
	m.edgeMu.Unlock()
	if igd == nil {
		if a.Kind == Unmap {
			return Result{Outcome: OK} // nothing was mapped
		}
		var err error
		if igd, err = discoverIGD(ctx, gw, m.cfg.SSDPPort); err != nil {
			return Result{Outcome: Silent, Why: err.Error()}
		}
		m.edgeMu.Lock()
		m.igd = igd
		m.edgeMu.Unlock()
	}
	r := m.upnpAsk(ctx, igd, a)
	if r.Outcome == Silent {
		// The router may have restarted on another HTTP port (miniupnpd
		// picks one at random): the next request searches again.
		m.edgeMu.Lock()
		if m.igd == igd {
			m.igd = nil
		}
		m.edgeMu.Unlock()
	}
	return r
}

// upnpAsk carries out a on the service found.
func (m *Mapper) upnpAsk(ctx context.Context, igd *igdClient, a Action) Result {
	if a.Kind == Unmap {
		return upnpResult(igd.svc.DeletePortMappingCtx(ctx, "", a.ExtPort, "UDP"))
	}
	ext, err := igd.svc.GetExternalIPAddressCtx(ctx)
	if err != nil {
		r := upnpResult(err)
		if r.Outcome == Denied {
			// A router that cannot tell its outside address has none
			// worth mapping to (miniupnpd answers so behind another NAT).
			r.Outcome = NoPublic
		}
		return r
	}
	addr, err := netip.ParseAddr(ext)
	if err != nil {
		return Result{Outcome: NoPublic, Why: "no outside address"}
	}
	lease := uint32(a.Lifetime / time.Second)
	err = igd.svc.AddPortMappingCtx(ctx, "", a.ExtPort, "UDP", a.Internal, igd.local.String(), true, upnpDescription, lease)
	if code := upnpCode(err); code == 725 { // OnlyPermanentLeasesSupported
		lease = 0
		err = igd.svc.AddPortMappingCtx(ctx, "", a.ExtPort, "UDP", a.Internal, igd.local.String(), true, upnpDescription, 0)
	}
	if err != nil {
		return upnpResult(err)
	}
	return Result{Outcome: OK, External: netip.AddrPortFrom(addr.Unmap(), a.ExtPort), Lifetime: time.Duration(lease) * time.Second}
}

// upnpCode is the UPnP error code of a SOAP fault (0: none).
func upnpCode(err error) int {
	var f *soap.SOAPFaultError
	if errors.As(err, &f) {
		return f.Detail.UPnPError.Errorcode
	}
	return 0
}

// upnpResult reads a SOAP call's error as an outcome.
func upnpResult(err error) Result {
	if err == nil {
		return Result{Outcome: OK}
	}
	switch code := upnpCode(err); code {
	case 0:
		return Result{Outcome: Silent}
	case 718: // ConflictInMappingEntry
		return Result{Outcome: PortTaken}
	case 401, 602: // Invalid Action, Optional Action Not Implemented
		return Result{Outcome: Unsupported}
	case 606:
		return Result{Outcome: Denied, Why: "not authorized"}
	default:
		return Result{Outcome: Denied, Why: fmt.Sprintf("UPnP error %d", code)}
	}
}

// discoverIGD finds the router's WAN connection service: an SSDP search
// sent to the gateway itself (unicast, so nothing is multicast and no
// other device on the LAN answers for it), then its device description,
// which must come from the gateway too.
func discoverIGD(ctx context.Context, gw netip.Addr, port uint16) (*igdClient, error) {
	loc, local, err := ssdpSearch(ctx, gw, port)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(loc)
	if err != nil {
		return nil, fmt.Errorf("upnp: location %q: %w", loc, err)
	}
	if h, err := netip.ParseAddr(u.Hostname()); err != nil || h.Unmap() != gw {
		return nil, fmt.Errorf("upnp: location %q is not on the gateway %v", loc, gw)
	}
	root, err := fetchDescription(ctx, u)
	if err != nil {
		return nil, fmt.Errorf("upnp: device description: %w", err)
	}
	// The three services, looked for side by side; the newest first.
	var svcs []igdService
	if cs, _ := internetgateway2.NewWANIPConnection2ClientsFromRootDevice(root, u); len(cs) > 0 {
		for _, c := range cs {
			svcs = append(svcs, c)
		}
	}
	if cs, _ := internetgateway2.NewWANIPConnection1ClientsFromRootDevice(root, u); len(cs) > 0 {
		for _, c := range cs {
			svcs = append(svcs, c)
		}
	}
	if cs, _ := internetgateway2.NewWANPPPConnection1ClientsFromRootDevice(root, u); len(cs) > 0 {
		for _, c := range cs {
			svcs = append(svcs, c)
		}
	}
	if len(svcs) == 0 {
		return nil, errors.New("upnp: the gateway has no WAN connection service")
	}
	sc := svcs[0].GetServiceClient().SOAPClient
	if h, err := netip.ParseAddr(sc.EndpointURL.Hostname()); err != nil || h.Unmap() != gw {
		return nil, fmt.Errorf("upnp: control URL %q is not on the gateway %v", sc.EndpointURL.String(), gw)
	}
	sc.HTTPClient = *upnpHTTP
	return &igdClient{svc: svcs[0], local: local}, nil
}

// fetchDescription reads the router's device description at u, at most
// maxUPnPBody bytes of it, within ctx (goupnp.DeviceByURLCtx reads all
// there is, through http.DefaultClient).
func fetchDescription(ctx context.Context, u *url.URL) (*goupnp.RootDevice, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := upnpHTTP.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %s", resp.Status)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	root := new(goupnp.RootDevice)
	dec := xml.NewDecoder(bytes.NewReader(body))
	dec.DefaultSpace = goupnp.DeviceXMLNamespace
	dec.CharsetReader = goupnp.CharsetReaderDefault
	if err := dec.Decode(root); err != nil {
		return nil, err
	}
	base := u
	if root.URLBaseStr != "" {
		if base, err = url.Parse(root.URLBaseStr); err != nil {
			return nil, fmt.Errorf("URLBase %q: %w", root.URLBaseStr, err)
		}
	}
	root.SetURLBase(base)
	return root, nil
}

// ssdpSearch sends an M-SEARCH for an Internet Gateway Device to the
// gateway and returns the LOCATION of its first answer, and our address
// as the gateway sees it.
func ssdpSearch(ctx context.Context, gw netip.Addr, port uint16) (loc string, local netip.Addr, err error) {
	conn, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(netip.AddrPortFrom(gw, port)))
	if err != nil {
		return "", netip.Addr{}, err
	}
	defer conn.Close()
	local = conn.LocalAddr().(*net.UDPAddr).AddrPort().Addr().Unmap()
	stop := context.AfterFunc(ctx, func() { _ = conn.SetReadDeadline(time.Now()) })
	defer stop()
	req := []byte("M-SEARCH * HTTP/1.1\r\n" +
		"HOST: 239.255.255.250:1900\r\n" +
		"MAN: \"ssdp:discover\"\r\n" +
		"MX: 1\r\n" +
		"ST: urn:schemas-upnp-org:device:InternetGatewayDevice:1\r\n\r\n")
	buf := make([]byte, 2048) // bytes: an SSDP answer is a few hundred
	for try := 0; try < 3 && ctx.Err() == nil; try++ {
		if _, err := conn.Write(req); err != nil {
			return "", netip.Addr{}, fmt.Errorf("upnp: search: %w", err)
		}
		_ = conn.SetReadDeadline(time.Now().Add(300 * time.Millisecond << try))
		for {
			n, err := conn.Read(buf)
			if err != nil {
				var ne net.Error
				if errors.As(err, &ne) && ne.Timeout() {
					break
				}
				return "", netip.Addr{}, fmt.Errorf("upnp: search: %w", err)
			}
			resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(buf[:n])), nil)
			if err != nil {
				continue
			}
			resp.Body.Close()
			if l := resp.Header.Get("Location"); l != "" {
				return l, local, nil
			}
		}
	}
	return "", netip.Addr{}, errors.New("upnp: no answer to the search")
}
