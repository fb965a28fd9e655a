package bots

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"

	"rockstep/game"
	"rockstep/net/client"
	"rockstep/net/lockstep"
	"rockstep/net/portmap"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// RemoteConfig is a bot game against a real server.
type RemoteConfig struct {
	Addr      string // host:port of the server
	Bots      int    // bots in this process
	PerRoom   int    // bots per room: 0 puts all in the server's default room; otherwise rooms are created
	Players   int    // a room starts once it has this many players, all ready (0: PerRoom, or Bots)
	Ticks     int    // game ticks every bot plays
	Seed      uint64 // seeds the pilots (and the rooms created)
	TokenDir  string // if set, bot i keeps its session token in TokenDir/bot-i.token and reclaims its slot with it
	Transport transport.Config
	Timeout   time.Duration // give up after this (default: ticks of game time ×3 + 30 s)
	// SpreadLoopback dials each room's bots from their own loopback address
	// (127.1.1.1, 127.1.2.1, …), each in its own /24, when the server is on
	// 127.0.0.0/8, so that per-IP and per-network limits treat each room
	// as one machine of its own network.
	SpreadLoopback bool
	// Predict turns on prediction in every bot's session; SyncTest, if
	// above zero, makes every session sync-test that many ticks (see
	// lockstep.Config).
	Predict  bool
	SyncTest int
	// Share makes each room's bots simulate their game once between them
	// (lockstep.SharedSim), so that a load test's CPU goes to the network
	// it measures; their hashes then agree by construction.
	Share bool
	// Pin, if set, is the server's host key fingerprint or its first
	// 16 or more hex digits (an invite code's): the bots join no other.
	Pin string
	// RoomKey is the server's room key, for the rooms the bots create
	// (PerRoom above zero) on a server that opens rooms only for its
	// holders.
	RoomKey string
	// RoomID, with PerRoom 0, is the room the bots join (an invite code's
	// room on a server); 0: the server's default room. RoomSecret is an
	// unlisted room's secret (its code's).
	RoomID     uint32
	RoomSecret uint64
	// Fault, if set, is a deliberate fault in bot FaultBot's session
	// (`-fault`; that bot simulates alone even with Share).
	Fault    lockstep.Fault
	FaultBot int
	// Standby makes every bot ready to carry the game on, as a window's
	// player is (client.Options.Standby): a standby port on its own
	// address, probes of the others', and, when the host goes away, the
	// walk to the successor that takes the game; a bot that came back
	// with its token goes where the game went since (client.HostAddr).
	Standby bool
	// StandbyMap, with Standby, asks each bot's router to open its
	// standby port (client.Options.StandbyMap: `-bots N -join ADDR
	// -portmap`), as a window's player does.
	StandbyMap func(port uint16) *portmap.Mapper
}

// roomsCreatedAtOnce bounds the CreateRooms in flight.
const roomsCreatedAtOnce = 32

// remoteBot is one bot's connection and progress. Its own goroutine (play)
// writes all of it; mu guards the fields below it, which RunRemote and its
// helpers (gameTime, the summary) also read, some while the bot still
// plays. The fields above mu are set before the bot starts or are the
// bot's goroutine's alone.
type remoteBot struct {
	i      int
	pilot  *Pilot
	room   uint32              // set before play starts
	want   int                 // the room starts once it has this many ready players
	shared *lockstep.SharedSim // the room's shared simulation (nil: the bot simulates alone)
	from   netip.Addr
	game   oneGame // its game, followed across connections
	gotIn  bool    // the room answered the current connection's Join
	err    error   // play's result, read after it returned

	mu      sync.Mutex
	c       *client.Client // the latest connection (nil if none was made)
	final   Final
	token   [16]byte
	began   time.Time // when the bot's game began (its session first playing)
	ended   time.Time // when the room confirmed its game's end to the bot
	rejoins int       // times the bot came back with its token
	missed  bool      // its game ended while it was away
	vacant  bool      // saw another player's slot become vacant
	quit    bool      // saw another player leave
	strayed bool      // sent away: its world kept disagreeing with the others'
	moved   string    // where the game went after a host migration ("": it did not)
	movedFP string    // the host key fingerprint the successor at moved proved
}

