// Package host runs Rockstep rooms over a transport: the dedicated
// `-server`, and the in-process host behind the Host button, whose own
// player reaches the room through a transport.Pipe with no network hop.
//
// Everything that touches a room happens on the transport's loop goroutine;
// other goroutines reach the host only through pipes, Stats and the
// metrics handler.
package host

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"log/slog"
	"net/netip"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"rockstep/game"
	"rockstep/internal/defaults"
	"rockstep/internal/peertext"
	"rockstep/internal/tokenbucket"
	"rockstep/net/lan"
	"rockstep/net/room"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// Config is a host's settings.
type Config struct {
	Name     string      // the default room's name (and the server's, on the LAN)
	Room     room.Config // template for every room; Random is the host's
	MaxRooms int         // rooms at once
	// MaxRoomsPerConn is how many rooms one connection may create;
	// MaxRoomsPerAddr how many rooms created from one IP address, and
	// MaxRoomsPerNet from one /24 (IPv4) or /64 (IPv6), may be open at
	// once. The address's limit is the lower and is checked first, so
	// that one machine cannot take its neighbours' share of their
	// network's. In-process clients are not counted.
	MaxRoomsPerConn int
	MaxRoomsPerAddr int
	MaxRoomsPerNet  int
	Linger          time.Duration // a finished or never-started room (not the default) left empty is closed after this
	Log             *slog.Logger  // nil: discard
	// Record, if set, records every game as a replay: into RecordFile for
	// the first game (later ones numbered), or into RecordDir, or (both
	// empty) into replay.DefaultFolder, which the game's Replays screen lists.
	Record     bool
	RecordFile string
	RecordDir  string
	// Handover, when the host stops while a game runs, hands the game to
	// its players (host migration) instead of ending it: the Host button,
	// and `-server -handover`.
	Handover bool
	// Goodbye is what the rooms tell their players when the host stops
	// and no game is handed over (the Leave's text): a server's is that it
	// is shutting down; a player who hosts names themself.
	Goodbye string
	// RoomKeys, if any, are the keys a CreateRoom must carry one of
	// (wire.CreateRoom.Key): the operator hands them to the players it
	// opens rooms for (`-server -room-key`). None: anyone may create rooms.
	// In-process clients need none.
	RoomKeys []string
	// OnGuestsSilent, if set, is called (on a goroutine of its own) when
	// every network connection in a room falls silent at once for
	// guestSilence: what a router that restarted and forgot the room's
	// port mapping looks like from here. The Host button and `-server
	// -portmap` ask the router again (portmap.Mapper.Suspect); a real
	// crash of the guests costs one extra question to the router.
	OnGuestsSilent func()
}

// LAN returns a host's settings for a LAN, the preset named as
// transport.LAN(), room.LAN() and lockstep.LAN() are.
func LAN() Config {
	return Config{Name: "Rockstep", Room: room.LAN(), MaxRooms: 256, MaxRoomsPerConn: 4, MaxRoomsPerAddr: 4, MaxRoomsPerNet: 16, Linger: 30 * time.Second,
		Goodbye: "the server is shutting down"}
}

// DefaultRoom is the id of the room a Join with RoomID 0 goes to.
const DefaultRoom = 1

// shutdownGrace is how long the host keeps the sockets open after telling
// every client it is closing, so the news gets out; longer while a client
// has not acknowledged it (a hand-over's Leave that never left a starved
// process sends its players down the crash path), up to endGrace and
// shutdownGrace from when the host was asked to stop: within the second a
// Standby's Close gives its adopted host.
const shutdownGrace = 200 * time.Millisecond

// endGrace bounds how long a host that stops waits for the players of a
// game that just ended to have every turn of it (room.Room.EndUndelivered)
// before it says goodbye. Shorter than the second a Standby's Close gives
// its adopted host, with shutdownGrace.
const endGrace = 700 * time.Millisecond

// Host runs rooms.
type Host struct {
	cfg   Config
	log   *slog.Logger
	start time.Time
	srv   *transport.Server
	web   atomic.Pointer[string] // the web face's base URL (SetWeb), nil for none

	rooms    map[uint32]*hosted
	byMaker  map[netip.Prefix]int // open rooms by the network of the connection that created them
	byAddr   map[netip.Addr]int   // open rooms by the address of the connection that created them
	moves    map[[16]byte]uint32  // the rooms opened for moved games, by their move key (move.go)
	order    []uint32
	nextRoom uint32                // the next listed room's id (below wire.UnlistedRooms)
	conns    map[room.ConnID]*conn // by the host's own connection id
	byNet    map[transport.ConnID]room.ConnID
	nextConn room.ConnID

	wake     chan struct{} // buffer of one: every attached pipe's frames for the host (PipeWake)
	pipeMu   sync.Mutex
	newPipes []*transport.Pipe
	pipes    map[room.ConnID]*transport.Pipe
	ownPipe  room.ConnID // the first pipe attached: this machine's player, the default room's host (0: none)

	closing   atomic.Bool
	shutAt    time.Duration
	stopAt    time.Duration // when the host was asked to stop (endGrace)
	cancel    context.CancelFunc
	rec       *recorders
	stats     statsBox
	dropped   [numHostDrops]uint64
	dlog      dropLog       // the drops above, one log line per reason per dropLogEvery
	lastIdle  time.Duration // the last sweep for connections in no room (idleSweepEvery)
	hungUp    uint64        // connections hung up on for room traffic sent in no room (onStray)
	lastStat  time.Duration
	listed    listing // the default room as last published
	lastFlush time.Duration

	roomDrops dropLog // the rooms' drops, logged per reason per interval

	keys     [][sha256.Size]byte // Config.RoomKeys, hashed (keyAllowed)
	created  uint64              // rooms opened for a CreateRoom
	refused  [numRefusals]uint64 // CreateRooms refused, by reason
	refusals dropLog             // the refusals above, one log line per reason per dropLogEvery

	// The id the default room's game is listed under on the LAN: made
	// with the host (or kept from the host it took over from), told to
	// the room once AdvertiseLAN runs, so that a successor lists the game
	// under the same id.
	lanID      string
	advertised atomic.Bool
	toldRoom   bool // the default room knows lanID (loop goroutine)

	allSilent bool // every guest in a room was silent at the last sweep (sweepSilence)

	yieldTo atomic.Pointer[wire.Successor] // Yield's successor, until the loop acts on it
	yielded atomic.Bool                    // the default room gave its game away
}

