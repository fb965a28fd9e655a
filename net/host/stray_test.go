package host_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"rockstep/net/client"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/lockstep"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// TestFrozenPlayerKeepsItsPlace: a player's program freezes for longer
// than the room waits for it but not for as long as the transport does,
// so its connection outlives the room's patience. It once played on alone,
// unheard; then the host hung up on it and it came back with its token; now (room/stall.go) the room holds its slot while
// it is frozen, the other plays on, and its first acknowledgement after
// the freeze brings it back into its place on the same connection.
func TestFrozenPlayerKeepsItsPlace(t *testing.T) {
	tc := transport.LAN()
	tc.Timeout = time.Minute // the transport never gives up here: only the room does
	hc := host.LAN()         // the room gives up after its usual 3 s
	hs := hosttest.Start(t, tc, hc)
	h, srv := hs.Host, hs.Transport
	addr := srv.Addr().String()

	dial := func(name string, token [16]byte) *client.Client {
		sc := lockstep.LAN()
		sc.Name, sc.Token = name, token
		sc.PlayerID = [16]byte{name[0]}
		c, err := client.Dial(context.Background(), addr, client.Options{Session: sc, Transport: tc})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	}
	phase := func(c *client.Client) (ph lockstep.Phase) {
		c.Do(func(s *lockstep.Session) { ph = s.Phase() })
		return ph
	}
	a, b := dial("a", [16]byte{}), dial("b", [16]byte{})
	waitFor(t, "both players in the lobby", func() bool { return phase(a) == lockstep.Lobby && phase(b) == lockstep.Lobby })
	a.Do(func(s *lockstep.Session) { s.SetReady(true) })
	b.Do(func(s *lockstep.Session) { s.SetReady(true) })
	waitFor(t, "the game running", func() bool {
		for _, c := range []*client.Client{a, b} {
			c.Do(func(s *lockstep.Session) {
				if s.Phase() == lockstep.Lobby && s.IsHost() && len(s.SetupState().Players) == 2 && s.SetupState().Players[0].Ready && s.SetupState().Players[1].Ready {
					s.RequestStart()
				}
			})
		}
		return phase(a) == lockstep.Playing && phase(b) == lockstep.Playing
	})
	var slot int
	b.Do(func(s *lockstep.Session) { slot = s.Slot() })

	// b's program freezes past the room's patience, then runs on. While it
	// is frozen its slot is held and a plays on; then b is back in its
	// place on the same connection (room/stall.go), never hung up on.
	woke := make(chan struct{})
	go func() {
		b.Do(func(*lockstep.Session) { time.Sleep(hc.Room.SilenceTimeout + 1500*time.Millisecond) })
		close(woke)
	}()
	held := false
	waitFor(t, "b's slot held while it is frozen", func() bool {
		a.Do(func(s *lockstep.Session) { held = held || s.RoomStatus().Vacant&(1<<slot) != 0 })
		select {
		case <-woke:
			return true
		default:
			return held
		}
	})
	if !held {
		t.Fatal("the frozen player's slot was never held: the room waited for it")
	}
	<-woke
	waitFor(t, "b back in its slot, playing, on its connection", func() bool {
		ok := false
		b.Do(func(s *lockstep.Session) {
			ok = s.Phase() == lockstep.Playing && s.Slot() == slot && s.RoomStatus().Vacant == 0 && s.World() != nil && s.World().Ships[slot].Present
		})
		return ok
	})
	select {
	case <-b.Done():
		t.Fatalf("b ended with %v, want it playing on", b.Err())
	default:
	}
	if n := h.Stats().HungUp; n != 0 {
		t.Errorf("%d hang-ups, want none: the frozen player kept its place", n)
	}
	if phase(a) != lockstep.Playing {
		t.Fatalf("a is %v, want still playing", phase(a))
	}
}

// lobbyPinger joins the default room, then says nothing to its room: the
// room drops it from the lobby for its silence. It then answers one of the
// room's pings late, as a program back from a freeze would, and from then
// on only pings the host, as a lobby player with nothing to change does.
type lobbyPinger struct {
	tc       *transport.Client
	mu       sync.Mutex
	start    time.Time
	quiet    time.Duration // how long it says nothing after joining
	answered bool
	lastPing time.Time
}

func (p *lobbyPinger) Message([]byte) {}

func (p *lobbyPinger) Tick(now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if now.Sub(p.start) < p.quiet {
		return
	}
	if !p.answered {
		p.answered = true
		f, _ := wire.Append(nil, wire.Pong{ID: 1})
		_ = p.tc.Send(f)
	}
	if now.Sub(p.lastPing) >= 300*time.Millisecond {
		p.lastPing = now
		f, _ := wire.Append(nil, wire.Ping{ID: 1, Time: now.UnixMicro()})
		_ = p.tc.Send(f)
	}
}

// TestDroppedLobbyPlayerWhoOnlyPingsIsHungUp: a player its room dropped
// from the lobby while its program was frozen, and which then only pings
// the host, is hung up on too, and so learns it lost its place; before, the
// host answered its pings for ever and it waited in a lobby it was not in.
func TestDroppedLobbyPlayerWhoOnlyPingsIsHungUp(t *testing.T) {
	tc := transport.LAN()
	tc.Timeout = time.Minute // only the room gives up on the silent player
	hc := host.LAN()
	hs := hosttest.Start(t, tc, hc)
	h, srv := hs.Host, hs.Transport
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := transport.Dial(ctx, srv.Addr().String(), tc)
	if err != nil {
		t.Fatal(err)
	}
	join, _ := wire.Append(nil, wire.Join{PlayerID: [16]byte{'p'}, Name: "p"})
	if err := c.Send(join); err != nil {
		t.Fatal(err)
	}
	p := &lobbyPinger{tc: c, start: time.Now(), quiet: hc.Room.SilenceTimeout + time.Second}
	ended := make(chan error, 1)
	go func() { ended <- c.Run(ctx, p) }()
	select {
	case err := <-ended:
		var ce *transport.CloseError
		if !errors.As(err, &ce) || ce.Reason != transport.CloseTimeout || !ce.ByPeer {
			t.Fatalf("the connection ended with %v, want the host's hang-up (timeout)", err)
		}
	case <-time.After(stepLimit):
		t.Fatal("the dropped player was never hung up on")
	}
	waitFor(t, "the hang-up counted", func() bool { return h.Stats().HungUp == 1 })
}
