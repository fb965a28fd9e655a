// Package wire defines every message Rockstep sends over the network and
// its binary encoding. The transport delivers every frame whole, so a frame
// needs no length prefix.
//
// A frame is: protocol version (1 byte), message type (1 byte), payload.
// Message type ids are only ever appended. Integers that are usually small
// are unsigned varints; inputs are packed as bits. Decoders never panic:
// malformed, truncated, oversized or wrong-version input is rejected with an
// error that names the message and the problem.
package wire

import (
	"net/netip"
	"strconv"

	"rockstep/game"
)

// Version is the protocol version written in every frame. A peer speaking
// another version is refused (and a LAN listing shows it as incompatible).
//
// Version 2: games end at a confirmed turn (ClientPacket.Ended,
// RoomStatus.End and Final, EventEnd), a player who quits is told apart
// from one who was dropped (EventLeft), Start names the players, and a
// start request names the game it is for (SetupState.Game, StartGame.Game),
// and the handshake is the transport's alone (no Hello or Cookie message,
// no cookie in Join).
//
// Version 3: a client input has 6 bits (game.Hyperspace), and a setup
// carries Saucers and Hyperspace after FriendlyFire.
//
// Version 4: the host can kick a player from the lobby (Kick,
// RefuseBanned), and every frame travels sealed by the transport (its
// protocol 2), which a version 3 peer cannot speak: a LAN listing shows
// the one to the other as incompatible rather than failing at the join.
//
// Version 5: host migration. Players say where they would host the game
// (Standby), the room names the successors in order (Successors), a Join
// may resume a game at a turn (Join.Resuming, Welcome.Resumed), and a host
// leaving by choice says so (LeaveHandover).
//
// Version 6: Successors carries the game's LAN listing id (Listing), so
// that a successor lists the game under the id it had, and a successor
// that finds an earlier one leading too gives it the game (LeaveYield).
//
// Version 7: the room says which players' machines cannot keep up
// (RoomStatus.Slow) and sends one away that stays so (LeaveTooSlow); a
// Join carries the digest of the build's rules (Join.Rules), which the
// room checks (RefuseRules); a vacant slot's inputs carry game.Away; the
// transport (its protocol 3) validates a new address with a challenge
// before a session moves there, which a version 6 peer cannot answer.
// CreateRoom carries the server's room key (CreateRoom.Key), refused
// without it by RefuseRoomKey, and whether the room is listed; a server
// answers RoomListRequest with the rooms it lists (RoomList).
//
// Version 8: a world one machine hands another is vouched for by a
// cryptographic digest (WorldSum), not the checksum: the room asks the
// players for the digest of their world at a turn (DigestRequest), and
// they answer with it (Digest).
const Version = 8

// DefaultPort is the UDP port a game is hosted on, and a server listens
// on, unless told otherwise; joining "host" without a port means this one.
const DefaultPort = 7777

// Limits of the protocol. Every decoder enforces them.
const (
	MaxFrame      = 1400 // bytes of one frame, header included
	MaxName       = 24   // bytes of a player or room name
	MaxChat       = 200  // bytes of a chat line
	MaxText       = 200  // bytes of a refusal or leave text
	MaxRoomKey    = 64   // bytes of a server's room key (CreateRoom.Key)
	MaxListRooms  = 16   // rooms in one RoomList (16 of at most 58 bytes fit a frame, with RoomList.Web)
	MaxWebBase    = 128  // bytes of a server's web face's base URL (RoomList.Web)
	MaxK          = 8    // ticks per turn (iterations_per_command)
	MaxDelay      = 16   // input delay, in turns
	MaxBatch      = 16   // turns in one client or master packet
	MaxEvents     = 8    // room events in one master turn
	MaxChunk      = 1024 // bytes of snapshot data in one chunk
	MaxChunks     = 64   // chunks of one snapshot (64 KiB, far above game.MaxSnapshotSize)
	SpectatorSlot = 0xFF // the slot of a spectator
)

// Type identifies a message. Values are only ever appended.
type Type uint8