// RunRemote plays bots against the server at cfg.Addr and returns the
// summary once every bot's game has ended (the host bot ends it once it has
// run cfg.Ticks ticks, unless it is over before).
func RunRemote(ctx context.Context, cfg RemoteConfig) (Summary, error) {
	if cfg.Bots < 1 || cfg.Ticks < 1 {
		return Summary{}, errors.New("bots: need at least one bot and one tick")
	}
	cfg, group := cfg.withDefaults()
	if cfg.Transport.Loop == nil {
		// Hundreds of bots in one process: their sockets and clocks are
		// driven by a few goroutines rather than two each (see
		// transport.Loop); where there is no Loop, by their own.
		if l, err := transport.NewLoop(runtime.GOMAXPROCS(0)); err == nil {
			cfg.Transport.Loop = l
			defer l.Close()
		}
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	start := time.Now()
	sched := startSchedWatch()
	bots, roomErrs := playGroups(ctx, cfg, group)
	s := Summary{Bots: cfg.Bots, Ticks: cfg.Ticks, Wall: time.Since(start), GameTime: gameTime(bots), SchedP99: sched.p99()}
	err := s.collect(cfg, group, bots, roomErrs)
	return s, err
}

// withDefaults fills what cfg leaves zero: the transport's settings, the
// bots a room holds (group) and the players a room waits for, the run's
// time limit.
func (cfg RemoteConfig) withDefaults() (RemoteConfig, int) {
	if cfg.Transport.MTU == 0 {
		cfg.Transport = transport.LAN()
		cfg.Transport.Interval = botInterval
	}
	if cfg.Pin != "" {
		cfg.Transport.HostFingerprint = cfg.Pin
	}
	group := cfg.PerRoom
	if group <= 0 || group > cfg.Bots {
		group = cfg.Bots
	}
	if cfg.Players <= 0 {
		cfg.Players = min(group, game.MaxPlayers)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = time.Duration(cfg.Ticks)*time.Second/game.TicksPerSecond*3 + 30*time.Second
	}
	return cfg, group
}

// playGroups plays every group of bots to its end. Each group gets its
// room (created on the server, in parallel with the others' but a few at
// a time) and plays in it; the last group is what is left, and its room
// starts with that many players. A room that cannot be created is counted
// (its group's error in roomErrs) and its bots do not play: the run goes
// on without them.
func playGroups(ctx context.Context, cfg RemoteConfig, group int) ([]*remoteBot, []error) {
	bots := make([]*remoteBot, cfg.Bots)
	groups := (cfg.Bots + group - 1) / group
	roomErrs := make([]error, groups)
	creating := make(chan struct{}, roomsCreatedAtOnce)
	var wg sync.WaitGroup
	for g := range groups {
		var from netip.Addr
		if cfg.SpreadLoopback {
			from = netip.AddrFrom4([4]byte{127, byte(1 + g/250), byte(1 + g%250), 1})
		}
		var shared *lockstep.SharedSim
		if cfg.Share {
			shared = lockstep.NewSharedSim()
		}
		first, end := g*group, min((g+1)*group, cfg.Bots)
		want := cfg.Players
		if cfg.PerRoom > 0 {
			// A room of its own: it starts with the bots it has, the last
			// one with what is left. (The default room may be shared with
			// other processes' bots: it waits for cfg.Players.)
			want = min(want, end-first)
		}
		for i := first; i < end; i++ {
			bots[i] = &remoteBot{i: i, pilot: NewPilot(cfg.Seed*1000 + uint64(i)), from: from, want: want, shared: shared}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			roomID := cfg.RoomID
			if cfg.PerRoom > 0 {
				creating <- struct{}{}
				id, err := createRoom(ctx, cfg, g, from)
				<-creating
				if err != nil {
					roomErrs[g] = fmt.Errorf("room %d: %w", g, err)
					return
				}
				roomID = id
			}
			for _, b := range bots[first:end] {
				b.room = roomID
				wg.Add(1)
				go func() {
					defer wg.Done()
					b.err = b.play(ctx, cfg)
				}()
			}
		}()
	}
	wg.Wait()
	return bots, roomErrs
}

// collect reads every bot's outcome into s, closes the bots' connections
// and returns their errors joined.
func (s *Summary) collect(cfg RemoteConfig, group int, bots []*remoteBot, roomErrs []error) error {
	t := newTally(s)
	var errs []error
	var rtts []time.Duration
	var open []*client.Client
	for _, err := range roomErrs {
		if err != nil {
			s.RoomsFailed++
			errs = append(errs, err)
		}
	}
	for g, b := range bots {
		if roomErrs[g/group] != nil {
			continue // its room was never made: the room's error says so
		}
		if b.err != nil {
			errs = append(errs, fmt.Errorf("bot %d: %w", b.i, b.err))
		}
		c, final := s.look(b)
		if c == nil {
			continue // it never connected: its error says why
		}
		c.Do(func(ses *lockstep.Session) {
			st := ses.Stats()
			t.session(st, ses.Desync() != nil, true)
			s.Repairs += st.Repairs
			s.Rewinds += st.Rewinds
			if st.RTT > 0 {
				rtts = append(rtts, st.RTT)
			}
			t.final(b.room, final, st)
		})
		open = append(open, c)
	}
	// Every bot leaves at once: each Close waits (a moment at most) for the
	// room to acknowledge the Leave, and thousands of them one after the
	// other took minutes.
	var closing sync.WaitGroup
	for _, c := range open {
		closing.Go(c.Close)
	}
	closing.Wait()
	for g, b := range bots {
		if b.shared != nil && g%group == 0 {
			s.SharedTicks += b.shared.Hits() // once a room
		}
	}
	t.finish(s.Wall.Seconds(), cfg.Bots)
	s.RTTp50 = median(rtts)
	return errors.Join(errs...)
}

// look counts what bot b saw (vacancies, leaves, missed ends, rejoins, a
// stray) into s and returns its connection and the final it was told.
func (s *Summary) look(b *remoteBot) (*client.Client, Final) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.vacant {
		s.VacanciesSeen++
	}
	if b.quit {
		s.LeavesSeen++
	}
	if b.missed {
		s.MissedEnds++
	}
	s.Rejoins += b.rejoins // its own, on a new connection each
	if b.c != nil {
		s.Rejoins += b.c.Rejoins() // and those its connection's machine made (earlier connections': counted as replaced)
	}
	if b.strayed {
		s.StrayedOut++
	}
	return b.c, b.final
}

