// Package lockstep is the client side of Rockstep's lockstep protocol, as a
// state machine without I/O: frames and time in, frames and a confirmed
// world out.
//
// A Session joins a room, follows the setup, and once the game starts
// samples the local player's input every tick, sends one client packet per
// turn (empty inputs too: silence means trouble), and executes turn T only
// when it holds the master packet for T, in order, exactly once. It
// tolerates loss, duplication and reordering: every packet carries the
// turns the other side has not acknowledged, and the acknowledgements ride
// on the traffic both ways. It reports the hash of every completed turn
// and can catch up from a snapshot plus the master turns after it.
//
// A game ends at the end of the first turn after which the confirmed world
// is over, or that carries the room's EventEnd: every machine stops there,
// reports it with its hash, and reads the results from the world at that
// turn. Prediction only ever changes what is drawn.
//
// The session is made of parts, each in its own file: the room as the
// session sees it (receive.go), the lobby's requests and the chat
// (lobby.go), the confirmed game and its one tick path (confirmed.go), the
// player's own turns and the client packet (own.go), the schedule, round
// trips and frame rate (clock.go), snapshots (snapshot.go), prediction
// (predict.go) and the sync test (synctest.go).
//
// A Session is not safe for concurrent use.
package lockstep

import (
	"sync"
	"time"

	"rockstep/game"
	"rockstep/internal/defaults"
	"rockstep/net/wire"
)

// Config is a session's settings.
type Config struct {
	RoomID    uint32
	Name      string
	PlayerID  [16]byte
	Token     [16]byte // to reclaim a slot after a disconnect
	Spectate  bool
	Rules     uint64        // the digest of this build's rules sent with Join (0: game.RulesDigest(); a test may change it)
	JoinEvery time.Duration // Join is repeated this often until answered
	PingEvery time.Duration // round-trip measurement
	// PlayPingEvery is the ping's period while a game runs, when every
	// turn's round trip is measured as well (see meter.turnArrived): the
	// pings then only keep the network's round trip for the gate and the
	// report. Never shorter than PingEvery.
	PlayPingEvery time.Duration
	ResendEvery   time.Duration // the shortest wait before unacknowledged client turns are sent again (longer where acknowledgements take longer: internal/ackclock)
	MaxCatchUp    int           // extra ticks one Update may run to catch up

	// OnTurn, if set, sees every master turn as its execution begins (for
	// replays and tests). OnSend sees every own turn as it is queued.
	OnTurn func(*wire.MasterTurn)
	OnSend func(wire.TurnInput)
	// OnTurnEnd, if set, sees the world after every executed turn with its
	// hash (for replays, bots and tests; it must not keep w).
	OnTurnEnd func(turn uint32, hash uint64, w *game.World)
	// Predict turns on prediction: the session samples the local input on
	// its own clock, up to PredictWindow ticks ahead of the confirmed world,
	// and DisplayWorld shows the confirmed world re-simulated with the
	// player's own inputs and a guess for the others' (their last input).
	// The confirmed world, its hashes and what is sent are the same either
	// way.
	Predict       bool
	PredictWindow int // ticks predicted at most (default 8)
	// SyncTest, if above zero, re-simulates the last SyncTest confirmed
	// ticks from a snapshot after every tick and compares hashes (a debug
	// mode, `-synctest`); differences are counted in Stats.SyncErrors.
	SyncTest int
	// KeepWorlds is how many recent turns' worlds are kept, so that after
	// a desync the room can be sent the world at the turn that diverged,
	// and a rewind (repair.go) restores one (about 6.6 KB each). 0 means
	// the default: 16, or none for a session
	// that shares its simulation (Shared), whose world agrees with its
	// sharers' by construction; -1 keeps none.
	KeepWorlds int
	// KeepHistory keeps every master turn executed, so that this player
	// can host the game if the host goes away (its replay goes on from
	// turn 0). About 100 bytes a turn, bounded.
	KeepHistory bool
	// Shared, if set, is shared with the other sessions of this process
	// that play the same game, which then simulate it once (bots in a load
	// test; see SharedSim). Not with SyncTest.
	Shared *SharedSim
	// Fault, if set, is a deliberate fault (`-fault`, for tests and to
	// see desync repair work; repair.go). Not with Shared.
	Fault Fault
	// RoomSecret is the secret of an unlisted room on a server (its
	// invite code's, or RoomCreated's), sent in every Join to RoomID
	// (wire.Join.Secret); 0: none.
	RoomSecret uint64
}