// Message types.
const (
	// Ids 1 and 2 were Hello and Cookie, a handshake that the transport now
	// makes itself (net/transport). They stay reserved: never reuse them.
	typeReservedHello  Type = 1
	typeReservedCookie Type = 2

	TypeJoin            Type = 3  // client → room: join as player or spectator
	TypeWelcome         Type = 4  // room → client: you are in
	TypeRefuse          Type = 5  // room → client: you are not
	TypeSetupState      Type = 6  // room → all: the full setup and roster
	TypeSetupChange     Type = 7  // host player → room: change the setup
	TypeReady           Type = 8  // client → room: ready or not
	TypeStart           Type = 9  // room → client: the game starts
	TypeClientPacket    Type = 10 // client → room: inputs per turn, hash, stats
	TypeMasterPacket    Type = 11 // room → client: every player's inputs per turn
	TypePing            Type = 12 // either way: measure round trip
	TypePong            Type = 13 // answer to Ping
	TypeLeave           Type = 14 // either way: going away, and why
	TypeSnapshotRequest Type = 15 // room → client: send your snapshot
	TypeSnapshotChunk   Type = 16 // either way: part of a world snapshot
	TypeDesyncReport    Type = 17 // room → all: the game stopped on a desync
	TypeChat            Type = 18 // either way: a chat line
	TypeRoomStatus      Type = 19 // room → all: state, child state, who is late or gone
	TypePause           Type = 20 // host player → room: pause or resume
	TypeStartGame       Type = 21 // host player → room: start now (everyone is ready)
	TypeCreateRoom      Type = 22 // client → server: open a new room
	TypeRoomCreated     Type = 23 // server → client: the new room's id
	TypeEndGame         Type = 24 // host player → room: the game is over (or the host ends it)
	TypeKick            Type = 25 // host player → room: remove a player from the lobby, for the room's life
	TypeStandby         Type = 26 // player → room: where it would host the game if the host went away
	TypeSuccessors      Type = 27 // room → all: who hosts the game next, in order
	TypeRoomListRequest Type = 28 // client → server: which rooms do you list?
	TypeRoomList        Type = 29 // server → client: the rooms it lists publicly
	TypeRepair          Type = 30 // either way: a strayed world is repaired (room → client), or was (client → room)
	TypeDigestRequest   Type = 31 // room → client: send the digest of your world at the end of a turn
	TypeDigest          Type = 32 // client → room: the digest of its world at the end of a turn
	TypeMoveGame        Type = 33 // player → server: carry on a game no player can host (the last successor)
)

// Message is any message of this package.
type Message interface {
	Type() Type
}

// Join asks to join a room, as a new player, a returning player (Token
// set), or a spectator.
type Join struct {
	RoomID   uint32   // 0: the server's default room
	PlayerID [16]byte // random per install
	Name     string   // at most MaxName bytes
	Token    [16]byte // zero for a new player; the session token to reclaim a slot
	Spectate bool
	// Resuming: the player comes to a successor's room after the host went
	// away, and holds the game up to master turn Resume (the next one it
	// needs); the room carries it on from there if it can (Welcome.Resumed).
	Resuming bool
	Resume   uint32
	// Rules is the digest of the joining build's rules (game.RulesDigest):
	// a room admits only players whose rules are its own. 0: not said (a
	// probe, or a test's raw Join).
	Rules uint64
	// Secret is the secret of an unlisted room on a server
	// (RoomCreated.Secret, carried by the room's invite code), whose id is
	// SecretRoom(Secret): without it, a server answers a Join for that
	// room as for a room that does not exist. 0: none (written only when
	// set, so that a Join without it is the same bytes as before).
	Secret uint64
}

// UnlistedRooms is the bit set in the ids of a server's unlisted rooms
// (SecretRoom); the ids of the rooms it lists are below it, counted from
// 1, so that the room list shows no gap where an unlisted room is.
const UnlistedRooms = 1 << 31

