//go:build linux

package transport

import (
	"net"
	"testing"
	"time"

	"rockstep/internal/netns"
)

// TestSpoofedMove, inside a private network namespace: a peer that
// completed its handshake (with a server that streams to it) sends its
// own sealed keep-alives through a raw socket with a victim's source
// address, as anyone can on a LAN. The victim receives at most the path
// challenges, no more than 3× the bytes of the forged datagrams, and the
// session does not move. Then the same peer, really at a new address,
// answers the challenge sent there, and the session moves.
func TestSpoofedMove(t *testing.T) {
	if !netns.Isolate(t, netnsEnv, 2*time.Minute) {
		return
	}
	if err := netns.IP("link", "set", "lo", "up"); err != nil {
		t.Skipf("private namespace: %v", err)
	}
	cfg := LAN()
	srv := listen(t, cfg)
	sh, _ := serveStreams(t, srv, 1<<30)
	cl := dialT(t, srv, "", cfg) // not run: the test speaks for it, with its keys
	defer cl.Close()
	cl.writeSealed(kindPing, nil) // the Accept arrived
	eventually(t, "the session is accepted and streams", func() bool { return srv.Stats().PacketsOut > 10 })

	victim := listenUDP(t, "127.0.0.9:0")
	sp := newSpoofer(t)
	spoofed, sent := 0, 0
	pace := time.NewTicker(5 * time.Millisecond)
	defer pace.Stop()
	// Keep-alives with the victim's address until the server has acted on
	// them: moved the session (as it did before paths were validated) or
	// sent a few challenges (past the quiet time, twice the heartbeat).
	for st := srv.Stats(); st.Migrated == 0 && st.Challenges < 3 && sent < 2000; st = srv.Stats() {
		p, err := cl.sess.ch.seal(nil, kindPing, nil)
		if err != nil {
			t.Fatal(err)
		}
		sp.send(t, victim.LocalAddr().(*net.UDPAddr).AddrPort(), srv.Addr(), p)
		spoofed += len(p)
		sent++
		<-pace.C
	}
	eventually(t, "the forged datagrams handled", func() bool {
		return srv.Stats().PacketsIn >= uint64(sent)
	})
	// What reached the victim: read until it has been quiet a moment, for
	// at most a second (a session that moved keeps streaming there).
	got, n := 0, 0
	buf := make([]byte, 2048)
	for end := time.Now().Add(time.Second); time.Now().Before(end); n++ {
		_ = victim.SetReadDeadline(deadlineSoon())
		k, _, err := victim.ReadFromUDPAddrPort(buf)
		if err != nil {
			break
		}
		got += k
	}
	if got > 3*spoofed {
		t.Errorf("the victim received %d bytes in %d datagrams for %d bytes forged in %d: more than 3×", got, n, spoofed, sent)
	}
	st := srv.Stats()
	if st.Migrated != 0 || st.Sessions != 1 {
		t.Errorf("after %d forged keep-alives: %d sessions, %d migrations; want 1, 0", sent, st.Sessions, st.Migrated)
	}
	t.Logf("%d keep-alives forged (%d bytes); the victim received %d datagrams (%d bytes); %d challenges sent", sent, spoofed, n, got, st.Challenges)

	// The honest move: the peer at a new address (its NAT rebound) is
	// challenged there, answers from there, and the session follows it.
	roamed := listenUDP(t, "127.0.0.3:0")
	var challenge []byte
	for try := 0; try < 100 && challenge == nil; try++ {
		p, err := cl.sess.ch.seal(nil, kindPing, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := roamed.WriteToUDPAddrPort(p, srv.Addr()); err != nil {
			t.Fatal(err)
		}
		_ = roamed.SetReadDeadline(time.Now().Add(challengeEvery))
		k, _, err := roamed.ReadFromUDPAddrPort(buf)
		if err != nil {
			continue
		}
		plain, _, res := cl.sess.ch.open(nil, buf[:k])
		if res != openOK || buf[0] != kindChallenge {
			t.Fatalf("the new address got kind %d (open: %d) before the move, want a challenge", buf[0], res)
		}
		challenge = plain
	}
	if challenge == nil {
		t.Fatalf("no challenge came to the new address")
	}
	resp, err := cl.sess.ch.seal(nil, kindResponse, challenge)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := roamed.WriteToUDPAddrPort(resp, srv.Addr()); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the session moves to the new address", func() bool { return srv.Stats().Migrated == 1 })
	sh.view(func() {
		if len(sh.disconnected) != 0 {
			t.Errorf("sessions ended: %v", sh.disconnected)
		}
	})
}
