package bots_test

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/internal/testwait"
	"rockstep/net/bots"
	"rockstep/net/client"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/lockstep"
	"rockstep/net/replay"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// Host migration over real sockets on loopback, with prediction on: the
// host's player plays on the host's machine (in-process, as the Host
// button does) with three guests. The host's machine crashes (its socket
// falls silent), or the host leaves by choice: the guests carry the game
// on with the first successor and end it on one hash and one results
// table, and the successor's replay verifies from turn 0. And a dedicated
// server stopped with -handover hands its game to its four players. When
// the host and the first successor die together, the second takes over. And
// when only one guest's link to the host fails ("link": the host and the
// others still hear each other), the game does not move: that guest's game
// ends, and the others play on with the host; also when that guest is the
// first successor ("link-first"), which must not take the game alone.
func TestHandoverRealTransport(t *testing.T) {
	for _, mode := range []string{"crash", "crash-successor", "leave", "server", "link", "link-first"} {
		t.Run(mode, func(t *testing.T) { handoverReal(t, mode) })
	}
}

func handoverReal(t *testing.T, mode string) {
	dir := t.TempDir()
	hcfg := host.LAN()
	hcfg.Handover = true
	hcfg.Room.Setup = bots.DefaultBotSetup()
	hs := hosttest.Start(t, transport.LAN(), hcfg)
	srv := hs.Transport
	pipe := transport.NewPipe()
	hs.Host.Attach(pipe)

	type player struct {
		c     *client.Client
		pilot *bots.Pilot
		mu    sync.Mutex
		dir   string // where it records a game it comes to host
	}
	input := func(p *player) func(uint32) game.Input {
		return func(uint32) game.Input {
			p.mu.Lock()
			defer p.mu.Unlock()
			return p.pilot.Next()
		}
	}
	sess := func(i int) lockstep.Config {
		sc := lockstep.LAN()
		sc.Name, sc.PlayerID, sc.Predict = fmt.Sprintf("bot%d", i), [16]byte{byte(i + 1)}, true
		return sc
	}
	players := make([]*player, 4)
	guests := 1 // players[guests:] dial in; players[0] is the host's own, unless a server hosts
	if mode == "server" {
		guests = 0
	} else {
		players[0] = &player{pilot: bots.NewPilot(200)}
		players[0].c = client.Attach(pipe, client.Options{Session: sess(0), Input: input(players[0])})
	}
	cut := strings.HasPrefix(mode, "link")
	links := map[int]*relay{} // each guest's way to the host, in the link modes
	for i := guests; i < 4; i++ {
		p := &player{pilot: bots.NewPilot(uint64(200 + i)), dir: filepath.Join(dir, fmt.Sprint(i))}
		hc := host.LAN()
		hc.Record, hc.RecordDir = true, p.dir
		addr := srv.Addr().String()
		if cut {
			links[i] = newRelay(t, srv.Addr())
			addr = links[i].addr()
		}
		dctx, cancel := context.WithTimeout(context.Background(), realPatience)
		c, err := client.Dial(dctx, addr, client.Options{Session: sess(i), Input: input(p),
			Standby: true, StandbyAddr: "127.0.0.1:0", HostConfig: hc})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		p.c = c
		players[i] = p
	}
	defer func(players []*player) {
		for _, p := range players[guests:] {
			p.c.Close()
		}
	}(players)
	everyone := slices.Clone(players) // for a failure's log, those cut off too
	wait := func(what string, cond func() bool) {
		t.Helper()
		if testwait.Until(realPatience, cond) {
			return
		}
		// What every player saw, for the failure's reader.
		for i, p := range everyone {
			if p == nil {
				continue
			}
			p.c.Do(func(s *lockstep.Session) {
				turn, _ := s.ExecutedTurns()
				t.Logf("player %d: phase %v turn %d slot %d successors %+v, migrating %v, asked %v, stats %+v", i, s.Phase(), turn, s.Slot(), s.Successors().List, s.Migrating(), s.HandoverAsked(), s.Stats())
			})
			n, hs := p.c.Handovers()
			ended := "running"
			select {
			case <-p.c.Done():
				ended = fmt.Sprintf("ended: %v", p.c.Err())
			default:
			}
			t.Logf("player %d: %d handovers, hosted by slot %d, hosting %v, client %s", i, n, hs, p.c.Hosting(), ended)
		}
		t.Fatalf("waited %v for %s", realPatience, what)
	}
	all := func(from int, f func(s *lockstep.Session) bool) bool {
		for _, p := range players[from:] {
			ok := false
			p.c.Do(func(s *lockstep.Session) { ok = f(s) })
			if !ok {
				return false
			}
		}
		return true
	}
	wait("everyone in the lobby", func() bool {
		return all(0, func(s *lockstep.Session) bool { return s.Phase() == lockstep.Lobby && len(s.SetupState().Players) == 4 })
	})
	for _, p := range players {
		p.c.Do(func(s *lockstep.Session) { s.SetReady(true) })
	}
	wait("everyone ready", func() bool {
		return all(0, func(s *lockstep.Session) bool {
			for _, pl := range s.SetupState().Players {
				if !pl.Ready {
					return false
				}
			}
			return len(s.SetupState().Players) == 4
		})
	})
	// The room's host player starts: the lowest slot, which is the first
	// to join, not always the first to dial.
	for _, p := range players {
		p.c.Do(func(s *lockstep.Session) {
			if s.IsHost() {
				s.RequestStart()
			}
		})
	}
	wait("a few seconds of game, and every successor known", func() bool {
		return all(0, func(s *lockstep.Session) bool {
			turn, _ := s.ExecutedTurns()
			n := len(s.Successors().List)
			return s.Phase() == lockstep.Playing && turn > 120 && n == 4-guests
		})
	})
	var before uint32
	var list wire.Successors
	players[1].c.Do(func(s *lockstep.Session) { before, _ = s.ExecutedTurns(); list = s.Successors() })
	t0 := time.Now()
	switch mode {
	case "crash":
		srv.Abandon()
		players[0].c.Abandon()
	case "crash-successor": // the host's machine and the first successor's die together
		first := int(list.List[0].Slot)
		srv.Abandon()
		players[0].c.Abandon()
		for i, p := range players {
			if slotOf(p.c) == first {
				p.c.Abandon()
				players = append(players[:i:i], players[i+1:]...)
				break
			}
		}
	case "leave":
		players[0].c.Close()
		go hs.Stop() // the Host button's window closes: the host hands the game over
	case "server":
		go hs.Stop() // SIGTERM to `rockstep -server -handover`
	case "link", "link-first":
		// Only one guest loses the host: the last successor, or the first.
		target := int(list.List[len(list.List)-1].Slot)
		if mode == "link-first" {
			target = int(list.List[0].Slot)
		}
		k := slices.IndexFunc(players, func(p *player) bool { return slotOf(p.c) == target })
		links[k].silence()
		lost := players[k]
		players = append(players[:k:k], players[k+1:]...)
		wait("the guest cut off to give up", func() bool {
			select {
			case <-lost.c.Done():
				return true
			default:
				return false
			}
		})
		t.Logf("link: the guest cut off gave up %v after its link failed (%v)", time.Since(t0).Round(time.Millisecond), lost.c.Err())
		wait("the others to play on with the host", func() bool {
			return all(0, func(s *lockstep.Session) bool {
				turn, _ := s.ExecutedTurns()
				return s.Phase() == lockstep.Playing && turn > before+120
			})
		})
		for i, p := range append(players, lost) {
			// Nobody hosts but the host, and the game moved nowhere: the
			// guest cut off tried a successor, which did not take it in.
			if n, _ := p.c.Handovers(); n != 0 || p.c.Hosting() {
				t.Errorf("player %d: %d handovers (hosting: %v); one player's lost link must not move the game", i, n, p.c.Hosting())
			}
		}
		for _, p := range players {
			p.c.Do(func(s *lockstep.Session) {
				if s.IsHost() {
					s.EndGame()
				}
			})
		}
		wait("the game's end everywhere", func() bool {
			return all(0, func(s *lockstep.Session) bool { return s.Phase() == lockstep.Finished })
		})
		var hash uint64
		for i, p := range players {
			p.c.Do(func(s *lockstep.Session) {
				if h := s.World().Hash(); i == 0 {
					hash = h
				} else if h != hash {
					t.Errorf("player %d ended on %x, the host's player on %x", i, h, hash)
				}
			})
		}
		hs.Stop()
		return
	}
	// One room: the first live successor's, every other guest in it. (On
	// a loaded machine a successor that could not reach an earlier one in
	// time may host for a moment, then give the game to it: two moves.)
	want := int(list.List[0].Slot)
	if mode == "crash-successor" {
		want = int(list.List[1].Slot)
	}
	wait("every guest in the first live successor's room", func() bool {
		for _, p := range players[guests:] {
			n, slot := p.c.Handovers()
			ok := n >= 1 && slot == want && p.c.Hosting() == (slotOf(p.c) == want)
			p.c.Do(func(s *lockstep.Session) { ok = ok && s.Phase() == lockstep.Playing && !s.Migrating() })
			if !ok {
				return false
			}
		}
		return true
	})
	t.Logf("%s: every guest was in the successor's room %v after the host went", mode, time.Since(t0).Round(time.Millisecond))
	wait("the game to go on with a successor", func() bool {
		return all(guests, func(s *lockstep.Session) bool {
			turn, _ := s.ExecutedTurns()
			return s.Phase() == lockstep.Playing && turn > before+60
		})
	})
	t.Logf("%s: the guests played 60 turns past the handover %v after it", mode, time.Since(t0).Round(time.Millisecond))
	for i, p := range players[guests:] {
		n, slot := p.c.Handovers()
		if n > 1 {
			t.Logf("guest %d moved %d times (it hosted for a moment, then gave way)", i+guests, n)
		}
		if slot != want {
			t.Fatalf("guest %d says slot %d hosts, want %d: two rooms", i+guests, slot, want)
		}
	}
	hosting, hostDir := 0, ""
	for _, p := range players[guests:] {
		if p.c.Hosting() {
			hosting, hostDir = hosting+1, p.dir
		}
	}
	if hosting != 1 {
		t.Fatalf("%d guests host the game, want 1", hosting)
	}
	// The new host ends the game; everyone ends on one hash and table.
	for _, p := range players[guests:] {
		p.c.Do(func(s *lockstep.Session) {
			if s.IsHost() {
				s.EndGame()
			}
		})
	}
	wait("the game's end everywhere", func() bool {
		return all(guests, func(s *lockstep.Session) bool { return s.Phase() == lockstep.Finished })
	})
	var hash, results uint64
	for i, p := range players[guests:] {
		var hh, rr uint64
		p.c.Do(func(s *lockstep.Session) {
			r, _ := s.Results()
			hh, rr = s.World().Hash(), r.Digest()
		})
		if i == 0 {
			hash, results = hh, rr
		} else if hh != hash || rr != results {
			t.Errorf("guest %d ended on %x/%x, the first on %x/%x", i+guests, hh, rr, hash, results)
		}
	}
	// The successor's replay: from turn 0, through the handover, to the end.
	var paths []string
	testwait.Until(realPatience, func() bool { paths, _ = filepath.Glob(filepath.Join(hostDir, "*.rsrp")); return len(paths) == 1 })
	if len(paths) != 1 {
		t.Fatalf("the new host (slot %d) recorded %d replays", want, len(paths))
	}
	var rp *replay.Replay
	var err error
	testwait.Until(realPatience, func() bool { rp, err = replay.ReadFile(paths[0]); return err == nil && rp.EndReason != 0 })
	if err != nil {
		t.Fatal(err)
	}
	res, err := replay.Verify(rp)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() || !res.Ended || rp.Turns[0].Turn != 0 || res.Results.Digest() != results {
		t.Fatalf("the successor's replay: ok=%v ended=%v first=%d results %x, players' %x", res.OK(), res.Ended, rp.Turns[0].Turn, res.Results.Digest(), results)
	}
	hs.Stop()
}

