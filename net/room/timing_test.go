package room_test

import (
	"testing"
	"time"

	"rockstep/net/room"
	"rockstep/net/wire"
)

// player is a client that plays by the protocol's rules, as
// lockstep.Session does in plain lockstep: it learns of a timing change from
// the master turn announcing it, and on finishing turn c queues its input
// for turn c + the delay in force at c, with the tick count in force at
// that turn, filling a gap with held input. Its turns are resent until the
// room has compiled them.
type player struct {
	conn         room.ConnID
	cur, pending wire.RoomEvent // K, Delay and At of a timing
	hasPending   bool
	next         uint32 // the next own turn to queue
	exec         uint32 // the next master turn to execute
	held         map[uint32]wire.MasterTurn
	queued       []wire.TurnInput
	rtt          uint16
	fps          uint8
	lag          time.Duration // how long a master turn takes to arrive
	inflight     []arriving
}

// arriving is a master turn on its way to a player.
type arriving struct {
	at time.Duration
	mt wire.MasterTurn
}

// receive takes the master turns the room sent the player now, and holds
// those that have arrived by now.
func (p *player) receive(now time.Duration, sent []wire.MasterTurn) {
	for _, mt := range sent {
		if mt.Turn >= p.exec { // resends of turns run already are not kept
			p.inflight = append(p.inflight, arriving{at: now + p.lag, mt: mt})
		}
	}
	kept := p.inflight[:0]
	for _, a := range p.inflight {
		if a.at <= now {
			p.held[a.mt.Turn] = a.mt
		} else {
			kept = append(kept, a)
		}
	}
	p.inflight = kept
}

func (p *player) at(t uint32) wire.RoomEvent {
	if p.hasPending && t >= p.pending.At {
		return p.pending
	}
	return p.cur
}

func (p *player) queueUpTo(target uint32) {
	for ; p.next <= target; p.next++ {
		p.queued = append(p.queued, wire.TurnInput{Turn: p.next, Count: p.at(p.next).K})
	}
}

// execute runs master turn mt: its timing event first, then the input
// for the turn the delay makes it.
func (p *player) execute(mt wire.MasterTurn) {
	for _, e := range mt.Events {
		if e.Kind == wire.EventTiming && e.At > mt.Turn {
			p.pending, p.hasPending = e, true
		}
	}
	p.queueUpTo(mt.Turn + uint32(p.at(mt.Turn).Delay))
	if p.hasPending && mt.Turn+1 >= p.pending.At {
		p.cur, p.hasPending = p.pending, false
	}
}

// packet is what the player sends: its turns the room has not compiled
// yet (of one tick count, as a client packet carries), every master turn
// it has run acknowledged, with its round trip and frame rate.
func (p *player) packet() wire.ClientPacket {
	for len(p.queued) > 0 && p.queued[0].Turn < p.exec {
		p.queued = p.queued[1:] // compiled: the player has run it
	}
	cp := wire.ClientPacket{MasterAck: p.exec, HasStats: true, RTT: p.rtt, FPS: p.fps}
	for _, ti := range p.queued {
		if len(cp.Turns) == wire.MaxBatch || (len(cp.Turns) > 0 && ti.Count != cp.Turns[0].Count) {
			break
		}
		cp.Turns = append(cp.Turns, ti)
	}
	return cp
}