// SecretRoom returns the id of the unlisted room whose secret is secret:
// its high 32 bits with UnlistedRooms set. The secret's 64 random bits are
// what a Join must carry; a guessed id, alone, opens nothing.
func SecretRoom(secret uint64) uint32 { return uint32(secret>>32) | UnlistedRooms }

// Welcome admits a client to a room.
type Welcome struct {
	RoomID uint32
	Slot   uint8 // SpectatorSlot for a spectator
	Token  [16]byte
	State  RoomState
	// Resumed answers a resuming Join: the room sends the master turns from
	// the player's Resume on, and the game goes on with no snapshot.
	// Otherwise a resuming player catches up from a snapshot.
	Resumed bool
}

// RefuseReason says why a Join was refused.
type RefuseReason uint8

// Refusal reasons.
const (
	RefuseFull      RefuseReason = 1
	RefuseRunning   RefuseReason = 2 // the game has started and spectators are off
	RefuseBadToken  RefuseReason = 3
	RefuseVersion   RefuseReason = 4
	RefuseNoRoom    RefuseReason = 5
	refuseReserved  RefuseReason = 6 // reserved: was a bad handshake cookie, which the transport now refuses itself
	RefuseShutdown  RefuseReason = 7
	RefuseRateLimit RefuseReason = 8
	RefuseBanned    RefuseReason = 9 // the room's host removed this player
	// RefuseNotHosting: a successor asked to carry the game on still
	// plays under a host (the first successor, or the old host it still
	// hears): the resuming player walks the successor list again.
	RefuseNotHosting RefuseReason = 10
	// RefuseMoving: a successor asked to carry the game on lost the host
	// too, but is on its way to another successor's room: the resuming
	// player walks the successor list again.
	RefuseMoving RefuseReason = 11
	// RefuseRules: the player's build plays by other rules than the room's
	// (Join.Rules differs): its game would desync on the first turn.
	RefuseRules RefuseReason = 12
	// RefuseRoomKey: a server that opens rooms only for holders of its
	// room key got a CreateRoom without a key it hands out.
	RefuseRoomKey   RefuseReason = 13
	refuseReasonEnd              = 14
)

// refuseNames name the refusal reasons, as logs and the bots print them.
var refuseNames = [refuseReasonEnd]string{
	RefuseFull: "full", RefuseRunning: "running", RefuseBadToken: "bad token", RefuseVersion: "version",
	RefuseNoRoom: "no room", RefuseShutdown: "shutdown", RefuseRateLimit: "rate limit", RefuseBanned: "banned",
	RefuseNotHosting: "not hosting", RefuseMoving: "moving", RefuseRules: "rules", RefuseRoomKey: "room key",
}

// String names the reason, or gives its number if it has no name.
func (r RefuseReason) String() string {
	if int(r) < len(refuseNames) && refuseNames[r] != "" {
		return refuseNames[r]
	}
	return "reason " + strconv.Itoa(int(r))
}

// Refuse turns a Join away.
type Refuse struct {
	Reason RefuseReason
	Text   string // what the reason does not say, if anything; at most MaxText bytes
}

// RoomState is the parent state of a room (docs/ARCHITECTURE.md §2).
type RoomState uint8

// Room states.
const (
	StateSetup    RoomState = 0
	StateRunning  RoomState = 1
	StateFinished RoomState = 2
)

// roomStateNames are the room states' names, indexed by RoomState.
var roomStateNames = [...]string{StateSetup: "setup", StateRunning: "running", StateFinished: "finished"}

// String returns the state's name as logs print it and LAN listings
// publish it ("setup", "running", "finished"), or "state(N)" for a value
// that is no room state.
func (s RoomState) String() string {
	if int(s) < len(roomStateNames) {
		return roomStateNames[s]
	}
	return "state(" + strconv.Itoa(int(s)) + ")"
}

// ParseRoomState returns the room state String names, and false for any
// other name.
func ParseRoomState(name string) (RoomState, bool) {
	for s, n := range roomStateNames {
		if n == name {
			return RoomState(s), true
		}
	}
	return 0, false
}

// Child is the child state of a running room.
type Child uint8

