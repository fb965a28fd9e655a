// Package transport carries datagrams between a room and its clients.
//
// This part of the package is the simulated network used by tests and by the
// -netsim flag: this machine's kernel has no netem, so bad networks (latency,
// jitter, loss, duplication, reordering, limited bandwidth) are simulated in
// process. A [Link] is one direction of a path; a [Network] is a star of links
// between one host (the room) and its peers.
//
// The simulator is sans-I/O and deterministic: it owns no goroutine and reads
// no clock. Every call takes now, the virtual time since the start of the run,
// and every random choice comes from a PRNG seeded by the caller, so the same
// seed and the same sequence of calls give exactly the same deliveries, on
// every platform. Callers should pass a now that never decreases.
package transport
