package bots_test

import (
	"context"
	"net"
	"testing"
	"time"

	"rockstep/net/bots"
	"rockstep/net/transport"
)

// TestRemoteDialFails: bots that cannot reach the server, whether they
// create rooms or not, return an error naming the dial, never panic.
func TestRemoteDialFails(t *testing.T) {
	// A loopback port with nobody on it.
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	addr := c.LocalAddr().String()
	c.Close()
	tc := transport.LAN()
	tc.HandshakeTimeout = 300 * time.Millisecond
	for _, perRoom := range []int{0, 2} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		_, err := bots.RunRemote(ctx, bots.RemoteConfig{Addr: addr, Bots: 2, PerRoom: perRoom, Ticks: 60, Transport: tc})
		cancel()
		if err == nil {
			t.Errorf("per room %d: no error from bots that reached no server", perRoom)
		}
	}
}
