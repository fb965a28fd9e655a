package client

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"rockstep/net/transport"
)

// ErrNoAnswer is DialAny's error when no address answered: the game is
// gone, or none of its addresses is reachable from here. The error is a
// *NoAnswerError.
var ErrNoAnswer = errors.New("the host did not answer")

// NoAnswerError is DialAny's error when no address answered.
type NoAnswerError struct {
	Addrs []string // tried
	Err   error    // what the first dial that failed said
}

func (e *NoAnswerError) Error() string {
	return fmt.Sprintf("%v (tried %s): %v", ErrNoAnswer, strings.Join(e.Addrs, ", "), e.Err)
}

// Unwrap makes errors.Is(err, ErrNoAnswer) true, and Is of what the dial
// said (transport.ErrTimeout, mostly).
func (e *NoAnswerError) Unwrap() []error { return []error{ErrNoAnswer, e.Err} }

// DialAny connects to the host at whichever of addrs answers first (an
// invite code's addresses: the router's outside address, the LAN's) and
// starts the session, as Dial does. It dials them all at once, keeps the
// first handshake that proves the host key opt.Transport.HostFingerprint
// pins (the transport checks it at the Accept, before the session
// exists), and closes the others: a second host that also answers, or one
// with another key, gets nothing but the handshake. When none connects,
// the error says why, in this order: a host with another key (matching
// transport.ErrHostKey), a refusal (transport.ErrRefused), else
// ErrNoAnswer.
func DialAny(ctx context.Context, addrs []string, opt Options) (*Client, error) {
	c := newClient(opt)
	tc, addr, err := race(ctx, addrs, func(ctx context.Context, a string) (*transport.Client, error) {
		return c.dial(ctx, a, c.opt.Transport)
	})
	if err != nil {
		return nil, err
	}
	return c.begin(tc, addr)
}

// Resolve finds which of addrs a host answers at with the key cfg pins,
// as DialAny does, and hangs up: for callers that dial it many times over
// (the bots).
func Resolve(ctx context.Context, addrs []string, cfg transport.Config) (string, error) {
	tc, addr, err := race(ctx, addrs, func(ctx context.Context, a string) (*transport.Client, error) {
		return transport.Dial(ctx, a, cfg)
	})
	if err != nil {
		return "", err
	}
	tc.Close()
	return addr, nil
}

// race dials every address at once and returns the first connection, and
// its address; the others are cancelled, or closed if they connect too.
func race(ctx context.Context, addrs []string, dial func(context.Context, string) (*transport.Client, error)) (*transport.Client, string, error) {
	if len(addrs) == 0 {
		return nil, "", errors.New("dial: no address to try")
	}
	type result struct {
		addr string
		tc   *transport.Client
		err  error
	}
	all, cancel := context.WithCancel(ctx)
	results := make(chan result, len(addrs)) // no dial's goroutine ever waits to report
	for _, a := range addrs {
		go func() {
			tc, err := dial(all, a)
			results <- result{a, tc, err}
		}()
	}
	var keyErr, refused, bad, other error
	for i := range addrs {
		r := <-results
		if r.err == nil {
			cancel() // the others stop their handshakes
			go func(left int) {
				for range left {
					if r := <-results; r.tc != nil {
						r.tc.Close() // answered too, later: hang up
					}
				}
			}(len(addrs) - 1 - i)
			return r.tc, r.addr, nil
		}
		switch {
		case errors.Is(r.err, transport.ErrHostKey):
			keyErr = r.err
		case errors.Is(r.err, transport.ErrRefused):
			refused = r.err
		case errors.Is(r.err, transport.ErrBadConfig):
			bad = r.err // ours, not the host's: never "no answer"
		case other == nil:
			other = r.err
		}
	}
	cancel()
	switch {
	case keyErr != nil:
		return nil, "", keyErr
	case refused != nil:
		return nil, "", refused
	case bad != nil:
		return nil, "", bad
	case ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, "", ctx.Err() // the player gave up
	}
	return nil, "", &NoAnswerError{Addrs: addrs, Err: other}
}
