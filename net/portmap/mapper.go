package portmap

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"time"
)

// Config is how a Mapper finds and asks the router.
type Config struct {
	// Gateway returns the router to ask (nil: DefaultGateway, the default
	// route's gateway).
	Gateway func() (netip.Addr, error)
	// Order is the protocols tried, in order (nil: PCP, NAT-PMP, UPnP).
	Order  []Proto
	Timing Timing // zero: DefaultTiming
	// PCPPort and SSDPPort are the gateway's ports (0: 5351, which PCP
	// and NAT-PMP share, and 1900); tests use others.
	PCPPort, SSDPPort uint16
	// OnChange, if set, is called (on the Mapper's goroutine) with every
	// new status: the server logs it.
	OnChange func(Status)
	// Log, if set, is told what happens between statuses (a renewal the
	// router did not answer, the mapping asked again after it, the router
	// seen to have restarted, Suspect), on the Mapper's goroutine.
	Log *slog.Logger
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

	stop    chan struct{}
	done    chan struct{}
	suspect chan struct{} // Suspect's hint to the run loop (1 buffered)

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
		stop: make(chan struct{}), done: make(chan struct{}), suspect: make(chan struct{}, 1)}
	_, _ = rand.Read(m.nonce[:])
	go m.run()
	return m
}

// Disabled returns a Mapper that asks nothing: its status says port
// mapping is off.
func Disabled(internal uint16) *Mapper {
	m := &Mapper{internal: internal, status: Status{Verdict: Off, Internal: internal}, stop: make(chan struct{}), done: make(chan struct{}), suspect: make(chan struct{}, 1)}
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

// Suspect hints that the mapping may be gone: the host's guests all fell
// silent at once, as they do when the router restarted and forgot it. The
// router is asked again within seconds (at once, or 2 s after the last
// request), and, if it does not answer, again with the retry backoff (at
// most 8 s apart) until it does. It returns at once and may be called as
// often as the host likes (from any goroutine; m may be nil): the hints
// between two requests count as one. It does nothing unless a mapping is
// held or was held and lost.
func (m *Mapper) Suspect() {
	if m == nil {
		return
	}
	select {
	case m.suspect <- struct{}{}:
	default:
	}
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
	announced := make(chan uint32, 1)
	if conn := listenAnnouncements(gw, announced); conn != nil {
		defer conn.Close()
	}
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
	// again: the mapping is being asked again because the host suspected
	// it lost (or the router's epoch said so); the answer that grants it
	// is logged, so that a log tells when the port was open again.
	again := false
	for {
		if d := mach.Deadline(); !d.IsZero() {
			timer.Reset(max(time.Until(d), 0))
		} else {
			timer.Reset(24 * time.Hour)
		}
		failures, restarts, grants := mach.Failures(), mach.Restarts(), mach.Grants()
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
		case epoch := <-announced:
			do(mach.Announce(time.Now(), epoch))
		case <-m.suspect:
			acts := mach.Suspect(time.Now())
			if len(acts) > 0 {
				m.logf("portmap: asking the router again: the host suspects the mapping was lost", "proto", acts[0].Proto.String())
			} else if mach.Status().Verdict == Opened {
				// Asked already, or at SuspectGap after the last request.
				m.logf("portmap: the host suspects the mapping was lost: the router is asked again")
			}
			again = again || len(acts) > 0 || mach.Status().Verdict == Opened
			do(acts)
		}
		again = m.logChange(mach, failures, restarts, grants, again)
		m.setStatus(mach.Status())
	}
}

// logChange logs what an event changed beyond the status: the router seen
// to have restarted (its epoch, in an answer or an announcement), the
// first of a run of failed renewals, a mapping granted after failures or
// asked again (again: see run). It returns whether the mapping is still
// being asked again.
func (m *Mapper) logChange(mach *Machine, failures, restarts, grants int, again bool) bool {
	if mach.Restarts() > restarts {
		m.logf("portmap: the router restarted (its epoch says so): the mapping is asked again")
		again = true
	}
	switch st := mach.Status(); {
	case failures > 0 && mach.Failures() == 0 && st.Verdict == Opened:
		m.logf("portmap: the router answered again: mapping granted", "after_failures", failures, "proto", st.Proto.String(), "external", st.External.String())
		again = false
	case failures == 0 && mach.Failures() > 0:
		m.logf("portmap: the router did not renew the mapping: asking again with backoff", "verdict", st.String())
	case again && mach.Grants() > grants:
		m.logf("portmap: the router mapped the port again", "proto", st.Proto.String(), "external", st.External.String())
		again = false
	}
	return again
}

