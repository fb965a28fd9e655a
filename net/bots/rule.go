package bots

import (
	"rockstep/net/lockstep"
	"rockstep/net/wire"
)

// playerRule is what every bot does in its session, as a player would, in
// the local harness and against a real server alike: ready in the lobby;
// as the host, start the game once the roster has the players the game
// waits for, all ready, and end it once it has run its ticks.
type playerRule struct {
	readied bool   // SetReady was called in this lobby
	asked   uint32 // the game RequestStart was called for
	ended   uint32 // the game EndGame was called for (as host)
}

// step takes one step of the rule on s: a spectator never readies, the host
// starts once want players are in the roster, all ready, and ends the game
// at ticks. Each wish is made once; the session repeats it until the room
// shows it.
func (r *playerRule) step(s *lockstep.Session, spectator bool, want, ticks int) {
	ph := s.Phase()
	if ph != lockstep.Lobby {
		r.readied = false
	}
	switch {
	case ph == lockstep.Lobby && !spectator && !r.readied:
		r.readied = true
		s.SetReady(true)
	case ph == lockstep.Lobby && s.IsHost() && r.asked != s.SetupState().Game && rosterReady(s.SetupState().Players, want):
		r.asked = s.SetupState().Game
		s.RequestStart()
	case ph == lockstep.Playing && s.IsHost() && s.World() != nil && int(s.World().Tick) >= ticks && r.ended != s.SetupState().Game:
		r.ended = s.SetupState().Game
		s.EndGame()
	}
}

// rosterReady reports whether ps has at least want players, all ready.
func rosterReady(ps []wire.Player, want int) bool {
	if len(ps) < want {
		return false
	}
	for _, p := range ps {
		if !p.Ready {
			return false
		}
	}
	return true
}

// tally adds what each bot's session saw into a Summary: the figures the
// local harness and remote bots report alike.
type tally struct {
	s        *Summary
	up, down uint64 // bytes the players' sessions sent and received
	late     [len(lockstep.LatenessBuckets) + 1]uint64
	// hashes and results hold each room's final (room<<32|turn, hash) and
	// (room, results): bots in different rooms play different games, so
	// they are compared within a room only.
	hashes, results map[[2]uint64]bool
}

func newTally(s *Summary) *tally {
	return &tally{s: s, hashes: map[[2]uint64]bool{}, results: map[[2]uint64]bool{}}
}

// session adds one bot's session statistics; a player's traffic counts
// towards the bytes a second, a spectator's does not.
func (t *tally) session(st lockstep.Stats, desync, player bool) {
	t.s.StallMax = max(t.s.StallMax, st.StallMax)
	if desync {
		t.s.Desyncs++
	}
	for i, n := range st.Lateness {
		t.late[i] += n
	}
	if player {
		t.up += st.BytesOut
		t.down += st.BytesIn
	}
}

// final adds where a bot's game in room ended; the first one names the
// game's hash, turn, results, K and delay in the summary.
func (t *tally) final(room uint32, f Final, st lockstep.Stats) {
	if !f.OK {
		return
	}
	if len(t.hashes) == 0 {
		t.s.Hash, t.s.Turn = f.Hash, f.Turn
		t.s.Played, t.s.Over, t.s.Results = int(f.Tick), f.Over, f.Results
		t.s.K, t.s.Delay = st.K, st.Delay
	}
	t.hashes[[2]uint64{uint64(room)<<32 | uint64(f.Turn), f.Hash}] = true
	t.results[[2]uint64{uint64(room), f.Results}] = true
}

// finish writes the groups and rates: each room seen to its end adds one
// hash and one results table when its bots agree; bytes a second are per
// player over secs seconds.
func (t *tally) finish(secs float64, players int) {
	rooms := map[uint64]bool{}
	for k := range t.results {
		rooms[k[0]] = true
	}
	if len(t.hashes) > 0 {
		t.s.HashGroups = len(t.hashes) - len(rooms) + 1
		t.s.ResultGroups = len(t.results) - len(rooms) + 1
	}
	if secs > 0 && players > 0 {
		t.s.UpBytesPerS = float64(t.up) / secs / float64(players)
		t.s.DownBytesPerS = float64(t.down) / secs / float64(players)
	}
	t.s.LateP99 = lockstep.LatenessQuantile(t.late, 0.99)
}