// gameTime is how long the slowest room's game ran, from its first bot
// playing to its last bot told of the end: the game's pace, without the
// time spent connecting, creating rooms and readying.
func gameTime(bots []*remoteBot) time.Duration {
	type span struct{ began, ended time.Time }
	rooms := map[uint32]*span{}
	for _, b := range bots {
		b.mu.Lock()
		began, ended, room := b.began, b.ended, b.room
		b.mu.Unlock()
		if began.IsZero() || ended.IsZero() {
			continue
		}
		r := rooms[room]
		if r == nil {
			r = &span{began, ended}
			rooms[room] = r
		}
		if began.Before(r.began) {
			r.began = began
		}
		if ended.After(r.ended) {
			r.ended = ended
		}
	}
	var longest time.Duration
	for _, r := range rooms {
		longest = max(longest, r.ended.Sub(r.began))
	}
	return longest
}

// createRoom asks the server for a room for group g, from the group's
// address. On one connection CreateRoom is sent once: the stream is
// reliable. A connection lost before the answer, or no answer at all, is
// asked again on a new connection, from the same address: the server
// answers the same ask from the same address with the room it made for it
// while nobody has joined, so a retry never makes a second room.
func createRoom(ctx context.Context, cfg RemoteConfig, g int, from netip.Addr) (uint32, error) {
	ask := wire.CreateRoom{Name: "bots " + strconv.Itoa(g), Setup: game.Setup{Seed: cfg.Seed + uint64(g) + 1, Mode: game.Coop, Lives: game.MaxLives, StartWave: 1, Saucers: true, Hyperspace: true}, Key: cfg.RoomKey}
	var err error
	for try := 0; try < createRoomTries; try++ {
		var id uint32
		var again bool
		id, again, err = askRoom(ctx, cfg, from, ask)
		if !again || ctx.Err() != nil {
			return id, err
		}
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("create room: %w", ctx.Err())
		case <-time.After(time.Second):
		}
	}
	return 0, err
}

