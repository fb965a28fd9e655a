package bots_test

import (
	"context"
	"encoding/hex"
	"fmt"
	"sync"
	"testing"

	"rockstep/game"
	"rockstep/internal/testwait"
	"rockstep/net/bots"
	"rockstep/net/client"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/lockstep"
	"rockstep/net/room"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// TestCrashedHostRejoinsRealTransport: issue 46's acceptance with bots
// over real sockets on loopback (docs/ARCHITECTURE.md, "One host"). The
// host's machine crashes (its socket falls silent, its player's client is
// abandoned), the first successor's machine takes the game over, and the
// crashed host's player comes back with its token to the successor's
// address under the successor's key, as a restarted game's Rejoin does.
// Then exactly one session has host powers, the successor's, whose
// machine runs the room; every roster names it; and the returned player's
// Pause is refused by that room and counted.
func TestCrashedHostRejoinsRealTransport(t *testing.T) {
	hcfg := host.LAN()
	hcfg.Handover = true
	hcfg.Room.Setup = bots.DefaultBotSetup()
	hs := hosttest.Start(t, transport.LAN(), hcfg)
	pipe := transport.NewPipe()
	hs.Host.Attach(pipe)

	var mu sync.Mutex
	pilots := []*bots.Pilot{bots.NewPilot(460), bots.NewPilot(461), bots.NewPilot(462), bots.NewPilot(460)}
	input := func(i int) func(uint32) game.Input {
		return func(uint32) game.Input { mu.Lock(); defer mu.Unlock(); return pilots[i].Next() }
	}
	sess := func(i int) lockstep.Config {
		sc := lockstep.LAN()
		sc.Name, sc.PlayerID, sc.Predict = fmt.Sprintf("bot%d", i), [16]byte{byte(i + 1)}, true
		return sc
	}
	cs := []*client.Client{client.Attach(pipe, client.Options{Session: sess(0), Input: input(0)})}
	for i := 1; i < 3; i++ {
		dctx, cancel := context.WithTimeout(context.Background(), realPatience)
		c, err := client.Dial(dctx, hs.Transport.Addr().String(), client.Options{Session: sess(i), Input: input(i),
			Standby: true, StandbyAddr: "127.0.0.1:0", HostConfig: host.LAN()})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	defer func() {
		for _, c := range cs[1:] {
			c.Close()
		}
	}()
	wait := func(what string, cond func() bool) {
		t.Helper()
		if !testwait.Until(realPatience, cond) {
			t.Fatalf("waited %v for %s", realPatience, what)
		}
	}
	all := func(f func(s *lockstep.Session) bool) bool {
		for _, c := range cs {
			ok := false
			c.Do(func(s *lockstep.Session) { ok = f(s) })
			if !ok {
				return false
			}
		}
		return true
	}
	wait("everyone in the lobby", func() bool {
		return all(func(s *lockstep.Session) bool { return len(s.SetupState().Players) == 3 })
	})
	for _, c := range cs {
		c.Do(func(s *lockstep.Session) { s.SetReady(true) })
	}
	wait("the host's start", func() bool {
		started := false
		cs[0].Do(func(s *lockstep.Session) {
			s.RequestStart()
			started = s.Phase() == lockstep.Playing
		})
		return started
	})
	wait("a few seconds of game, and every successor known", func() bool {
		return all(func(s *lockstep.Session) bool {
			turn, _ := s.ExecutedTurns()
			return s.Phase() == lockstep.Playing && turn > 120 && len(s.Successors().List) == 2
		})
	})
	var token [16]byte
	cs[0].Do(func(s *lockstep.Session) { token = s.Token() })
	var first struct {
		slot int
		addr string
		fp   string
	}
	cs[1].Do(func(s *lockstep.Session) {
		f := s.Successors().List[0]
		first.slot, first.addr, first.fp = int(f.Slot), f.Addr.String(), hex.EncodeToString(f.Key[:])
	})
	// The host's machine crashes.
	hs.Transport.Abandon()
	cs[0].Abandon()
	cs = cs[1:]
	var succ *client.Client
	wait("the first successor to host the game", func() bool {
		for _, c := range cs {
			if c.Hosting() {
				succ = c
			}
		}
		return succ != nil && all(func(s *lockstep.Session) bool { return s.Phase() == lockstep.Playing && !s.Migrating() })
	})
	// The crashed host's player is back, with its kept token, at the
	// successor's address under its key (ui/rejoin.go's rejoinAt).
	sessCfg := sess(0)
	sessCfg.Token = token
	tc := transport.LAN()
	tc.HostFingerprint = first.fp
	dctx, cancel := context.WithTimeout(context.Background(), realPatience)
	back, err := client.Dial(dctx, first.addr, client.Options{Transport: tc, Session: sessCfg, Input: input(3)})
	cancel()
	if err != nil {
		t.Fatalf("rejoin at the successor %s: %v", first.addr, err)
	}
	cs = append(cs, back)
	wait("the old host's player back in its ship, every roster whole", func() bool {
		return all(func(s *lockstep.Session) bool {
			n := 0
			for _, p := range s.SetupState().Players {
				if p.Connected {
					n++
				}
			}
			return s.Phase() == lockstep.Playing && n == 3 && s.RoomStatus().Vacant == 0
		})
	})
	hosts := 0
	for i, c := range cs {
		c.Do(func(s *lockstep.Session) {
			if s.IsHost() {
				hosts++
				if c != succ {
					t.Errorf("client %d (slot %d) has host powers; the room runs on slot %d's machine", i, s.Slot(), first.slot)
				}
			}
			for _, p := range s.SetupState().Players {
				if p.Host && int(p.Slot) != first.slot {
					t.Errorf("client %d's roster names slot %d host, want %d", i, p.Slot, first.slot)
				}
			}
		})
	}
	if hosts != 1 {
		t.Errorf("%d sessions have host powers, want exactly 1", hosts)
	}
	spoof := func() uint64 {
		st, ok := succ.HostedStats()
		if !ok {
			t.Fatal("the successor runs no room")
		}
		return st.Dropped[room.DropReasonName(room.DropSpoof)]
	}
	before := spoof()
	back.Do(func(s *lockstep.Session) { s.Pause(true) })
	wait("the successor's room to refuse the old host's pause", func() bool { return spoof() > before })
	succ.Do(func(s *lockstep.Session) {
		if st := s.RoomStatus(); st.State != wire.StateRunning || st.Child == wire.ChildPaused {
			t.Errorf("room state %d child %d after the old host's pause, want running, not paused", st.State, st.Child)
		}
	})
}
