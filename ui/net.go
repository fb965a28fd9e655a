package ui

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/netip"
	"os"
	"strings"
	"sync"
	"time"

	"rockstep/game"
	"rockstep/net/client"
	"rockstep/net/host"
	"rockstep/net/lockstep"
	"rockstep/net/migrate"
	"rockstep/net/portmap"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// dialTimeout bounds the handshake with a host.
const dialTimeout = 5 * time.Second

// netConfig is what a session is set up with.
type netConfig struct {
	setup    *game.Setup // the last setup this player chose as a host (Settings.Setup)
	name     string
	playerID [16]byte
	netsim   transport.Impairment
	seed     uint64
	listen   string // where the Host button listens; "" means ":7777", falling back to ":0"
	// recordDir, if set, is where a hosted game's replays and desync
	// reports are written.
	recordDir string
	// settingsDir, if set, keeps the host key (host.LoadHostKey).
	settingsDir string
	// hostFP, if set, is the only host key a dial accepts (the LAN list's).
	hostFP string
	// room is the room a dial joins on a server that holds several (an
	// invite code of a server room); 0 is the server's default room.
	room uint32
	// secret is that room's secret if it is unlisted (its invite code
	// carries it; every Join must): 0 for a listed room.
	secret uint64
	// predict turns on prediction (the player's own ship answers at once);
	// syncTest, if above zero, is lockstep.Config.SyncTest (a debug mode).
	predict  bool
	syncTest int
	fault    string // a deliberate fault (-fault: lockstep.ParseFault)
	// onTurnEnd, if set, sees every executed turn (the autopilot's hash log).
	onTurnEnd func(turn uint32, hash uint64, w *game.World)
	// token, if set, reclaims a slot in a running game: the player comes
	// back after a crash.
	token [16]byte
	// moveKey, if set, finds the room on the server dialled that the game
	// moved to (client.RejoinMoved): a Rejoin of a player whose machine
	// died before the move, which never learnt that room's id.
	moveKey [16]byte
	// portmap asks the router to open the port of a room this player
	// hosts (or takes over) to the internet: the setting, unless
	// -portmap=false.
	portmap bool
	// fallback are the player's known community servers: a game it
	// hosts moves to the first that answers when no player can carry it
	// on (room.Config.Fallback).
	fallback []wire.FallbackServer
}

// fallbackServers is the known servers as a hosted game carries them
// (wire.Successors.Servers): by address, with the key pinned for each.
func fallbackServers(known []KnownServer) []wire.FallbackServer {
	var out []wire.FallbackServer
	for _, k := range known {
		if len(out) == wire.MaxFallbackServers {
			break
		}
		fs := wire.FallbackServer{Addr: k.Addr, Key: host.FingerprintBytes(k.Fingerprint)}
		if fs.Addr != "" && len(fs.Addr) <= wire.MaxServerAddr {
			out = append(out, fs)
		}
	}
	return out
}

// netGame is one network session: a client, and the room too when we
// host it. Its methods are called on the UI's goroutine; the dial runs on
// its own and hands its result over under mu.
type netGame struct {
	cfg  netConfig
	addr string // dialled, or where our room listens

	mu      sync.Mutex
	c       *client.Client
	dialErr error
	dialing bool

	h        *host.Host
	hostFP   string // our host key's fingerprint, when we host
	hostStop context.CancelFunc
	hostDone chan struct{}
	cancel   context.CancelFunc // of the dial

	handovers int    // the host migrations seen (read)
	tookAt    uint16 // the standby port of the room we took over, once noted (tookOver)

	pm       *portmap.Mapper // asks the router for our room's port; nil until we host (under mu)
	pmClosed bool            // close has taken pm: no new one (under mu)
	// standbyMapped: this player took the game over and its standby's
	// own mapping (the client's) is the room's (under mu).
	standbyMapped bool

	// server is the address of the known server we opened our room on
	// (hostOnServer), and roomID that room's id once it answered (under
	// mu); "" and 0 otherwise.
	server     string
	roomID     uint32
	roomSecret uint64 // roomID's secret, if the room is unlisted
}

