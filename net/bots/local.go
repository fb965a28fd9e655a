package bots

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"rockstep/game"
	"rockstep/net/lockstep"
	"rockstep/net/replay"
	"rockstep/net/room"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// Config is a local bot game: an in-process room and bot players over
// simulated links.
//
// The game runs to its confirmed end: a game over, or the host bot ending
// it once its confirmed world has run Ticks ticks. Every bot stops at the
// same turn and reads the same results.
type Config struct {
	Bots  int                  // players, 1..game.MaxPlayers
	Ticks int                  // the host ends the game once it has run this many ticks (if it is not over before)
	Seed  uint64               // seeds the network, the pilots and the room
	Net   transport.Impairment // applied to every link, both directions
	Fast  bool                 // run on a virtual clock as fast as the machine allows
	FPS   int                  // frames per second of each bot (default 60)
	Room  room.Config          // zero: room.LAN()
	Limit time.Duration        // give up after this much game time (default: generous)
	// Record, if set, is where the room records the game as a replay; a
	// rematch goes beside it, numbered (r.rsrp, r-2.rsrp, …).
	Record string
	// Predict turns on prediction in every bot's session.
	Predict bool
	// SyncTest, if above zero, makes every session sync-test its confirmed
	// ticks with this many ticks of rollback (the -synctest debug mode).
	SyncTest int
	// Share makes the bots simulate the game once between them (see
	// lockstep.SharedSim): their hashes then agree by construction, so a
	// shared run measures the network, not sync.
	Share bool
	// Setup is the game's setup (zero: DefaultBotSetup, a long co-op game).
	Setup game.Setup
	// Handover makes every bot ready to host the game if the room goes
	// away (host migration: KillHost, HostLeaves).
	Handover bool
	// Manual leaves readying, starting and ending games to the caller
	// (lifecycle tests); otherwise bots ready themselves, the host starts
	// once everyone is ready and ends the game at Ticks.
	Manual bool
	// NoRepair turns the room's desync repair off (room.Config.NoRepair):
	// a difference in the hashes stops the game, as before repairs.
	NoRepair bool
	// Fault, if set, is a deliberate fault in bot FaultBot's session
	// (`-fault`): its world strays, or it reports wrong hashes.
	Fault    lockstep.Fault
	FaultBot int
	// FaultBots, if set, are more bots with the same fault (several
	// liars that agree with one another).
	FaultBots []int
}

// DefaultBotSetup is the setup of bot games unless told otherwise: co-op
// with every life there is, so that a load test plays its full length.
func DefaultBotSetup() game.Setup {
	return game.Setup{Mode: game.Coop, Lives: game.MaxLives, StartWave: 1, Saucers: true, Hyperspace: true}
}

// Local is a running local bot game. Tests drive it step by step; Run plays
// it to the end.
type Local struct {
	cfg    Config
	now    time.Duration
	wall   time.Time
	Room   *room.Room
	Net    *transport.Network
	Bots   []*Bot // players by slot order of joining, then spectators
	byPeer map[transport.PeerID]*Bot
	shared *lockstep.SharedSim // nil unless cfg.Share

	roomTick  time.Duration
	sampleAt  time.Duration
	startedAt time.Duration // when the first bot began playing (-1: not yet)
	endedAt   time.Duration // when the last bot's game ended (-1: not yet)
	rtts      []time.Duration
	rec       *replay.Writer // the game being recorded
	recs      []*replay.Writer
	recErr    error
	games     int
	flushAt   time.Duration
	hand      handoverState
	repairMax time.Duration // the longest repair (Summary.RepairMax)
}

// Bot is one simulated player or spectator.
type Bot struct {
	Index     int
	Session   *lockstep.Session
	Peer      transport.PeerID
	Spectator bool
	FPS       int
	Gone      bool // vanished: no more frames
	Missed    bool // came back after its game had ended: nothing to wait for

	pilot     *Pilot
	rule      playerRule
	back      bool    // joined with the token of a bot that vanished
	game      oneGame // its game, followed across its connections
	nextFrame time.Duration
	local     *Local
	sent      map[uint32]wire.TurnInput

	// Verification.
	Mismatches int    // own turns whose master inputs differ from what was sent
	FirstTurn  uint32 // the first master turn executed (above 0 after a snapshot)
	turns      int
	Digest     uint64 // rolling digest of every master turn executed
	Final      Final  // where the bot's game ended

	// CorruptAfterTurn, if set (non-zero), changes the bot's world after
	// that turn: a deliberate desync for tests.
	CorruptAfterTurn uint32
	corrupted        bool
	// Input, if set, replaces the pilot (tests that script a player).
	Input func(tick uint32) game.Input
	// Frames counts the bot's updates (its drawn frames).
	Frames int
	// TickCost, if set, is how long each tick the bot runs keeps its
	// machine busy: a machine that cannot run 60 ticks a second (its next
	// update comes no sooner).
	TickCost time.Duration
}

