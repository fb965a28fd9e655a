package lockstep

import (
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// What the local player asks of the room during setup. Each request is
// repeated until the room's setup state shows it, so a lost packet only
// delays it.
type lobbyWish struct {
	ready, haveReady bool
	start            bool
	setup            game.Setup
	haveSetup        bool
	last             time.Duration
}

const lobbyRetry = 300 * time.Millisecond

// SetReady says whether the local player is ready to start.
func (s *Session) SetReady(ready bool) {
	s.wish.ready, s.wish.haveReady = ready, true
	if s.phase == Finished && ready {
		s.phase = Lobby // a rematch
	}
	s.send(wire.Ready{Ready: ready})
	s.wish.last = s.now
}

// RequestStart asks the room to start (the host only; everyone must be ready).
func (s *Session) RequestStart() {
	s.wish.start = true
	s.send(wire.StartGame{})
	s.wish.last = s.now
}

// ChangeSetup asks the room to use setup (the host only).
func (s *Session) ChangeSetup(setup game.Setup) {
	setup.Seed, setup.Players = 0, 0
	s.wish.setup, s.wish.haveSetup = setup, true
	s.send(wire.SetupChange{Setup: setup})
	s.wish.last = s.now
}

// Say sends a chat line.
func (s *Session) Say(text string) {
	if len(text) > wire.MaxChat {
		text = text[:wire.MaxChat]
	}
	s.send(wire.Chat{Text: text})
}

// EndGame asks the room to finish the game (the host only): when the world
// is over, or to stop early. The room answers with status finished.
func (s *Session) EndGame() { s.send(wire.EndGame{}) }

// Pause asks the room to pause or resume (the host only).
func (s *Session) Pause(paused bool) { s.send(wire.Pause{Paused: paused}) }

// Leave tells the room the player quits, and stops the session.
func (s *Session) Leave() {
	if s.phase != Left && s.phase != Refused {
		s.send(wire.Leave{Reason: wire.LeaveQuit})
	}
	s.phase = Left
}

// IsHost reports whether the room lists the local player as host.
func (s *Session) IsHost() bool {
	for _, p := range s.setup.Players {
		if int(p.Slot) == s.slot {
			return p.Host
		}
	}
	return false
}

// retryLobby repeats lobby requests the setup state does not yet reflect.
func (s *Session) retryLobby() {
	if s.phase != Lobby || s.now-s.wish.last < lobbyRetry {
		return
	}
	w := &s.wish
	var me *wire.Player
	for i := range s.setup.Players {
		if int(s.setup.Players[i].Slot) == s.slot {
			me = &s.setup.Players[i]
		}
	}
	if me == nil {
		return
	}
	sent := false
	if w.haveReady && me.Ready != w.ready {
		s.send(wire.Ready{Ready: w.ready})
		sent = true
	}
	cur := s.setup.Setup
	cur.Seed, cur.Players = 0, 0
	if w.haveSetup && me.Host && cur != w.setup {
		s.send(wire.SetupChange{Setup: w.setup})
		sent = true
	}
	if w.start && me.Host {
		s.send(wire.StartGame{})
		sent = true
	}
	if sent {
		w.last = s.now
	}
}

// sendSnapshot sends the world at the end of turn in chunks.
func (s *Session) sendSnapshot(turn uint32) {
	s.snapWant = false
	s.sendWorld(s.world, turn)
}

// sendWorld sends w, the world at the end of turn, in chunks.
func (s *Session) sendWorld(w *game.World, turn uint32) {
	data, err := w.MarshalBinary()
	if err != nil {
		return
	}
	h := game.Sum64(data)
	total := (len(data) + wire.MaxChunk - 1) / wire.MaxChunk
	if total > wire.MaxChunks {
		return
	}
	for i := 0; i < total; i++ {
		end := min((i+1)*wire.MaxChunk, len(data))
		s.send(wire.SnapshotChunk{Turn: turn, Hash: h, Total: uint8(total), Index: uint8(i), Data: data[i*wire.MaxChunk : end]})
	}
}

func (s *Session) onChunk(c wire.SnapshotChunk) {
	if s.phase != Starting {
		return
	}
	if data, turn, hash := s.asm.Add(c); data != nil {
		s.restoreData = append(s.restoreData[:0], data...)
		s.restoreTurn, s.restoreHash, s.haveRestore = turn, hash, true
		s.tryRestore()
	}
}

// tryRestore starts the game from the assembled snapshot once the Start
// that goes with it is known.
func (s *Session) tryRestore() {
	if !s.haveRestore || !s.haveSt || s.start.FirstTurn != s.restoreTurn+1 {
		return
	}
	data := s.restoreData
	s.haveRestore = false
	if game.Sum64(data) != s.restoreHash {
		s.stats.MalformedIn++
		return
	}
	w := new(game.World)
	if err := w.UnmarshalBinary(data); err != nil {
		s.stats.MalformedIn++
		return
	}
	s.world = w
	s.begin()
}

// Flush hands every queued frame to send and empties the queue. Frames are
// valid only during the call.
func (s *Session) Flush(send func(frame []byte)) {
	for _, f := range s.out {
		s.stats.PacketsOut++
		s.stats.BytesOut += uint64(len(f))
		send(f)
		s.pool = append(s.pool, f[:0])
	}
	s.out = s.out[:0]
}

func (s *Session) buf() []byte {
	if n := len(s.pool); n > 0 {
		b := s.pool[n-1]
		s.pool = s.pool[:n-1]
		return b
	}
	return make([]byte, 0, 256)
}

func (s *Session) send(m wire.Message) {
	if len(s.out) >= 1024 {
		return
	}
	b, err := wire.Append(s.buf(), m)
	if err != nil {
		return
	}
	s.out = append(s.out, b)
}