func (cfg netConfig) options() client.Options {
	tc := transport.LAN()
	tc.HostFingerprint = cfg.hostFP
	return client.Options{
		Transport: tc,
		// Prediction: the player's own ship answers the keys at once;
		// the confirmed world stays the truth (and is what is hashed).
		Session: lockstep.Config{RoomID: cfg.room, RoomSecret: cfg.secret, Name: cfg.name, PlayerID: cfg.playerID, Token: cfg.token, OnTurnEnd: cfg.onTurnEnd, Predict: cfg.predict, SyncTest: cfg.syncTest, Fault: faultOf(cfg.fault)},
		Netsim:  cfg.netsim,
		Seed:    cfg.seed,
	}
}

// guestOptions are a joining player's: ready to carry the game on if the
// host goes away (host migration), with this install's host key, and
// recording the game as a host does if it comes to host it.
func (cfg netConfig) guestOptions() client.Options {
	o := cfg.options()
	// A browser tab cannot be reached by anyone (Go's js network is a fake
	// inside the page), so it never offers to carry the game on: a room
	// that listed it as a successor would see it taken alone.
	o.Standby = !inBrowser
	// The standby port is mapped on this player's router as the Host
	// button's port is (the same setting, the same words), so that the
	// others reach it if the game comes here (docs/ARCHITECTURE.md,
	// "Successors everyone can reach"); once it does, that mapping serves
	// the room (mapSuccessorPort asks for no second one).
	o.StandbyMap = func(port uint16) *portmap.Mapper { return startPortmap(cfg, port) }
	o.ListAs = listingHostName(cfg.name) // a listed game this player comes to host stays listed
	if cfg.settingsDir != "" {
		key, err := host.LoadHostKey(cfg.settingsDir)
		if err != nil {
			log.Printf("rockstep: cannot keep a host key; using one for this game: %v", err)
		}
		o.HostKey = key
	}
	o.HostConfig = host.LAN()
	o.HostConfig.Goodbye = goodbye(cfg.name)
	if cfg.recordDir != "" {
		o.HostConfig.Record, o.HostConfig.RecordDir = true, cfg.recordDir
	}
	return o
}

// goodbye is what the players of a room this player hosts are told when
// it closes (no game to hand over): a player, not a server, left.
func goodbye(name string) string {
	if name == "" {
		return "the host left"
	}
	return name + " left"
}

// hostFingerprint returns the fingerprint of the host key of the game:
// ours when we host, else the one the host proved when we connected; ""
// before that. g may be nil.
func (g *netGame) hostFingerprint() string {
	if g == nil {
		return ""
	}
	if g.hostFP != "" {
		return g.hostFP
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.c != nil {
		return g.c.HostFingerprint()
	}
	return ""
}

// dial starts joining the room at addr, or, if anyOf is given, at
// whichever of those addresses answers first (an invite code's).
func dial(cfg netConfig, addr string, anyOf ...string) *netGame {
	g := &netGame{cfg: cfg, addr: addr, dialing: true}
	ctx, cancel := context.WithTimeout(context.Background(), dialTimeout)
	g.cancel = cancel
	go func() {
		defer cancel()
		var c *client.Client
		var err error
		switch {
		case cfg.moveKey != ([16]byte{}):
			g.rejoinMoved(ctx, addr)
			return
		case len(anyOf) > 0:
			c, err = client.DialAny(ctx, anyOf, cfg.guestOptions())
		default:
			c, err = client.Dial(ctx, addr, cfg.guestOptions())
		}
		g.dialled(c, err, 0)
	}()
	return g
}

// rejoinMoved joins the room on the server at addr that the game moved
// to, found by its move key (client.RejoinMoved), as a room on a server:
// the lobby says so, and the kept session names it.
func (g *netGame) rejoinMoved(ctx context.Context, addr string) {
	var c *client.Client
	var id uint32
	err := askMoved(ctx, movedRetry, movedTries, func() (err error) {
		c, id, err = client.RejoinMoved(ctx, addr, g.cfg.moveKey, g.cfg.guestOptions())
		return err
	})
	if err != nil {
		log.Printf("rockstep: cannot rejoin the game on the server %s: %v", addr, err)
	}
	g.dialled(c, err, id)
	if c != nil {
		g.mu.Lock()
		g.server, g.roomSecret = addr, c.RoomSecret()
		g.mu.Unlock()
	}
}

// A Rejoin of the moved game pressed before the players reached the
// server (they go there a few seconds after the host's death: net/migrate,
// server.go) finds no room for the move key yet: it asks again every
// movedRetry, movedTries times in all, before it says so.
const (
	movedRetry = time.Second
	movedTries = 10
)

// askMoved calls ask until it succeeds, fails otherwise than with
// client.ErrNoMovedGame, or has been tried tries times (every `every`),
// or ctx ends; it returns ask's last error.
func askMoved(ctx context.Context, every time.Duration, tries int, ask func() error) error {
	var err error
	for try := 1; ; try++ {
		if err = ask(); !errors.Is(err, client.ErrNoMovedGame) || try >= tries {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(every):
		}
	}
}

// dialled takes what a dial (or a room opened on a server, roomID) gave:
// the client, or why there is none. A game closed meanwhile closes the
// client instead.
func (g *netGame) dialled(c *client.Client, err error, roomID uint32) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.dialing = false
	if g.cancel == nil { // closed meanwhile
		if c != nil {
			go c.Close()
		}
		return
	}
	g.c, g.dialErr = c, err
	if roomID != 0 {
		g.roomID = roomID
	}
}