// LAN returns the settings for a game on a local network.
func LAN() Config {
	return Config{
		JoinEvery:     250 * time.Millisecond,
		PingEvery:     250 * time.Millisecond,
		PlayPingEvery: time.Second,
		ResendEvery:   40 * time.Millisecond,
		MaxCatchUp:    16,
	}
}

// Phase is where a session is.
type Phase uint8

// Phases.
const (
	Joining  Phase = iota // sending Join until the room answers
	Lobby                 // in the room, during setup (or waiting for a rematch)
	Starting              // waiting for a snapshot before the first turn
	Playing               // the game runs (or has ended here and waits for the room to confirm it)
	Finished              // the game is over or stopped, confirmed by the room
	Refused               // the room turned the Join away
	Left                  // the session left or was told to go
)

var phaseNames = [...]string{"joining", "lobby", "starting", "playing", "finished", "refused", "left"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "phase?"
}

// Buffer sizes.
const (
	masterRingSize = 256 // master turns held ahead of execution
	sentRing       = 64  // own turns held until acknowledged
	maxEvents      = 64  // UI events queued between drains
	maxChat        = 32  // chat lines kept
	maxGameEvents  = 512 // engine events held between drains
)

// Stats are a session's measurements.
type Stats struct {
	RTT           time.Duration // latest smoothed ping round trip
	RTTMax        time.Duration // largest ping round trip in the last few seconds
	TurnRTT       time.Duration // longest recent turn round trip: own input sent to its master turn held
	K             int           // ticks per turn in force
	Delay         int           // input delay in turns in force
	TurnsBuffered int           // master turns held, not yet executed
	Stall         time.Duration // total time waiting for a master turn
	StallMax      time.Duration // longest single wait
	Ticks         uint32        // ticks executed
	PacketsOut    uint64
	PacketsIn     uint64
	BytesOut      uint64
	BytesIn       uint64
	Resends       uint64        // client frames sent with nothing new in them
	Pings         uint64        // Pings sent (round-trip measurement)
	MalformedIn   uint64        // frames dropped because they did not decode
	TPS           int           // ticks a second the session sustains, as reported to the room (0: not measured yet)
	Drift         time.Duration // how far execution is behind the session's own clock (positive: behind)
	Predicted     int           // ticks the displayed world is ahead of the confirmed one
	Resims        uint64        // displayed worlds rebuilt from the confirmed one (after a misprediction, or when the prediction fell behind)
	Mispredicted  uint64        // confirmed ticks whose inputs differed from those they were predicted with
	SyncErrors    uint64        // sync-test re-simulations that did not match
	Repairs       uint64        // times this player's world strayed from the majority's and was repaired from it
	Rewinds       uint64        // times every player rewound to the last turn all hashes agreed on
	// Lateness counts executed ticks by how late they ran against the
	// session's own schedule, in the buckets of LatenessBuckets.
	Lateness [len(LatenessBuckets) + 1]uint64
}

// Session is one client's view of a room and its game.
type Session struct {
	cfg   Config
	phase Phase
	now   time.Duration

	room   roomView    // what the room has told us
	events []Event     // for the UI, drained by Events
	lobby  lobbyWish   // requests repeated until the setup shows them
	chat   []wire.Chat // the last lines

	game        confirmed    // the game every player agrees on
	own         ownTurns     // the local player's turns
	clock       schedule     // when ticks are due, stalls, lateness
	meter       meter        // round trips and frame rate
	snap        snapshotIO   // snapshots in (catch-up) and out (requests)
	away        awayEnd      // the game that ended while we were away (awayend.go)
	repair      repairIO     // a strayed world repaired (repair.go)
	digest      digestIO     // digests the room asked for (digest.go)
	faulted     bool         // Config.Fault's flip was applied
	pred        predictor    // the displayed world, when predicting
	sync        syncChecker  // the -synctest mode
	hand        handoverView // who hosts next, and the move there
	standby     wire.Standby // where this player would host (SetStandby)
	haveStandby bool

	out   [][]byte // frames queued for Flush
	pool  [][]byte
	cp    wire.ClientPacket
	mp    wire.MasterPacket
	stats Stats
}

