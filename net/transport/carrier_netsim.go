package transport

import (
	"context"
	"errors"
	"net"
	"sync"
	"time"
)

// ImpairCarrier returns c with imp applied to its messages both ways, on
// the wall clock, through two Links (peer to server and back) seeded from
// seed: a browser tab's link made bad for tests (`-server -web-netsim`), as
// -netsim makes the bots'. Messages stay whole; each is one datagram.
func ImpairCarrier(c Carrier, imp Impairment, seed uint64) Carrier {
	ic := &impairedCarrier{c: c, start: time.Now(),
		up: NewLink(imp, mix64(seed)), down: NewLink(imp, mix64(seed+1)),
		in: make(chan []byte, carrierQueue), wake: make(chan struct{}, 1), done: make(chan struct{})}
	go ic.readLoop()
	go ic.deliverLoop()
	return ic
}

type impairedCarrier struct {
	c     Carrier
	start time.Time

	mu       sync.Mutex // guards the links
	up, down *Link      // what the peer sent, on its way in; what is written, on its way out

	in   chan []byte
	wake chan struct{}
	done chan struct{}
	once sync.Once
	err  error // why the carrier ended (under mu)
}

func (ic *impairedCarrier) now() time.Duration { return time.Since(ic.start) }

func (ic *impairedCarrier) poke() {
	select {
	case ic.wake <- struct{}{}:
	default:
	}
}

func (ic *impairedCarrier) readLoop() {
	for {
		b, err := ic.c.ReadMessage(context.Background())
		if err != nil {
			ic.mu.Lock()
			ic.err = err
			ic.mu.Unlock()
			ic.Close()
			return
		}
		ic.mu.Lock()
		ic.up.Send(ic.now(), b)
		ic.mu.Unlock()
		ic.poke()
	}
}

// deliverLoop hands each message on when its link says it arrives.
func (ic *impairedCarrier) deliverLoop() {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var ins, outs [][]byte
	for {
		ic.mu.Lock()
		now := ic.now()
		ins = ic.up.Deliver(now, ins[:0])
		outs = ic.down.Deliver(now, outs[:0])
		next := time.Hour
		for _, l := range []*Link{ic.up, ic.down} {
			if due, ok := l.NextDue(); ok && due-now < next {
				next = max(due-now, 0)
			}
		}
		ic.mu.Unlock()
		for _, b := range ins {
			select {
			case ic.in <- b:
			default: // the reader is behind: dropped
			}
		}
		for _, b := range outs {
			if ic.c.WriteMessage(context.Background(), b) != nil {
				ic.Close()
				return
			}
		}
		timer.Reset(next)
		select {
		case <-timer.C:
		case <-ic.wake:
		case <-ic.done:
			return
		}
	}
}

func (ic *impairedCarrier) ReadMessage(ctx context.Context) ([]byte, error) {
	select {
	case b := <-ic.in:
		return b, nil
	case <-ic.done:
		ic.mu.Lock()
		defer ic.mu.Unlock()
		if ic.err != nil {
			return nil, ic.err
		}
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (ic *impairedCarrier) WriteMessage(ctx context.Context, b []byte) error {
	select {
	case <-ic.done:
		return net.ErrClosed
	default:
	}
	ic.mu.Lock()
	ic.down.Send(ic.now(), b)
	ic.mu.Unlock()
	ic.poke()
	return nil
}

// Ping forwards to the carrier impaired, if it is a Pinger (its pings are
// not impaired: they say the peer's end is there, not how the link is).
func (ic *impairedCarrier) Ping(ctx context.Context) error {
	if p, ok := ic.c.(Pinger); ok {
		return p.Ping(ctx)
	}
	return errNoPing
}

// errNoPing is a Ping's error where the carrier beneath has none.
var errNoPing = errors.New("the carrier cannot ping")

func (ic *impairedCarrier) Close() error {
	ic.once.Do(func() {
		close(ic.done)
		ic.c.Close()
	})
	return nil
}