// hostGame opens a room on this machine, advertises it on the LAN and
// joins it through an in-process pipe.
func hostGame(cfg netConfig, roomName string) *netGame {
	g := &netGame{cfg: cfg}
	addrs := []string{cfg.listen}
	if cfg.listen == "" {
		addrs = []string{fmt.Sprintf(":%d", wire.DefaultPort), ":0"}
	}
	var srv *transport.Server
	tcfg := transport.LAN()
	var err error
	if cfg.settingsDir != "" { // else a key for this game only
		if tcfg.HostKey, err = host.LoadHostKey(cfg.settingsDir); err != nil {
			log.Printf("rockstep: cannot keep a host key; using one for this game: %v", err)
		}
	}
	for _, a := range addrs {
		if srv, err = transport.Listen(a, tcfg); err == nil {
			break
		}
	}
	if err != nil {
		g.dialErr = err
		return g
	}
	hc := host.LAN()
	hc.Name = roomName
	hc.Room.Setup = hostSetup(hc.Room.Setup, cfg.setup)
	hc.Handover = true // a host who closes the window hands a running game to the others
	hc.Room.Fallback = cfg.fallback
	hc.Goodbye = goodbye(cfg.name)
	// Every guest silent at once: the router may have restarted and
	// forgotten our port; ask it again (Suspect is safe on a nil Mapper).
	hc.OnGuestsSilent = func() {
		g.mu.Lock()
		pm := g.pm
		g.mu.Unlock()
		pm.Suspect()
	}
	if cfg.recordDir != "" {
		hc.Record, hc.RecordDir = true, cfg.recordDir
	}
	g.h = host.New(hc)
	g.addr = srv.Addr().String()
	g.pm = startPortmap(cfg, srv.Addr().Port())
	g.hostFP = srv.HostKey().Fingerprint()
	ctx, stop := context.WithCancel(context.Background())
	g.hostStop, g.hostDone = stop, make(chan struct{})
	go func() {
		defer close(g.hostDone)
		if err := g.h.Serve(ctx, srv); err != nil {
			log.Printf("rockstep: host stopped: %v", err)
		}
	}()
	hostName := listingHostName(cfg.name)
	p := transport.NewPipe()
	g.h.Attach(p)
	g.c = client.AttachOwner(g.h, p, cfg.options()) // cut off from its players, it finds and rejoins their game
	go func() {
		// Listed once our own player is in the room: a new game is never
		// listed with no players.
		waitForHostPlayer(ctx, g.h)
		if err := g.h.AdvertiseLAN(ctx, srv, hostName); err != nil {
			log.Printf("rockstep: cannot advertise the game on the LAN (players can still join %s by address): %v", g.addr, err)
		}
	}()
	return g
}

// portmapGateway, if set, finds the router to ask instead of the default
// route: the package's tests set it, so that no test asks the machine's
// real router.
var portmapGateway func() (netip.Addr, error)

// startPortmap asks the router, in the background, to open UDP port to
// the internet; with port mapping off it only says so.
func startPortmap(cfg netConfig, port uint16) *portmap.Mapper {
	if !cfg.portmap {
		return portmap.Disabled(port)
	}
	return portmap.Start(port, portmap.Config{Gateway: portmapGateway})
}

