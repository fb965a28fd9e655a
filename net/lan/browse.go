package lan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"sync"
	"time"

	"rockstep/internal/defaults"
)

// BrowseOptions configures a Browser. The zero value is the LAN preset.
type BrowseOptions struct {
	Interval time.Duration // between queries; 0 means 1 s
	Expire   time.Duration // a game not heard from for longer leaves the list; 0 means 3 s
	// Interfaces names the interfaces to browse on; empty means every
	// multicast-capable interface that is up.
	Interfaces []string
	// Logf, when set, receives at most one line per LogEvery about the
	// malformed answers ignored since the last line.
	Logf func(format string, args ...any)
}

// LogEvery is the least time between two log lines about malformed answers.
const LogEvery = 10 * time.Second

func (o BrowseOptions) withDefaults() BrowseOptions {
	defaults.Positive(&o.Interval, time.Second)
	defaults.Positive(&o.Expire, 3*time.Second)
	return o
}

// Browser keeps the list of games hosted on the LAN. It multicasts a query
// for _rockstep._udp.local. every Interval on every interface, over IPv4 and
// IPv6 where they work, and listens both for the answers and for the
// announcements and goodbyes hosts multicast on their own. Games are merged by
// id, and leave the list when they say goodbye or have not answered for
// Expire. At most MaxGames are listed.
type Browser struct {
	opts   BrowseOptions
	out    *sender
	conns  []*net.UDPConn // every socket read from: the sender's and the group listeners
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	table   *table
	logged  time.Time // of the last log line
	unlog   int       // malformed answers since the last log line
	lastErr error     // the latest of them
}

// Browse starts browsing; it stops when ctx is done or on Close. It fails
// when no interface is multicast capable or no socket can be opened; then
// players can still join by address.
func Browse(ctx context.Context, opts BrowseOptions) (*Browser, error) {
	opts = opts.withDefaults()
	ifaces, err := multicastInterfaces(opts.Interfaces)
	if err != nil {
		return nil, fmt.Errorf("browse LAN games: %w", err)
	}
	out, err := newSender(ifaces)
	if err != nil {
		return nil, fmt.Errorf("browse LAN games: %w", err)
	}
	b := &Browser{
		opts:  opts,
		out:   out,
		conns: append(out.conns(), listenGroups(ifaces)...),
		table: newTable(opts.Expire, MaxGames),
	}
	ctx, b.cancel = context.WithCancel(ctx)
	for _, c := range b.conns {
		b.wg.Add(1)
		go b.read(c)
	}
	b.wg.Add(1)
	go b.query(ctx)
	return b, nil
}

// Games returns the games heard from within the last Expire, sorted by
// name, then address, then id.
func (b *Browser) Games() []Game {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.table.list(time.Now())
}

// Stats returns the counts of what was received so far.
func (b *Browser) Stats() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.table.stats
}

// Close stops browsing and waits for its goroutines. The list keeps the
// games known at that moment until they expire.
func (b *Browser) Close() error {
	b.cancel()
	b.wg.Wait()
	return nil
}

// query multicasts the query now and every Interval until ctx is done, then
// closes the sockets.
func (b *Browser) query(ctx context.Context) {
	defer b.wg.Done()
	defer func() {
		for _, c := range b.conns {
			c.Close()
		}
	}()
	packet, err := paddedQuery()
	if err != nil {
		return // a constant question always packs
	}
	tick := time.NewTicker(b.opts.Interval)
	defer tick.Stop()
	for {
		b.out.send(packet)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// read merges the packets arriving on c until c is closed.
func (b *Browser) read(c *net.UDPConn) {
	defer b.wg.Done()
	buf := make([]byte, maxPacket)
	for {
		n, src, err := c.ReadFromUDPAddrPort(buf)
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			// e.g. an ICMP error reported on the socket (Windows):
			// transient, but never worth a busy loop.
			time.Sleep(10 * time.Millisecond)
			continue
		}
		b.receive(buf[:n], src)
	}
}

func (b *Browser) receive(packet []byte, src netip.AddrPort) {
	b.mu.Lock()
	now := time.Now()
	err := b.table.receive(now, packet, src)
	var line string
	if err != nil && b.opts.Logf != nil {
		b.unlog++
		b.lastErr = err
		if now.Sub(b.logged) >= LogEvery {
			line = fmt.Sprintf("lan: ignored %d malformed mDNS answers; the latest: %v", b.unlog, b.lastErr)
			b.logged, b.unlog = now, 0
		}
	}
	b.mu.Unlock()
	if line != "" {
		b.opts.Logf("%s", line)
	}
}

// PrintGames browses the LAN for timeout (2 s when 0 or less) and writes the
// games found to w, one line each as Game.String describes. When ctx ends
// first it prints what it found and returns ctx's error.
func PrintGames(ctx context.Context, w io.Writer, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = 2 * time.Second
	}
	b, err := Browse(ctx, BrowseOptions{})
	if err != nil {
		return err
	}
	wait := time.NewTimer(timeout)
	defer wait.Stop()
	select {
	case <-wait.C:
	case <-ctx.Done():
	}
	games := b.Games()
	b.Close()
	for _, g := range games {
		if _, err := fmt.Fprintln(w, g); err != nil {
			return fmt.Errorf("print LAN games: %w", err)
		}
	}
	return ctx.Err()
}