// createRoomTries bounds the connections a room's creation may take.
const createRoomTries = 3

// askRoom asks for a room on one connection; again reports a failure that
// a new connection may not meet (no connection, a lost one, no answer).
func askRoom(ctx context.Context, cfg RemoteConfig, from netip.Addr, ask wire.CreateRoom) (id uint32, again bool, err error) {
	var tc *transport.Client
	if from.IsValid() {
		tc, err = transport.DialFrom(ctx, from, cfg.Addr, cfg.Transport)
	} else {
		tc, err = transport.Dial(ctx, cfg.Addr, cfg.Transport)
	}
	if err != nil {
		return 0, true, fmt.Errorf("create room: %w", err)
	}
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	frame, _ := wire.Append(nil, ask)
	h := &roomCreator{answer: make(chan roomAnswer, 1), send: func() { _ = tc.Send(frame) }}
	ran := make(chan error, 1)
	go func() { ran <- tc.Run(rctx, h) }()
	defer func() {
		cancel()
		<-ran
	}()
	wait := time.NewTimer(createRoomWait)
	defer wait.Stop()
	select {
	case a := <-h.answer:
		return a.id, false, a.err
	case err := <-ran:
		ran <- err // for the deferred wait
		return 0, true, fmt.Errorf("create room: connection lost: %w", err)
	case <-wait.C:
		return 0, true, fmt.Errorf("create room: no answer in %v", createRoomWait)
	case <-ctx.Done():
		return 0, false, fmt.Errorf("create room: %w", ctx.Err())
	}
}

// createRoomWait is how long the server has to answer a CreateRoom.
const createRoomWait = 15 * time.Second

type roomAnswer struct {
	id  uint32
	err error
}

// roomCreator sends one CreateRoom and hands on the server's answer: the
// room, or its refusal.
type roomCreator struct {
	answer chan roomAnswer
	send   func()
	sent   bool
	done   bool
}

func (h *roomCreator) Message(f []byte) {
	m, err := wire.Decode(f)
	if err != nil || h.done {
		return
	}
	switch m := m.(type) {
	case wire.RoomCreated:
		h.done = true
		h.answer <- roomAnswer{id: m.RoomID}
	case wire.Refuse:
		h.done = true
		h.answer <- roomAnswer{err: fmt.Errorf("create room: refused: %s", m.Text)}
	}
}

func (h *roomCreator) Tick(time.Time) {
	if !h.sent {
		h.sent = true
		h.send()
	}
}

func (b *remoteBot) tokenPath(cfg RemoteConfig) string {
	if cfg.TokenDir == "" {
		return ""
	}
	return filepath.Join(cfg.TokenDir, "bot-"+strconv.Itoa(b.i)+".token")
}