// Child states.
const (
	ChildIterating Child = 0
	ChildLagging   Child = 1 // a player's packet is late; everyone waits
	ChildVacancy   Child = 2 // a player is gone; their slot is held for a while
	ChildPaused    Child = 3
	ChildDesynced  Child = 4
)

// Player is one roster entry of SetupState.
type Player struct {
	Slot      uint8
	Ready     bool
	Host      bool // this player may change the setup and start
	Connected bool
	Colour    uint8  // index into the palette
	Ping      uint16 // ms, as last measured; 0 until it is
	ID        [16]byte
	Name      string
}

// SetupState is the full setup and roster, broadcast after every change and
// now and then besides, so that a lost copy is soon replaced. It is sent in
// every state: spectators and players of a running game see the roster too.
type SetupState struct {
	Revision uint32 // grows with every change
	RoomID   uint32
	Game     uint32 // the room's game this setup is for: 1 for the first, one more for every rematch
	Name     string // the room's name
	Setup    game.Setup
	MaxSlots uint8
	Players  []Player // at most game.MaxPlayers, in slot order
}

// SetupChange asks the room to replace the setup (the host player only).
// The Seed and Players fields are the room's to set and are ignored.
type SetupChange struct {
	Setup game.Setup
}

// Ready says whether the sender is ready to start.
type Ready struct {
	Ready bool
}

// Start begins the game. It is repeated until the client's first client
// packet arrives. A client joining a running game from a snapshot gets a
// Start whose FirstTurn is the turn after the snapshot, with the timing in
// force then and any change already announced for later (ChangeAt, zero if
// none).
type Start struct {
	Setup       game.Setup              // with Seed and Players filled in
	Names       [game.MaxPlayers]string // the players' names as the game started, by slot (only slots in Setup.Players are sent)
	FirstTurn   uint32
	K           uint8 // ticks per turn
	Delay       uint8 // input delay in turns
	ChangeAt    uint32
	ChangeK     uint8
	ChangeDelay uint8
}

// CreateRoom asks a dedicated server to open a room with this name and
// setup (Setup.Seed non-zero fixes the game's seed; Players is ignored).
// The answer is RoomCreated, or Refuse.
//
// Key is the server's room key, for a server that opens rooms only for
// players it handed one to (empty: none); it travels, as every frame,
// sealed by the transport. Unlisted asks the server to leave the room out
// of its room list: it is then joined by its id (an invite code) only.
type CreateRoom struct {
	Name     string
	Setup    game.Setup
	Key      string // at most MaxRoomKey bytes
	Unlisted bool
}

// RoomListRequest asks a server, from a connection in no room, for the
// rooms it lists publicly whose ids are above After (0: from the first),
// at most MaxListRooms an answer. The answer is RoomList.
type RoomListRequest struct {
	After uint32
}

// RoomInfo is one room of a RoomList, as a Join screen shows it.
type RoomInfo struct {
	RoomID  uint32
	Name    string    // the room's name, at most MaxName bytes
	Host    string    // the host player's name, at most MaxName bytes; "" while the room has none
	Players uint8     // players in it, connected or held for a reconnect
	Max     uint8     // 1 to game.MaxPlayers, at least Players
	State   RoomState // setup, running or finished
	Version uint8     // the protocol version the room speaks (Version)
}

// RoomList answers RoomListRequest: the listed rooms above its After, in
// ascending id order. More says there are more: ask again with After the
// last room's id.
type RoomList struct {
	Rooms []RoomInfo // at most MaxListRooms
	More  bool
	// Referee says the server runs the engine on every room's turns
	// (`-server -referee`): its world settles a desync no vote can.
	// Written only when set, so a list without it is the bytes a peer of
	// before the field sends and reads.
	Referee bool
	// Web is the base of the server's web face (`-server -web`), where
	// https://SERVER/join/CODE opens a room in a browser tab: a URL's
	// scheme and host ("https://example.org:8443"), the host left empty
	// ("https://:8443") for the one the client reached the server at; ""
	// when the server serves no web. At most MaxWebBase bytes. Written only
	// when set (after the referee byte, written then as 0 or 1); a peer of
	// before the field finds trailing bytes in such a list.
	Web string
}

