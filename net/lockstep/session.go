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
// A Session is not safe for concurrent use.
package lockstep

import (
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// Config is a session's settings.
type Config struct {
	RoomID      uint32
	Name        string
	PlayerID    [16]byte
	Token       [16]byte // to reclaim a slot after a disconnect
	Spectate    bool
	Cookie      [16]byte      // from the transport's handshake, if it has one
	JoinEvery   time.Duration // Join is repeated this often until answered
	PingEvery   time.Duration // round-trip measurement
	ResendEvery time.Duration // unacknowledged client turns are sent again this often
	MaxCatchUp  int           // extra ticks one Update may run to catch up

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
	PredictWindow int // ticks re-simulated at most (default 8)
	// SyncTest, if above zero, re-simulates the last SyncTest confirmed
	// ticks from a snapshot after every tick and compares hashes (a debug
	// mode, `-synctest`); differences are counted in Stats.SyncErrors.
	SyncTest int
	// KeepWorlds is how many recent turns' worlds are kept, so that after
	// a desync the room can be sent the world at the turn that diverged
	// (about 6.6 KB each). 0 means the default (8); -1 keeps none.
	KeepWorlds int
}

// LAN returns the settings for a game on a local network.
func LAN() Config {
	return Config{
		JoinEvery:   250 * time.Millisecond,
		PingEvery:   250 * time.Millisecond,
		ResendEvery: 40 * time.Millisecond,
		MaxCatchUp:  16,
	}
}

// Phase is where a session is.
type Phase uint8

// Phases.
const (
	Joining  Phase = iota // sending Join until the room answers
	Lobby                 // in the room, during setup
	Starting              // waiting for a snapshot before the first turn
	Playing               // the game runs
	Finished              // the game is over or stopped
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
	masterRing = 256 // master turns held ahead of execution
	sentRing   = 64  // own turns held until acknowledged
	maxEvents  = 64  // UI events queued between drains
	maxChat    = 32  // chat lines kept
)

// Stats are a session's measurements.
type Stats struct {
	RTT           time.Duration // latest smoothed round trip
	RTTMax        time.Duration // largest round trip in the last few seconds
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
	MalformedIn   uint64        // frames dropped because they did not decode
	FPS           int           // Update calls per second, as reported
	Drift         time.Duration // how far execution is behind the session's own clock (positive: behind)
	Predicted     int           // ticks the displayed world is ahead of the confirmed one
	Resims        uint64        // predictions rebuilt from a newer confirmed world
	Mispredicted  uint64        // confirmed ticks whose world differed from what had been predicted
	SyncErrors    uint64        // sync-test re-simulations that did not match
	// Lateness counts executed ticks by how late they ran against the
	// session's own schedule, in the buckets of LatenessBuckets.
	Lateness [len(LatenessBuckets) + 1]uint64
}

// LatenessBuckets are the upper bounds of the Lateness histogram's
// buckets; the last bucket counts everything later.
var LatenessBuckets = [...]time.Duration{
	time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond,
	20 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond,
	200 * time.Millisecond, 500 * time.Millisecond, time.Second,
}

// LatenessQuantile returns the upper bound of the bucket holding quantile
// q (0..1) of a lateness histogram, or 0 for an empty one.
func LatenessQuantile(h [len(LatenessBuckets) + 1]uint64, q float64) time.Duration {
	var total uint64
	for _, n := range h {
		total += n
	}
	if total == 0 {
		return 0
	}
	want := uint64(q * float64(total))
	var seen uint64
	for i, n := range h {
		seen += n
		if seen > want || seen == total {
			if i < len(LatenessBuckets) {
				return LatenessBuckets[i]
			}
			return 2 * LatenessBuckets[len(LatenessBuckets)-1]
		}
	}
	return 0
}

// Session is one client's view of a room and its game.
type Session struct {
	cfg   Config
	phase Phase
	now   time.Duration

	slot     int // -1: spectator
	token    [16]byte
	roomID   uint32
	setup    wire.SetupState
	status   wire.RoomStatus
	desync   *wire.DesyncReport
	refusal  wire.Refuse
	leave    wire.Leave
	events   []Event
	chat     []wire.Chat
	lastJoin time.Duration

	// the game
	world    *game.World
	start    wire.Start
	haveSt   bool
	cur      timing
	pending  timing
	hasPend  bool
	execTurn uint32 // the turn being executed
	tickIn   int    // ticks of execTurn already executed
	masters  [masterRing]wire.MasterTurn
	haveM    [masterRing]bool
	mAck     uint32 // every master turn below this is held or executed
	samples  [wire.MaxK]game.Input
	lastIn   game.Input
	nextSend uint32 // the next own turn to send
	sent     [sentRing]wire.TurnInput
	cAck     uint32 // every own turn below this reached the room
	lastSend time.Duration
	hashTurn uint32
	hashLow  uint32
	hasHash  bool
	packets  int
	clock    time.Duration // when tick 0 of execution was due
	ticksRun int64         // ticks executed since clock
	stalled  bool
	stallAt  time.Duration

	snapWant    bool
	snapTurn    uint32
	asm         wire.Assembly
	restoreData []byte // a whole snapshot received, waiting for its Start
	restoreTurn uint32
	restoreHash uint64
	haveRestore bool
	lastPing    time.Duration
	pingID      uint32
	rttSmooth   time.Duration
	rttWin      [8]time.Duration
	rttIdx      int
	frames      int
	frameAt     time.Duration
	fps         int
	fpsSet      bool

	gameEvents []game.Event
	wish       lobbyWish
	recent     []recentWorld

	// prediction (see predict.go)
	lturn     uint32 // the local turn being sampled
	lidx      int    // samples taken in it
	lbuf      [wire.MaxK]game.Input
	sampled   int64                       // local ticks sampled since the clock started
	lastConf  [game.MaxPlayers]game.Input // each slot's input at the last confirmed tick
	pred      game.World
	predOK    bool
	predTicks int
	predHash  tickHashRing // hashes of predicted ticks, to count mispredictions
	syncRing  []syncTick   // the sync test's last ticks
	lastExec  uint32       // confirmed world tick at the last prediction

	out   [][]byte
	pool  [][]byte
	cp    wire.ClientPacket
	mp    wire.MasterPacket
	stats Stats
}

type syncTick struct {
	snap []byte
	in   [game.MaxPlayers]game.Input
	hash uint64
}

type tickHashRing [32]tickHash

type tickHash struct {
	tick uint32
	hash uint64
}

type recentWorld struct {
	turn uint32
	ok   bool
	w    game.World
}

type timing struct {
	at       uint32
	k, delay uint8
}

// New returns a session that will join the room when first updated.
func New(cfg Config) *Session {
	def := LAN()
	if cfg.JoinEvery <= 0 {
		cfg.JoinEvery = def.JoinEvery
	}
	if cfg.PingEvery <= 0 {
		cfg.PingEvery = def.PingEvery
	}
	if cfg.ResendEvery <= 0 {
		cfg.ResendEvery = def.ResendEvery
	}
	if cfg.MaxCatchUp <= 0 {
		cfg.MaxCatchUp = def.MaxCatchUp
	}
	if cfg.PredictWindow <= 0 {
		cfg.PredictWindow = 8
	}
	cfg.PredictWindow = min(cfg.PredictWindow, len(tickHashRing{}))
	switch {
	case cfg.KeepWorlds == 0:
		cfg.KeepWorlds = 8
	case cfg.KeepWorlds < 0:
		cfg.KeepWorlds = 0
	}
	s := &Session{cfg: cfg, slot: -1, token: cfg.Token, lastJoin: -time.Hour, lastPing: -time.Hour}
	s.recent = make([]recentWorld, cfg.KeepWorlds)
	s.cp.Turns = make([]wire.TurnInput, 0, wire.MaxBatch)
	s.mp.Turns = make([]wire.MasterTurn, 0, wire.MaxBatch)
	for i := range s.masters {
		s.masters[i].Events = make([]wire.RoomEvent, 0, wire.MaxEvents)
	}
	return s
}

// Phase returns where the session is.
func (s *Session) Phase() Phase { return s.phase }

// Slot returns the local player's slot, or -1 for a spectator or before
// the room has answered.
func (s *Session) Slot() int { return s.slot }

// Token returns the session token that reclaims the slot after a
// disconnect (zero until welcomed).
func (s *Session) Token() [16]byte { return s.token }

// SetupState returns the latest setup and roster from the room.
func (s *Session) SetupState() wire.SetupState { return s.setup }

// RoomStatus returns the latest room status.
func (s *Session) RoomStatus() wire.RoomStatus { return s.status }

// Desync returns the desync report that stopped the game, or nil.
func (s *Session) Desync() *wire.DesyncReport { return s.desync }

// Refusal returns why the room refused the Join (valid in Refused).
func (s *Session) Refusal() wire.Refuse { return s.refusal }

// LeaveMessage returns why the room sent this session away (valid in Left).
func (s *Session) LeaveMessage() wire.Leave { return s.leave }

// World returns the confirmed world: the state after the last executed
// tick, agreed by every player. It is nil before the game starts. The
// caller must not change it (tests do, to inject a desync).
func (s *Session) World() *game.World { return s.world }

// DisplayWorld returns the world to draw: the predicted world when
// prediction is on, otherwise the confirmed world. The caller must not
// change it or keep it past the session's next call.
func (s *Session) DisplayWorld() *game.World {
	if s.cfg.Predict && s.predOK {
		return &s.pred
	}
	return s.world
}

// ExecutedTurns returns how many turns have been executed: the turn being
// executed and whether it is part way.
func (s *Session) ExecutedTurns() (turn uint32, tickInTurn int) { return s.execTurn, s.tickIn }

// Chat returns the last chat lines, oldest first.
func (s *Session) Chat() []wire.Chat { return s.chat }

// Stats returns the session's measurements.
func (s *Session) Stats() Stats {
	st := s.stats
	st.RTT = s.rttSmooth
	for _, v := range s.rttWin {
		st.RTTMax = max(st.RTTMax, v)
	}
	t := s.timingAt(s.execTurn)
	st.K, st.Delay = int(t.k), int(t.delay)
	st.TurnsBuffered = int(s.mAck - s.execTurn)
	st.FPS = s.fps
	st.Predicted = s.predTicks
	if s.phase == Playing {
		st.Drift = s.now - (s.clock + time.Duration(s.ticksRun)*tickDur)
	}
	return st
}

func (s *Session) timingAt(t uint32) timing {
	if s.hasPend && t >= s.pending.at {
		return s.pending
	}
	return s.cur
}