// Rejoining after the connection is lost (a stall that outlasted the
// transport's timeout, a network outage): the slot is held for the room's
// vacancy timeout, so the bot dials again with its token for a while.
const (
	rejoinFor   = 25 * time.Second
	rejoinEvery = 500 * time.Millisecond
)

// play runs one bot until its game has ended, confirmed by the room: it
// readies, starts the game if it is the host once everyone is, ends it
// once it has run cfg.Ticks ticks (as host), and comes back with its token
// if its connection is lost on the way.
func (b *remoteBot) play(ctx context.Context, cfg RemoteConfig) error {
	sc := lockstep.LAN()
	sc.RoomID = b.room
	if b.room == cfg.RoomID {
		sc.RoomSecret = cfg.RoomSecret
	}
	sc.Name = "bot" + strconv.Itoa(b.i)
	sc.PlayerID = [16]byte{byte(b.i), byte(b.i >> 8), 'b', 'o', 't'}
	sc.Predict, sc.SyncTest, sc.Shared = cfg.Predict, cfg.SyncTest, b.shared
	if b.i == cfg.FaultBot && cfg.Fault != (lockstep.Fault{}) {
		sc.Fault, sc.Shared = cfg.Fault, nil // a faulty world is its own
	}
	path := b.tokenPath(cfg)
	if path != "" {
		if data, err := os.ReadFile(path); err == nil && len(data) == 16 {
			copy(sc.Token[:], data)
		}
	}
	var lostAt time.Time
	var firstLoss error // what ended the connection the bot last played on
	for {
		b.gotIn = false
		err := b.session(ctx, cfg, sc)
		if err == nil {
			if path != "" {
				_ = os.Remove(path) // the game is over: the token has no use any more
			}
			return nil
		}
		b.mu.Lock()
		tok := b.token
		b.mu.Unlock()
		if tok == ([16]byte{}) {
			tok = sc.Token
		}
		var lost *lostError
		forgotten := errors.Is(err, errForgotten)
		if (!errors.As(err, &lost) && !forgotten) || ctx.Err() != nil {
			return err
		}
		// The connection was lost, not refused: come back as the same
		// player, or, if the room never had the bot in a game (lost before
		// its Welcome, or in the lobby, whose slots are not held), as a new
		// one.
		if lostAt.IsZero() || b.gotIn {
			lostAt = time.Now() // a new loss: the last rejoin got the bot back in
			firstLoss = err
		}
		if time.Since(lostAt) > rejoinFor {
			return fmt.Errorf("could not rejoin for %v (lost first: %v): %w", rejoinFor, firstLoss, err)
		}
		if forgotten {
			tok = [16]byte{}
			b.mu.Lock()
			b.token = tok
			b.mu.Unlock()
			if path != "" {
				_ = os.Remove(path)
			}
		}
		sc.Token = tok
		b.mu.Lock()
		b.rejoins++
		b.mu.Unlock()
		select {
		case <-ctx.Done():
			return fmt.Errorf("not done: %w", ctx.Err())
		case <-time.After(rejoinEvery):
		}
	}
}

// errForgotten is a room's refusal of a bot's token before the bot played:
// its lobby slot was freed when its connection went silent, and the bot
// joins again as a new player.
var errForgotten = errors.New("the room forgot the bot's lobby slot")

// lostError is a connection that ended without the room saying why: the
// bot may come back with its token.
type lostError struct{ err error }

func (e *lostError) Error() string { return "connection lost: " + e.err.Error() }
func (e *lostError) Unwrap() error { return e.err }

