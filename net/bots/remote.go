package bots

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"rockstep/game"
	"rockstep/net/client"
	"rockstep/net/lockstep"
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
	// (127.0.1.1, 127.0.1.2, …) when the server is on 127.0.0.0/8, so that
	// per-IP limits treat each room as one machine on a LAN.
	SpreadLoopback bool
	// Predict turns on prediction in every bot's session; SyncTest, if
	// above zero, makes every session sync-test that many ticks (see
	// lockstep.Config).
	Predict  bool
	SyncTest int
}

// remoteBot is one bot's connection and progress.
type remoteBot struct {
	i      int
	c      *client.Client
	pilot  *Pilot
	room   uint32
	from   netip.Addr
	final  Final
	vacant bool // saw another player's slot become vacant
	err    error
	mu     sync.Mutex
}

// RunRemote plays bots against the server at cfg.Addr and returns the
// summary once every bot has reached the target tick.
func RunRemote(ctx context.Context, cfg RemoteConfig) (Summary, error) {
	if cfg.Bots < 1 || cfg.Ticks < 1 {
		return Summary{}, errors.New("bots: need at least one bot and one tick")
	}
	if cfg.Transport.MTU == 0 {
		cfg.Transport = transport.LAN()
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
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	start := time.Now()

	bots := make([]*remoteBot, cfg.Bots)
	var wg sync.WaitGroup
	for g := 0; g*group < cfg.Bots; g++ {
		roomID := uint32(0)
		if cfg.PerRoom > 0 {
			id, err := createRoom(ctx, cfg, g)
			if err != nil {
				return Summary{}, err
			}
			roomID = id
		}
		for i := g * group; i < min((g+1)*group, cfg.Bots); i++ {
			b := &remoteBot{i: i, pilot: NewPilot(cfg.Seed*1000 + uint64(i)), room: roomID}
			if cfg.SpreadLoopback {
				b.from = netip.AddrFrom4([4]byte{127, 0, byte(1 + g/250), byte(1 + g%250)})
			}
			bots[i] = b
			wg.Add(1)
			go func() {
				defer wg.Done()
				b.err = b.play(ctx, cfg)
			}()
		}
	}
	wg.Wait()

	s := Summary{Bots: cfg.Bots, Ticks: cfg.Ticks, Wall: time.Since(start), GameTime: time.Since(start)}
	hashes := map[[2]uint64]bool{}
	var errs []error
	var up, down uint64
	var rtts []time.Duration
	var late [len(lockstep.LatenessBuckets) + 1]uint64
	for _, b := range bots {
		if b.err != nil {
			errs = append(errs, fmt.Errorf("bot %d: %w", b.i, b.err))
		}
		b.c.Do(func(ses *lockstep.Session) {
			st := ses.Stats()
			s.StallMax = max(s.StallMax, st.StallMax)
			up += st.BytesOut
			down += st.BytesIn
			for i, n := range st.Lateness {
				late[i] += n
			}
			if st.RTT > 0 {
				rtts = append(rtts, st.RTT)
			}
			if ses.Desync() != nil {
				s.Desyncs++
			}
			if b.final.OK && len(hashes) == 0 {
				s.K, s.Delay = st.K, st.Delay
			}
		})
		if b.vacant {
			s.VacanciesSeen++
		}
		if b.final.OK {
			if len(hashes) == 0 {
				s.Hash, s.Turn = b.final.Hash, b.final.Turn
			}
			// Bots in different rooms play different games: compare
			// within a room only.
			hashes[[2]uint64{uint64(b.room)<<32 | uint64(b.final.Turn), b.final.Hash}] = true
		}
		b.c.Close()
	}
	rooms := map[uint32]bool{}
	for _, b := range bots {
		rooms[b.room] = true
	}
	s.HashGroups = len(hashes) - len(rooms) + 1
	if len(hashes) == 0 {
		s.HashGroups = 0
	}
	if secs := s.Wall.Seconds(); secs > 0 {
		s.UpBytesPerS = float64(up) / secs / float64(cfg.Bots)
		s.DownBytesPerS = float64(down) / secs / float64(cfg.Bots)
	}
	s.RTTp50 = median(rtts)
	s.LateP99 = lockstep.LatenessQuantile(late, 0.99)
	return s, errors.Join(errs...)
}

// createRoom asks the server for a room for group g.
func createRoom(ctx context.Context, cfg RemoteConfig, g int) (uint32, error) {
	got := make(chan uint32, 1)
	tc, err := transport.Dial(ctx, cfg.Addr, cfg.Transport)
	if err != nil {
		return 0, fmt.Errorf("create room: %w", err)
	}
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	frame, _ := wire.Append(nil, wire.CreateRoom{Name: "bots " + strconv.Itoa(g), Setup: game.Setup{Seed: cfg.Seed + uint64(g) + 1, Mode: game.Coop, Lives: game.MaxLives, StartWave: 1}})
	h := &roomCreator{got: got, send: func() { _ = tc.Send(frame) }}
	go func() { _ = tc.Run(rctx, h) }()
	select {
	case id := <-got:
		return id, nil
	case <-ctx.Done():
		return 0, fmt.Errorf("create room: %w", ctx.Err())
	}
}

type roomCreator struct {
	got   chan uint32
	send  func()
	last  time.Time
	done  bool
	tries int
}

func (h *roomCreator) Message(f []byte) {
	m, err := wire.Decode(f)
	if err != nil || h.done {
		return
	}
	if rc, ok := m.(wire.RoomCreated); ok {
		h.done = true
		h.got <- rc.RoomID
	}
}

func (h *roomCreator) Tick(now time.Time) {
	if !h.done && now.Sub(h.last) > 500*time.Millisecond && h.tries < 20 {
		h.last, h.tries = now, h.tries+1
		h.send()
	}
}

func (b *remoteBot) tokenPath(cfg RemoteConfig) string {
	if cfg.TokenDir == "" {
		return ""
	}
	return filepath.Join(cfg.TokenDir, "bot-"+strconv.Itoa(b.i)+".token")
}

// play runs one bot until it reaches the target tick.
func (b *remoteBot) play(ctx context.Context, cfg RemoteConfig) error {
	sc := lockstep.LAN()
	sc.RoomID = b.room
	sc.Name = "bot" + strconv.Itoa(b.i)
	sc.PlayerID = [16]byte{byte(b.i), byte(b.i >> 8), 'b', 'o', 't'}
	sc.Predict, sc.SyncTest = cfg.Predict, cfg.SyncTest
	if p := b.tokenPath(cfg); p != "" {
		if data, err := os.ReadFile(p); err == nil && len(data) == 16 {
			copy(sc.Token[:], data)
		}
	}
	sc.OnTurnEnd = func(turn uint32, hash uint64, w *game.World) {
		if !b.final.OK && int(w.Tick) >= cfg.Ticks {
			b.mu.Lock()
			b.final = Final{OK: true, Turn: turn, Tick: w.Tick, Hash: hash}
			b.mu.Unlock()
		}
	}
	c, err := client.Dial(ctx, cfg.Addr, client.Options{Session: sc, Transport: cfg.Transport, From: b.from, Input: func(uint32) game.Input { return b.pilot.Next() }})
	if err != nil {
		return err
	}
	b.c = c
	savedToken := false
	readied, asked := false, false
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("not done: %w", ctx.Err())
		case <-c.Done():
			return fmt.Errorf("connection ended: %w", c.Err())
		case <-t.C:
		}
		var done bool
		var fail error
		c.Do(func(s *lockstep.Session) {
			if tok := s.Token(); !savedToken && tok != ([16]byte{}) {
				savedToken = true
				if p := b.tokenPath(cfg); p != "" {
					_ = os.WriteFile(p, tok[:], 0o600)
				}
			}
			for _, e := range s.Events() {
				if e.Kind == lockstep.EvVacant {
					b.vacant = true
				}
			}
			switch s.Phase() {
			case lockstep.Refused:
				fail = fmt.Errorf("refused: %s", s.Refusal().Text)
			case lockstep.Left:
				fail = fmt.Errorf("sent away: %s", s.LeaveMessage().Text)
			case lockstep.Lobby:
				if !readied {
					readied = true
					s.SetReady(true)
				}
				if !asked && s.IsHost() && rosterReady(s.SetupState().Players, cfg.Players) {
					asked = true
					s.RequestStart()
				}
			}
			if s.Desync() != nil {
				fail = fmt.Errorf("desync at turn %d", s.Desync().Turn)
			}
			b.mu.Lock()
			done = b.final.OK
			b.mu.Unlock()
		})
		if fail != nil {
			return fail
		}
		if done {
			return nil
		}
	}
}

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

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	c := slices.Clone(d)
	slices.Sort(c)
	return c[len(c)/2]
}
