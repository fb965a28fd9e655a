package portmap

import (
	"context"
	"crypto/rand"
	"errors"
	"net"
	"net/netip"
	"strings"
	"sync"
	"time"

	natpmp "github.com/jackpal/go-nat-pmp"
)

// Config is how a Mapper finds and asks the router.
type Config struct {
	// Gateway returns the router to ask (nil: DefaultGateway, the default
	// route's gateway).
	Gateway func() (netip.Addr, error)
	// Order is the protocols tried, in order (nil: PCP, NAT-PMP, UPnP).
	Order  []Proto
	Timing Timing // zero: DefaultTiming
	// PCPPort and SSDPPort are the gateway's ports (0: 5351 and 1900);
	// tests use others. NAT-PMP always uses 5351 (its library's).
	PCPPort, SSDPPort uint16
	// OnChange, if set, is called (on the Mapper's goroutine) with every
	// new status: the server logs it.
	OnChange func(Status)
}

// The gateway's standard ports.
const (
	pcpPort  = 5351 // PCP and NAT-PMP
	ssdpPort = 1900 // UPnP's discovery
)

// closeWait bounds how long Close waits for the router to delete the
// mapping: a router that has gone away must not hold up quitting. The
// mapping then lapses with its lease.
const closeWait = time.Second

// Mapper asks the router for a mapping of one UDP port, keeps it renewed,
// and deletes it on Close. It runs on its own goroutine; its methods may
// be called from any.
type Mapper struct {
	cfg      Config
	internal uint16

	mu     sync.Mutex
	status Status
	closed bool

	stop chan struct{}
	done chan struct{}

	// The edge's per-protocol state, touched by the request goroutines.
	edgeMu sync.Mutex
	nonce  [12]byte   // PCP: one per Mapper, so the delete matches the map
	igd    *igdClient // UPnP: the service found, kept for renewals and the delete
}

// Start returns a Mapper asking, in the background, for UDP port internal.
func Start(internal uint16, cfg Config) *Mapper {
	if cfg.Gateway == nil {
		cfg.Gateway = DefaultGateway
	}
	if cfg.Timing == (Timing{}) {
		cfg.Timing = DefaultTiming()
	}
	if cfg.PCPPort == 0 {
		cfg.PCPPort = pcpPort
	}
	if cfg.SSDPPort == 0 {
		cfg.SSDPPort = ssdpPort
	}
	m := &Mapper{cfg: cfg, internal: internal, status: Status{Verdict: Asking, Internal: internal},
		stop: make(chan struct{}), done: make(chan struct{})}
	_, _ = rand.Read(m.nonce[:])
	go m.run()
	return m
}

// Disabled returns a Mapper that asks nothing: its status says port
// mapping is off.
func Disabled(internal uint16) *Mapper {
	m := &Mapper{internal: internal, status: Status{Verdict: Off, Internal: internal}, stop: make(chan struct{}), done: make(chan struct{})}
	close(m.done)
	return m
}