// mapSuccessorPort asks the router for the port of the room c runs since
// it took the game over (host migration), once.
func (g *netGame) mapSuccessorPort(c *client.Client) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.pm == nil && g.h == nil && !g.pmClosed {
		if _, asked := c.StandbyMapping(); asked {
			g.standbyMapped = true // the standby's own mapping (guestOptions): the room's port now
			return
		}
		if port := c.StandbyPort(); port != 0 {
			g.pm = startPortmap(g.cfg, port)
		}
	}
}

// tookOver notes, once this player's machine runs the game's room (host
// migration), where that room listens (the standby's port, on every
// address) and its host key: the lobby shows them, not the dead host's
// address and key (docs/ARCHITECTURE.md, "One host").
func (g *netGame) tookOver(port uint16, fp string) {
	if g.h != nil || port == 0 || g.tookAt == port {
		return // our own room from the start (addr and key are set), or noted
	}
	g.tookAt = port
	g.addr = successorListen(port)
	if fp != "" {
		g.hostFP = fp
	}
}

// successorListen is the address the room of a player who took the game
// over listens on: its standby port, on every address (the standby
// listens on ":0"), written as hostWhere reads it.
func successorListen(port uint16) string {
	return netip.AddrPortFrom(netip.IPv6Unspecified(), port).String()
}

// portmapStatus returns what came of asking the router (the zero Status:
// nothing asked).
func (g *netGame) portmapStatus() portmap.Status {
	g.mu.Lock()
	pm, c, standby := g.pm, g.c, g.standbyMapped
	g.mu.Unlock()
	if pm == nil && standby && c != nil {
		st, _ := c.StandbyMapping()
		return st
	}
	return pm.Status()
}

// hostSetup is the setup a game this player hosts opens with: the options
// they chose last (mode, lives, …) on the room's default, when the engine
// can run them (a settings file may hold anything); else the default.
func hostSetup(def game.Setup, last *game.Setup) game.Setup {
	if last == nil {
		return def
	}
	s := last.Options()
	s.Seed, s.Players = def.Seed, def.Players
	if probe := s; func() bool { probe.Players = 1; return probe.Validate() != nil }() {
		return def
	}
	return s
}

// listingHostName is the host name a game this player hosts is listed
// under on the LAN (the LAN list's HOST column): the player's, which the
// others know, else the machine's.
func listingHostName(player string) string {
	if strings.TrimSpace(player) != "" {
		return player
	}
	name, _ := os.Hostname()
	return name
}

// Bounds of waitForHostPlayer.
const (
	hostPlayerWait = time.Second          // the longest wait
	hostPlayerPoll = 5 * time.Millisecond // between looks
)

// waitForHostPlayer returns once h's room holds a player (the host's own,
// joining through its pipe), ctx ends or hostPlayerWait has passed.
func waitForHostPlayer(ctx context.Context, h *host.Host) {
	t := time.NewTicker(hostPlayerPoll)
	defer t.Stop()
	deadline := time.After(hostPlayerWait)
	for h.Stats().RoomPlayers == 0 {
		select {
		case <-ctx.Done():
			return
		case <-deadline:
			return
		case <-t.C:
		}
	}
}

// noAnswer returns the addresses tried when err says none of an invite
// code's addresses answered, else "".
func noAnswer(err error) string {
	var na *client.NoAnswerError
	if errors.As(err, &na) {
		return strings.Join(na.Addrs, ", ")
	}
	return ""
}

// client returns the session's client once connected, else nil.
func (g *netGame) client() *client.Client {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.c
}

// status returns the dial's progress.
func (g *netGame) status() (dialing bool, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.dialing, g.dialErr
}

// close leaves the room and stops hosting, in the background: a Close
// waits for the goodbye to be delivered. The returned channel is closed
// when that is done (the program waits for it before it exits).
func (g *netGame) close() <-chan struct{} {
	g.mu.Lock()
	c, pm := g.c, g.pm
	g.pmClosed = true
	if g.cancel != nil {
		g.cancel()
		g.cancel = nil
	}
	g.mu.Unlock()
	done := make(chan struct{})
	go func() {
		defer close(done)
		if c != nil {
			c.Close()
		}
		if g.hostStop != nil {
			g.hostStop()
			<-g.hostDone
		}
		// The room is closed (or handed over): the router forgets the
		// port, waiting a second at most.
		pm.Close()
	}()
	return done
}

