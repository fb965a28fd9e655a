package transport_test

import (
	"fmt"
	"time"

	"rockstep/net/transport"
)

// A virtual-clock loop: a peer sends a packet every 30 ms, the host answers
// each one, and time jumps straight to the next event.
func ExampleNetwork() {
	imp, err := transport.ParseImpairment("latency=20ms,jitter=5ms")
	if err != nil {
		panic(err)
	}
	n := transport.NewNetwork(imp, 1)
	peer := n.AddPeer()

	var now time.Duration
	nextSend := time.Duration(0)
	for sent := 0; ; {
		due, ok := n.NextDue()
		if sent == 3 && !ok {
			break
		}
		if ok && (sent == 3 || due <= nextSend) {
			now = due
			n.DeliverUp(now, func(p transport.PeerID, pkt []byte) {
				n.SendDown(now, p, append([]byte("re: "), pkt...))
			})
			n.DeliverDown(now, func(p transport.PeerID, pkt []byte) {
				fmt.Printf("peer %d got %q\n", p, pkt)
			})
			continue
		}
		now = nextSend
		n.SendUp(now, peer, fmt.Appendf(nil, "turn %d", sent))
		sent++
		nextSend += 30 * time.Millisecond
	}
	up, down := n.Stats(peer)
	fmt.Println(up.Delivered, down.Delivered)
	// Output:
	// peer 0 got "re: turn 0"
	// peer 0 got "re: turn 1"
	// peer 0 got "re: turn 2"
	// 3 3
}