// New returns a session that will join the room when first updated.
func New(cfg Config) *Session {
	def := LAN()
	defaults.Positive(&cfg.JoinEvery, def.JoinEvery)
	defaults.Positive(&cfg.PingEvery, def.PingEvery)
	defaults.Positive(&cfg.PlayPingEvery, def.PlayPingEvery)
	defaults.Positive(&cfg.ResendEvery, def.ResendEvery)
	defaults.Positive(&cfg.MaxCatchUp, def.MaxCatchUp)
	defaults.Positive(&cfg.PredictWindow, 8)
	if cfg.Rules == 0 {
		cfg.Rules = rulesDigest()
	}
	cfg.PredictWindow = min(cfg.PredictWindow, len(predictedTicks{})-wire.MaxK)
	switch {
	case cfg.KeepWorlds == 0 && cfg.Shared != nil:
		// A shared world agrees with its sharers by construction, so a
		// desync report would tell nothing, and copying the world into the
		// ring each turn would cost every sharer for nothing; a rejoining
		// player's snapshot is sent at the next turn completed.
	case cfg.KeepWorlds == 0:
		// Enough for a rewind (repair.go) a round trip of 120 ms after the
		// turn that split, at one tick a turn.
		cfg.KeepWorlds = 16
	case cfg.KeepWorlds < 0:
		cfg.KeepWorlds = 0
	}
	s := &Session{cfg: cfg}
	s.room = roomView{slot: -1, token: cfg.Token, lastJoin: -time.Hour}
	s.meter.lastPing = -time.Hour
	s.game.recent = make([]recentWorld, cfg.KeepWorlds)
	s.sync.n = cfg.SyncTest
	s.cp.Turns = make([]wire.TurnInput, 0, wire.MaxBatch)
	s.mp.Turns = make([]wire.MasterTurn, 0, wire.MaxBatch)
	s.game.masters.init()
	return s
}

// Phase returns where the session is.
func (s *Session) Phase() Phase { return s.phase }

// Slot returns the local player's slot, or -1 for a spectator or before
// the room has answered.
func (s *Session) Slot() int { return s.room.slot }

// Token returns the session token that reclaims the slot after a
// disconnect (zero until welcomed).
func (s *Session) Token() [16]byte { return s.room.token }

// SetupState returns the latest setup and roster from the room.
func (s *Session) SetupState() wire.SetupState { return s.room.setup }

// RoomStatus returns the latest room status.
func (s *Session) RoomStatus() wire.RoomStatus { return s.room.status }

// rulesDigest is this build's game.RulesDigest, computed once, by the
// first session (its cost: BENCHMARKS.md).
var rulesDigest = sync.OnceValue(game.RulesDigest)

// SilentAfter is how long a running game may go without a word from the
// room before every screen says so. Master turns come 7.5 to 60 times a
// second (one every K ticks, K ≤ wire.MaxK) while the game flows, so half a
// second without one is news, not jitter.
const SilentAfter = 500 * time.Millisecond

// heardNow notes that the room spoke (a master packet, a status, a start).
func (s *Session) heardNow() { s.room.heardAt, s.room.heard = s.now, true }

// RoomSilence returns how long the room has said nothing (no master
// packet, status or start) while the game should be flowing: playing, not
// ended, neither paused, lagging, desynced nor held for want of a majority
// (Apart) (those have their own words, and the room then repeats its
// status only once a second). It is 0
// otherwise. Read it against SilentAfter; it does not decide when a
// migration starts.
func (s *Session) RoomSilence() time.Duration {
	st := s.room.status
	switch {
	case s.phase != Playing || s.game.ended || !s.room.heard || s.room.desync != nil:
		return 0
	case st.State != wire.StateRunning || (st.Child != wire.ChildIterating && st.Child != wire.ChildVacancy):
		return 0
	}
	if _, apart := s.Apart(); apart {
		return 0 // the room holds the game for want of a majority, and says so once a second
	}
	return max(s.now-s.room.heardAt, 0)
}