// The screens' view of the network. App owns the session (a netGame:
// dialled, hosted, closed) and, once a frame, reads it into its netView;
// the screens and the flow know the network only through that netView:
// its fields, copied from the session, and its methods, which act on the
// session. No other file of ui speaks to net/client or net/lockstep: the
// session's phases and news are named here.

// phase is where the session stands.
type phase = lockstep.Phase

// The session's phases.
const (
	phaseJoining  = lockstep.Joining  // sending Join until the room answers
	phaseLobby    = lockstep.Lobby    // in the room, during setup (or waiting for a rematch)
	phaseStarting = lockstep.Starting // waiting for a snapshot before the first turn
	phasePlaying  = lockstep.Playing  // the game runs (or has ended here and waits for the room to confirm it)
	phaseFinished = lockstep.Finished // the game is over or stopped, confirmed by the room
	phaseRefused  = lockstep.Refused  // the room turned the Join away
	phaseLeft     = lockstep.Left     // the session left or was told to go
)

// newsKind is what the room told of a player.
type newsKind uint8

// The news of the players.
const (
	newsQuit     newsKind = iota + 1 // left the game
	newsDropped                      // was dropped: no reconnect in time
	newsRejoined                     // is back
	newsHosts                        // hosts the game now: the host went away (host migration)
	newsStrayed                      // was sent away: its world kept disagreeing with the others' (desync repair)
	newsRepaired                     // our own world was out of step and has been repaired
)

// news is one thing the room told of a player.
type news struct {
	kind newsKind
	slot int
}

// netView is what the screens see of the network session, copied from it
// once a frame under its lock (the session runs on its own goroutine),
// and what they do to it (its methods). Its zero value is no session.
type netView struct {
	g        *netGame // the session read, or nil
	ok       bool     // a client exists and this was filled from it
	phase    phase
	slot     int  // -1: spectator
	host     bool // our player hosts the room: may change the setup, start, kick
	roomHere bool // the room runs in this process: we opened it, or took it over in a handover
	setup    wire.SetupState
	status   wire.RoomStatus
	absent   uint8 // apart: the slots our side of the game lost contact with (lockstep.Session.Apart)
	apart    bool  // our side lacks a majority: the game waits for the absent
	unfound  bool  // ... and the game the absent may play elsewhere cannot be found from here (client.OthersUnfound)
	refusal  wire.Refuse
	leave    wire.Leave
	desync   *wire.DesyncReport
	rewound  bool   // every player rewound this game (no majority)
	stopped  string // why a desync after that stopped the game (lockstep.StoppedText)
	stats    lockstep.Stats
	silence  time.Duration // how long the room has said nothing while the game should flow (lockstep.RoomSilence)
	chat     []wire.Chat
	hasWorld bool
	world    game.World // the displayed world, copied (~6 KB)
	events   []game.Event
	news     []news                  // since the last read: who left, was dropped, came back
	names    [game.MaxPlayers]string // the players' names as the game started
	sentAway [game.MaxPlayers]bool   // the players of this game sent away for straying (the results say so)
	succ     wire.Successors         // who hosts the game if its host goes away
	ended    bool                    // the game ended in our confirmed world (the room may not have confirmed it yet)
	results  game.Results            // valid when ended: read from the confirmed world at the end
	away     bool                    // results are of the game that ended while we were away (lockstep's AwayResults)
	token    [16]byte
	closed   bool // the session's loop has stopped
	lost     bool // it stopped because the connection was lost (no answer, or the host hung up), not by our leaving
	// portmap is what came of asking the router to open our room's port
	// (the zero Status: not asked, we do not host); external is where
	// players on the internet reach the room when it opened (the invite
	// code carries it), else invalid.
	portmap  portmap.Status
	external netip.AddrPort

	// The lobby's side of a host migration (lobbyhandover.go).
	lobbyQuiet time.Duration // how long the room has said nothing while we sit in its lobby (lockstep.LobbySilence)
	moves      int           // the host migrations seen (a lobby's too): the lobby says who hosts after one
	mover      int           // the slot hosting since the last of them (migrate.OnServer: a community server)
	server     string        // the community server the game moved to ("": none; client.Server)
	// movedRoom is the room that server opened for the game, and
	// movedSecret its secret (client.ServerRoom): where a Rejoin goes.
	movedRoom   uint32
	movedSecret uint64
}