// Final is where a bot's game stood when it ended.
type Final struct {
	OK      bool
	Turn    uint32 // the game's last turn
	Tick    uint32
	Hash    uint64 // the confirmed world's hash at the end of Turn
	Digest  uint64 // of the master turns executed
	Results uint64 // digest of the results table (game.Results.Digest)
	Over    bool   // a game over (not ended early)
}

// finalOf returns where s's game ended, if it has.
func finalOf(s *lockstep.Session, digest uint64) (Final, bool) {
	turn, ok := s.Ended()
	if !ok || s.World() == nil {
		return Final{}, false
	}
	r, _ := s.Results()
	return Final{OK: true, Turn: turn, Tick: s.World().Tick, Hash: s.World().Hash(), Digest: digest, Results: r.Digest(), Over: r.Over}, true
}

// NewLocal sets up a local game; nothing runs until Step or Run.
func NewLocal(cfg Config) (*Local, error) {
	if cfg.Bots < 1 || cfg.Bots > game.MaxPlayers {
		return nil, fmt.Errorf("bots: %d players, want 1..%d", cfg.Bots, game.MaxPlayers)
	}
	if cfg.Ticks < 1 {
		return nil, errors.New("bots: ticks must be positive")
	}
	if cfg.FPS <= 0 {
		cfg.FPS = game.TicksPerSecond
	}
	if cfg.Room.MaxPlayers == 0 {
		cfg.Room = room.LAN()
	}
	if cfg.Setup.Lives == 0 {
		cfg.Setup = DefaultBotSetup()
	}
	cfg.Room.Setup = cfg.Setup
	if cfg.Limit <= 0 {
		cfg.Limit = time.Duration(cfg.Ticks)*time.Second/game.TicksPerSecond*4 + 2*time.Minute
	}
	rc := cfg.Room
	rc.Random = rand.NewChaCha8(seedBytes(cfg.Seed))
	rc.NoRepair = rc.NoRepair || cfg.NoRepair
	var l *Local
	onRepair := rc.OnRepair
	rc.OnRepair = func(n room.RepairNote) {
		if n.Kind == room.RepairDone {
			l.repairMax = max(l.repairMax, n.Took)
		}
		if onRepair != nil {
			onRepair(n)
		}
	}
	var rec *replay.Writer
	if cfg.Record != "" {
		w, err := replay.Create(cfg.Record, 0)
		if err != nil {
			return nil, fmt.Errorf("bots: record: %w", err)
		}
		rec = w
	}
	l = &Local{
		startedAt: -1,
		endedAt:   -1,
		rec:       rec,
		cfg:       cfg,
		wall:      time.Now(),
		Net:       transport.NewNetwork(cfg.Net, cfg.Seed),
		byPeer:    map[transport.PeerID]*Bot{},
	}
	if rec != nil {
		rc = l.recording(rc, rec)
	}
	if cfg.Handover {
		l.enableHandover(&rc)
	}
	if rc.SilenceTimeout <= 0 {
		rc.SilenceTimeout = room.LAN().SilenceTimeout
	}
	l.hand.roomCfg = rc
	if cfg.Share {
		l.shared = lockstep.NewSharedSim()
	}
	l.Room = room.New(rc)
	for i := 0; i < cfg.Bots; i++ {
		sc := lockstep.Config{Name: "bot" + strconv.Itoa(i), PlayerID: [16]byte{byte(i + 1)}}
		if i == cfg.FaultBot || slices.Contains(cfg.FaultBots, i) {
			sc.Fault = cfg.Fault
		}
		l.addBot(sc, NewPilot(cfg.Seed*1000+uint64(i)))
	}
	return l, nil
}

func seedBytes(s uint64) [32]byte {
	var b [32]byte
	for i := 0; i < 8; i++ {
		b[i] = byte(s >> (8 * i))
	}
	copy(b[8:], "rockstep bots")
	return b
}

