package transport

import (
	"errors"
	"sync"
)

// Pipe is an in-memory message link between a host and a client in the same
// process: the Host button's own player reaches the room through one, with
// no network hop. Both ends may be used from different goroutines.
type Pipe struct {
	mu         sync.Mutex
	toHost     [][]byte
	toClient   [][]byte
	closed     bool
	hostWake   chan struct{}
	clientWake chan struct{}
}

// MaxPipeQueue bounds the frames waiting in each direction of a Pipe.
const MaxPipeQueue = 4096

// ErrPipeClosed is returned by sends on a closed Pipe; ErrQueueFull when
// the other end has not drained MaxPipeQueue frames.
var (
	ErrPipeClosed = errors.New("pipe closed")
	ErrQueueFull  = errors.New("queue full")
)

// NewPipe returns an open pipe.
func NewPipe() *Pipe {
	return &Pipe{hostWake: make(chan struct{}, 1), clientWake: make(chan struct{}, 1)}
}

func (p *Pipe) push(q *[][]byte, wake chan struct{}, frame []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.closed:
		return ErrPipeClosed
	case len(*q) >= MaxPipeQueue:
		return ErrQueueFull
	}
	*q = append(*q, append([]byte(nil), frame...))
	if wake == nil {
		wake = p.hostWake // read under mu: ShareHostWake may change it
	}
	select {
	case wake <- struct{}{}:
	default:
	}
	return nil
}

func (p *Pipe) drain(q *[][]byte, fn func([]byte)) {
	p.mu.Lock()
	frames := *q
	*q = nil
	p.mu.Unlock()
	for _, f := range frames {
		fn(f)
	}
}

// SendToHost queues a frame from the client for the host. It copies frame.
func (p *Pipe) SendToHost(frame []byte) error { return p.push(&p.toHost, nil, frame) }

// SendToClient queues a frame from the host for the client. It copies frame.
func (p *Pipe) SendToClient(frame []byte) error { return p.push(&p.toClient, p.clientWake, frame) }

// DrainHost hands the host every frame the client sent, in order.
func (p *Pipe) DrainHost(fn func([]byte)) { p.drain(&p.toHost, fn) }

// DrainClient hands the client every frame the host sent, in order.
func (p *Pipe) DrainClient(fn func([]byte)) { p.drain(&p.toClient, fn) }

// ClientWake is signalled when a frame for the client is queued.
func (p *Pipe) ClientWake() <-chan struct{} { return p.clientWake }

// HostWake is signalled when a frame for the host is queued.
func (p *Pipe) HostWake() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hostWake
}

// ShareHostWake makes the pipe signal wake, a channel with a buffer of one
// that a host serving several pipes waits on, instead of its own.
func (p *Pipe) ShareHostWake(wake chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hostWake = wake
	if len(p.toHost) > 0 {
		select {
		case wake <- struct{}{}:
		default:
		}
	}
}

// Close closes the pipe; queued frames may still be drained.
func (p *Pipe) Close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
}

// Closed reports whether the pipe was closed.
func (p *Pipe) Closed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}