// readNews turns the session's events into the news the play screen
// shows (who quit, was sent away, repaired, came back), noting who was
// sent away for straying.
func (v *netView) readNews(events []lockstep.Event) {
	v.news = v.news[:0]
	for _, e := range events {
		switch e.Kind {
		case lockstep.EvQuit:
			v.news = append(v.news, news{newsQuit, e.Slot})
		case lockstep.EvDropped:
			if e.Text != "" {
				v.news = append(v.news, news{newsStrayed, e.Slot}) // sent away for straying
				if e.Slot >= 0 && e.Slot < game.MaxPlayers {
					v.sentAway[e.Slot] = true
				}
			} else {
				v.news = append(v.news, news{newsDropped, e.Slot})
			}
		case lockstep.EvRepaired:
			v.news = append(v.news, news{newsRepaired, e.Slot})
		case lockstep.EvRejoined:
			v.news = append(v.news, news{newsRejoined, e.Slot})
		}
	}
}

// read fills v from g's session, if it has a client yet. It reuses v's
// slices. g may be nil.
func (g *netGame) read(v *netView) {
	v.g = g
	if g == nil {
		return
	}
	c := g.client()
	if c == nil {
		return
	}
	select {
	case <-c.Done():
		err := c.Err()
		v.closed, v.lost = true, err != nil && !errors.Is(err, client.ErrClosed)
	default:
		v.closed, v.lost = false, false
	}
	c.Do(func(s *lockstep.Session) {
		v.ok = true
		v.phase, v.slot, v.host = s.Phase(), s.Slot(), s.IsHost()
		if v.phase == phaseStarting {
			v.sentAway = [game.MaxPlayers]bool{} // a new game
		}
		st := s.SetupState()
		players := v.setup.Players // ours, never the session's
		v.setup = st
		v.setup.Players = append(players[:0], st.Players...)
		v.status, v.refusal, v.leave = s.RoomStatus(), s.Refusal(), s.LeaveMessage()
		v.absent, v.apart = s.Apart()
		if d := s.Desync(); d != nil {
			cp := *d
			cp.Entries = append([]wire.HashEntry(nil), d.Entries...)
			v.desync = &cp
		} else {
			v.desync = nil
		}
		v.stats = s.Stats()
		v.rewound, v.stopped = s.Rewound(), s.StoppedText()
		v.silence = s.RoomSilence()
		v.lobbyQuiet = s.LobbySilence()
		chat := s.Chat()
		if len(chat) != len(v.chat) || (len(chat) > 0 && chat[len(chat)-1] != v.chat[len(v.chat)-1]) {
			v.chat = append(v.chat[:0], chat...)
		}
		if w := s.DisplayWorld(); w != nil {
			v.world, v.hasWorld = *w, true
		} else {
			v.hasWorld = false
		}
		v.events = append(v.events[:0], s.GameEvents()...)
		v.readNews(s.Events())
		v.names = s.Names()
		v.results, v.ended = s.Results()
		v.away = false
		if r, w, ok := s.AwayResults(); ok && !v.ended {
			// The game ended while we were away: its results, read
			// from the world the room kept, and that world behind them.
			v.results, v.away = r, true
			if !v.hasWorld {
				v.world = *w
			}
		}
		v.token = s.Token()
		list := v.succ.List // ours, never the session's
		v.succ = s.Successors()
		v.succ.List = append(list[:0], v.succ.List...)
	})
	v.roomHere = g.h != nil || c.Hosting()
	v.unfound = v.apart && c.OthersUnfound()
	if g.addr == "" {
		g.addr = c.HostAddr() // the invite code's address that answered
	}
	if c.Hosting() {
		g.mapSuccessorPort(c) // we took the game over: our own router, our own port
		g.tookOver(c.StandbyPort(), c.StandbyKey())
	}
	v.portmap, v.external = g.portmapStatus(), netip.AddrPort{}
	if v.portmap.Verdict == portmap.Opened {
		v.external = v.portmap.External
	}
	if n, slot := c.Handovers(); n > g.handovers {
		g.handovers = n
		if a := c.HostAddr(); a != "" {
			g.addr = a // where the game is now: a Rejoin goes there
		}
		if name, ok := c.Server(); ok && slot == migrate.OnServer {
			log.Printf("rockstep: the host went away and no player could carry the game on; %s", client.MovedText(name))
		} else {
			log.Printf("rockstep: the host went away; the player in slot %d hosts the game now", slot)
		}
		v.news = append(v.news, news{newsHosts, slot})
	}
	v.server, _ = c.Server()
	v.movedRoom, v.movedSecret = c.ServerRoom()
	v.moves, v.mover = g.handovers, -1
	if g.handovers > 0 {
		_, v.mover = c.Handovers()
	}
}