// RoomCreated answers CreateRoom with the new room's id, to join with,
// and, for an unlisted room, its secret (0 for a listed one): the id is
// then SecretRoom(Secret), and every Join must carry the secret
// (Join.Secret), which the room's invite code carries too.
type RoomCreated struct {
	RoomID uint32
	Secret uint64 // written only when set
}

// EndGame asks the room to end the running game early (the host player
// only). The room puts EventEnd in the next master turn: every client stops
// at the end of that turn and shows the results of the world there. (A game
// that reaches game over needs no request: the clients report it with
// their hashes, ClientPacket.Ended.)
type EndGame struct{}

// StartGame asks the room to start game Game (the host player only; every
// player must be ready). A request for another game than the room's next
// (SetupState.Game) is stale and ignored: a start wish never outlives the
// game it was made for.
type StartGame struct {
	Game uint32
}

// TurnInput is one turn's input from one player: Count ticks, oldest first.
type TurnInput struct {
	Turn   uint32
	Count  uint8 // ticks, 1..MaxK
	Inputs [MaxK]game.Input
}

// ClientPacket carries a player's inputs for one or more turns (the newest,
// plus unacknowledged older ones again), the hash of a completed turn and
// timing statistics. Spectators send one with no turns as an acknowledgement.
type ClientPacket struct {
	Turns     []TurnInput // consecutive turns, oldest first, same Count each; at most MaxBatch
	MasterAck uint32      // every master turn below this has arrived
	HasHash   bool
	HashTurn  uint32 // the turn whose end state HashLow digests
	HashLow   uint32 // the low 32 bits of the world hash after HashTurn
	Ended     bool   // the game ended at the end of HashTurn (only with HasHash): the confirmed world is over there
	HasStats  bool
	RTT       uint16 // ms, measured by Ping/Pong
	FPS       uint8  // ticks a second the client's session sustains (once frames drawn; the name and encoding stay)
}

// EventKind is the kind of a RoomEvent.
type EventKind uint8

// Room events carried in master turns, so every engine sees them at the
// same turn.
const (
	EventJoin    EventKind = 1 // Slot reclaimed (reconnected)
	EventVacant  EventKind = 2 // Slot lost its connection; its inputs are empty meanwhile
	EventDrop    EventKind = 3 // Slot was dropped; its input carries game.Leave this turn
	EventTiming  EventKind = 4 // from turn At, K and Delay change
	EventPause   EventKind = 5 // the game pauses after this turn
	EventResume  EventKind = 6
	EventEnd     EventKind = 7 // the game ends after this turn (the host ended it)
	EventLeft    EventKind = 8 // Slot quit the game; its input carries game.Leave this turn
	EventStrayed EventKind = 9 // Slot was dropped: its world kept disagreeing with the others'; its input carries game.Leave this turn
	eventKindEnd           = 10
)

// RoomEvent is one room event.
type RoomEvent struct {
	Kind  EventKind
	Slot  uint8
	At    uint32 // EventTiming: first turn of the new timing
	K     uint8  // EventTiming
	Delay uint8  // EventTiming
}

// MasterTurn is one turn of the game: every present player's inputs and the
// room's events.
type MasterTurn struct {
	Turn    uint32
	Count   uint8 // ticks in this turn, 1..MaxK
	Players uint8 // bit i: slot i has inputs in this turn
	Inputs  [game.MaxPlayers][MaxK]game.Input
	Events  []RoomEvent // at most MaxEvents
}

// MasterPacket carries consecutive master turns (new ones and resends of
// ones not yet acknowledged) and tells the client which of its own turns the
// room holds.
type MasterPacket struct {
	ClientAck uint32       // every client turn below this has arrived from you
	Turns     []MasterTurn // consecutive, oldest first; at most MaxBatch
}

// Ping asks for a Pong. Time is the sender's clock, in µs, echoed back.
type Ping struct {
	ID   uint32
	Time int64
}