// Status returns the mapping's state now. m may be nil (no mapping asked
// for: the zero Status).
func (m *Mapper) Status() Status {
	if m == nil {
		return Status{}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.status
}

// Close deletes the mapping, if one is held, waiting at most about a
// second for the router, and stops. It may be called more than once; m
// may be nil.
func (m *Mapper) Close() {
	if m == nil {
		return
	}
	m.mu.Lock()
	if !m.closed {
		m.closed = true
		close(m.stop)
	}
	m.mu.Unlock()
	<-m.done
}

func (m *Mapper) setStatus(s Status) {
	m.mu.Lock()
	changed := s != m.status
	m.status = s
	m.mu.Unlock()
	if changed && m.cfg.OnChange != nil {
		m.cfg.OnChange(s)
	}
}

// run drives the machine: it carries out the actions, feeds the results
// and the time back, and publishes the status.
func (m *Mapper) run() {
	defer close(m.done)
	mach := NewMachine(m.internal, m.cfg.Order, m.cfg.Timing)
	gw, err := m.cfg.Gateway()
	if err != nil || !gw.IsValid() {
		mach.NoGateway()
		m.setStatus(mach.Status())
		<-m.stop
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	results := make(chan Result, 4)
	do := func(acts []Action) {
		for _, a := range acts {
			go func() {
				actx, acancel := context.WithTimeout(ctx, a.Wait)
				defer acancel()
				r := m.perform(actx, gw, a)
				r.Seq = a.Seq
				select {
				case results <- r:
				case <-ctx.Done():
				}
			}()
		}
	}
	do(mach.Start(time.Now()))
	m.setStatus(mach.Status())
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		if d := mach.Deadline(); !d.IsZero() {
			timer.Reset(max(time.Until(d), 0))
		} else {
			timer.Reset(24 * time.Hour)
		}
		select {
		case <-m.stop:
			acts := mach.Close()
			cancel()
			for _, a := range acts {
				a.Wait = min(a.Wait, closeWait)
				actx, acancel := context.WithTimeout(context.Background(), a.Wait)
				m.perform(actx, gw, a)
				acancel()
			}
			return
		case r := <-results:
			do(mach.Report(time.Now(), r))
		case <-timer.C:
			do(mach.Tick(time.Now()))
		}
		m.setStatus(mach.Status())
	}
}

// perform carries out one action on the router, within ctx.
func (m *Mapper) perform(ctx context.Context, gw netip.Addr, a Action) Result {
	switch a.Proto {
	case PCP:
		return m.pcp(ctx, gw, a)
	case NATPMP:
		return m.natpmp(ctx, gw, a)
	case UPnP:
		return m.upnp(ctx, gw, a)
	}
	return Result{Outcome: Unsupported}
}

// pcp sends a MAP request to the gateway and waits for its answer,
// sending again after 250 ms (RFC 6887's first retransmission) while ctx
// lasts.
func (m *Mapper) pcp(ctx context.Context, gw netip.Addr, a Action) Result {
	conn, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(netip.AddrPortFrom(gw, m.cfg.PCPPort)))
	if err != nil {
		return Result{Outcome: Silent}
	}
	defer conn.Close()
	local := conn.LocalAddr().(*net.UDPAddr).AddrPort().Addr().Unmap()
	life := uint32(a.Lifetime / time.Second)
	ext := a.ExtPort
	if a.Kind == Unmap {
		life, ext = 0, 0
	}
	req := pcpMapRequest(local, m.nonce, a.Internal, ext, life)
	stopRead := context.AfterFunc(ctx, func() { _ = conn.SetReadDeadline(time.Now()) })
	defer stopRead()
	buf := make([]byte, 1100) // bytes: PCP's largest message
	for try := 0; try < 4; try++ {
		if ctx.Err() != nil {
			break
		}
		if _, err := conn.Write(req); err != nil {
			return Result{Outcome: Silent} // e.g. ICMP port unreachable: no PCP here
		}
		_ = conn.SetReadDeadline(time.Now().Add(250 * time.Millisecond << try))
		for {
			n, err := conn.Read(buf)
			if err != nil {
				var ne net.Error
				if errors.As(err, &ne) && ne.Timeout() {
					break // send again
				}
				return Result{Outcome: Silent}
			}
			ans, err := parsePCPAnswer(buf[:n], m.nonce)
			if err != nil {
				continue // a stray or another request's answer: keep reading
			}
			o, why := pcpOutcome(ans.result)
			return Result{Outcome: o, Why: why, External: ans.external, Lifetime: time.Duration(ans.lifetime) * time.Second}
		}
	}
	return Result{Outcome: Silent}
}

// natpmp asks by NAT-PMP (RFC 6886): the router's outside address, then
// the mapping. The library retransmits within the timeout it is given.
func (m *Mapper) natpmp(ctx context.Context, gw netip.Addr, a Action) Result {
	timeout := time.Until(deadline(ctx))
	if timeout <= 0 {
		return Result{Outcome: Silent}
	}
	c := natpmp.NewClientWithTimeout(gw.AsSlice(), timeout)
	if a.Kind == Unmap {
		_, err := c.AddPortMapping("udp", int(a.Internal), 0, 0)
		return natpmpResult(err)
	}
	ext, err := c.GetExternalAddress()
	if err != nil {
		return natpmpResult(err)
	}
	if timeout = time.Until(deadline(ctx)); timeout <= 0 {
		return Result{Outcome: Silent}
	}
	c = natpmp.NewClientWithTimeout(gw.AsSlice(), timeout)
	r, err := c.AddPortMapping("udp", int(a.Internal), int(a.ExtPort), int(a.Lifetime/time.Second))
	if err != nil {
		return natpmpResult(err)
	}
	addr := netip.AddrFrom4(ext.ExternalIPAddress)
	return Result{Outcome: OK, External: netip.AddrPortFrom(addr, r.MappedExternalPort), Lifetime: time.Duration(r.PortMappingLifetimeInSeconds) * time.Second}
}

// natpmpResult reads the library's error: it reports a router's result
// codes only in words.
func natpmpResult(err error) Result {
	if err == nil {
		return Result{Outcome: OK}
	}
	s := err.Error()
	switch {
	case strings.Contains(s, "result code 3"):
		return Result{Outcome: NoPublic}
	case strings.Contains(s, "result code 2"):
		return Result{Outcome: Denied, Why: "not authorized"}
	case strings.Contains(s, "result code 4"):
		return Result{Outcome: Denied, Why: "no room for another mapping"}
	case strings.Contains(s, "result code"), strings.Contains(s, "protocol version"):
		return Result{Outcome: Unsupported}
	}
	return Result{Outcome: Silent}
}

func deadline(ctx context.Context) time.Time {
	d, ok := ctx.Deadline()
	if !ok {
		return time.Now().Add(time.Second)
	}
	return d
}