func (m *Mapper) logf(msg string, args ...any) {
	if m.cfg.Log != nil {
		m.cfg.Log.Info(msg, args...)
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

// ask sends req to the gateway's port and returns the first answer that
// accept takes, sending again after 250 ms, then 500 ms, 1 s, 2 s (RFC
// 6887 and RFC 6886 retransmit so) while ctx lasts. Only the gateway's
// answers are read: the socket is connected to it.
func ask(ctx context.Context, gw netip.Addr, port uint16, req []byte, accept func([]byte) bool) ([]byte, bool) {
	conn, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(netip.AddrPortFrom(gw, port)))
	if err != nil {
		return nil, false
	}
	defer conn.Close()
	stopRead := context.AfterFunc(ctx, func() { _ = conn.SetReadDeadline(time.Now()) })
	defer stopRead()
	buf := make([]byte, 1100) // bytes: PCP's largest message; NAT-PMP's are 16
	for try := 0; try < 4; try++ {
		if ctx.Err() != nil {
			break
		}
		if _, err := conn.Write(req); err != nil {
			return nil, false // e.g. ICMP port unreachable: nobody speaks it here
		}
		_ = conn.SetReadDeadline(time.Now().Add(250 * time.Millisecond << try))
		for {
			n, err := conn.Read(buf)
			if err != nil {
				var ne net.Error
				if errors.As(err, &ne) && ne.Timeout() {
					break // send again
				}
				return nil, false
			}
			if accept(buf[:n]) {
				return buf[:n], true
			}
			// A stray, or another request's answer: keep reading.
		}
	}
	return nil, false
}

// localAddr is our address as the gateway sees it (the source of a
// datagram to it).
func localAddr(gw netip.Addr, port uint16) (netip.Addr, error) {
	conn, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(netip.AddrPortFrom(gw, port)))
	if err != nil {
		return netip.Addr{}, err
	}
	defer conn.Close()
	return conn.LocalAddr().(*net.UDPAddr).AddrPort().Addr().Unmap(), nil
}

// pcp sends a MAP request to the gateway and waits for its answer.
func (m *Mapper) pcp(ctx context.Context, gw netip.Addr, a Action) Result {
	local, err := localAddr(gw, m.cfg.PCPPort)
	if err != nil {
		return Result{Outcome: Silent}
	}
	life := uint32(a.Lifetime / time.Second)
	ext := a.ExtPort
	if a.Kind == Unmap {
		life, ext = 0, 0
	}
	var ans pcpAnswer
	_, ok := ask(ctx, gw, m.cfg.PCPPort, pcpMapRequest(local, m.nonce, a.Internal, ext, life), func(b []byte) bool {
		var err error
		ans, err = parsePCPAnswer(b, m.nonce)
		return err == nil
	})
	if !ok {
		return Result{Outcome: Silent}
	}
	o, why := pcpOutcome(ans.result)
	// A NAT-PMP router's UNSUPP_VERSION answer carries no PCP epoch.
	hasEpoch := ans.result != pcpUnsuppVersion
	return Result{Outcome: o, Why: why, External: ans.external, Lifetime: time.Duration(ans.lifetime) * time.Second, Epoch: ans.epoch, HasEpoch: hasEpoch}
}

// natpmp asks by NAT-PMP (RFC 6886): the router's outside address, then
// the mapping; both answers are read by their result codes.
func (m *Mapper) natpmp(ctx context.Context, gw netip.Addr, a Action) Result {
	exchange := func(req []byte, op byte) (natpmpAnswer, bool) {
		var ans natpmpAnswer
		_, ok := ask(ctx, gw, m.cfg.PCPPort, req, func(b []byte) bool {
			var err error
			ans, err = parseNATPMPAnswer(b, op, a.Internal)
			return err == nil
		})
		return ans, ok
	}
	result := func(ans natpmpAnswer) Result {
		o, why := natpmpOutcome(ans.result)
		return Result{Outcome: o, Why: why, Epoch: ans.epoch, HasEpoch: ans.result != natpmpUnsuppVersion}
	}
	if a.Kind == Unmap {
		ans, ok := exchange(natpmpMapRequest(a.Internal, 0, 0), natpmpOpMapUDP)
		if !ok {
			return Result{Outcome: Silent}
		}
		return result(ans)
	}
	addr, ok := exchange(natpmpAddressRequest(), natpmpOpAddress)
	if !ok {
		return Result{Outcome: Silent}
	}
	if addr.result != natpmpSuccess {
		return result(addr)
	}
	mapped, ok := exchange(natpmpMapRequest(a.Internal, a.ExtPort, uint32(a.Lifetime/time.Second)), natpmpOpMapUDP)
	if !ok {
		return Result{Outcome: Silent}
	}
	r := result(mapped)
	if r.Outcome == OK {
		r.External = netip.AddrPortFrom(addr.external, mapped.mapped)
		r.Lifetime = time.Duration(mapped.lifetime) * time.Second
	}
	return r
}