func (l *Local) addBot(sc lockstep.Config, pilot *Pilot) *Bot {
	b := &Bot{Index: len(l.Bots), Spectator: sc.Spectate, FPS: l.cfg.FPS, pilot: pilot, local: l, sent: map[uint32]wire.TurnInput{}}
	b.Peer = l.Net.AddPeer()
	sc.OnSend = b.onSend
	sc.OnTurn = b.onTurn
	sc.OnTurnEnd = b.onTurnEnd
	sc.Predict = l.cfg.Predict
	sc.SyncTest = l.cfg.SyncTest
	sc.Shared = l.shared
	if sc.Fault != (lockstep.Fault{}) {
		sc.Shared = nil // a faulty world is its own
	}
	sc.KeepHistory = l.cfg.Handover
	b.Session = lockstep.New(sc)
	b.nextFrame = l.now
	l.Bots = append(l.Bots, b)
	l.byPeer[b.Peer] = b
	return b
}

func (b *Bot) onSend(t wire.TurnInput) {
	if len(b.sent) < 1<<17 {
		b.sent[t.Turn] = t
	}
}

func (b *Bot) onTurn(mt *wire.MasterTurn) {
	if b.turns == 0 {
		b.FirstTurn = mt.Turn
	}
	b.turns++
	h := b.Digest ^ uint64(mt.Turn)<<32 ^ uint64(mt.Count)<<8 ^ uint64(mt.Players)
	for i := 0; i < game.MaxPlayers; i++ {
		for k := 0; k < int(mt.Count); k++ {
			h = (h ^ uint64(mt.Inputs[i][k])) * 0x100000001b3
		}
	}
	for _, e := range mt.Events {
		h = (h ^ uint64(e.Kind)<<8 ^ uint64(e.Slot) ^ uint64(e.At)<<16) * 0x100000001b3
	}
	b.Digest = h
	slot := b.Session.Slot()
	if slot < 0 {
		return
	}
	if t, ok := b.sent[mt.Turn]; ok {
		delete(b.sent, mt.Turn)
		if t.Count != mt.Count || t.Inputs != mt.Inputs[slot] {
			b.Mismatches++
		}
	}
}

func (b *Bot) onTurnEnd(turn uint32, hash uint64, w *game.World) {
	if b.CorruptAfterTurn != 0 && turn == b.CorruptAfterTurn && !b.corrupted {
		w.Ships[0].Score += 1 // the deliberate desync
		b.corrupted = true    // once: a repair executes the turn again
	}
}

func (b *Bot) input(tick uint32) game.Input {
	if b.Input != nil {
		return b.Input(tick)
	}
	return b.pilot.Next()
}

// sendUp and sendDown put a frame on the simulated network the way the
// real transport would carry it: turns and pings as datagrams, everything
// else on the reliable stream.
func (l *Local) sendUp(now time.Duration, p transport.PeerID, f []byte) {
	if wire.Unreliable(f) {
		l.Net.SendUp(now, p, f)
		return
	}
	l.Net.SendUpReliable(now, p, f)
}

func (l *Local) sendDown(now time.Duration, p transport.PeerID, f []byte) {
	if wire.Unreliable(f) {
		l.Net.SendDown(now, p, f)
		return
	}
	l.Net.SendDownReliable(now, p, f)
}

// connOf maps a simulated peer to the room's connection id.
func connOf(p transport.PeerID) room.ConnID { return room.ConnID(p) + 1 }

func peerOf(c room.ConnID) transport.PeerID { return transport.PeerID(c - 1) }

// Now returns the game's clock.
func (l *Local) Now() time.Duration { return l.now }

