package client

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/host"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// TestEarlierSuccessorWins: the host's machine dies at the moment the
// network splits so that the second successor cannot reach the first.
// Both take the game (the first is first for itself; the second passed
// over the first), and the third joins the first. When the second can
// reach the first again, it gives its game to it: in the end one room
// runs, the first successor's, with all three players in it, and they end
// on one hash.
func TestEarlierSuccessorWins(t *testing.T) {
	if testing.Short() {
		t.Skip("a real-socket game of several seconds; not in -short")
	}
	const patience = time.Minute
	hcfg := host.Defaults()
	hcfg.Handover = true
	hcfg.Room.Setup = game.Setup{Mode: game.Coop, Lives: game.MaxLives, StartWave: 1}
	srv, err := transport.Listen("127.0.0.1:0", transport.LAN())
	if err != nil {
		t.Fatal(err)
	}
	h := host.New(hcfg)
	ctx, stopHost := context.WithCancel(context.Background())
	defer stopHost()
	go func() { _ = h.Serve(ctx, srv) }()
	pipe := transport.NewPipe()
	h.Attach(pipe)

	sess := func(i int) lockstep.Config {
		sc := lockstep.LAN()
		sc.Name, sc.PlayerID, sc.Predict = fmt.Sprintf("p%d", i), [16]byte{byte(i + 1)}, true
		return sc
	}
	input := func(i int) func(uint32) game.Input {
		return func(turn uint32) game.Input {
			if (turn/30+uint32(i))%3 == 0 {
				return game.Left | game.Fire
			}
			return game.Up
		}
	}
	players := []*Client{Attach(pipe, Options{Session: sess(0), Input: input(0)})}
	for i := 1; i < 4; i++ {
		dctx, cancel := context.WithTimeout(context.Background(), patience)
		c, err := Dial(dctx, srv.Addr().String(), Options{Session: sess(i), Input: input(i), Standby: true, StandbyAddr: "127.0.0.1:0"})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		players = append(players, c)
	}
	wait := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(patience)
		for !cond() {
			if time.Now().After(deadline) {
				for i, p := range players {
					p.Do(func(s *lockstep.Session) {
						turn, _ := s.ExecutedTurns()
						n, hs := p.Handovers()
						t.Logf("player %d: phase %v turn %d, %d handovers, hosted by %d, hosting %v, migrating %v", i, s.Phase(), turn, n, hs, p.hosting != nil, s.Migrating())
					})
				}
				t.Fatalf("waited %v for %s", patience, what)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	all := func(ps []*Client, f func(s *lockstep.Session) bool) bool {
		for _, p := range ps {
			ok := false
			p.Do(func(s *lockstep.Session) { ok = f(s) })
			if !ok {
				return false
			}
		}
		return true
	}
	wait("everyone in the lobby", func() bool {
		return all(players, func(s *lockstep.Session) bool { return len(s.SetupState().Players) == 4 })
	})
	for _, p := range players {
		p.Do(func(s *lockstep.Session) { s.SetReady(true) })
	}
	wait("everyone ready", func() bool {
		return all(players, func(s *lockstep.Session) bool {
			for _, pl := range s.SetupState().Players {
				if !pl.Ready {
					return false
				}
			}
			return true
		})
	})
	for _, p := range players { // the host player (the first to join) starts
		p.Do(func(s *lockstep.Session) {
			if s.IsHost() {
				s.RequestStart()
			}
		})
	}
	var list wire.Successors
	wait("the game running and the three guests listed as successors", func() bool {
		return all(players, func(s *lockstep.Session) bool {
			turn, _ := s.ExecutedTurns()
			list = s.Successors()
			return s.Phase() == lockstep.Playing && turn > 60 && len(list.List) == 3
		})
	})
	// The guests in the list's order (slots are given as players join).
	bySlot := map[int]*Client{}
	for _, p := range players {
		p.Do(func(s *lockstep.Session) { bySlot[s.Slot()] = p })
	}
	var guests []*Client
	for _, cand := range list.List {
		guests = append(guests, bySlot[int(cand.Slot)])
	}
	first, second := guests[0], guests[1]
	firstSlot, firstAddr := int(list.List[0].Slot), list.List[0].Addr.String()
	secondSlot := list.List[1].Slot

	// The split: the second successor cannot reach the first; and the
	// host's machine dies.
	var mu sync.Mutex
	split := true
	block := func(c *Client, addr string) bool {
		mu.Lock()
		defer mu.Unlock()
		return split && c == second && addr == firstAddr
	}
	unreachable.Store(&block)
	defer unreachable.Store(nil)
	t0 := time.Now()
	srv.Abandon()
	players[0].Abandon()

	wait("two rooms: the first successor's and the second's", func() bool {
		return first.Hosting() && second.Hosting()
	})
	t.Logf("both successors host the game %v after the host went", time.Since(t0).Round(time.Millisecond))
	mu.Lock()
	split = false // the network heals
	mu.Unlock()
	healed := time.Now()

	wait("one room: the first successor's, with every guest in it", func() bool {
		if second.Hosting() || !first.Hosting() {
			return false
		}
		for _, g := range guests {
			if n, slot := g.Handovers(); n == 0 || slot != firstSlot {
				return false
			}
		}
		return all(guests, func(s *lockstep.Session) bool { return s.Phase() == lockstep.Playing && !s.Migrating() })
	})
	t.Logf("one room, the first successor's, %v after the network healed", time.Since(healed).Round(time.Millisecond))
	var at uint32
	first.Do(func(s *lockstep.Session) { at, _ = s.ExecutedTurns() })
	wait("the three to play on together", func() bool {
		return all(guests, func(s *lockstep.Session) bool {
			turn, _ := s.ExecutedTurns()
			return s.Phase() == lockstep.Playing && turn > at+30 && s.RoomStatus().Vacant&(1<<secondSlot) == 0
		})
	})
	t.Logf("the three play on together %v after the network healed", time.Since(healed).Round(time.Millisecond))
	first.Do(func(s *lockstep.Session) { s.EndGame() })
	wait("the game's end everywhere", func() bool {
		return all(guests, func(s *lockstep.Session) bool { return s.Phase() == lockstep.Finished })
	})
	var hash uint64
	for i, g := range guests {
		g.Do(func(s *lockstep.Session) {
			if hh := s.World().Hash(); i == 0 {
				hash = hh
			} else if hh != hash {
				t.Errorf("successor %d ended on %x, the first on %x", i+1, hh, hash)
			}
			if d := s.Desync(); d != nil {
				t.Errorf("successor %d saw a desync at turn %d", i+1, d.Turn)
			}
		})
	}
	if n, _ := second.Handovers(); n != 2 {
		t.Errorf("the second successor moved %d times, want 2 (it hosted, then went to the first)", n)
	}
}
