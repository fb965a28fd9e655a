// Package room is the host side of Rockstep's lockstep protocol: the Game
// Room of the design (docs/ARCHITECTURE.md §1–3), as a state machine
// without I/O.
//
// A Room takes frames and time in (Receive, Disconnected, Tick) and queues
// frames out (Flush). It owns no socket, no goroutine and no clock: the
// caller's clock is the only clock, which is what lets tests run ten
// thousand ticks of a lossy network in a second. It runs no engine code
// either; it gathers every player's commands into one master packet per
// turn, referees the state hashes the clients report, and relays snapshots
// between clients.
//
// A Room is not safe for concurrent use; its owner serialises calls.
package room

import (
	"io"
	"net/netip"
	"time"

	"rockstep/game"
	"rockstep/internal/ackclock"
	"rockstep/internal/defaults"
	"rockstep/internal/peertext"
	"rockstep/net/wire"
)

// ConnID names one connection, as the transport numbers them. The room
// never trusts a slot or player written in a packet: it acts for the slot of
// the connection a packet came on.
type ConnID uint32

// Config is a room's settings. Durations are of the caller's clock.
type Config struct {
	RoomID         uint32
	Name           string        // shown in lobbies and LAN lists; at most wire.MaxName bytes
	MaxPlayers     int           // 1..game.MaxPlayers
	MaxSpectators  int           // spectators admitted while running
	Setup          game.Setup    // the initial setup (mode, lives, start wave, friendly fire)
	Random         io.Reader     // tokens and seeds; crypto/rand.Reader outside tests
	Seed           uint64        // a fixed seed for every game (0: a random one each game)
	K              int           // ticks per turn (iterations_per_command) at least; the first game's until the round trips are known
	Delay          int           // initial input delay, in turns
	FixedTiming    bool          // never adapt K and Delay
	LagAfter       time.Duration // a turn this late makes the room lagging
	SilenceTimeout time.Duration // a connection silent this long is gone
	VacancyTimeout time.Duration // a vacant slot is held this long for a reconnect
	ResendEvery    time.Duration // the shortest wait before unacknowledged master turns are sent again (longer where acknowledgements take longer: internal/ackclock)
	StatusEvery    time.Duration // setup and status are repeated this often
	AutoStart      int           // start once this many players are all ready (0: only the host starts)
	MaxFramesPerS  int           // frames per second one connection may send before drops
	ChatPerS       float64       // chat lines a second one connection may send, in bursts of ChatBurst; the rest are dropped
	ChatBurst      int
	// AddrOf, if set, returns the IP address a connection comes from (the
	// host's transport knows it): a player's standby port there is where
	// it would host the game (handover.go). In-process connections have
	// none and are never successors.
	AddrOf func(ConnID) netip.Addr
	// Hosts, if set, reports whether a connection is the room's host
	// player's: the in-process player of a room its own machine runs (the
	// Host button), or the connection that created a server's room
	// (wire.CreateRoom). The slot such a connection takes is the host's
	// for as long as its player holds it (hostSlot). Unset, or until such
	// a player is seated, the host is the lowest non-vacant slot (a
	// dedicated server's default room). A resumed room's host is named
	// by its Handover instead: the successor's slot.
	Hosts func(ConnID) bool
	// NewRecorder, if set, is asked for a recorder at the start of every
	// game (a nil recorder records nothing).
	NewRecorder func(setup game.Setup, roomName string) Recorder
	// Rules is the digest of the rules every player must play by
	// (game.RulesDigest; wire.Join.Rules). 0: those of the first to join
	// the room while no one is in it (its host, or a server room's
	// creator); a player whose rules differ is refused (wire.RefuseRules)
	// before any game starts, as its game would desync on the first turn.
	Rules uint64
	// NoRepair turns desync repair off: any difference in the hashes of a
	// turn stops the game (desynced), as before repairs (for tests that
	// want a desync, and to compare).
	NoRepair bool
	// Referee makes the room run the engine on the turns it compiles
	// (referee.go): its own world is the truth for repairs, snapshots,
	// the final world, ties and two-player games. Opt-in (`-server
	// -referee`): about one Step of work per tick per room.
	Referee bool
	// OnRepair, if set, is told of every stray, repair, rewind and player
	// sent away for straying (for the log).
	OnRepair func(RepairNote)
	// Fallback are the community servers the game moves to when none of
	// its players can carry it on (the host's known servers: sent with
	// the successors, wire.Successors.Servers; at most
	// wire.MaxFallbackServers are sent).
	Fallback []wire.FallbackServer
}