// Pong answers a Ping.
type Pong struct {
	ID   uint32
	Time int64
}

// LeaveReason says why a peer goes away.
type LeaveReason uint8

// Leave reasons.
const (
	LeaveQuit     LeaveReason = 1
	LeaveKicked   LeaveReason = 2
	LeaveShutdown LeaveReason = 3
	LeaveTimeout  LeaveReason = 4
	LeaveGameOver LeaveReason = 5
	LeaveHandover LeaveReason = 6 // the host is going away: go on with the first successor (Successors)
	// LeaveYield: two successors led the game at once (a partial network);
	// this one gives it to the other, named alone in the Successors sent
	// just before. Go there and catch up from its snapshot: the turns this
	// room compiled are not that room's.
	LeaveYield LeaveReason = 7
	// LeaveTooSlow: the player's machine could not keep up with the game
	// (RoomStatus.Slow said so for long enough); Text says how slow.
	LeaveTooSlow   LeaveReason = 8
	LeaveStrayed   LeaveReason = 9 // the player's world kept disagreeing with the others' (repaired more often than the room allows)
	leaveReasonEnd             = 10
)

// Leave says goodbye.
type Leave struct {
	Reason LeaveReason
	Text   string
}

// SnapshotRequest asks a client for a snapshot of its world at the end of
// turn Turn or the first turn after it that it completes.
type SnapshotRequest struct {
	Turn uint32
}

// SnapshotChunk is part Index of Total of a world snapshot taken at the end
// of Turn, whose full game.World.Hash is Hash.
type SnapshotChunk struct {
	Turn  uint32
	Hash  uint64
	Total uint8 // chunks, 1..MaxChunks
	Index uint8
	Data  []byte // at most MaxChunk bytes
}

// RepairKind says what a Repair message is.
type RepairKind uint8

// Repair kinds.
const (
	// RepairWorld (room → a strayed player): your world differed from the
	// majority's at turn Turn; theirs follows in SnapshotChunks (of Turn or
	// a later turn): restore it and execute again the master turns after it.
	RepairWorld RepairKind = 1
	// RepairRewind (room → every player): no majority agreed at turn
	// Upto; restore your own world of turn Turn, the last turn every hash
	// agreed on, and execute again the master turns after it.
	RepairRewind RepairKind = 2
	// RepairDone (player → room): the world of turn Turn was restored and
	// the turns after it executed again up to turn Upto, whose hash is
	// the next one reported.
	RepairDone    RepairKind = 3
	repairKindEnd            = 4
)

// DigestRequest asks a player for the digest of its world at the end of
// Turn (or, if it has not completed Turn yet, when it does). The room
// asks for a turn ahead of every player's, so that each computes the
// digest as it completes the turn and keeps no old world for it.
type DigestRequest struct {
	Turn uint32
}

// SumSize is the size of a world digest: SHA-256 truncated to 128 bits.
const SumSize = 16

// Sum is a world digest (WorldSum).
type Sum [SumSize]byte

// Digest answers DigestRequest: the player's world at the end of Turn,
// as its checksum (game.Sum64 of its snapshot, the world hash) and its
// digest (WorldSum of the same bytes). A world the player hands out for
// that turn must match both: the room compares worlds by Sum, and a
// world whose Hash matches another's while its Sum does not was forged
// to collide.
type Digest struct {
	Turn uint32
	Hash uint64
	Sum  Sum
}

// Repair moves a world that strayed back into step with the others' (see
// docs/ARCHITECTURE.md §1, "Desync repair").
type Repair struct {
	Kind RepairKind
	Turn uint32
	Upto uint32
}

// HashEntry is one player's reported hash.
type HashEntry struct {
	Slot    uint8
	HashLow uint32
}

// DesyncReport tells everyone the game stopped because the hashes players
// reported for Turn differ.
type DesyncReport struct {
	Turn    uint32
	Entries []HashEntry // at most game.MaxPlayers
}