// TestTimingChangeNeverForATurnAlreadySent: the room announces a change of
// K for a turn after every turn the players may already have sent. A delay
// that shrank leaves turns queued beyond the new delay's reach (sent with
// the old, longer delay), and a change decided as the shrink takes effect
// must come after them, or those turns carry the wrong tick count, the room
// refuses them, and the game stops for good (seen in the load test at
// 2,000 connections: K 5→6 with the delay 16→8, then K 8 announced at once).
//
// The master turns take a second to arrive: the room bounds the round trip
// a player reports by the one it measures, and here the reports go down
// and up within it. Turns of at least 5 ticks keep K where the story needs
// it while the delay shrinks.
func TestTimingChangeNeverForATurnAlreadySent(t *testing.T) {
	b := newBench(t, func(c *room.Config) { c.FixedTiming = false; c.K = 5 })
	b.startGame(2)
	var st wire.Start
	for _, m := range b.peer(1).got {
		if s, ok := m.(wire.Start); ok {
			st = s
		}
	}
	ps := []*player{{conn: 1}, {conn: 2}}
	for _, p := range ps {
		p.cur = wire.RoomEvent{K: st.K, Delay: st.Delay, At: st.FirstTurn}
		p.next, p.exec, p.held = st.FirstTurn, st.FirstTurn, map[uint32]wire.MasterTurn{}
		p.queueUpTo(st.FirstTurn + uint32(st.Delay) - 1)
		p.rtt, p.fps = 1000, 60 // a long round trip: K 5, delay 15
		p.lag = time.Second
	}
	shrunk, regrown := false, false
	const turns = 400
	for step := 0; step < 40*turns && b.r.Turn() < turns; step++ {
		k, _ := b.r.Timing()
		for _, p := range ps {
			b.send(p.conn, p.packet())
		}
		b.tick(time.Duration(k) * time.Second / 60)
		for _, p := range ps {
			p.receive(b.now, masters(b.peer(p.conn)))
			mt, ok := p.held[p.exec]
			if !ok {
				continue // waiting for the room
			}
			// One turn a step: the player runs at the game's pace.
			p.execute(mt)
			delete(p.held, p.exec)
			p.exec++
			for _, e := range mt.Events {
				if e.Kind != wire.EventTiming {
					continue
				}
				switch {
				case !shrunk && e.K == 5 && e.Delay < 15:
					// The delay shrinks (the round trip is short now); as
					// it takes effect, the round trip is long again, and
					// the room wants longer turns at once.
					shrunk = true
					for _, q := range ps {
						q.rtt = 1500
					}
				case shrunk && e.K > 5:
					regrown = true
				}
			}
			if !shrunk && mt.Turn > 60 {
				p.rtt = 20 // K stays 5; the delay may shrink
			}
		}
	}
	if got := b.r.Stats().Dropped[room.DropBadCount]; got != 0 {
		t.Errorf("the room refused %d turns for their tick count", got)
	}
	if !shrunk || !regrown {
		t.Errorf("the timing went its own way (shrunk %v, regrown %v): the test tests nothing", shrunk, regrown)
	}
	if b.r.Turn() < turns {
		k, d := b.r.Timing()
		t.Fatalf("the game stopped at turn %d (K %d, delay %d)", b.r.Turn(), k, d)
	}
}

// TestLiarCannotLengthenTurns: one member reporting a huge round trip and
// one tick a second, while its turns come at the game's pace, does not make
// the turns of everyone longer than the room measures they need: the
// same K as a member whose machine draws the same frames and says the
// truth (issue 53: K 2 → 4 for everyone, for as long as the liar stayed).
// The first seconds, while the delay grows to cover its frames, are the
// room's to measure; from then on K is the honest one.
func TestLiarCannotLengthenTurns(t *testing.T) {
	for _, tc := range []struct {
		name  string
		frame int // ticks between the member's frames (its packets)
	}{
		{"frames at every tick", 1},
		{"frames every other tick", 2},
		{"15 frames a second", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := func(liar bool) (k, d int) {
				b := newBench(t, func(c *room.Config) { c.FixedTiming = false; c.K = 2 })
				b.startGame(3)
				var ps []*paced
				for c := room.ConnID(1); c <= 3; c++ {
					ps = append(ps, &paced{player: &player{conn: c, rtt: 4, fps: 60, lag: 2 * time.Millisecond}, frame: 1})
				}
				// An honest member's round trip takes in the wait for its
				// next frame, as a client measures it (own.go).
				ps[2].frame, ps[2].rtt = tc.frame, uint16(4+tc.frame*1000/60)
				if liar {
					ps[2].rtt, ps[2].fps = 60_000, 1
				}
				timingRun(t, b, ps, 10*60) // the room measures
				k, d, _ = timingRun(t, b, ps, 10*60)
				if b.r.Turn() < 300 {
					t.Fatalf("liar %v: the game reached turn %d in 20 s", liar, b.r.Turn())
				}
				return k, d
			}
			hk, hd := run(false)
			lk, ld := run(true)
			if lk > hk {
				t.Errorf("with the liar: K up to %d (delay %d); with an honest member drawing the same frames: K %d (delay %d)", lk, ld, hk, hd)
			}
		})
	}
}
