package transport

import "time"

// PeerID names a peer of a [Network]: 0, 1, 2, … in the order they were added.
type PeerID int

// Network is a star of simulated links between one host (the room) and its
// peers, one [Link] in each direction per peer, all on one virtual clock.
// Packets travelling up (peer to host) and down (host to peer) are each
// delivered in (delivery time, send order) across all peers, send order being
// the order of the SendUp or SendDown calls.
//
// The delivery callbacks may call any method of the Network, including the
// Send methods; packets sent from a callback are delivered by a later Deliver
// call, never by the one running, so a callback that answers every packet
// cannot loop forever.
type Network struct {
	imp      Impairment
	seed     uint64
	peers    []peerLinks
	up, down schedule
	batch    []inFlight // reused by deliver; nil while a deliver is running
}

type peerLinks struct{ up, down *Link }

// NewNetwork returns a network with no peers whose links get imp, and whose
// random choices all derive from seed.
func NewNetwork(imp Impairment, seed uint64) *Network {
	return &Network{imp: imp, seed: seed}
}

// AddPeer adds a connected peer with an up link (peer to host) and a down
// link (host to peer), each seeded from the network seed and the peer's id,
// so a peer's fate does not depend on how many peers follow it.
func (n *Network) AddPeer() PeerID {
	p := PeerID(len(n.peers))
	up := NewLink(n.imp, mix64(n.seed^mix64(2*uint64(p))))
	down := NewLink(n.imp, mix64(n.seed^mix64(2*uint64(p)+1)))
	up.peer, up.sched = p, &n.up
	down.peer, down.sched = p, &n.down
	n.peers = append(n.peers, peerLinks{up: up, down: down})
	return p
}

// link returns the links of p, or nil for an unknown peer.
func (n *Network) link(p PeerID) *peerLinks {
	if p < 0 || int(p) >= len(n.peers) {
		return nil
	}
	return &n.peers[p]
}

// SetImpairment replaces the impairments of p's links, for example to make
// one client slow. Packets already in flight keep their delivery times.
func (n *Network) SetImpairment(p PeerID, up, down Impairment) {
	if pl := n.link(p); pl != nil {
		pl.up.imp, pl.down.imp = up.clamped(), down.clamped()
	}
}

// Disconnect makes p vanish: until Reconnect, every packet of p in either
// direction, sent or already in flight, is dropped and counted in
// DroppedDisconnected. Unknown peers are ignored.
func (n *Network) Disconnect(p PeerID) { n.setOffline(p, true) }

// Reconnect undoes Disconnect.
func (n *Network) Reconnect(p PeerID) { n.setOffline(p, false) }

func (n *Network) setOffline(p PeerID, offline bool) {
	if pl := n.link(p); pl != nil {
		pl.up.offline, pl.down.offline = offline, offline
	}
}

// SendUp sends pkt from peer p to the host. Unknown peers are ignored.
func (n *Network) SendUp(now time.Duration, p PeerID, pkt []byte) {
	n.send(p, true, now, pkt, (*Link).Send)
}

// SendDown sends pkt from the host to peer p. Unknown peers are ignored.
func (n *Network) SendDown(now time.Duration, p PeerID, pkt []byte) {
	n.send(p, false, now, pkt, (*Link).Send)
}

// SendUpReliable sends pkt from peer p to the host as a reliable stream
// would (see Link.SendReliable). Unknown peers are ignored.
func (n *Network) SendUpReliable(now time.Duration, p PeerID, pkt []byte) {
	n.send(p, true, now, pkt, (*Link).SendReliable)
}

// SendDownReliable sends pkt from the host to peer p as a reliable stream
// would. Unknown peers are ignored.
func (n *Network) SendDownReliable(now time.Duration, p PeerID, pkt []byte) {
	n.send(p, false, now, pkt, (*Link).SendReliable)
}

// send sends pkt with how (Link.Send or Link.SendReliable) on p's link up to
// the host or down from it. Unknown peers are ignored.
func (n *Network) send(p PeerID, up bool, now time.Duration, pkt []byte, how func(*Link, time.Duration, []byte)) {
	if pl := n.link(p); pl != nil {
		l := pl.down
		if up {
			l = pl.up
		}
		how(l, now, pkt)
	}
}

// DeliverUp calls fn for every packet due at the host at or before now, in
// (delivery time, send order), with the peer it came from. The packet belongs
// to fn.
func (n *Network) DeliverUp(now time.Duration, fn func(p PeerID, pkt []byte)) {
	n.deliver(&n.up, now, fn)
}

// DeliverDown calls fn for every packet due at a peer at or before now, in
// (delivery time, send order), with the peer it is for. The packet belongs
// to fn.
func (n *Network) DeliverDown(now time.Duration, fn func(p PeerID, pkt []byte)) {
	n.deliver(&n.down, now, fn)
}

func (n *Network) deliver(s *schedule, now time.Duration, fn func(PeerID, []byte)) {
	// Take the due packets out first, so that packets sent by fn wait for a
	// later call. A nested call (fn calling Deliver) gets a fresh batch.
	batch := n.batch[:0]
	n.batch = nil
	for {
		p, ok := s.peek()
		if !ok || p.due > now {
			break
		}
		s.pop()
		p.link.pending--
		batch = append(batch, p)
	}
	for i := range batch {
		p := batch[i]
		batch[i] = inFlight{}
		if p.link.offline { // checked now, so a Disconnect from fn takes effect at once
			p.link.stats.DroppedDisconnected++
			continue
		}
		p.link.countDelivered(p.data)
		if fn != nil {
			fn(p.link.peer, p.data)
		}
	}
	n.batch = batch[:0]
}

// NextDue returns the earliest delivery time of any packet in flight in
// either direction; false if none is.
func (n *Network) NextDue() (time.Duration, bool) {
	up, okUp := n.up.peek()
	down, okDown := n.down.peek()
	switch {
	case okUp && okDown:
		return min(up.due, down.due), true
	case okUp:
		return up.due, true
	case okDown:
		return down.due, true
	}
	return 0, false
}

// Stats returns the counts of p's up and down links; zero for an unknown peer.
func (n *Network) Stats(p PeerID) (up, down LinkStats) {
	if pl := n.link(p); pl != nil {
		return pl.up.stats, pl.down.stats
	}
	return LinkStats{}, LinkStats{}
}