// Chat is a chat line. From is filled in by the room.
type Chat struct {
	From uint8
	Text string
}

// EndReason says why a game ended (RoomStatus.End).
type EndReason uint8

// End reasons.
const (
	EndGameOver  EndReason = 1 // the confirmed world reached game over at the end of turn Final
	EndByHost    EndReason = 2 // the host ended the game: EventEnd in turn Final
	EndEmpty     EndReason = 3 // every player left
	endReasonEnd           = 4
)

// RoomStatus tells everyone the room's state, its child state and who it
// waits for. Sent on every change and now and then besides.
type RoomStatus struct {
	State     RoomState
	Child     Child
	Turn      uint32 // newest master turn
	Lagging   uint8  // bit i: slot i is late
	Vacant    uint8  // bit i: slot i is disconnected and held
	VacancyMs uint32 // ms until the first vacant slot is dropped
	// Finished: why the game ended (0 while it runs) and its last turn.
	// Every client stops at the end of the first turn after which its
	// confirmed world is over or that carries EventEnd; Final is that turn.
	End   EndReason
	Final uint32
	// Slow: bit i says slot i's machine does not keep up with the game (its
	// frames or ticks come too slowly for the longest turn the room allows
	// one player to ask for); it is sent away if it stays so.
	Slow uint8
}

// Kick asks the room to remove the player in Slot from its lobby (the host
// player only, during setup). The room refuses that player's id for as
// long as it is open.
type Kick struct {
	Slot uint8
}

// Pause asks the room to pause or resume (the host player only).
type Pause struct {
	Paused bool
}

// Standby tells the room where this player would host the game if the
// host went away: the UDP port it listens on (the room knows its address)
// and the fingerprint of its host key; and which other players' standby
// ports answered its probes.
type Standby struct {
	Port  uint16   // 0: it cannot host
	Key   [16]byte // the host key's fingerprint (transport.Fingerprint, as bytes)
	Reach uint8    // bit i: slot i's standby port answered this player
	// Appended (optional on the wire: left out when both are zero).
	// Probed: bit i: this player probed slot i's standby port lately,
	// answered or not (so the room tells "cannot reach" from "did not
	// try yet"). Outside: the address the player's router mapped for the
	// standby port (net/portmap), zero if none.
	Probed  uint8
	Outside netip.AddrPort
}

// Successor is one player that may host the game next.
type Successor struct {
	Slot      uint8
	Addr      netip.AddrPort // where it accepts the others
	Key       [16]byte       // its host key's fingerprint
	Confirmed bool           // every other player reached it
	// Appended. Outside: the address its router mapped for its standby
	// port (Standby.Outside), zero if none; dialled beside Addr.
	// Unreached: the others' probes show that no strict majority of the
	// game's members can reach it: it is listed (last) so that the
	// players keep probing it, but a walk passes it over, itself
	// included: it never takes the game alone.
	Outside   netip.AddrPort
	Unreached bool
}

// Successors tells every player, in order, who hosts the game if the host
// goes away: confirmed candidates first, lowest slot first. Tokens proves
// each returning player to the successor's room: the first 16 bytes of the
// SHA-256 of every slot's session token (zero for no slot), so that no
// player learns another's token.
type Successors struct {
	Game   uint32
	Turn   uint32      // the newest master turn when the list was made
	List   []Successor // at most game.MaxPlayers
	Tokens [game.MaxPlayers][16]byte
	// Listing is the id of the game's LAN listing (lan.Info.ID, 16 hex
	// digits, as 8 bytes); zero if the game is not listed. A successor
	// lists the game under the same id, so LAN lists show it move.
	Listing [8]byte
	// Appended. Servers are the community servers the game may move to
	// when no successor a majority can reach is left (the host's known
	// servers, carried with the game: docs/ARCHITECTURE.md, "A server as
	// the last successor"), at most MaxFallbackServers, in the host's
	// order.
	Servers []FallbackServer
}

// MaxFallbackServers bounds Successors.Servers.
const MaxFallbackServers = 4

