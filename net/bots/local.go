package bots

import (
	"errors"
	"fmt"
	"math/rand/v2"
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
type Config struct {
	Bots  int                  // players, 1..game.MaxPlayers
	Ticks int                  // game ticks every bot must play
	Seed  uint64               // seeds the network, the pilots and the room
	Net   transport.Impairment // applied to every link, both directions
	Fast  bool                 // run on a virtual clock as fast as the machine allows
	FPS   int                  // frames per second of each bot (default 60)
	Room  room.Config          // zero: room.LAN()
	Limit time.Duration        // give up after this much game time (default: generous)
	// Record, if set, is where the room records the game as a replay.
	Record string
	// Predict turns on prediction in every bot's session.
	Predict bool
	// SyncTest, if above zero, makes every session sync-test its confirmed
	// ticks with this many ticks of rollback (the -synctest debug mode).
	SyncTest int
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

	roomTick time.Duration
	sampleAt time.Duration
	rtts     []time.Duration
	rec      *replay.Writer
	flushAt  time.Duration
}

// Bot is one simulated player or spectator.
type Bot struct {
	Index     int
	Session   *lockstep.Session
	Peer      transport.PeerID
	Spectator bool
	FPS       int
	Gone      bool // vanished: no more frames

	pilot     *Pilot
	readied   bool // SetReady was called
	asked     bool // RequestStart was called
	nextFrame time.Duration
	local     *Local
	sent      map[uint32]wire.TurnInput

	// Verification.
	Mismatches int    // own turns whose master inputs differ from what was sent
	FirstTurn  uint32 // the first master turn executed (above 0 after a snapshot)
	turns      int
	Digest     uint64 // rolling digest of every master turn executed
	Final      Final  // the world when it first reached cfg.Ticks

	// CorruptAfterTurn, if set (non-zero), changes the bot's world after
	// that turn: a deliberate desync for tests.
	CorruptAfterTurn uint32
	// Input, if set, replaces the pilot (tests that script a player).
	Input func(tick uint32) game.Input
	// Frames counts the bot's updates (its drawn frames).
	Frames int
}

// Final is where a bot's game stood when it reached the target tick.
type Final struct {
	OK     bool
	Turn   uint32
	Tick   uint32
	Hash   uint64
	Digest uint64
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
	if cfg.Limit <= 0 {
		cfg.Limit = time.Duration(cfg.Ticks)*time.Second/game.TicksPerSecond*4 + 2*time.Minute
	}
	rc := cfg.Room
	rc.Random = rand.NewChaCha8(seedBytes(cfg.Seed))
	var rec *replay.Writer
	if cfg.Record != "" {
		w, err := replay.Create(cfg.Record, 0)
		if err != nil {
			return nil, fmt.Errorf("bots: record: %w", err)
		}
		rec = w
		rc.NewRecorder = func(game.Setup, string) room.Recorder { return w }
	}
	l := &Local{
		rec:    rec,
		cfg:    cfg,
		wall:   time.Now(),
		Room:   room.New(rc),
		Net:    transport.NewNetwork(cfg.Net, cfg.Seed),
		byPeer: map[transport.PeerID]*Bot{},
	}
	for i := 0; i < cfg.Bots; i++ {
		l.addBot(lockstep.Config{Name: "bot" + strconv.Itoa(i), PlayerID: [16]byte{byte(i + 1)}}, NewPilot(cfg.Seed*1000+uint64(i)))
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
	if b.CorruptAfterTurn != 0 && turn == b.CorruptAfterTurn {
		w.Ships[0].Score += 1 // the deliberate desync
	}
	if !b.Final.OK && int(w.Tick) >= b.local.cfg.Ticks {
		b.Final = Final{OK: true, Turn: turn, Tick: w.Tick, Hash: hash, Digest: b.Digest}
	}
}

func (b *Bot) input(tick uint32) game.Input {
	if b.Input != nil {
		return b.Input(tick)
	}
	return b.pilot.Next()
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
	l.Net.DeliverUp(now, func(p transport.PeerID, pkt []byte) { l.Room.Receive(now, connOf(p), pkt) })
	if now >= l.roomTick {
		l.Room.Tick(now)
		l.roomTick = now + 4*time.Millisecond
	}
	l.Room.Flush(func(c room.ConnID, f []byte) { l.Net.SendDown(now, peerOf(c), f) })
	l.Net.DeliverDown(now, func(p transport.PeerID, pkt []byte) {
		if b := l.byPeer[p]; b != nil && !b.Gone {
			b.Session.Receive(now, pkt)
		}
	})
	for _, b := range l.Bots {
		if b.Gone || now < b.nextFrame {
			continue
		}
		b.Session.Update(now, b.input)
		b.Frames++
		b.Session.Flush(func(f []byte) { l.Net.SendUp(now, b.Peer, f) })
		b.nextFrame += time.Second / time.Duration(b.FPS)
		if b.nextFrame <= now {
			b.nextFrame = now + time.Second/time.Duration(b.FPS)
		}
		if !b.asked && b.Session.IsHost() && b.Session.Phase() == lockstep.Lobby && l.allReady(b) {
			b.asked = true // repeated by the session until the game starts
			b.Session.RequestStart()
		}
	}
	for _, b := range l.Bots {
		if !b.Gone && !b.Spectator && !b.readied && b.Session.Phase() == lockstep.Lobby {
			b.readied = true // the session repeats it until the room shows it
			b.Session.SetReady(true)
		}
	}
	if l.rec != nil && now >= l.flushAt {
		l.flushAt = now + time.Second
		_ = l.rec.Flush()
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

// allReady reports whether b's view of the roster has every bot, ready.
func (l *Local) allReady(b *Bot) bool {
	ps := b.Session.SetupState().Players
	if len(ps) < l.cfg.Bots {
		return false
	}
	for _, p := range ps {
		if !p.Ready {
			return false
		}
	}
	return true
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

// Finished reports whether every bot still playing has reached the target
// tick, or the game stopped on a desync.
func (l *Local) Finished() bool {
	if l.Room.Desync() != nil {
		return true
	}
	for _, b := range l.Bots {
		if !b.Gone && !b.Final.OK {
			return false
		}
	}
	return true
}

// Run plays the game to the target tick and returns the summary. When
// recording, the replay ends at the bots' final turn (or, after a desync,
// once the players' snapshots for the report are in) and is closed.
func (l *Local) Run() (Summary, error) {
	err := l.RunUntil(l.Finished, l.cfg.Limit)
	if l.rec != nil && err == nil {
		if d := l.Room.Desync(); d != nil {
			_ = l.RunUntil(func() bool { return false }, l.now+2*time.Second)
			l.rec.Finished(d.Turn, replay.EndDesync)
		} else {
			l.rec.Finished(l.Summary().Turn, replay.EndTarget)
		}
	}
	if l.rec != nil {
		if cerr := l.rec.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("bots: record: %w", cerr)
		}
		l.rec = nil
	}
	return l.Summary(), err
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
	nb.Index = i
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
	Bots            int
	Ticks           int
	Turn            uint32
	Hash            uint64
	HashGroups      int // distinct final hashes among the bots: 1 means all agree
	DigestGroups    int // distinct digests of the master turns executed, among bots that saw turn 0
	Desyncs         int
	InputMismatches int
	StallMax        time.Duration
	RTTp50          time.Duration
	UpBytesPerS     float64       // per bot
	DownBytesPerS   float64       // per bot
	VacanciesSeen   int           // bots that saw another player's slot become vacant (remote runs)
	SyncErrors      uint64        // sync-test mismatches (-synctest)
	LateP99         time.Duration // 99th percentile of how late ticks ran against their schedule (bucket bound)
	K, Delay        int
	LateTurns       uint64
	Dropped         uint64
	GameTime        time.Duration
	Wall            time.Duration
}

// Summary computes the summary.
func (l *Local) Summary() Summary {
	s := Summary{Bots: l.cfg.Bots, Ticks: l.cfg.Ticks, GameTime: l.now, Wall: time.Since(l.wall)}
	hashes := map[[2]uint64]bool{}
	digests := map[uint64]bool{}
	var up, down uint64
	var late [len(lockstep.LatenessBuckets) + 1]uint64
	players := 0
	for _, b := range l.Bots {
		st := b.Session.Stats()
		s.StallMax = max(s.StallMax, st.StallMax)
		if b.Session.Desync() != nil {
			s.Desyncs++
		}
		s.InputMismatches += b.Mismatches
		s.SyncErrors += st.SyncErrors
		for i, n := range st.Lateness {
			late[i] += n
		}
		if !b.Spectator {
			up += st.BytesOut
			down += st.BytesIn
			players++
		}
		if b.Final.OK {
			if len(hashes) == 0 {
				s.Hash, s.Turn = b.Final.Hash, b.Final.Turn
				s.K, s.Delay = st.K, st.Delay
			}
			hashes[[2]uint64{uint64(b.Final.Turn), b.Final.Hash}] = true
			if b.FirstTurn == 0 {
				digests[b.Final.Digest] = true
			}
		}
	}
	if l.Room.Desync() != nil && s.Desyncs == 0 {
		s.Desyncs = 1
	}
	s.HashGroups, s.DigestGroups = len(hashes), len(digests)
	if secs := l.now.Seconds(); secs > 0 && players > 0 {
		s.UpBytesPerS = float64(up) / secs / float64(players)
		s.DownBytesPerS = float64(down) / secs / float64(players)
	}
	s.RTTp50 = median(l.rtts)
	s.LateP99 = lockstep.LatenessQuantile(late, 0.99)
	rs := l.Room.Stats()
	s.LateTurns = rs.LateTurns
	for _, d := range rs.Dropped {
		s.Dropped += d
	}
	return s
}

// String is the one-line key=value summary that `rockstep -bots` prints.
func (s Summary) String() string {
	return fmt.Sprintf("bots=%d ticks=%d turn=%d hash=%016x hash_groups=%d digest_groups=%d desyncs=%d input_mismatches=%d stall_ms_max=%d rtt_ms_p50=%d up_bytes_per_s=%.0f down_bytes_per_s=%.0f k=%d delay_turns=%d late_turns=%d dropped=%d vacancies_seen=%d late_ms_p99=%d sync_errors=%d game_s=%.1f wall_ms=%d",
		s.Bots, s.Ticks, s.Turn, s.Hash, s.HashGroups, s.DigestGroups, s.Desyncs, s.InputMismatches,
		s.StallMax.Milliseconds(), s.RTTp50.Milliseconds(), s.UpBytesPerS, s.DownBytesPerS,
		s.K, s.Delay, s.LateTurns, s.Dropped, s.VacanciesSeen, s.LateP99.Milliseconds(), s.SyncErrors, s.GameTime.Seconds(), s.Wall.Milliseconds())
}