// LAN returns the settings for a game on a local network: one tick per
// turn and one turn of input delay (17 ms) where the round trip allows,
// adapted as the network demands.
func LAN() Config {
	return Config{
		Name:           "Rockstep",
		MaxPlayers:     game.MaxPlayers,
		MaxSpectators:  8,
		Setup:          game.DefaultSetup(),
		K:              1,
		Delay:          1,
		LagAfter:       250 * time.Millisecond,
		SilenceTimeout: 3 * time.Second,
		VacancyTimeout: 30 * time.Second,
		ResendEvery:    50 * time.Millisecond,
		StatusEvery:    time.Second,
		MaxFramesPerS:  600,
		ChatPerS:       1,
		ChatBurst:      5,
	}
}

// Sizes of the room's bounded buffers.
const (
	clientRing = 128 // client turns held per slot; must exceed turnWindow
	turnWindow = 64  // how far ahead of the next master turn a client turn may be
	masterRing = 512 // master turns kept for resends and catch-up
	hashRing   = 256 // turns of reported hashes kept for comparison

	// rejoinSlack is how far behind the game a returning player's turns may
	// be for the room to wait for it again.
	rejoinSlack = 4 // turns
)

// Drop reasons, counted in Stats.Dropped.
const (
	DropMalformed  = iota // the frame did not decode
	DropUnexpected        // a message not valid in this state or from this sender
	DropNotMember         // from a connection that has not joined
	DropRate              // over the connection's frame rate
	DropTurnWindow        // a client turn too far ahead
	DropBadCount          // a client turn with the wrong number of ticks
	DropSpoof             // claimed to be someone else, or did the host's job
	DropSnapshot          // a snapshot chunk not asked for or inconsistent
	DropChat              // a chat line over the connection's chat rate (ChatPerS)
	DropReadyRate         // a Ready over the member's rate (ReadyPerS): held, the newest taken later
	DropSetupRate         // a SetupChange over the host's rate (SetupPerS): held, the newest taken later
	DropStartRate         // a start over the room's game rate (GamesPerS): held while everyone stays ready
	DropRules             // a Join from a build whose rules differ from the room's (refused: RefuseRules)
	numDropReasons
)

var dropNames = [numDropReasons]string{"malformed", "unexpected", "not_member", "rate", "turn_window", "bad_count", "spoof", "snapshot", "chat_rate", "ready_rate", "setup_rate", "start_rate", "rules"}

// DropReasonName returns the name of drop reason i, as used in logs and metrics.
func DropReasonName(i int) string {
	if i < 0 || i >= numDropReasons {
		return "unknown"
	}
	return dropNames[i]
}

// NumDropReasons is the number of drop reasons.
const NumDropReasons = numDropReasons

// Stats are the room's counters.
type Stats struct {
	FramesIn, FramesOut uint64
	BytesIn, BytesOut   uint64
	Turns               uint64 // master turns compiled
	LateTurns           uint64 // turns compiled after the room went lagging
	Resends             uint64 // master frames sent again
	Duplicates          uint64 // client turns received again (redundancy, not an error)
	Dropped             [NumDropReasons]uint64
	Repairs             [game.MaxPlayers]uint64 // by slot: worlds that strayed from the majority's and were repaired
	SentAway            uint64                  // players sent away for straying too often, or for lying
	Lies                uint64                  // worlds that did not back their sender's own reports (or were forged to collide)
	Stalls              uint64                  // players silent or unacknowledging whose places were held, kept as members (stall.go)
	Resumes             uint64                  // stalled players that acknowledged again and came back to their places
}

// DesyncInfo describes a detected desync.
type DesyncInfo struct {
	Turn    uint32
	Entries []wire.HashEntry // every reported hash for Turn
}