type hosted struct {
	r       *room.Room
	idleAt  time.Duration // when it was opened or its last game was seen running
	expired bool          // closed for running no game for lobbyLimit: removed at once
	emptyAt time.Duration // when it became empty, finished or never started (0: not)
	state   wire.RoomState
	maker   netip.Prefix // the network of the connection that created it; invalid: none counted
	asked   wire.CreateRoom
	askedBy netip.Addr  // the address that asked for it (invalid: not made by a CreateRoom)
	askedOn room.ConnID // the connection that asked for it

	// unlisted: its creator asked to leave it out of the room list
	// (CreateRoom.Unlisted). Its id is wire.SecretRoom(secret), and a
	// Join must carry the secret (see admits).
	unlisted bool
	secret   uint64
	moveKey  [16]byte // a moved game's (move.go); zero: none
}

// admits reports whether a Join with secret may reach the room: any for a
// listed room; for an unlisted one, its secret, compared in constant time.
// A Join it does not admit is answered as for a room that does not exist,
// so that nobody without the room's invite code can tell it is there.
func (hr *hosted) admits(secret uint64) bool {
	if !hr.unlisted {
		return true
	}
	var a, b [8]byte
	binary.LittleEndian.PutUint64(a[:], hr.secret)
	binary.LittleEndian.PutUint64(b[:], secret)
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// askedBefore returns the room made for the same CreateRoom from the same
// address on another connection that nobody has joined yet: a creator
// whose connection was lost before the answer came asks again on a new
// one, and must not make a second room. (Asks repeated on one connection
// are asks for more rooms, within the limits.)
func (h *Host) askedBefore(conn room.ConnID, from netip.Addr, m wire.CreateRoom) (uint32, bool) {
	for _, id := range h.order {
		hr := h.rooms[id]
		if st, _ := hr.r.State(); hr.askedBy == from && hr.askedOn != conn && hr.asked == m && st == wire.StateSetup && hr.r.Connections() == 0 && hr.r.Game() == 1 {
			return id, true
		}
	}
	return 0, false
}

// maxSecretTries bounds the secrets drawn for an unlisted room whose id
// (wire.SecretRoom) another room has: with at most MaxRooms rooms among
// 2³¹ ids, a second draw is already rare.
const maxSecretTries = 16

// newSecret returns a secret for a new unlisted room whose id no room has,
// or false if the system's randomness failed or every draw collided.
func (h *Host) newSecret() (uint64, bool) {
	var b [8]byte
	for range maxSecretTries {
		if _, err := rand.Read(b[:]); err != nil {
			return 0, false
		}
		secret := binary.LittleEndian.Uint64(b[:])
		if secret != 0 && h.rooms[wire.SecretRoom(secret)] == nil {
			return secret, true
		}
	}
	return 0, false
}

// newListedID returns the id of a new listed room: the next of the count,
// past the ids in use, below wire.UnlistedRooms.
func (h *Host) newListedID() uint32 {
	for {
		id := h.nextRoom
		h.nextRoom++
		if h.nextRoom >= wire.UnlistedRooms {
			h.nextRoom = DefaultRoom + 1 // 2³¹ rooms later: the default room stays
		}
		if h.rooms[id] == nil {
			return id
		}
	}
}

// conn is a connection as the host numbers it: over the network (net) or
// an in-process pipe (pipe set).
type conn struct {
	room    uint32 // 0: not in a room
	created int    // rooms this connection created
	addr    netip.AddrPort
	net     transport.ConnID
	pipe    *transport.Pipe
	stray   bool          // sent room traffic while in no room
	heard   time.Duration // the last frame from it (sweepSilence)
	strayAt time.Duration // when it first did

	moved      uint32             // the room a MoveGame on it asked for (move.go): its resuming Join goes there
	askedMove  bool               // it sent a MoveGame: a Join to room 0 is for that room (moved), not the default
	roomless   bool               // in no room since roomlessAt (seen by the idle sweep, or connected)
	roomlessAt time.Duration      // when it connected, or was first seen in no room
	creates    tokenbucket.Bucket // CreateRooms, at createPerS
	joins      tokenbucket.Bucket // Joins while in no room, at joinPerS
	lists      tokenbucket.Bucket // RoomListRequests, at listPerS
}

// Host-level drop reasons (frames the host itself turns away).
const (
	dropHostMalformed = iota
	dropHostNotJoined
	dropHostNoRoom
	dropHostRoomLimit  // CreateRoom over MaxRoomsPerConn or MaxRoomsPerNet
	dropHostCreateRate // CreateRoom over the connection's rate (createPerS): no answer
	dropHostNoJoin     // a connection closed for joining no room within joinGrace
	dropHostNoGame     // a created room closed for running no game for lobbyLimit
	dropHostListRate   // RoomListRequest over the connection's rate (listPerS): no answer
	dropHostJoinRate   // Join from a connection in no room over its rate (joinPerS): no answer
	numHostDrops
)

var hostDropNames = [numHostDrops]string{"host_malformed", "host_not_joined", "host_no_room", "host_room_limit",
	"host_create_rate", "host_no_join", "host_no_game", "host_list_rate", "host_join_rate"}

// Reasons a CreateRoom is refused (answered with a Refuse), counted in
// /metrics and logged once per reason per dropLogEvery.
const (
	refusedFull     = iota // the server holds MaxRooms rooms, or is stopping
	refusedLimit           // the creator's connection or address holds its share (MaxRoomsPerConn, MaxRoomsPerAddr)
	refusedRoomKey         // no room key, or not one of Config.RoomKeys
	refusedNetLimit        // the creator's network holds its share (MaxRoomsPerNet)
	numRefusals
)

var refusalNames = [numRefusals]string{"full", "limit", "room_key", "net_limit"}

// Words of the limits' refusals: one player's, and a network's (which a
// player who created nothing may meet, when its neighbours hold their
// network's share).
const (
	limitText    = "you have created as many rooms as one player may"
	netLimitText = "players on your network have as many rooms open as one network may; try again when one closes"
)

func refusalName(r int) string { return refusalNames[r] }

// roomKeyText is what a creator without a valid room key is told.
const roomKeyText = "this server opens rooms only for players with its room key"

// keyAllowed reports whether a CreateRoom's key lets it open a room. The
// keys are compared as SHA-256 digests in constant time, every key each
// time, so that neither the time an answer takes nor a key's length tells
// a guesser how close it came.
func (h *Host) keyAllowed(key string) bool {
	if len(h.keys) == 0 {
		return true
	}
	sum := sha256.Sum256([]byte(key))
	ok := 0
	for i := range h.keys {
		ok |= subtle.ConstantTimeCompare(sum[:], h.keys[i][:])
	}
	return ok == 1 && key != ""
}

// joinGrace is how long a connection may be in no room (since it connected,
// or since it left its room) before the host closes it: a player, a
// spectator or a bot joins a room within moments of connecting, and a
// room's creator hangs up once answered, while connections that never join
// would hold their network's share of sessions (transport.Config.MaxPerSubnet)
// with heartbeats alone. In-process clients are not closed.
const joinGrace = 5 * time.Second

// idleSweepEvery is how often the connections are looked at for joinGrace.
const idleSweepEvery = 500 * time.Millisecond

// guestSilence is how long every guest must have said nothing for the
// host to suspect its router (Config.OnGuestsSilent): a running game's
// clients send turns many times a second and a lobby's ping four times a
// second, so a second of silence from all of them at once is the network,
// and it comes before the transport's 3 s timeout drops them.
const guestSilence = time.Second

// createPerS and createBurst are the pace of one connection's CreateRooms,
// a person's (as chat's, room.Config.ChatPerS): more are dropped unanswered
// and counted, before they cost a look through the rooms.
const (
	createPerS  = 1
	createBurst = 4
)

// listPerS and listBurst are the pace of one connection's
// RoomListRequests: a Join screen refreshing its list, and paging through
// a full server (MaxRooms/wire.MaxListRooms pages) in a burst. More are
// dropped unanswered and counted.
const (
	listPerS  = 2
	listBurst = 16
)

// joinPerS and joinBurst are the pace of one connection's Joins while it
// is in no room: a client repeats its Join every 250 ms until answered
// (lockstep.Config.JoinEvery), and a Join that is let in moves the
// connection into its room, past this count. More are dropped unanswered
// and counted, so that one connection guesses at most a few dozen
// unlisted rooms' secrets before joinGrace closes it.
const (
	joinPerS  = 4
	joinBurst = 16
)

// lobbyLimit is how long a created room (not the default) may go without a
// game running, since it was opened or since its last game, before it is
// closed with its members told: rooms that never start expire even while
// someone sits in them, so a network's MaxRoomsPerNet rooms are held only
// as long as they are played.
const lobbyLimit = 10 * time.Minute

// makerNet is the network a room's creator is counted in: its /24 for
// IPv4, its /64 for IPv6 (one machine may hold many addresses of it).
func makerNet(ip netip.Addr) netip.Prefix {
	ip = ip.Unmap().WithZone("")
	bits := 64
	if ip.Is4() {
		bits = 24
	}
	p, _ := ip.Prefix(bits)
	return p
}

// New returns a host with its default room open.
func New(cfg Config) *Host {
	def := LAN()
	defaults.Positive(&cfg.MaxRooms, def.MaxRooms)
	defaults.Positive(&cfg.Linger, def.Linger)
	defaults.Positive(&cfg.MaxRoomsPerConn, def.MaxRoomsPerConn)
	defaults.Positive(&cfg.MaxRoomsPerAddr, def.MaxRoomsPerAddr)
	defaults.Positive(&cfg.MaxRoomsPerNet, def.MaxRoomsPerNet)
	if cfg.Room.MaxPlayers == 0 {
		cfg.Room = def.Room
	}
	if cfg.Name == "" {
		cfg.Name = def.Name
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := &Host{
		cfg:      cfg,
		log:      log,
		start:    time.Now(),
		rooms:    map[uint32]*hosted{},
		byMaker:  map[netip.Prefix]int{},
		byAddr:   map[netip.Addr]int{},
		moves:    map[[16]byte]uint32{},
		conns:    map[room.ConnID]*conn{},
		byNet:    map[transport.ConnID]room.ConnID{},
		pipes:    map[room.ConnID]*transport.Pipe{},
		wake:     make(chan struct{}, 1),
		nextRoom: DefaultRoom,
		nextConn: 1,
		lanID:    lan.NewGameID(),
	}
	for _, k := range cfg.RoomKeys {
		if k != "" {
			h.keys = append(h.keys, sha256.Sum256([]byte(k)))
		}
	}
	if cfg.Record {
		h.rec = &recorders{dir: cfg.RecordDir, file: cfg.RecordFile, log: log.Info}
		// The template's, for a default room not made by openRoom (a game
		// taken over: standby.go); openRoom names each room's own.
		h.cfg.Room.NewRecorder = func(_ game.Setup, name string) room.Recorder { return h.rec.newRecorder(DefaultRoom, name) }
	}
	h.cfg.Room.AddrOf = h.addrOf
	h.openRoom(cfg.Name, cfg.Room.Setup, 0)
	h.publishStats()
	return h
}

func (h *Host) now() time.Duration { return time.Since(h.start) }

// addrOf returns the IP address connection id comes from (none for an
// in-process pipe); rooms ask it on the loop goroutine.
func (h *Host) addrOf(id room.ConnID) netip.Addr {
	if cn := h.conns[id]; cn != nil && cn.addr.IsValid() {
		return cn.addr.Addr()
	}
	return netip.Addr{}
}

// openRoom creates a listed room and returns its id.
func (h *Host) openRoom(name string, setup game.Setup, seed uint64) uint32 {
	return h.openRoomAt(h.newListedID(), name, setup, seed)
}

// openRoomAt creates room id (one no room has) and returns its id.
func (h *Host) openRoomAt(id uint32, name string, setup game.Setup, seed uint64) uint32 {
	rc := h.cfg.Room
	rc.RoomID = id
	rc.Name = name
	rc.Random = rand.Reader
	rc.Seed = seed
	rc.Hosts = h.hostsOf(id)
	rc.OnRepair = func(n room.RepairNote) { h.logRepair(id, n) }
	if h.rec != nil {
		rc.NewRecorder = func(_ game.Setup, name string) room.Recorder { return h.rec.newRecorder(id, name) }
	}
	setup = setup.Options()
	if s := setup; s.Lives != 0 {
		s.Players = 1
		if s.Validate() == nil {
			rc.Setup = setup
		}
	}
	h.rooms[id] = &hosted{r: room.New(rc), idleAt: h.now()}
	h.order = append(h.order, id)
	h.log.Info("room opened", "room", id, "name", name)
	return id
}

// hostsOf returns room id's Config.Hosts: the player on this machine (the
// first in-process pipe: the Host button's; a test may attach more) hosts
// the default room, and a room a
// CreateRoom made is its creator's. A dedicated server has no pipe: its
// default room's host is the lowest non-vacant slot (room.hostSlot).
func (h *Host) hostsOf(id uint32) func(room.ConnID) bool {
	return func(c room.ConnID) bool {
		if id == DefaultRoom {
			return h.ownPipe != 0 && c == h.ownPipe
		}
		hr := h.rooms[id]
		return hr != nil && hr.askedOn != 0 && hr.askedOn == c // connection ids start at 1
	}
}

// Serve runs the host on srv until ctx is done; then it tells every client
// the server is stopping, gives the news a moment to get out, and returns.
func (h *Host) Serve(ctx context.Context, srv *transport.Server) error {
	h.srv = srv
	inner, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	defer cancel()
	go func() {
		select {
		case <-ctx.Done():
			h.closing.Store(true)
		case <-inner.Done():
		}
	}()
	err := srv.Run(inner, h)
	if h.rec != nil {
		h.rec.closeAll()
	}
	if ctx.Err() != nil && (err == nil || errors.Is(err, context.Canceled)) {
		return nil
	}
	return err
}

// Attach connects an in-process client through p, as if it had dialled.
// It may be called from any goroutine.
func (h *Host) Attach(p *transport.Pipe) {
	p.ShareHostWake(h.wake)
	h.pipeMu.Lock()
	h.newPipes = append(h.newPipes, p)
	h.pipeMu.Unlock()
	select {
	case h.wake <- struct{}{}: // take the new pipe in at once
	default:
	}
}

// Connected is called by the transport for a new, validated connection.
func (h *Host) Connected(c transport.ConnID, addr netip.AddrPort) {
	id := h.newConnID()
	h.byNet[c] = id
	h.conns[id] = &conn{addr: addr, net: c, roomless: true, roomlessAt: h.now(), heard: h.now()}
	h.log.Debug("connected", "conn", id, "addr", addr)
}

// AddrChanged follows a connection that the transport moved to its peer's
// new address (validated by a challenge): the rooms' standby entries and
// per-network counts ask addrOf, which must name where the peer is now.
func (h *Host) AddrChanged(c transport.ConnID, addr netip.AddrPort) {
	if cn := h.conns[h.byNet[c]]; cn != nil {
		cn.addr = addr
		h.log.Debug("moved", "conn", h.byNet[c], "addr", addr)
	}
}

// newConnID returns an id no connection of this host has had.
func (h *Host) newConnID() room.ConnID {
	id := h.nextConn
	h.nextConn++
	return id
}

// Message routes a frame to the connection's room, or handles a Join or
// CreateRoom from a connection not yet in one.
func (h *Host) Message(c transport.ConnID, frame []byte) {
	if id, ok := h.byNet[c]; ok {
		h.route(id, frame)
	}
}

// Disconnected tells the connection's room it is gone.
func (h *Host) Disconnected(c transport.ConnID, reason error) {
	id, ok := h.byNet[c]
	if !ok {
		return
	}
	delete(h.byNet, c)
	h.lose(id)
	h.log.Debug("disconnected", "conn", id, "reason", reason)
}

func (h *Host) lose(id room.ConnID) {
	if cn := h.conns[id]; cn != nil && cn.room != 0 {
		if hr := h.rooms[cn.room]; hr != nil {
			hr.r.Disconnected(h.now(), id)
			h.flush(hr)
		}
	}
	delete(h.conns, id)
}

func (h *Host) route(id room.ConnID, frame []byte) {
	now := h.now()
	cn := h.conns[id]
	if cn == nil {
		return
	}
	cn.heard = now
	if cn.room != 0 {
		if hr := h.rooms[cn.room]; hr != nil && hr.r.HasConn(id) {
			hr.r.Receive(now, id, frame)
			h.flush(hr)
			return
		}
		cn.room = 0 // left its room; it may join another
	}
	msg, err := wire.Decode(frame)
	if err != nil {
		h.dropped[dropHostMalformed]++
		return
	}
	switch m := msg.(type) {
	case wire.Join:
		h.onJoin(id, cn, now, m, frame)
	case wire.CreateRoom:
		h.onCreateRoom(id, cn, now, m)
	case wire.MoveGame:
		h.onMoveGame(id, cn, now, m)
	case wire.RoomListRequest:
		if cn.addr.IsValid() && !cn.lists.Take(now, listPerS, listBurst) {
			h.drop(dropHostListRate)
			return
		}
		h.reply(id, h.roomList(m.After))
	case wire.Ping:
		h.reply(id, wire.Pong{ID: m.ID, Time: m.Time})
		if cn.stray {
			// A player its room dropped in the lobby may have nothing more
			// to say than pings: they keep the grace's clock running too.
			h.onStray(id, cn, now)
		}
	default:
		h.dropped[dropHostNotJoined]++
		h.onStray(id, cn, now)
	}
}

// onJoin sends connection id's Join (cn's, in no room; frame is the
// Join's bytes) to its room: the one it names, the default one, or the
// one its MoveGame asked for (move.go); a missing or secret room it may
// not see is refused as missing.
func (h *Host) onJoin(id room.ConnID, cn *conn, now time.Duration, m wire.Join, frame []byte) {
	if cn.addr.IsValid() && !cn.joins.Take(now, joinPerS, joinBurst) {
		h.drop(dropHostJoinRate)
		return
	}
	target := m.RoomID
	moved := target == 0 && cn.askedMove // move.go: the room it asked for
	if moved && h.rooms[cn.moved] == nil {
		// Its MoveGame was refused: no room here carries the game,
		// and the default room is not it. Not hosting: the player
		// walks on.
		h.dropped[dropHostNoRoom]++
		h.reply(id, wire.Refuse{Reason: wire.RefuseNotHosting})
		return
	}
	if moved {
		target = cn.moved
	}
	if target == 0 {
		target = DefaultRoom
	}
	hr := h.rooms[target]
	if hr == nil || !moved && !hr.admits(m.Secret) {
		h.dropped[dropHostNoRoom]++
		h.reply(id, wire.Refuse{Reason: wire.RefuseNoRoom})
		return
	}
	hr.r.Receive(now, id, frame)
	if hr.r.HasConn(id) {
		cn.room, cn.stray = target, false
	}
	h.flush(hr)
}

// onCreateRoom opens the room connection id (cn) asks for, within the
// server's room keys, pace and limits; the same ask again on a new
// connection gets the same room.
func (h *Host) onCreateRoom(id room.ConnID, cn *conn, now time.Duration, m wire.CreateRoom) {
	if cn.addr.IsValid() && !cn.creates.Take(now, createPerS, createBurst) {
		h.drop(dropHostCreateRate)
		return
	}
	if cn.pipe == nil && !h.keyAllowed(m.Key) {
		h.refused[refusedRoomKey]++
		h.reply(id, wire.Refuse{Reason: wire.RefuseRoomKey, Text: roomKeyText})
		return
	}
	var maker netip.Prefix
	if cn.addr.IsValid() {
		maker = makerNet(cn.addr.Addr())
		if rid, ok := h.askedBefore(id, cn.addr.Addr(), m); ok {
			// The same ask from the same machine on a new connection:
			// the answer was lost with the last one. The same room,
			// not a second.
			h.reply(id, wire.RoomCreated{RoomID: rid, Secret: h.rooms[rid].secret})
			return
		}
	}
	if !h.mayOpen(id, cn, maker) {
		return
	}
	name := peertext.Clean(m.Name, wire.MaxName) // a client's text, shown in lobbies and LAN lists
	if name == "" {
		name = h.cfg.Name
	}
	var rid uint32
	var secret uint64
	if m.Unlisted {
		var ok bool
		if secret, ok = h.newSecret(); !ok {
			h.refused[refusedFull]++
			h.reply(id, wire.Refuse{Reason: wire.RefuseFull, Text: "the server could not make a secret for the room; try again"})
			return
		}
		rid = h.openRoomAt(wire.SecretRoom(secret), name, m.Setup, m.Setup.Seed)
	} else {
		rid = h.openRoom(name, m.Setup, m.Setup.Seed)
	}
	h.countOpened(rid, cn, maker)
	h.rooms[rid].asked, h.rooms[rid].askedBy, h.rooms[rid].askedOn = m, cn.addr.Addr(), id
	h.rooms[rid].unlisted, h.rooms[rid].secret = m.Unlisted, secret
	h.reply(id, wire.RoomCreated{RoomID: rid, Secret: secret})
}

// mayOpen reports whether connection id (cn, of network maker: invalid
// for a pipe) may open another room within the server's limits; if not,
// it answers with the refusal and counts it.
func (h *Host) mayOpen(id room.ConnID, cn *conn, maker netip.Prefix) bool {
	switch {
	case len(h.rooms) >= h.cfg.MaxRooms || h.closing.Load():
		h.refused[refusedFull]++
		h.reply(id, wire.Refuse{Reason: wire.RefuseFull, Text: "the server has no room for another room"})
		return false
	case cn.created >= h.cfg.MaxRoomsPerConn || maker.IsValid() && h.byAddr[cn.addr.Addr()] >= h.cfg.MaxRoomsPerAddr:
		h.dropped[dropHostRoomLimit]++
		h.refused[refusedLimit]++
		h.reply(id, wire.Refuse{Reason: wire.RefuseFull, Text: limitText})
		return false
	case maker.IsValid() && h.byMaker[maker] >= h.cfg.MaxRoomsPerNet:
		h.dropped[dropHostRoomLimit]++
		h.refused[refusedNetLimit]++
		h.reply(id, wire.Refuse{Reason: wire.RefuseFull, Text: netLimitText})
		return false
	}
	return true
}

// countOpened counts room rid, just opened for connection cn of network
// maker, against the limits (mayOpen).
func (h *Host) countOpened(rid uint32, cn *conn, maker netip.Prefix) {
	cn.created++
	h.created++
	if maker.IsValid() {
		h.rooms[rid].maker = maker
		h.byMaker[maker]++
		h.byAddr[cn.addr.Addr()]++
	}
}

// SetWeb tells the room lists where the server's web face is (base: a
// URL's scheme and host, the host left empty for the one the client
// reached the server at; see wire.RoomList.Web), so that a desktop lobby
// shows a room's https://SERVER/join/CODE link. A base over
// wire.MaxWebBase bytes is not given.
func (h *Host) SetWeb(base string) {
	if base == "" || len(base) > wire.MaxWebBase {
		h.web.Store(nil)
		return
	}
	h.web.Store(&base)
}

// roomList returns the rooms the host lists publicly with ids above
// after, at most wire.MaxListRooms: every room but those whose creator
// asked for them unlisted, and those closing. Names are cleaned as text
// (a room's and its host's come from clients).
//
// An unlisted room is not in it, nor counted: its id is of another range
// (wire.SecretRoom), so that the listed ids show no gap where it is.
func (h *Host) roomList(after uint32) wire.RoomList {
	l := wire.RoomList{Referee: h.cfg.Room.Referee}
	if w := h.web.Load(); w != nil {
		l.Web = *w
	}
	ids := make([]uint32, 0, len(h.order))
	for _, id := range h.order {
		if hr := h.rooms[id]; id > after && !hr.unlisted && !hr.expired {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids) // they ascend as opened, but for a count that wrapped
	for _, id := range ids {
		hr := h.rooms[id]
		if len(l.Rooms) == wire.MaxListRooms {
			l.More = true
			break
		}
		st, _ := hr.r.State()
		ri := wire.RoomInfo{RoomID: id, Name: peertext.Clean(hr.r.Name(), wire.MaxName), State: st, Version: wire.Version,
			Max: uint8(min(max(hr.r.MaxPlayers(), 1), game.MaxPlayers))}
		ri.Players = uint8(min(hr.r.PlayerCount(), int(ri.Max)))
		for _, p := range hr.r.Roster() {
			if p.Host {
				ri.Host = peertext.Clean(p.Name, wire.MaxName)
				break
			}
		}
		l.Rooms = append(l.Rooms, ri)
	}
	return l
}

// strayGrace is how long a connection may go on sending room traffic while
// in no room before the host hangs up on it. A player its room gave up on
// (silent past the room's timeout: a machine frozen for seconds) keeps a
// live connection if it speaks again before the transport's own timeout,
// and then plays on alone, unheard, for ever. Hung up, its client sees the
// connection lost and comes back with its token. The grace lets the last
// frames of a player who was kicked or left cross the Leave that tells it
// why.
const strayGrace = 2 * time.Second

// onStray notes room traffic from a connection in no room, and hangs up
// on one that keeps sending it.
func (h *Host) onStray(id room.ConnID, cn *conn, now time.Duration) {
	switch {
	case cn.pipe != nil || h.srv == nil:
		// An in-process client is the host's own window: it cannot be
		// frozen apart from the host.
	case !cn.stray:
		cn.stray, cn.strayAt = true, now
	case now-cn.strayAt >= strayGrace:
		h.log.Info("hung up on a connection its room had given up on", "conn", id, "addr", cn.addr)
		h.hungUp++
		h.srv.CloseConn(cn.net, transport.CloseTimeout)
	}
}

func (h *Host) reply(id room.ConnID, m wire.Message) {
	b, err := wire.Append(nil, m)
	if err != nil {
		return
	}
	h.sendTo(id, b)
}

func (h *Host) sendTo(id room.ConnID, frame []byte) {
	cn := h.conns[id]
	switch {
	case cn == nil:
	case cn.pipe != nil:
		if err := cn.pipe.SendToClient(frame); err != nil {
			h.log.Warn("in-process client not draining", "conn", id, "err", err)
		}
	case h.srv != nil:
		if wire.Unreliable(frame) && h.srv.SendDatagram(cn.net, frame) == nil {
			return
		}
		_ = h.srv.Send(cn.net, frame) // a full queue is the transport's to count
	}
}

func (h *Host) flush(hr *hosted) {
	hr.r.Flush(h.sendTo)
}

// Tick runs every room's timers, drains in-process clients, closes rooms
// that are done, and handles shutdown.
func (h *Host) Tick(wall time.Time) {
	now := h.now()
	if h.rec != nil && now-h.lastFlush >= time.Second {
		h.lastFlush = now
		h.rec.tick(wall)
	}
	h.pollPipes()
	if !h.toldRoom && h.advertised.Load() {
		h.toldRoom = true
		h.rooms[DefaultRoom].r.SetListing(listingBytes(h.lanID))
	}
	if to := h.yieldTo.Swap(nil); to != nil {
		hr := h.rooms[DefaultRoom]
		if hr.r.Yield(now, *to, "another player leads this game too") {
			h.log.Info("game given to another successor", "slot", to.Slot, "addr", to.Addr)
		}
		h.flush(hr)
		h.yielded.Store(true)
	}
	if h.closing.Load() {
		h.shutdown(now)
	}
	for i := 0; i < len(h.order); i++ {
		id := h.order[i]
		hr := h.rooms[id]
		hr.r.Tick(now)
		h.flush(hr)
		h.watch(id, hr, now)
		if id != DefaultRoom && (hr.expired || hr.emptyAt != 0 && now-hr.emptyAt > h.cfg.Linger) {
			h.stats.mu.Lock()
			add(&h.stats.closed, hr.r.Stats())
			h.stats.mu.Unlock()
			delete(h.rooms, id)
			if hr.moveKey != ([16]byte{}) && h.moves[hr.moveKey] == id {
				delete(h.moves, hr.moveKey)
			}
			if hr.maker.IsValid() {
				if h.byMaker[hr.maker]--; h.byMaker[hr.maker] <= 0 {
					delete(h.byMaker, hr.maker)
				}
				if h.byAddr[hr.askedBy]--; h.byAddr[hr.askedBy] <= 0 {
					delete(h.byAddr, hr.askedBy)
				}
			}
			h.order = append(h.order[:i], h.order[i+1:]...)
			i--
			h.log.Info("room closed", "room", id)
		}
	}
	if now-h.lastIdle >= idleSweepEvery {
		h.lastIdle = now
		h.sweepIdle(now)
		h.sweepSilence(now)
	}
	h.dlog.note(h.log, "host: dropped", now, h.dropped[:], hostDropName)
	h.refusals.note(h.log, "host: room refused", now, h.refused[:], refusalName)
	// Twice a second, and at once when the default room's player count
	// or state changes: the LAN listing shows them.
	if now-h.lastStat >= 500*time.Millisecond || h.listingChanged() {
		h.lastStat = now
		h.publishStats()
	}
}

// watch logs a room's state changes and notes when it is finished and empty.
func (h *Host) watch(id uint32, hr *hosted, now time.Duration) {
	st, _ := hr.r.State()
	if st != hr.state {
		h.log.Info("room state", "room", id, "state", st.String(), "players", hr.r.PlayerCount())
		hr.state = st
		if d := hr.r.Desync(); d != nil {
			h.log.Warn("desync", "room", id, "turn", d.Turn, "entries", len(d.Entries))
		}
	}
	// A created room that runs no game for lobbyLimit is closed, its
	// members told, even if someone is in it.
	switch {
	case st == wire.StateRunning:
		hr.idleAt = now
	case id != DefaultRoom && !hr.expired && now-hr.idleAt > lobbyLimit:
		hr.expired = true
		hr.r.Shutdown(now, "this room ran no game for too long")
		h.flush(hr)
		h.drop(dropHostNoGame)
	}
	// A room nobody is in expires once its game is over, or if its game
	// never started: rooms created and left empty do not pile up.
	if (st == wire.StateFinished || st == wire.StateSetup) && hr.r.Connections() == 0 {
		if hr.emptyAt == 0 {
			hr.emptyAt = now
		}
	} else {
		hr.emptyAt = 0
	}
}

// PipeWake is signalled when an in-process client queued a frame
// (transport.PipeWaker): the server's loop then calls Woken at once.
func (h *Host) PipeWake() <-chan struct{} { return h.wake }

// Woken hands the rooms what in-process clients sent, on the loop
// goroutine, between ticks.
func (h *Host) Woken(time.Time) { h.pollPipes() }

func (h *Host) pollPipes() {
	h.pipeMu.Lock()
	fresh := h.newPipes
	h.newPipes = nil
	h.pipeMu.Unlock()
	for _, p := range fresh {
		id := h.newConnID()
		h.pipes[id] = p
		h.conns[id] = &conn{pipe: p}
		if h.ownPipe == 0 {
			h.ownPipe = id // the Host button's player: the first to attach
		}
	}
	for id, p := range h.pipes {
		p.DrainHost(func(f []byte) { h.route(id, f) })
		if p.Closed() {
			h.lose(id)
			delete(h.pipes, id)
		}
	}
}

// shutdown tells every room's clients the server is stopping, then, after
// a grace period, stops the transport.
func (h *Host) shutdown(now time.Duration) {
	if h.shutAt == 0 {
		if h.stopAt == 0 {
			h.stopAt = now
		}
		if now-h.stopAt < endGrace && h.endUndelivered() {
			return // the rooms' Ticks resend the last turns meanwhile
		}
		h.shutAt = now
		h.log.Info("shutting down", "rooms", len(h.rooms))
		for _, id := range h.order {
			hr := h.rooms[id]
			if h.cfg.Handover && hr.r.HandOver(now, "the host left; the game goes on") {
				h.log.Info("game handed over", "room", id)
			} else {
				hr.r.Shutdown(now, h.cfg.Goodbye)
			}
			h.flush(hr)
		}
		return
	}
	if h.cancel == nil || now-h.shutAt < shutdownGrace {
		return
	}
	if now-h.stopAt >= endGrace+shutdownGrace || h.goodbyesDelivered() {
		h.cancel()
	}
}

// goodbyesDelivered reports whether every network client has acknowledged
// all the host sent it (the transport's queue to it is empty).
func (h *Host) goodbyesDelivered() bool {
	if h.srv == nil {
		return true
	}
	for _, cn := range h.conns {
		if cn.pipe == nil && h.srv.Queued(cn.net) > 0 {
			return false
		}
	}
	return true
}

// endUndelivered reports whether a room's players still lack turns of a
// game that just ended there.
func (h *Host) endUndelivered() bool {
	for _, id := range h.order {
		if h.rooms[id].r.EndUndelivered() {
			return true
		}
	}
	return false
}

// sweepSilence calls Config.OnGuestsSilent once when every network
// connection in a room has been silent for guestSilence, and again only
// after one of them (or a new one) was heard.
func (h *Host) sweepSilence(now time.Duration) {
	if h.cfg.OnGuestsSilent == nil {
		return
	}
	if silent := guestsSilent(h.conns, now); silent != h.allSilent {
		h.allSilent = silent
		if silent {
			h.log.Info("every guest fell silent at once: asking the router again")
			go h.cfg.OnGuestsSilent()
		}
	}
}

// guestsSilent says whether there is at least one network connection in a
// room and none of them was heard within guestSilence of now.
func guestsSilent(conns map[room.ConnID]*conn, now time.Duration) bool {
	n := 0
	for _, cn := range conns {
		if cn.pipe != nil || cn.room == 0 {
			continue
		}
		if now-cn.heard < guestSilence {
			return false
		}
		n++
	}
	return n > 0
}

// sweepIdle closes the network connections that have been in no room for
// joinGrace (see joinGrace).
func (h *Host) sweepIdle(now time.Duration) {
	if h.srv == nil {
		return
	}
	for id, cn := range h.conns {
		if cn.pipe != nil {
			continue
		}
		if hr := h.rooms[cn.room]; cn.room != 0 && hr != nil && hr.r.HasConn(id) {
			cn.roomless = false
			continue
		}
		switch {
		case !cn.roomless:
			cn.roomless, cn.roomlessAt = true, now
		case now-cn.roomlessAt >= joinGrace:
			h.drop(dropHostNoJoin)
			h.srv.CloseConn(cn.net, transport.CloseTimeout)
		}
	}
}

// drop counts a host drop of reason r; Tick logs it (dropLog).
func (h *Host) drop(r int) { h.dropped[r]++ }

// hostDropName names a host drop reason, for the log.
func hostDropName(r int) string { return hostDropNames[r] }

// logRepair logs a room's desync repair (room/repair.go).
func (h *Host) logRepair(id uint32, n room.RepairNote) {
	switch n.Kind {
	case room.RepairStrayed:
		h.log.Info("a player's world strayed from the majority's: repairing it", "room", id, "slot", n.Slot, "name", n.Name, "turn", n.Turn)
	case room.RepairDone:
		h.log.Info("a player's world was repaired", "room", id, "slot", n.Slot, "name", n.Name, "turn", n.Turn, "took", n.Took)
	case room.RepairRewound:
		h.log.Info("the hashes split with no majority: every player rewinds to the last agreed turn", "room", id, "turn", n.Turn)
	case room.RepairSentAway:
		h.log.Warn("a player kept disagreeing with the others, or lied again about its world: sent away", "room", id, "slot", n.Slot, "name", n.Name)
	case room.RepairStopped:
		h.log.Warn("the hashes split again after a rewind and no world shows one side right: the game stops", "room", id, "turn", n.Turn)
	case room.RepairLied:
		h.log.Warn("a player's world did not match its own reports of that turn: refused, its reports no longer count", "room", id, "slot", n.Slot, "name", n.Name, "turn", n.Turn)
	case room.RepairCalledOff:
		h.log.Info("no checked world backed the numbers a player strayed by: it is back in step", "room", id, "slot", n.Slot, "name", n.Name, "turn", n.Turn)
	}
}