// MaxServerAddr is the most bytes of a FallbackServer's address (a host
// name and port).
const MaxServerAddr = 255

// FallbackServer is a community server a game may move to.
type FallbackServer struct {
	Name string   // as the host calls it (at most MaxName bytes; "": say its address)
	Addr string   // "host:port", at most MaxServerAddr bytes
	Key  [16]byte // its host key's fingerprint (zero: not pinned yet)
}

// Label is how players are told of the server: its name, else its address.
func (s FallbackServer) Label() string {
	if s.Name != "" {
		return s.Name
	}
	return s.Addr
}

// MoveGame asks a server to open a room that carries on a running game
// whose players can reach none of each other (the game's last successor):
// the same game, setup, roster and token hashes, at turn Next; or a lobby
// (K zero: no game runs, no turn nor timing), with its ready marks and
// chat. Every
// player of the game sends it with the same Key (made from the game, not
// by any one player: net/migrate.MoveKey), and the server opens one room
// for that key: the first ask opens it, the later ones are sent to it. On
// the same connection the player then joins the room with its token (a
// resuming Join, room id 0), which the server routes to the moved room.
// The server answers a refused ask with a Refuse.
type MoveGame struct {
	Key     [16]byte
	RoomKey string     // the server's room key, if it asks for one (CreateRoom.Key)
	State   SetupState // the game's name, number, setup and roster (RoomID ignored)
	Names   [game.MaxPlayers]string
	Tokens  [game.MaxPlayers][16]byte // the token hashes (Successors.Tokens)
	// Present: the slots still in the game; Expected: those of them the
	// room waits for (room.Handover).
	Present, Expected uint8
	Next              uint32 // the first turn the room compiles
	K, Delay          uint8
	PendingAt         uint32 // a timing change announced for later (0: none)
	PendingK          uint8
	PendingDelay      uint8
	// Chat is a moved lobby's last chat lines, oldest first (at most
	// MaxMoveChat, and as many as fit a frame): the server's lobby sends
	// them to a player who comes back on a new program. An appended tail.
	Chat []Chat
}

// MaxMoveChat bounds MoveGame.Chat (lines).
const MaxMoveChat = 32

func (Join) Type() Type            { return TypeJoin }
func (Welcome) Type() Type         { return TypeWelcome }
func (Refuse) Type() Type          { return TypeRefuse }
func (SetupState) Type() Type      { return TypeSetupState }
func (SetupChange) Type() Type     { return TypeSetupChange }
func (Ready) Type() Type           { return TypeReady }
func (Start) Type() Type           { return TypeStart }
func (ClientPacket) Type() Type    { return TypeClientPacket }
func (MasterPacket) Type() Type    { return TypeMasterPacket }
func (Ping) Type() Type            { return TypePing }
func (Pong) Type() Type            { return TypePong }
func (Leave) Type() Type           { return TypeLeave }
func (SnapshotRequest) Type() Type { return TypeSnapshotRequest }
func (SnapshotChunk) Type() Type   { return TypeSnapshotChunk }
func (DesyncReport) Type() Type    { return TypeDesyncReport }
func (Chat) Type() Type            { return TypeChat }
func (RoomStatus) Type() Type      { return TypeRoomStatus }
func (Pause) Type() Type           { return TypePause }
func (StartGame) Type() Type       { return TypeStartGame }
func (CreateRoom) Type() Type      { return TypeCreateRoom }
func (RoomCreated) Type() Type     { return TypeRoomCreated }
func (EndGame) Type() Type         { return TypeEndGame }
func (Kick) Type() Type            { return TypeKick }
func (Standby) Type() Type         { return TypeStandby }
func (Successors) Type() Type      { return TypeSuccessors }
func (RoomListRequest) Type() Type { return TypeRoomListRequest }
func (RoomList) Type() Type        { return TypeRoomList }
func (Repair) Type() Type          { return TypeRepair }
func (DigestRequest) Type() Type   { return TypeDigestRequest }
func (Digest) Type() Type          { return TypeDigest }
func (MoveGame) Type() Type        { return TypeMoveGame }