// Room is one game room.
type Room struct {
	cfg      Config
	state    wire.RoomState
	child    wire.Child
	setup    game.Setup
	revision uint32
	now      time.Duration

	conns    map[ConnID]*member // lookup only; never iterated
	members  []*member          // every connection, in join order
	slots    [game.MaxPlayers]slot
	banned   [][16]byte  // player ids the host kicked: refused for the room's life (at most maxBans)
	rematch  rematchHold // a rematch asked before everyone had the end: rematch.go
	rules    uint64      // the rules' digest players must share (cfg.Rules, or the first joiner's); valid if hasRules
	hasRules bool

	game uint32                  // the game the setup is for: 1, then one more per rematch
	cast [game.MaxPlayers]string // the players' names as the running game started

	// running
	nextTurn     uint32 // the next master turn to compile
	cur          timing
	pending      timing // a change announced for pending.at; valid if hasPending
	hasPending   bool
	horizon      uint32 // the last turn a player may have queued input for: every compiled turn plus its delay
	lastCompile  time.Duration
	lagging      uint8 // slots late for nextTurn, while child is lagging
	pausing      bool  // pause after the next compiled turn
	events       []wire.RoomEvent
	master       [masterRing]wire.MasterTurn
	compiledAt   [masterRing]time.Duration // when each master turn was compiled and first sent
	hashes       [hashRing]hashRecord
	desync       *DesyncInfo
	ending       bool                    // the host ended the game: EventEnd goes in the next compiled turn
	endSeen      bool                    // a player reported its world ended, this game
	endClaims    [game.MaxPlayers]uint32 // the turn each slot of endClaimed last reported its world ended at
	endClaimed   uint8                   // slots that reported an end this game
	end          wire.EndReason          // finished: why
	final        uint32                  // finished: the game's last turn
	lastStatus   time.Duration
	lastHost     int      // the host slot the last roster named
	owner        int      // the host player's slot (Config.Hosts, Handover.Host); -1: none, the lowest non-vacant slot hosts
	ownerID      [16]byte // the player id owner held when it was named: a slot freed and taken by another is not the host's
	statusDirty  bool
	lastSetup    time.Duration
	timingChecks uint32
	lastTiming   time.Duration // when timing was last decided
	shrinkVotes  int           // decisions in a row that called for less delay
	lastPing     time.Duration // when members were last pinged
	slow         uint8         // slots whose machines do not keep up (RoomStatus.Slow)

	// host migration (handover.go)
	standby     [game.MaxPlayers]standby
	lastSucc    wire.Successors
	lastSuccAt  time.Duration
	succCheck   time.Duration // when a Tick last looked for a change in the successors
	listing     [8]byte       // the game's LAN listing id (SetListing)
	handed      bool          // made by Resume: tokens are known by their hashes
	gaveAway    bool          // the lobby or game went to a successor (HandOver, Yield): the roster stays as handed (keepsRoster)
	resumed     bool          // waiting for the expected players (HandoverWait)
	awaitUntil  time.Duration // 0: not yet set
	historyFrom uint32        // the oldest master turn a resuming player can be sent
	resumedAt   uint32        // the first turn this room compiled itself (Resume's h.Next)
	lobbyHeld   lobbyHold     // a lobby carried on by ResumeLobby: the seats held for its players (lobbyhandover.go)

	pace roomPace // games at a person's pace (pace.go)

	// returning: the finished game's players who were away when the room
	// went back to setup, by slot, for a late Rejoin (rematch.go).
	returning [game.MaxPlayers]returningSeat

	snap    snapshotRelay
	fin     finalWorld               // the last game's world at its end, for a late rejoiner (final.go)
	repair  repairState              // desync repair (repair.go)
	digests [digestRing]digestRecord // digests of the turns whose worlds are checked (digest.go)
	ref     referee                  // the room's own engine, with Config.Referee (referee.go)
	rec     Recorder
	// desync snapshots being assembled, one per slot
	desyncAsm  [game.MaxPlayers]wire.Assembly
	desyncDone uint8 // slots whose world is recorded

	out     []outFrame
	arena   []byte
	scratch wire.MasterPacket
	cp      wire.ClientPacket
	stats   Stats
}

type timing struct {
	at       uint32 // first turn of this timing
	k, delay uint8
}

type hashRecord struct {
	turn   uint32
	mask   uint8 // slots that reported
	ended  uint8 // slots that reported their world ended at this turn
	hashes [game.MaxPlayers]uint32
}