// Step advances to the next moment anything happens and handles it.
func (l *Local) Step() {
	next := l.roomTick
	if d, ok := l.Net.NextDue(); ok && d < next {
		next = d
	}
	for _, b := range l.Bots {
		if !b.Gone && b.nextFrame < next {
			next = b.nextFrame
		}
	}
	if next < l.now {
		next = l.now
	}
	if !l.cfg.Fast {
		if wait := time.Until(l.wall.Add(next)); wait > 0 {
			time.Sleep(wait)
		}
	}
	l.now = next
	now := next
	if l.roomDead() {
		l.Net.DeliverUp(now, nil) // nobody is there
		if now >= l.roomTick {
			l.roomTick = now + 4*time.Millisecond
		}
	} else {
		l.Net.DeliverUp(now, func(p transport.PeerID, pkt []byte) { l.Room.Receive(now, connOf(p), pkt) })
		if now >= l.roomTick {
			l.Room.Tick(now)
			l.roomTick = now + 4*time.Millisecond
		}
		l.Room.Flush(func(c room.ConnID, f []byte) { l.sendDown(now, peerOf(c), f) })
	}
	l.Net.DeliverDown(now, func(p transport.PeerID, pkt []byte) {
		if b := l.byPeer[p]; b != nil && !b.Gone {
			b.Session.Receive(now, pkt)
		}
	})
	for _, b := range l.Bots {
		if b.Gone || now < b.nextFrame {
			continue
		}
		ran := b.Session.Stats().Ticks
		b.Session.Update(now, b.input)
		b.Frames++
		b.Session.Flush(func(f []byte) { l.sendUp(now, b.Peer, f) })
		b.nextFrame += time.Second / time.Duration(b.FPS)
		if b.nextFrame <= now {
			b.nextFrame = now + time.Second/time.Duration(b.FPS)
		}
		if b.TickCost > 0 {
			b.nextFrame = max(b.nextFrame, now+time.Duration(b.Session.Stats().Ticks-ran)*b.TickCost)
		}
		if l.startedAt < 0 && b.Session.Phase() == lockstep.Playing {
			l.startedAt = now
		}
		if !b.Final.OK {
			if f, ok := finalOf(b.Session, b.Digest); ok {
				b.Final = f
				l.endedAt = now
			} else if !b.Spectator && !b.Missed {
				b.Missed = b.game.missed(b.Session, b.back)
			}
		}
		if !l.cfg.Manual && !b.Missed {
			l.drive(b)
		}
		l.offerStandby(b)
	}
	l.checkHandover()
	l.watchResume()
	if l.rec != nil && now >= l.flushAt {
		l.flushAt = now + time.Second
		for _, w := range l.recs {
			_ = w.Flush()
		}
	}
	if now >= l.sampleAt {
		l.sampleAt = now + 500*time.Millisecond
		for _, b := range l.Bots {
			if rtt := b.Session.Stats().RTT; !b.Gone && rtt > 0 && b.Session.Phase() == lockstep.Playing {
				l.rtts = append(l.rtts, rtt)
			}
		}
	}
}

// drive does what a player would (playerRule), every bot of the harness
// being in the game.
func (l *Local) drive(b *Bot) {
	b.rule.step(b.Session, b.Spectator, l.cfg.Bots, l.cfg.Ticks)
}

// RunUntil steps until done returns true or the game clock passes limit
// (an error naming where every bot stands).
func (l *Local) RunUntil(done func() bool, limit time.Duration) error {
	for steps := 0; !done(); steps++ {
		if l.now > limit || steps > 100_000_000 {
			return fmt.Errorf("bots: not done after %v of game time: %s", l.now, l.where())
		}
		l.Step()
	}
	return nil
}

func (l *Local) where() string {
	var parts []string
	for _, b := range l.Bots {
		turn, _ := b.Session.ExecutedTurns()
		st := b.Session.Stats()
		parts = append(parts, fmt.Sprintf("bot%d(%s turn=%d buffered=%d gone=%v)", b.Index, b.Session.Phase(), turn, st.TurnsBuffered, b.Gone))
	}
	state, child := l.Room.State()
	return fmt.Sprintf("room state=%d child=%d turn=%d; %s", state, child, l.Room.Turn(), strings.Join(parts, " "))
}

// Finished reports whether every bot still in the game has seen it end,
// confirmed by the room, or the game stopped on a desync.
func (l *Local) Finished() bool {
	if l.Room.Desync() != nil {
		return true
	}
	for _, b := range l.Bots {
		if b.Session.Phase() == lockstep.Left {
			continue // sent away (for straying): its game is over
		}
		if !b.Gone && !b.Missed && (!b.Final.OK || b.Session.Phase() != lockstep.Finished) {
			return false
		}
	}
	return true
}

// Run plays the game to the target tick and returns the summary. When
// recording, the replay ends at the bots' final turn (or, after a desync,
// once the players' snapshots for the report are in) and is closed.
func (l *Local) Run() (Summary, error) {
	sched := startSchedWatch()
	err := l.RunUntil(l.Finished, l.cfg.Limit)
	if l.rec != nil && err == nil {
		if d := l.Room.Desync(); d != nil {
			_ = l.RunUntil(func() bool { return false }, l.now+2*time.Second)
			l.rec.Finished(d.Turn, replay.EndDesync)
		}
		// Otherwise the room recorded the end when it finished.
	}
	if cerr := l.CloseReplays(); err == nil && cerr != nil {
		err = cerr
	}
	s := l.Summary()
	s.SchedP99 = sched.p99()
	return s, err
}