// session plays on one connection: nil once the game has ended, a
// *lostError if the connection was lost, another error if the room
// refused or sent the bot away.
func (b *remoteBot) session(ctx context.Context, cfg RemoteConfig, sc lockstep.Config) error {
	opt, addr := b.options(cfg, sc)
	c, err := client.Dial(ctx, addr, opt)
	if err != nil {
		b.mu.Lock()
		before := b.c != nil
		b.mu.Unlock()
		if (before || sc.Token != ([16]byte{})) && ctx.Err() == nil {
			return &lostError{err} // the server answered before: it may again in a moment
		}
		return err
	}
	b.mu.Lock()
	old := b.c
	b.c = c
	b.mu.Unlock()
	if old != nil {
		old.Close()
		b.mu.Lock()
		b.rejoins += old.Rejoins()
		b.mu.Unlock()
	}
	path := b.tokenPath(cfg)
	var rule playerRule
	back := sc.Token != ([16]byte{})
	// The bot looks at its session often while something is to be done
	// (readying, starting, ending, seeing the results) and seldom while the
	// game plays itself: each look takes the client's lock, and a load
	// test's thousand bots looking fifty times a second cost their process
	// more than the looking was worth (BENCHMARKS.md).
	poll := pollOften
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("not done (%s): %w", where(c), ctx.Err())
		case <-c.Done():
			fp := c.HostFingerprint() // takes the client's lock: not under b.mu
			b.mu.Lock()
			ok := b.final.OK || b.missed
			if n, _ := c.Handovers(); n > 0 && c.HostAddr() != "" {
				b.moved, b.movedFP = c.HostAddr(), fp
			}
			b.mu.Unlock()
			if ok {
				return nil
			}
			return &lostError{c.Err()}
		case <-t.C:
		}
		var done bool
		var fail error
		c.Do(func(s *lockstep.Session) {
			done, fail = b.look(s, cfg, &rule, path, back)
			if p := pollFor(s.Phase(), s.World(), cfg.Ticks); p != poll {
				poll = p
				t.Reset(poll)
			}
		})
		if fail != nil {
			return fail
		}
		if done {
			return nil
		}
	}
}

// options returns the client options of the bot's next connection and
// the address it dials: the successor's, once the game moved there.
func (b *remoteBot) options(cfg RemoteConfig, sc lockstep.Config) (client.Options, string) {
	opt := client.Options{Session: sc, Transport: cfg.Transport, From: b.from, Input: func(uint32) game.Input { return b.pilot.Next() }}
	addr := cfg.Addr
	if cfg.Standby {
		opt.Standby, opt.StandbyAddr, opt.StandbyMap = true, ":0", cfg.StandbyMap
		if b.from.IsValid() {
			opt.StandbyAddr = netip.AddrPortFrom(b.from, 0).String()
		}
		b.mu.Lock()
		if b.moved != "" {
			// The game moved to a successor: come back there, to the
			// host key it proved (not the first host's, which the
			// invite code or -pin named).
			addr = b.moved
			if b.movedFP != "" {
				opt.Transport.HostFingerprint = b.movedFP
			}
		}
		b.mu.Unlock()
	}
	return opt, addr
}