// member is one connection: a player in a slot or a spectator.
type member struct {
	conn      ConnID
	slot      int // -1: spectator
	connected bool
	heard     time.Duration // when the last frame arrived

	// A spectator's player id and name, from its Join: what it plays
	// under if it takes a seat in the rematch (takeSeat).
	id   [16]byte
	name string

	started     bool           // has sent a client packet since Start
	rematchWish bool           // its Ready for a rematch waits: rematch.go
	lastStart   time.Duration  // when Start was last sent
	masterAck   uint32         // every master turn below this has arrived at the client
	lastMaster  time.Duration  // when a master frame was last sent
	sentTo      uint32         // master turns below this were sent at least once
	resentTo    uint32         // master turns below this may have been sent more than once
	ackClock    ackclock.Clock // how long its acknowledgements take: when to resend
	waits       waitMeter      // the same waits, for what its reports may ask (measure.go)
	bursts      burstMeter     // how often its client packets come, for the frame rate it may claim
	ticks       tickMeter      // the ticks of the new turns it sends a second, for the tick rate it may claim
	sampleFrom  uint32         // in game sampleGame, turns below this were sent late (caught up from a snapshot): not timed
	sampleGame  uint32
	waitFrom    time.Duration // when its acknowledgements last advanced, or its oldest outstanding turn was sent
	backoff     uint8         // resends in a row with no acknowledgement between them
	stalled     bool          // a player silent or unacknowledging in a running game, its slot held, kept as a member: stall.go
	stalledAt   time.Duration // when it stalled
	spokeAt     time.Duration // its first frame since it stalled (0: none yet)

	inPlace    bool // came back to a resumed game where its own world stood (no snapshot)
	needSnap   bool // waiting for a snapshot before the master stream
	snapTurn   uint32
	lastChunks time.Duration

	rateStart time.Duration
	rateCount int

	chatTokens float64       // chat lines it may send now (see allowChat)
	chatAt     time.Duration // when chatTokens was last brought up to date
	chatted    bool          // chatTokens is in use

	pace memberPace // Ready and SetupChange at a person's pace (pace.go)
}

// slot is a player's place in the game; it outlives connections.
type slot struct {
	life      slotLife // free, seated, in the game (playing, vacant, rejoining), marked for a drop: life.go
	m         *member
	id        [16]byte
	name      string
	token     [16]byte
	hashOnly  bool     // a resumed game's slot not yet reclaimed: only its token's hash is known
	tokenHash [16]byte // TokenHash of the token, kept with it: successors are sent often
	ready     bool
	colour    uint8
	rtt       uint16        // ms: as reported, bounded by what the room measured (trustRTT)
	fps       uint8         // ticks a second, as reported, bounded by what the room measured (trustFPS)
	pinged    uint16        // ms: the round trip the room measured in the lobby
	slowSince time.Duration // when its machine began not to keep up (0: it does)
	in        [clientRing]wire.TurnInput
	have      [clientRing]bool
	ack       uint32 // every client turn below this is held or compiled
}

// New returns a room in the setup state.
func New(cfg Config) *Room {
	def := LAN()
	if cfg.MaxPlayers < 1 || cfg.MaxPlayers > game.MaxPlayers {
		cfg.MaxPlayers = def.MaxPlayers
	}
	if cfg.K < 1 || cfg.K > wire.MaxK {
		cfg.K = def.K
	}
	if cfg.Delay < 1 || cfg.Delay > wire.MaxDelay {
		cfg.Delay = def.Delay
	}
	defaults.Positive(&cfg.LagAfter, def.LagAfter)
	defaults.Positive(&cfg.SilenceTimeout, def.SilenceTimeout)
	defaults.Positive(&cfg.VacancyTimeout, def.VacancyTimeout)
	defaults.Positive(&cfg.ResendEvery, def.ResendEvery)
	defaults.Positive(&cfg.StatusEvery, def.StatusEvery)
	defaults.Positive(&cfg.MaxFramesPerS, def.MaxFramesPerS)
	defaults.Positive(&cfg.ChatPerS, def.ChatPerS)
	defaults.Positive(&cfg.ChatBurst, def.ChatBurst)
	cfg.Name = peertext.Clean(cfg.Name, wire.MaxName) // a room name may come from a client (CreateRoom)
	if probe := cfg.Setup; func() bool { probe.Players = 1; return probe.Validate() != nil }() {
		cfg.Setup = def.Setup // the room fills in the players; the rest must be valid
	}
	r := &Room{
		cfg:   cfg,
		game:  1,
		setup: cfg.Setup,
		conns: map[ConnID]*member{},
		arena: make([]byte, 0, 64<<10),
	}
	r.setup.Players = 0
	r.owner = -1
	r.lastPing = -roomPingEvery // the first Tick pings
	r.events = make([]wire.RoomEvent, 0, wire.MaxEvents)
	for i := range r.master {
		r.master[i].Events = make([]wire.RoomEvent, 0, wire.MaxEvents)
	}
	r.scratch.Turns = make([]wire.MasterTurn, 0, wire.MaxBatch)
	r.cp.Turns = make([]wire.TurnInput, 0, wire.MaxBatch)
	return r
}