// relay carries one client's datagrams to a server and back, on
// loopback, until silence: then it drops everything both ways, as a
// failed link would.
type relay struct {
	pc     *net.UDPConn
	to     *net.UDPAddr
	quiet  atomic.Bool
	client atomic.Pointer[net.UDPAddr]
}

func newRelay(t *testing.T, server netip.AddrPort) *relay {
	t.Helper()
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	r := &relay{pc: pc, to: net.UDPAddrFromAddrPort(server)}
	up, err := net.DialUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)}, r.to)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{}, 2)
	go func() { // client → server
		defer func() { done <- struct{}{} }()
		buf := make([]byte, 2048)
		for {
			n, from, err := pc.ReadFromUDP(buf)
			if err != nil {
				return
			}
			r.client.Store(from)
			if !r.quiet.Load() {
				_, _ = up.Write(buf[:n])
			}
		}
	}()
	go func() { // server → client
		defer func() { done <- struct{}{} }()
		buf := make([]byte, 2048)
		for {
			n, err := up.Read(buf)
			if err != nil {
				return
			}
			if c := r.client.Load(); c != nil && !r.quiet.Load() {
				_, _ = pc.WriteToUDP(buf[:n], c)
			}
		}
	}()
	t.Cleanup(func() {
		pc.Close()
		up.Close()
		<-done
		<-done
	})
	return r
}

func (r *relay) addr() string { return r.pc.LocalAddr().String() }

// silence makes the link drop everything from now on.
func (r *relay) silence() { r.quiet.Store(true) }

// slotOf returns the slot of c's player.
func slotOf(c *client.Client) (slot int) {
	c.Do(func(s *lockstep.Session) { slot = s.Slot() })
	return slot
}