// look reads the session once, under the client's lock: it keeps the
// token on disk, notes the room's events, the game's start and end, and
// plays the rule. done: the bot is finished on this connection; fail:
// why it cannot go on.
func (b *remoteBot) look(s *lockstep.Session, cfg RemoteConfig, rule *playerRule, path string, back bool) (done bool, fail error) {
	if tok := s.Token(); tok != ([16]byte{}) {
		b.mu.Lock()
		fresh := tok != b.token
		b.token = tok
		b.mu.Unlock()
		if fresh && path != "" {
			_ = os.WriteFile(path, tok[:], 0o600)
		}
	}
	b.mu.Lock()
	for _, e := range s.Events() {
		switch e.Kind {
		case lockstep.EvVacant:
			b.vacant = true
		case lockstep.EvQuit:
			b.quit = true
		}
	}
	b.mu.Unlock()
	ph := s.Phase()
	if ph != lockstep.Joining && ph != lockstep.Refused {
		b.gotIn = true
	}
	if b.game.missed(s, back) {
		b.mu.Lock()
		b.missed = true // nothing to wait for: no error, and no final
		b.mu.Unlock()
		return true, nil
	}
	if ph == lockstep.Playing {
		b.mu.Lock()
		if b.began.IsZero() {
			b.began = time.Now()
		}
		b.mu.Unlock()
	}
	switch {
	case ph == lockstep.Refused && back && s.Refusal().Reason == wire.RefuseBadToken:
		fail = fmt.Errorf("refused (%v) %q: %w", s.Refusal().Reason, s.Refusal().Text, errForgotten)
	case ph == lockstep.Refused:
		fail = fmt.Errorf("refused (%v) %q", s.Refusal().Reason, s.Refusal().Text)
	case ph == lockstep.Left && s.LeaveMessage().Reason == wire.LeaveStrayed:
		// Sent away because its world kept disagreeing (a -fault
		// bot): the others' game goes on; the summary counts it.
		b.mu.Lock()
		b.strayed = true
		b.mu.Unlock()
		done = true
	case ph == lockstep.Left && s.LeaveMessage().Reason == wire.LeaveShutdown && ended(s):
		// The game ended here before its host closed (a successor
		// whose player ended it and left): it was played to its
		// end, which is what counts.
		f, _ := finalOf(s, 0)
		b.mu.Lock()
		b.final, b.ended = f, time.Now()
		b.mu.Unlock()
		done = true
	case ph == lockstep.Left:
		fail = fmt.Errorf("sent away: %s (%s)", s.LeaveMessage().Text, whereIn(s))
	default:
		rule.step(s, false, b.want, cfg.Ticks)
		if ph != lockstep.Finished {
			break
		}
		if f, ok := finalOf(s, 0); ok {
			b.mu.Lock()
			b.final, b.ended = f, time.Now()
			b.mu.Unlock()
			done = true
		}
	}
	if s.Desync() != nil {
		fail = fmt.Errorf("desync at turn %d", s.Desync().Turn)
	}
	return done, fail
}

// botInterval is a bot's transport loop period (a player's is 10 ms). A
// bot's turns leave the moment they are complete and what it receives is
// handled when it comes (transport.Waker); the loop period times only the
// reliable channel, which carries lobby messages, and heartbeats, for
// which 30 ms is soon enough; a shorter period only costs a load test's
// bots CPU (BENCHMARKS.md).
const botInterval = 30 * time.Millisecond

// How often a bot looks at its session: often while it has something to do
// or the game is about to end (the end's time is the game's length in the
// summary), seldom while the game plays itself.
const (
	pollOften  = 20 * time.Millisecond
	pollSeldom = 100 * time.Millisecond
	pollEnding = 30 // ticks before the end from which the bot looks often
)

func pollFor(ph lockstep.Phase, w *game.World, ticks int) time.Duration {
	if ph == lockstep.Playing && w != nil && int(w.Tick)+pollEnding < ticks {
		return pollSeldom
	}
	return pollOften
}

// where says where a bot's session stands, for an error.
func where(c *client.Client) string {
	var w string
	c.Do(func(s *lockstep.Session) { w = whereIn(s) })
	return w
}

// whereIn says where session s stands; its client's lock is held.
func whereIn(s *lockstep.Session) string {
	turn, tick := s.ExecutedTurns()
	st, ended := s.RoomStatus(), ""
	if t, ok := s.Ended(); ok {
		ended = fmt.Sprintf(" ended at turn %d", t)
	}
	return fmt.Sprintf("slot %d, %s at turn %d tick %d%s; room %s, child %d, turn %d, end %d at %d; host %v",
		s.Slot(), s.Phase(), turn, tick, ended, st.State, st.Child, st.Turn, st.End, st.Final, s.IsHost())
}

// ended reports whether session s ran its game to the end and has its
// world there.
func ended(s *lockstep.Session) bool {
	_, ok := finalOf(s, 0)
	return ok
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	c := slices.Clone(d)
	slices.Sort(c)
	return c[len(c)/2]
}
