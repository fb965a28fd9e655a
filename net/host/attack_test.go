package host_test

import (
	"context"
	"encoding/binary"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"

	"rockstep/net/bots"
	"rockstep/net/host"
	"rockstep/net/transport"
)

// attacker is a relay between bots and a server that sees every datagram,
// as anyone on a café's Wi-Fi does, and attacks with each: it forwards the
// datagram, then replays it from its own address, replays it from the
// client's own address (the relay's upstream socket, which is what the
// server sees), and forges a Close and a turn with the same conversation id;
// every datagram from the server it replays to the client.
type attacker struct {
	t      *testing.T
	server netip.AddrPort
	down   *net.UDPConn // the bots dial this
	evil   *net.UDPConn // the attacker's own address

	mu    sync.Mutex
	ups   map[netip.AddrPort]*net.UDPConn // per client
	wg    sync.WaitGroup
	toSrv atomic.Int64 // replays and forgeries sent to the server
	toCli atomic.Int64 // replays sent to clients
}

func loopbackSocket(t *testing.T) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp", net.UDPAddrFromAddrPort(netip.MustParseAddrPort("127.0.0.1:0")))
	if err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadBuffer(4 << 20)
	_ = c.SetWriteBuffer(4 << 20)
	return c
}

func newAttacker(t *testing.T, server netip.AddrPort) *attacker {
	a := &attacker{t: t, server: server, down: loopbackSocket(t), evil: loopbackSocket(t), ups: map[netip.AddrPort]*net.UDPConn{}}
	a.wg.Go(a.fromClients)
	t.Cleanup(func() {
		a.down.Close()
		a.evil.Close()
		a.mu.Lock()
		for _, u := range a.ups {
			u.Close()
		}
		a.mu.Unlock()
		a.wg.Wait()
	})
	return a
}

func (a *attacker) addr() netip.AddrPort { return a.down.LocalAddr().(*net.UDPAddr).AddrPort() }

func sealed(p []byte) bool { return len(p) >= 25 && p[0] >= 6 && p[0] <= 9 }

func (a *attacker) fromClients() {
	buf := make([]byte, 2048)
	for {
		n, from, err := a.down.ReadFromUDPAddrPort(buf)
		if err != nil {
			return
		}
		p := buf[:n]
		a.mu.Lock()
		up := a.ups[from]
		if up == nil {
			up = loopbackSocket(a.t)
			a.ups[from] = up
			a.wg.Go(func() { a.fromServer(up, from) })
		}
		a.mu.Unlock()
		_, _ = up.WriteToUDPAddrPort(p, a.server)
		if !sealed(p) {
			continue // the handshake's own defences are tested elsewhere
		}
		conv := binary.LittleEndian.Uint32(p[1:5])
		_, _ = a.evil.WriteToUDPAddrPort(p, a.server) // replayed from elsewhere
		_, _ = up.WriteToUDPAddrPort(p, a.server)     // replayed from the client's address
		for _, f := range [][]byte{forge(8, conv, 1), forge(9, conv, 0x42)} {
			_, _ = up.WriteToUDPAddrPort(f, a.server) // a forged Close and a forged turn
		}
		a.toSrv.Add(4)
	}
}

// forge makes a datagram for conv that looks sealed, with a sequence
// number far ahead and a tag that is not the key's.
func forge(kind byte, conv uint32, payload byte) []byte {
	b := []byte{kind}
	b = binary.LittleEndian.AppendUint32(b, conv)
	b = binary.LittleEndian.AppendUint32(b, 1<<31)
	b = append(b, payload)
	return append(b, make([]byte, 16)...)
}

func (a *attacker) fromServer(up *net.UDPConn, client netip.AddrPort) {
	buf := make([]byte, 2048)
	for {
		n, _, err := up.ReadFromUDPAddrPort(buf)
		if err != nil {
			return
		}
		p := buf[:n]
		_, _ = a.down.WriteToUDPAddrPort(p, client)
		if sealed(p) {
			_, _ = a.down.WriteToUDPAddrPort(p, client) // replayed to the client
			a.toCli.Add(1)
		}
	}
}

// TestGameUnderAttackOnPath: four bots play a game through an attacker
// that replays and forges every datagram with its session's conversation
// id. Nobody loses a slot or is kicked, no forged input or hash is taken
// (every bot ends on the same hash, with no desync), and every replay and
// forgery that reaches the server is counted as one.
func TestGameUnderAttackOnPath(t *testing.T) {
	srv := serve(t, host.LAN()).Transport

	a := newAttacker(t, srv.Addr())
	gctx, gcancel := context.WithTimeout(context.Background(), gameLimit)
	defer gcancel()
	s, err := bots.RunRemote(gctx, bots.RemoteConfig{Addr: a.addr().String(), Bots: 4, Ticks: 300, Seed: 21})
	if err != nil {
		t.Fatalf("bots: %v: %s", err, s)
	}
	if s.HashGroups != 1 || s.Desyncs != 0 || s.InputMismatches != 0 || s.Rejoins != 0 || s.VacanciesSeen != 0 {
		t.Errorf("the game under attack: %s", s)
	}
	attacks := a.toSrv.Load()
	waitFor(t, "every replay and forgery counted", func() bool {
		st := srv.Stats()
		return int64(st.Dropped[transport.DropReplay]+st.Dropped[transport.DropForged]+st.Dropped[transport.DropUnknownSession]) >= attacks
	})
	st := srv.Stats()
	if st.Accepted != 4 || st.Migrated != 0 {
		t.Errorf("server: %d sessions accepted, %d migrations; want 4, 0", st.Accepted, st.Migrated)
	}
	t.Logf("%d replays and forgeries to the server, %d replays to clients; server drops %v", attacks, a.toCli.Load(), st.Dropped)
}