// State returns the room's state and, while running, its child state.
func (r *Room) State() (wire.RoomState, wire.Child) { return r.state, r.child }

// Setup returns the current setup. While running, Seed and Players are set.
func (r *Room) Setup() game.Setup { return r.setup }

// Turn returns the next master turn to be compiled.
func (r *Room) Turn() uint32 { return r.nextTurn }

// Timing returns the ticks per turn and input delay (in turns) in force for
// the next master turn.
func (r *Room) Timing() (k, delay int) {
	t := r.timingAt(r.nextTurn)
	return int(t.k), int(t.delay)
}

// Stats returns the room's counters.
func (r *Room) Stats() Stats { return r.stats }

// Desync returns the desync that stopped the game, or nil.
func (r *Room) Desync() *DesyncInfo { return r.desync }

// Ended returns why the last game ended and its last turn (valid when the
// room is finished; reason 0 while a game runs or before the first).
func (r *Room) Ended() (reason wire.EndReason, final uint32) { return r.end, r.final }

// Game returns the number of the room's current or next game: 1 for the
// first, one more for every rematch.
func (r *Room) Game() uint32 { return r.game }

// PlayerCount returns how many slots hold a player (connected or vacant).
func (r *Room) PlayerCount() int {
	n := 0
	for i := range r.slots {
		if r.slots[i].life.taken() {
			n++
		}
	}
	return n
}

// Roster returns the players as the SetupState broadcast lists them.
func (r *Room) Roster() []wire.Player {
	var ps []wire.Player
	for i := range r.slots {
		s := &r.slots[i]
		if !s.life.taken() {
			continue
		}
		ps = append(ps, r.playerEntry(i))
	}
	return ps
}

// HasConn reports whether conn is a member (player or spectator).
func (r *Room) HasConn(conn ConnID) bool { return r.conns[conn] != nil }

// Name returns the room's name.
func (r *Room) Name() string { return r.cfg.Name }

// ID returns the room's id.
func (r *Room) ID() uint32 { return r.cfg.RoomID }

// MaxPlayers returns how many players the room takes.
func (r *Room) MaxPlayers() int { return r.cfg.MaxPlayers }

// Connections returns how many connections the room holds.
func (r *Room) Connections() int { return len(r.members) }

func (r *Room) playerEntry(i int) wire.Player {
	s := &r.slots[i]
	return wire.Player{
		Slot:      uint8(i),
		Ready:     s.ready,
		Host:      i == r.hostSlot(),
		Connected: s.m != nil && s.m.connected,
		Colour:    s.colour,
		Ping:      s.rtt,
		ID:        s.id,
		Name:      s.name,
	}
}

// hostSlot is the host player's slot: the player who changes the setup,
// starts, pauses and ends the game, and kicks (docs/ARCHITECTURE.md, "One
// host"). It is the slot of the player whose machine runs the room, or
// that created it (owner), while that player is there; otherwise, and in
// a dedicated server's default room, the lowest non-vacant slot (not a
// seat a resumed lobby holds for a player not back: in a moved lobby on a
// server the crashed host's seat would make nobody host). So after a host
// migration the successor hosts, and a crashed host that rejoins does
// not: every roster names the room's own machine's player. -1: no player.
func (r *Room) hostSlot() int {
	if o := r.owner; o >= 0 {
		s := &r.slots[o]
		if s.life.taken() && s.id == r.ownerID && !s.life.away() {
			return o
		}
	}
	for i := range r.slots {
		if l := &r.slots[i].life; l.taken() && !l.away() && !r.heldAway(i) {
			return i
		}
	}
	return -1
}

func (r *Room) drop(reason int) { r.stats.Dropped[reason]++ }