// act passes a lobby or game command of the flow's to the session: ready,
// start, a setup change, a chat line, the host's end, pause or kick.
func (g *netGame) act(e effect) {
	if g == nil {
		return
	}
	c := g.client()
	if c == nil {
		return
	}
	switch e.kind {
	case effReady:
		c.Do(func(s *lockstep.Session) { s.SetReady(e.ready) })
	case effStart:
		c.Do(func(s *lockstep.Session) { s.RequestStart() })
	case effSetup:
		c.Do(func(s *lockstep.Session) { s.ChangeSetup(e.setup) })
	case effSay:
		c.Do(func(s *lockstep.Session) { s.Say(e.text) })
	case effEndGame:
		c.Do(func(s *lockstep.Session) { s.EndGame() })
	case effPause:
		c.Do(func(s *lockstep.Session) { s.Pause(e.ready) })
	case effKick:
		c.Do(func(s *lockstep.Session) { s.Kick(e.slot) })
	}
}

// active reports whether there is a session, connected or not.
func (v *netView) active() bool { return v.g != nil }

// setInput sets the local ship's controls, sampled by the session on its
// own clock; none without a session.
func (v *netView) setInput(ship game.Input) {
	if v.g == nil {
		return
	}
	if c := v.g.client(); c != nil {
		c.SetInput(ship)
	}
}

// addr returns the address dialled, or where our room listens; "" with no
// session.
func (v *netView) addr() string {
	if v.g == nil {
		return ""
	}
	return v.g.addr
}

// hostFingerprint returns the fingerprint of the host key of the game
// (see netGame.hostFingerprint); "" with no session.
func (v *netView) hostFingerprint() string { return v.g.hostFingerprint() }

// predicting reports whether the session predicts: the displayed world
// may be corrected.
func (v *netView) predicting() bool { return v.g != nil && v.g.cfg.predict }

// reports returns where the game we host writes its replays and desync
// reports, and the path of the last report our room wrote (or ""); both
// "" when we do not host, or do not record.
func (v *netView) reports() (dir, last string) {
	if v.g == nil || v.g.h == nil || v.g.cfg.recordDir == "" {
		return "", ""
	}
	return v.g.cfg.recordDir, v.g.h.Stats().LastReport
}

// playerName returns the name of slot: as the game started, else in the
// roster, else "Player n".
func (v *netView) playerName(slot int) string {
	if slot >= 0 && slot < game.MaxPlayers && v.names[slot] != "" {
		return v.names[slot]
	}
	for _, p := range v.setup.Players {
		if int(p.Slot) == slot {
			return p.Name
		}
	}
	return fmt.Sprintf("Player %d", slot+1)
}

// netStatus reduces the view to what the flow decides on.
func (g *netGame) netStatus(v *netView) netStatus {
	if g == nil {
		return netStatus{}
	}
	dialing, err := g.status()
	n := netStatus{active: true, dialing: dialing, dialErr: err}
	if !v.ok {
		return n
	}
	n.phase, n.host, n.room, n.refusal, n.leave, n.closed, n.lost = v.phase, v.host, v.status.State, v.refusal, v.leave, v.closed, v.lost
	n.started, n.desync, n.ended = v.hasWorld, v.desync, v.ended
	n.awayResults = v.away
	return n
}

// faultOf reads a -fault spec ("": none; one that does not read: none,
// the command line checked it).
func faultOf(spec string) lockstep.Fault {
	if spec == "" {
		return lockstep.Fault{}
	}
	f, _ := lockstep.ParseFault(spec)
	return f
}
