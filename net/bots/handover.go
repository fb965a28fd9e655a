package bots

import (
	"net/netip"
	"time"

	"rockstep/net/host"
	"rockstep/net/lockstep"
	"rockstep/net/room"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// Host migration on the simulated network. Bot HostBot plays on the
// host's machine: when that machine dies (KillHost) the room falls silent,
// and once the survivors' transports time out they elect the first live
// successor, which opens a room from its confirmed world (room.Resume);
// the others join it. When the host leaves by choice (HostLeaves) the room
// says so (LeaveHandover) and the move is at once.
//
// A successor's address is made up (10.0.0.x); "reaching" it is the
// simulated network's: a bot that is gone does not answer.

// standbyAddr is bot b's made-up standby address.
func standbyAddr(p transport.PeerID) netip.Addr {
	return netip.AddrFrom4([4]byte{10, 0, byte(p >> 8), byte(p)})
}

// handoverState is a Local game's migration bookkeeping.
type handoverState struct {
	on       bool
	hostBot  int           // the bot on the host's machine
	deadAt   time.Duration // the room died (0: it lives)
	detectAt time.Duration // the survivors' transports see the silence
	// Handovers records each migration: when it happened, the turn the new
	// room resumed at and who hosts it.
	Handovers []Handover
	// Splits counts survivors that elected another successor than the
	// first survivor did (two rooms: must stay 0).
	Splits  int
	roomCfg room.Config
}

// Handover is one migration in a local game.
type Handover struct {
	At       time.Duration // when the survivors moved (the silence detected, or the host's word)
	Turn     uint32        // the new room's first turn
	Host     int           // the bot that hosts it
	Resumed  time.Duration // when every survivor had executed a turn of the new room (0: not yet)
	Snapshot int           // survivors that had to catch up from a snapshot
}

// HostBot returns the bot that plays on the host's machine.
func (l *Local) HostBot() int { return l.hand.hostBot }

// Splits returns how many survivors elected another successor than the
// others (see handoverState.Splits).
func (l *Local) Splits() int { return l.hand.Splits }

// Handovers returns the migrations so far.
func (l *Local) Handovers() []Handover { return l.hand.Handovers }

// enableHandover prepares every bot to carry the game on.
func (l *Local) enableHandover(rc *room.Config) {
	l.hand.on = true
	rc.AddrOf = func(c room.ConnID) netip.Addr { return standbyAddr(peerOf(c)) }
}

// offerStandby makes a playing bot say where it would host: every bot
// "reaches" every other that is not gone.
func (l *Local) offerStandby(b *Bot) {
	if !l.hand.on || b.Gone || b.Index == l.hand.hostBot || b.Session.Phase() != lockstep.Playing {
		return
	}
	var reach uint8
	for _, o := range l.Bots {
		if o != b && !o.Gone && !o.Spectator && o.Session.Slot() >= 0 {
			reach |= 1 << o.Session.Slot()
		}
	}
	b.Session.SetStandby(wire.Standby{Port: 7000 + uint16(b.Index), Key: [16]byte{byte(b.Index + 1)}, Reach: reach})
}

// KillHost ends the host's machine at once: the room and its own player
// (HostBot) fall silent. The survivors notice after the room's silence
// timeout, as their transports would.
func (l *Local) KillHost() {
	l.hand.deadAt = l.now
	l.hand.detectAt = l.now + l.hand.roomCfg.SilenceTimeout
	l.Vanish(l.hand.hostBot)
}

// KillBot cuts bot i off as a crash would: the host's machine if it is
// the host's bot (KillHost), otherwise a player (a successor dying too).
func (l *Local) KillBot(i int) {
	if i == l.hand.hostBot && !l.roomDead() {
		l.KillHost()
		return
	}
	l.Vanish(i)
}

// HostLeaves makes the host quit by choice: the room hands the game over
// (LeaveHandover) and its own player leaves.
func (l *Local) HostLeaves() {
	b := l.Bots[l.hand.hostBot]
	if l.Room.HandOver(l.now, "the host left") {
		l.Room.Flush(func(c room.ConnID, f []byte) { l.sendDown(l.now, peerOf(c), f) })
	}
	b.Gone = true
	l.Net.Disconnect(b.Peer)
	l.hand.deadAt = l.now
	l.hand.detectAt = l.now + l.hand.roomCfg.SilenceTimeout // if the word is lost
}

// roomDead reports whether the room is gone (and not yet replaced).
func (l *Local) roomDead() bool { return l.hand.deadAt != 0 }

// checkHandover moves the game to a successor when the survivors see the
// room's silence, or hear its word.
func (l *Local) checkHandover() {
	if !l.hand.on || !l.roomDead() {
		return
	}
	asked := false
	for _, b := range l.Bots {
		if !b.Gone && b.Session.HandoverAsked() {
			asked = true
		}
	}
	if asked || l.now >= l.hand.detectAt {
		l.migrate()
	}
}

// migrate elects the first successor every survivor can reach, opens its
// room from its world, and moves every survivor there on a fresh link.
func (l *Local) migrate() {
	var list wire.Successors
	for _, b := range l.Bots {
		if !b.Gone && len(b.Session.Successors().List) > len(list.List) {
			list = b.Session.Successors()
		}
	}
	// Every survivor elects on its own, with what it can reach (here:
	// every bot that is not gone); they must all pick the same.
	alive := func(c wire.Successor) bool {
		b := l.botInSlot(int(c.Slot))
		return b != nil && !b.Gone
	}
	var next *Bot
	for _, b := range l.Bots {
		if b.Gone || b.Spectator {
			continue
		}
		i := lockstep.Elect(b.Session.Successors().List, b.Session.Slot(), alive)
		if i < 0 {
			continue
		}
		pick := l.botInSlot(int(b.Session.Successors().List[i].Slot))
		if next == nil {
			next = pick
		} else if pick != next {
			l.hand.Splits++
		}
	}
	if next == nil {
		l.hand.deadAt = 0 // no successor: the game ends as it did before migration existed
		l.hand.on = false
		return
	}
	st, ok := next.Session.State()
	if !ok {
		l.hand.on = false
		return
	}
	var expected uint8
	for _, c := range list.List {
		if b := l.botInSlot(int(c.Slot)); b != nil && !b.Gone {
			expected |= 1 << c.Slot
		}
	}
	l.Room = room.Resume(l.hand.roomCfg, host.HandoverOf(st, expected))
	l.roomTick = l.now
	l.hand.deadAt, l.hand.detectAt = 0, 0
	l.hand.hostBot = next.Index
	ho := Handover{At: l.now, Turn: st.Next, Host: next.Index}
	for _, b := range l.Bots {
		if b.Gone {
			continue
		}
		// A fresh link to the new room: nothing of the old one arrives.
		l.Net.Disconnect(b.Peer)
		delete(l.byPeer, b.Peer)
		b.Peer = l.Net.AddPeer()
		l.byPeer[b.Peer] = b
		b.Session.Migrate()
		b.Session.Flush(func(f []byte) { l.sendUp(l.now, b.Peer, f) })
	}
	l.hand.Handovers = append(l.hand.Handovers, ho)
}

// watchResume notes when every survivor runs turns of the new room.
func (l *Local) watchResume() {
	n := len(l.hand.Handovers)
	if n == 0 || l.hand.Handovers[n-1].Resumed != 0 {
		return
	}
	ho := &l.hand.Handovers[n-1]
	for _, b := range l.Bots {
		if b.Gone || b.Spectator {
			continue
		}
		if turn, _ := b.Session.ExecutedTurns(); b.Session.Phase() != lockstep.Finished && turn <= ho.Turn {
			return
		}
	}
	ho.Resumed = l.now
}

func (l *Local) botInSlot(slot int) *Bot {
	for _, b := range l.Bots {
		if !b.Spectator && b.Session.Slot() == slot {
			return b
		}
	}
	return nil
}
