package client

import (
	"context"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
)

// flowRelay stands between one guest and the host on loopback, as that
// guest's NAT does: each of the guest's sockets (a flow) gets its own
// upstream socket, and the first flow (the guest's connection to the
// room) can be cut both ways, as a NAT that lost its mapping or a link
// starved under load: the guest's fresh handshakes (new flows) still
// reach the host. It counts the datagrams each flow carried upstream.
type flowRelay struct {
	pc *net.UDPConn
	to *net.UDPAddr

	mu    sync.Mutex
	up    map[string]*net.UDPConn // by the guest socket's address
	order []string                // the flows, as first seen
	sent  map[string]int          // datagrams forwarded upstream, by flow
	cut   string                  // the flow cut ("": none)
}

// startFlowRelay forwards datagrams to the host at to until the test ends.
func startFlowRelay(t *testing.T, to string) *flowRelay {
	t.Helper()
	dst, err := net.ResolveUDPAddr("udp", to)
	if err != nil {
		t.Fatal(err)
	}
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	r := &flowRelay{pc: pc, to: dst, up: map[string]*net.UDPConn{}, sent: map[string]int{}}
	t.Cleanup(r.close)
	go r.run()
	return r
}

func (r *flowRelay) addr() string { return r.pc.LocalAddr().String() }

// cutFirst cuts the first flow (the guest's connection to the room).
func (r *flowRelay) cutFirst() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.order) > 0 {
		r.cut = r.order[0]
	}
}

// busiestOther returns the most datagrams a flow other than the first
// carried upstream: a new connection that played, not a probe.
func (r *flowRelay) busiestOther() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	most := 0
	for _, f := range r.order[min(1, len(r.order)):] {
		most = max(most, r.sent[f])
	}
	return most
}

func (r *flowRelay) run() {
	buf := make([]byte, 64<<10)
	for {
		n, from, err := r.pc.ReadFromUDP(buf)
		if err != nil {
			return
		}
		if up := r.upstream(from.String()); up != nil {
			_, _ = up.Write(buf[:n])
		}
	}
}

// upstream returns the socket that speaks to the host for the flow from,
// opening it (and its way back) the first time; nil if the flow is cut.
func (r *flowRelay) upstream(from string) *net.UDPConn {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.up == nil || from == r.cut {
		return nil
	}
	r.sent[from]++
	if up := r.up[from]; up != nil {
		return up
	}
	back, err := net.ResolveUDPAddr("udp", from)
	if err != nil {
		return nil
	}
	up, err := net.DialUDP("udp", nil, r.to)
	if err != nil {
		return nil
	}
	r.up[from] = up
	r.order = append(r.order, from)
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := up.Read(buf)
			if err != nil {
				return // closed
			}
			r.mu.Lock()
			cut := r.cut == from
			r.mu.Unlock()
			if !cut {
				_, _ = r.pc.WriteToUDP(buf[:n], back)
			}
		}
	}()
	return up
}

func (r *flowRelay) close() {
	r.pc.Close()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, up := range r.up {
		up.Close()
	}
	r.up = nil
}

// TestOwnLinkLostRejoinsTheHost: in a game of three (the host playing
// in-process, two guests with standby ports), one guest's connection to
// the host is cut both ways for good (its flow through its NAT), longer
// than the transport's silence timeout (3 s), while the host and the
// other guest play on; fresh handshakes from that guest still reach the
// host. Only its own link failed: it dials the same host again by itself
// and rejoins the same room with its token (net/migrate, rejoin.go),
// catching up from the room's snapshot. No move, no second game: every
// player still has the first host, and the three end on one hash. Before,
// the game ended for that guest ("… the host is still there: rejoin the
// game").
func TestOwnLinkLostRejoinsTheHost(t *testing.T) {
	if testing.Short() {
		t.Skip("a real-socket game of several seconds; not in -short")
	}
	hcfg := host.LAN()
	hcfg.Handover = true
	hcfg.Room.Setup = game.Setup{Mode: game.Coop, Lives: game.MaxLives, StartWave: 1}
	hs := hosttest.Start(t, transport.LAN(), hcfg)
	pipe := transport.NewPipe()
	hs.Host.Attach(pipe)
	r := startFlowRelay(t, hs.Addr())
	sess := func(i int) lockstep.Config {
		sc := lockstep.LAN()
		sc.Name, sc.PlayerID, sc.Predict = fmt.Sprintf("p%d", i), [16]byte{byte(i + 1)}, true
		return sc
	}
	m := &migrationGame{t: t, srv: hs.Transport}
	m.players = []*Client{Attach(pipe, Options{Session: sess(0)})}
	for i, addr := range []string{hs.Addr(), r.addr()} { // the second guest behind the relay
		dctx, cancel := context.WithTimeout(context.Background(), migrationPatience)
		c, err := Dial(dctx, addr, Options{Session: sess(i + 1), Standby: true, StandbyAddr: "127.0.0.1:0"})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		m.players = append(m.players, c)
	}
	host, other, guest := m.players[0], m.players[1], m.players[2]
	startThree(m)
	var slot int
	guest.Do(func(s *lockstep.Session) { slot = s.Slot() })

	r.cutFirst()
	t0 := time.Now()
	m.wait("the guest back in the game over a new connection, the host waiting for nobody", func() bool {
		select {
		case <-guest.Done():
			t.Fatalf("the guest's game ended: %v", guest.Err())
		default:
		}
		back := false
		guest.Do(func(s *lockstep.Session) { back = s.Phase() == lockstep.Playing && !s.Migrating() })
		waits := false
		host.Do(func(s *lockstep.Session) { waits = s.RoomStatus().Vacant != 0 })
		return back && !waits && r.busiestOther() > 100
	})
	t.Logf("the guest is back in the game %v after its link was cut", time.Since(t0).Round(time.Millisecond))
	m.guests = []*Client{other, guest}
	m.playOnTogether("the three to play on together", host, 30)

	for i, p := range m.players {
		if n, hostSlot := p.Handovers(); n != 0 || p.Hosting() {
			t.Errorf("player %d: %d moves (to slot %d), hosting %v: want no move", i, n, hostSlot, p.Hosting())
		}
	}
	if a := guest.HostAddr(); a != r.addr() {
		t.Errorf("the guest plays with %q, want the host it lost (%s)", a, r.addr())
	}
	guest.Do(func(s *lockstep.Session) {
		if s.Slot() != slot {
			t.Errorf("the guest is back in slot %d, was %d", s.Slot(), slot)
		}
	})
	m.endOnOneHash(m.players)
}

// startThree readies the players of m (all in the lobby), starts the game
// at the host player (players[0]) and waits until it runs with the two
// guests listed as successors.
func startThree(m *migrationGame) {
	m.t.Helper()
	m.wait("everyone in the lobby", func() bool {
		return all(m.players, func(s *lockstep.Session) bool { return len(s.SetupState().Players) == 3 })
	})
	for _, p := range m.players {
		p.Do(func(s *lockstep.Session) { s.SetReady(true) })
	}
	m.wait("everyone ready", func() bool {
		return all(m.players, func(s *lockstep.Session) bool {
			for _, pl := range s.SetupState().Players {
				if !pl.Ready {
					return false
				}
			}
			return true
		})
	})
	m.players[0].Do(func(s *lockstep.Session) { s.RequestStart() })
	m.wait("the game running and the two guests listed as successors", func() bool {
		return all(m.players, func(s *lockstep.Session) bool {
			turn, _ := s.ExecutedTurns()
			m.list = s.Successors()
			return s.Phase() == lockstep.Playing && turn > 60 && len(m.list.List) == 2
		})
	})
}