// Desync returns the desync report that stopped the game, or nil.
func (s *Session) Desync() *wire.DesyncReport { return s.room.desync }

// Refusal returns why the room refused the Join (valid in Refused).
func (s *Session) Refusal() wire.Refuse { return s.room.refusal }

// LeaveMessage returns why the room sent this session away (valid in Left).
func (s *Session) LeaveMessage() wire.Leave { return s.room.leave }

// World returns the confirmed world: the state after the last executed
// tick, agreed by every player. It is nil before the game starts. The
// caller must not change it (tests do, to inject a desync).
func (s *Session) World() *game.World { return s.game.world }

// DisplayWorld returns the world to draw: the predicted world when
// prediction is on, otherwise the confirmed world. The caller must not
// change it or keep it past the session's next call.
func (s *Session) DisplayWorld() *game.World {
	if s.cfg.Predict && s.pred.ok && !s.game.ended {
		return &s.pred.world
	}
	return s.game.world
}

// ExecutedTurns returns how many turns have been executed: the turn being
// executed and whether it is part way.
func (s *Session) ExecutedTurns() (turn uint32, tickInTurn int) { return s.game.turn, s.game.tickIn }

// Names returns the players' names by slot as the game started (empty for
// slots not in the game).
func (s *Session) Names() [game.MaxPlayers]string { return s.game.names }

// Ended reports whether the game has ended in this session's confirmed
// world, and at which turn: every machine ends at the same turn.
func (s *Session) Ended() (turn uint32, ok bool) { return s.game.endTurn, s.game.ended }

// Results returns the results of the game, read from the confirmed world
// at the turn it ended; ok is false until it has ended here.
func (s *Session) Results() (r game.Results, ok bool) { return s.game.results, s.game.ended }

// Chat returns the last chat lines, oldest first.
func (s *Session) Chat() []wire.Chat { return s.chat }

// Stats returns the session's measurements.
func (s *Session) Stats() Stats {
	st := s.stats
	st.RTT, st.RTTMax, st.TurnRTT = s.meter.smooth, s.meter.pingMax(), s.meter.turnMax()
	t := s.game.timing.at(s.game.turn)
	st.K, st.Delay = int(t.k), int(t.delay)
	st.TurnsBuffered = int(s.game.masters.ack - s.game.turn)
	st.TPS = s.meter.tps
	st.Predicted = s.pred.ticks
	if s.phase == Playing {
		st.Drift = s.clock.drift(s.now)
	}
	return st
}

// Update advances the session to now: it repeats what has not been
// answered, executes every tick that is due and whose master turn is held,
// and queues the client packets that follow. Call it once per frame.
func (s *Session) Update(now time.Duration, input InputSource) {
	s.advance(now)
	defer s.measureTicks()
	switch s.phase {
	case Joining:
		s.sendJoin()
		return
	case Refused, Left:
		return
	}
	if s.hand.migrating {
		s.sendJoin()
	}
	s.ping()
	s.retryLobby()
	if s.phase != Playing || s.room.desync != nil {
		return
	}
	if !s.game.ended {
		if s.cfg.Predict {
			s.runPredicting(input)
		} else {
			s.runLockstep(input)
		}
	}
	if s.now-s.own.lastSend >= s.own.clock.Timeout(s.cfg.ResendEvery) {
		s.sendClientPacket(true)
	}
}

func (s *Session) advance(now time.Duration) {
	if now > s.now {
		s.now = now
	}
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

// maxOut bounds the frames queued between two Flushes.
const maxOut = 1024

func (s *Session) send(m wire.Message) {
	if len(s.out) >= maxOut {
		return
	}
	b, err := wire.Append(s.buf(), m)
	if err != nil {
		return
	}
	s.out = append(s.out, b)
}