// recording returns rc with a recorder for every game: first, into
// (the writer of) cfg.Record, then into numbered files beside it.
func (l *Local) recording(rc room.Config, first *replay.Writer) room.Config {
	rc.NewRecorder = func(game.Setup, string) room.Recorder {
		l.games++
		w := first
		if l.games > 1 {
			path := l.ReplayPath(l.games)
			var err error
			if w, err = replay.Create(path, 0); err != nil {
				l.recErr = fmt.Errorf("bots: record: %w", err)
				return nil
			}
		}
		l.rec = w
		l.recs = append(l.recs, w)
		return w
	}
	return rc
}

// ReplayPath returns the file game n (from 1) of a recorded run goes to.
func (l *Local) ReplayPath(n int) string {
	if n <= 1 {
		return l.cfg.Record
	}
	ext := filepath.Ext(l.cfg.Record)
	return strings.TrimSuffix(l.cfg.Record, ext) + "-" + strconv.Itoa(n) + ext
}

// CloseReplays flushes and closes every replay written (Run does it).
func (l *Local) CloseReplays() error {
	err := l.recErr
	for _, w := range l.recs {
		if cerr := w.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("bots: record: %w", cerr)
		}
	}
	l.recs, l.rec = nil, nil
	return err
}

// Leave makes bot i quit as a player does: its Leave goes out on the
// network, and the bot is gone from then on.
func (l *Local) Leave(i int) {
	b := l.Bots[i]
	b.Session.Leave()
	b.Session.Flush(func(f []byte) { l.sendUp(l.now, b.Peer, f) })
	b.Gone = true
}

// Vanish cuts bot i off the network without a word, as a crash would.
func (l *Local) Vanish(i int) {
	b := l.Bots[i]
	b.Gone = true
	l.Net.Disconnect(b.Peer)
}

// Return brings a vanished bot back on a new connection with its token;
// the new bot takes its place in Bots and keeps its pilot.
func (l *Local) Return(i int) *Bot {
	old := l.Bots[i]
	nb := l.addBot(lockstep.Config{Name: "bot" + strconv.Itoa(i), PlayerID: [16]byte{byte(i + 1)}, Token: old.Session.Token()}, old.pilot)
	l.Bots = l.Bots[:len(l.Bots)-1]
	nb.Index, nb.back, nb.game = i, true, old.game
	l.Bots[i] = nb
	return nb
}

// Join adds a client with the given session settings (a spectator, or a
// player with a token) and returns it.
func (l *Local) Join(sc lockstep.Config) *Bot {
	return l.addBot(sc, NewPilot(l.cfg.Seed*1000+uint64(len(l.Bots))))
}

// Summary describes the game so far.
type Summary struct {
	Bots         int
	Ticks        int    // the target: the host ends the game there unless it is over before
	Played       int    // ticks the game ran: the confirmed world's tick at its end
	Over         bool   // the game ended in a game over (not by the host)
	Turn         uint32 // the game's last turn
	Hash         uint64
	HashGroups   int    // distinct final hashes among the bots: 1 means all agree
	Results      uint64 // digest of the results table every bot showed (game.Results.Digest)
	ResultGroups int    // distinct results digests among the bots: 1 means all showed the same table
	DigestGroups int    // distinct digests of the master turns executed, among bots that saw turn 0
	Desyncs      int
	Repairs      uint64 // times a bot's world strayed from the majority's and was repaired from it
	Rewinds      uint64 // times bots rewound to the last turn every hash agreed on (no majority)
	StrayedOut   int    // bots sent away because their worlds kept disagreeing
	// RepairMax is the longest repair of a local run, on the room's clock:
	// from the first hash that differed from the majority's to the
	// strayed player back in step (its RepairDone).
	RepairMax       time.Duration
	InputMismatches int
	StallMax        time.Duration
	RTTp50          time.Duration
	UpBytesPerS     float64       // per bot
	DownBytesPerS   float64       // per bot
	VacanciesSeen   int           // bots that saw another player's slot become vacant (remote runs)
	Rejoins         int           // times bots came back with their token after losing the connection (remote runs)
	MissedEnds      int           // bots that came back after their game had ended: they saw no end of their own
	LeavesSeen      int           // bots that saw another player leave the game (remote runs)
	SyncErrors      uint64        // sync-test mismatches (-synctest)
	RoomsFailed     int           // rooms the server did not create (remote runs): their bots did not play
	SharedTicks     uint64        // ticks bots copied from another bot's simulation rather than stepped (Share)
	LateP99         time.Duration // 99th percentile of how late ticks ran against their schedule (bucket bound)
	SchedP99        time.Duration // 99th percentile of how long the process's goroutines waited for a processor (see schedWatch)
	K, Delay        int
	LateTurns       uint64
	Dropped         uint64
	GameTime        time.Duration // from the game's start to its end, on the game's clock
	Wall            time.Duration
}

// Speed returns how fast the game ran against real time: 1 is real speed.
func (s Summary) Speed() float64 {
	if s.GameTime <= 0 {
		return 0
	}
	return float64(s.Played) / game.TicksPerSecond / s.GameTime.Seconds()
}

// Summary computes the summary.
func (l *Local) Summary() Summary {
	s := Summary{Bots: l.cfg.Bots, Ticks: l.cfg.Ticks, Wall: time.Since(l.wall)}
	if l.startedAt >= 0 {
		end := l.endedAt
		if end < 0 {
			end = l.now
		}
		s.GameTime = end - l.startedAt
	}
	if l.shared != nil {
		s.SharedTicks = l.shared.Hits()
	}
	t := newTally(&s)
	digests := map[uint64]bool{}
	players := 0
	for _, b := range l.Bots {
		st := b.Session.Stats()
		t.session(st, b.Session.Desync() != nil, !b.Spectator)
		if !b.Spectator {
			players++
		}
		if b.Missed {
			s.MissedEnds++
		}
		s.InputMismatches += b.Mismatches
		s.SyncErrors += st.SyncErrors
		s.Repairs += st.Repairs
		s.Rewinds += st.Rewinds
		if b.Session.Phase() == lockstep.Left && b.Session.LeaveMessage().Reason == wire.LeaveStrayed {
			s.StrayedOut++
		}
		t.final(0, b.Final, st)
		if b.Final.OK && b.FirstTurn == 0 {
			digests[b.Final.Digest] = true
		}
	}
	if l.Room.Desync() != nil && s.Desyncs == 0 {
		s.Desyncs = 1
	}
	t.finish(l.now.Seconds(), players)
	s.DigestGroups = len(digests)
	s.RTTp50 = median(l.rtts)
	rs := l.Room.Stats()
	s.LateTurns = rs.LateTurns
	s.RepairMax = l.repairMax
	for _, d := range rs.Dropped {
		s.Dropped += d
	}
	return s
}

// String is the one-line key=value summary that `rockstep -bots` prints.
func (s Summary) String() string {
	return fmt.Sprintf("bots=%d ticks=%d played=%d over=%v turn=%d hash=%016x hash_groups=%d results=%016x result_groups=%d digest_groups=%d desyncs=%d repairs=%d repair_ms_max=%d rewinds=%d strayed_out=%d input_mismatches=%d stall_ms_max=%d rtt_ms_p50=%d up_bytes_per_s=%.0f down_bytes_per_s=%.0f k=%d delay_turns=%d late_turns=%d dropped=%d vacancies_seen=%d leaves_seen=%d rejoins=%d missed_ends=%d late_ms_p99=%d sched_ms_p99=%d sync_errors=%d shared_ticks=%d rooms_failed=%d game_s=%.1f speed=%.3f wall_ms=%d",
		s.Bots, s.Ticks, s.Played, s.Over, s.Turn, s.Hash, s.HashGroups, s.Results, s.ResultGroups, s.DigestGroups, s.Desyncs, s.Repairs, s.RepairMax.Milliseconds(), s.Rewinds, s.StrayedOut, s.InputMismatches,
		s.StallMax.Milliseconds(), s.RTTp50.Milliseconds(), s.UpBytesPerS, s.DownBytesPerS,
		s.K, s.Delay, s.LateTurns, s.Dropped, s.VacanciesSeen, s.LeavesSeen, s.Rejoins, s.MissedEnds, s.LateP99.Milliseconds(), s.SchedP99.Milliseconds(), s.SyncErrors, s.SharedTicks, s.RoomsFailed, s.GameTime.Seconds(), s.Speed(), s.Wall.Milliseconds())
}
