package room_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/net/room"
	"rockstep/net/wire"
)

// peer is a hand-driven client: it sends frames to the room and keeps what
// the room sent it.
type peer struct {
	t    testing.TB
	conn room.ConnID
	got  []wire.Message
}

type bench struct {
	t     testing.TB
	r     *room.Room
	now   time.Duration
	peers map[room.ConnID]*peer
}

func newBench(t testing.TB, mod func(*room.Config)) *bench {
	t.Helper()
	cfg := room.LAN()
	cfg.Random = rand.NewChaCha8([32]byte{1})
	cfg.FixedTiming = true
	cfg.K = 2 // the tests below speak of turns of two ticks
	if mod != nil {
		mod(&cfg)
	}
	return &bench{t: t, r: room.New(cfg), peers: map[room.ConnID]*peer{}}
}

func (b *bench) peer(conn room.ConnID) *peer {
	p := b.peers[conn]
	if p == nil {
		p = &peer{t: b.t, conn: conn}
		b.peers[conn] = p
	}
	return p
}

func (b *bench) flush() {
	b.r.Flush(func(c room.ConnID, f []byte) {
		m, err := wire.Decode(f)
		if err != nil {
			b.t.Fatalf("the room sent a frame that does not decode: %v", err)
		}
		p := b.peer(c)
		p.got = append(p.got, m)
	})
}

func (b *bench) send(conn room.ConnID, m wire.Message) {
	b.t.Helper()
	f, err := wire.Append(nil, m)
	if err != nil {
		b.t.Fatalf("encode %T: %v", m, err)
	}
	b.r.Receive(b.now, conn, f)
	b.flush()
}

func (b *bench) tick(d time.Duration) {
	b.now += d
	b.r.Tick(b.now)
	b.flush()
}

// last returns the newest message of type T the peer received, and clears
// its inbox.
func last[T wire.Message](p *peer) (T, bool) {
	var zero T
	found := false
	for _, m := range p.got {
		if v, ok := m.(T); ok {
			zero, found = v, true
		}
	}
	p.got = p.got[:0]
	return zero, found
}

func (b *bench) join(conn room.ConnID, name string) wire.Welcome {
	b.t.Helper()
	b.send(conn, wire.Join{Name: name, PlayerID: [16]byte{byte(conn)}})
	w, ok := last[wire.Welcome](b.peer(conn))
	if !ok {
		b.t.Fatalf("%s: no Welcome", name)
	}
	return w
}

// startGame joins n players, readies them and starts.
// joinReady joins a player of each name, on connections 1, 2, …, and has
// them all ready.
func (b *bench) joinReady(names ...string) []wire.Welcome {
	b.t.Helper()
	var ws []wire.Welcome
	for i, name := range names {
		ws = append(ws, b.join(room.ConnID(i+1), name))
	}
	for i := range names {
		b.send(room.ConnID(i+1), wire.Ready{Ready: true})
	}
	return ws
}

func (b *bench) startGame(n int) []wire.Welcome {
	b.t.Helper()
	names := make([]string, n)
	for i := range names {
		names[i] = "p"
	}
	ws := b.joinReady(names...)
	b.send(1, wire.StartGame{Game: b.r.Game()})
	if st, _ := b.r.State(); st != wire.StateRunning {
		b.t.Fatalf("state after start = %d, want running", st)
	}
	return ws
}

// playIdle sends turn t, with no input, from players 1 to n.
func (b *bench) playIdle(t uint32, n int) {
	b.t.Helper()
	for c := 1; c <= n; c++ {
		b.play(room.ConnID(c), t, 0)
	}
}

// play sends turn t from conn with inputs in.
func (b *bench) play(conn room.ConnID, t uint32, in game.Input) {
	b.t.Helper()
	k, _ := b.r.Timing()
	ti := wire.TurnInput{Turn: t, Count: uint8(k)}
	for i := 0; i < k; i++ {
		ti.Inputs[i] = in
	}
	b.send(conn, wire.ClientPacket{Turns: []wire.TurnInput{ti}})
}

func masters(p *peer) []wire.MasterTurn {
	var out []wire.MasterTurn
	for _, m := range p.got {
		if mp, ok := m.(wire.MasterPacket); ok {
			out = append(out, mp.Turns...)
		}
	}
	p.got = p.got[:0]
	return out
}

func TestJoinSetupAndStart(t *testing.T) {
	b := newBench(t, nil)
	w1 := b.join(1, "Ann")
	w2 := b.join(2, "Bob")
	if w1.Slot != 0 || w2.Slot != 1 {
		t.Fatalf("slots = %d, %d; want 0, 1 (first come, first served)", w1.Slot, w2.Slot)
	}
	if w1.Token == w2.Token || w1.Token == ([16]byte{}) {
		t.Fatal("tokens must be distinct and non-zero")
	}
	st, ok := last[wire.SetupState](b.peer(1))
	if !ok || len(st.Players) != 2 || !st.Players[0].Host || st.Players[1].Host {
		t.Fatalf("setup state after two joins = %+v, want 2 players with slot 0 host", st)
	}
	// The host changes the setup; everyone sees the full state.
	s := game.DefaultSetup()
	s.Mode, s.Lives, s.StartWave, s.FriendlyFire = game.Versus, 5, 3, true
	b.send(1, wire.SetupChange{Setup: s})
	st2, ok := last[wire.SetupState](b.peer(2))
	if !ok || st2.Setup.Mode != game.Versus || st2.Setup.Lives != 5 || st2.Revision <= st.Revision {
		t.Fatalf("setup seen by player 2 = %+v, want versus with 5 lives at a newer revision", st2.Setup)
	}
	// A non-host cannot change it.
	before := b.r.Stats().Dropped[room.DropSpoof]
	b.send(2, wire.SetupChange{Setup: game.DefaultSetup()})
	if b.r.Setup().Mode != game.Versus || b.r.Stats().Dropped[room.DropSpoof] != before+1 {
		t.Error("a non-host changed the setup, or it was not counted")
	}
	// Start needs everyone ready.
	b.send(1, wire.Ready{Ready: true})
	b.send(1, wire.StartGame{Game: b.r.Game()})
	if st, _ := b.r.State(); st != wire.StateSetup {
		t.Fatal("started with a player not ready")
	}
	b.send(2, wire.Ready{Ready: true})
	b.send(2, wire.StartGame{Game: b.r.Game()}) // not the host
	if st, _ := b.r.State(); st != wire.StateSetup {
		t.Fatal("a non-host started the game")
	}
	b.send(1, wire.StartGame{Game: b.r.Game()})
	if st, child := b.r.State(); st != wire.StateRunning || child != wire.ChildIterating {
		t.Fatalf("state = %d/%d, want running/iterating", st, child)
	}
	start, ok := last[wire.Start](b.peer(2))
	if !ok || start.Setup.Players != 0b11 || start.Setup.Mode != game.Versus || start.Setup.Seed == 0 {
		t.Fatalf("Start = %+v, want both slots, versus, a seed", start)
	}
	if err := start.Setup.Validate(); err != nil {
		t.Errorf("the started setup is invalid: %v", err)
	}
}

func TestAutoStart(t *testing.T) {
	b := newBench(t, func(c *room.Config) { c.AutoStart = 2 })
	b.join(1, "a")
	b.join(2, "b")
	b.send(1, wire.Ready{Ready: true})
	if st, _ := b.r.State(); st != wire.StateSetup {
		t.Fatal("auto-started with one of two ready")
	}
	b.send(2, wire.Ready{Ready: true})
	if st, _ := b.r.State(); st != wire.StateRunning {
		t.Fatal("did not auto-start with both ready")
	}
}

func TestRefusals(t *testing.T) {
	b := newBench(t, func(c *room.Config) { c.MaxPlayers = 2 })
	b.join(1, "a")
	b.join(2, "b")
	b.send(3, wire.Join{Name: "c"})
	if r, ok := last[wire.Refuse](b.peer(3)); !ok || r.Reason != wire.RefuseFull {
		t.Errorf("third join into a room of two: %+v, want refused as full", r)
	}
	b.send(4, wire.Join{Name: "d", Token: [16]byte{9, 9}})
	if r, ok := last[wire.Refuse](b.peer(4)); !ok || r.Reason != wire.RefuseBadToken {
		t.Errorf("join with an unknown token: %+v, want refused for the token", r)
	}
	b.send(5, wire.Join{Name: "e", RoomID: 77})
	if r, ok := last[wire.Refuse](b.peer(5)); !ok || r.Reason != wire.RefuseNoRoom {
		t.Errorf("join of another room id: %+v, want no such room", r)
	}
	if got := b.r.Connections(); got != 2 {
		t.Errorf("connections = %d, want 2: refused joins must leave no state", got)
	}
}

func TestRepeatedJoinIsIdempotent(t *testing.T) {
	b := newBench(t, nil)
	w1 := b.join(1, "a")
	w2 := b.join(1, "a") // the Welcome was lost and the client asks again
	if w1 != w2 || b.r.PlayerCount() != 1 {
		t.Fatalf("a repeated Join changed things: %+v vs %+v, players %d", w1, w2, b.r.PlayerCount())
	}
}

func TestLeaveDuringSetupFreesSlot(t *testing.T) {
	b := newBench(t, nil)
	b.join(1, "a")
	b.join(2, "b")
	b.send(1, wire.Leave{Reason: wire.LeaveQuit})
	if b.r.PlayerCount() != 1 {
		t.Fatalf("players after a leave = %d, want 1", b.r.PlayerCount())
	}
	st, _ := last[wire.SetupState](b.peer(2))
	if len(st.Players) != 1 || !st.Players[0].Host {
		t.Errorf("after the host left: %+v, want the remaining player as host", st.Players)
	}
	// Silence also counts as leaving during setup.
	b.tick(4 * time.Second)
	if b.r.PlayerCount() != 0 {
		t.Errorf("a silent player was kept in setup")
	}
}

func TestMasterPacketsGatherEveryPlayer(t *testing.T) {
	b := newBench(t, nil)
	b.startGame(3)
	b.play(1, 0, game.Up)
	b.play(2, 0, game.Fire)
	if b.r.Turn() != 0 {
		t.Fatal("compiled turn 0 before every player sent it")
	}
	b.play(3, 0, game.Left)
	if b.r.Turn() != 1 {
		t.Fatalf("next turn = %d, want 1 once all three sent turn 0", b.r.Turn())
	}
	ms := masters(b.peer(2))
	if len(ms) == 0 {
		t.Fatal("no master packet sent")
	}
	mt := ms[len(ms)-1]
	if mt.Turn != 0 || mt.Players != 0b111 || mt.Inputs[0][0] != game.Up || mt.Inputs[1][1] != game.Fire || mt.Inputs[2][0] != game.Left {
		t.Fatalf("master turn = %+v", mt)
	}
	// A duplicate or stale turn changes nothing and is counted.
	dups := b.r.Stats().Duplicates
	b.play(1, 0, game.Down)
	if b.r.Stats().Duplicates != dups+1 {
		t.Error("a stale turn was not counted")
	}
	// A turn far ahead is outside the window.
	win := b.r.Stats().Dropped[room.DropTurnWindow]
	b.play(1, 1000, game.Down)
	if b.r.Stats().Dropped[room.DropTurnWindow] != win+1 {
		t.Error("a turn outside the window was not counted")
	}
	// A turn with the wrong tick count is refused.
	bad := b.r.Stats().Dropped[room.DropBadCount]
	b.send(1, wire.ClientPacket{Turns: []wire.TurnInput{{Turn: 1, Count: 5}}})
	if b.r.Stats().Dropped[room.DropBadCount] != bad+1 {
		t.Error("a turn with the wrong tick count was not counted")
	}
}

func TestSpoofingChangesNothing(t *testing.T) {
	b := newBench(t, func(c *room.Config) { c.MaxSpectators = 2 })
	b.startGame(2)
	// A spectator joins and tries to play.
	b.send(9, wire.Join{Spectate: true})
	if w, ok := last[wire.Welcome](b.peer(9)); !ok || w.Slot != wire.SpectatorSlot {
		t.Fatalf("spectator welcome = %+v", w)
	}
	spoof := b.r.Stats().Dropped[room.DropSpoof]
	b.play(9, 0, game.Fire)
	// A player claims in chat to be someone else.
	b.send(2, wire.Chat{From: 0, Text: "I am the host"})
	chat, _ := last[wire.Chat](b.peer(1))
	// A non-host pauses.
	b.send(2, wire.Pause{Paused: true})
	// A stranger sends inputs.
	b.play(42, 0, game.Fire)
	if got := b.r.Stats().Dropped[room.DropSpoof]; got < spoof+2 {
		t.Errorf("spoof drops = %d, want at least %d", got, spoof+2)
	}
	if chat.From != 1 {
		t.Errorf("chat From = %d, want the sender's real slot 1", chat.From)
	}
	if b.r.Stats().Dropped[room.DropNotMember] == 0 {
		t.Error("a stranger's packet was not counted")
	}
	b.playIdle(0, 2)
	ms := masters(b.peer(1))
	if len(ms) == 0 || ms[0].Inputs[0][0] != 0 || ms[0].Inputs[1][0] != 0 {
		t.Fatalf("spoofed input reached the master packet: %+v", ms)
	}
	if _, child := b.r.State(); child == wire.ChildPaused {
		t.Error("a non-host paused the game")
	}
}

func TestMalformedFramesAreCounted(t *testing.T) {
	b := newBench(t, nil)
	b.startGame(1)
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		f := make([]byte, r.IntN(64))
		for j := range f {
			f[j] = byte(r.Uint32())
		}
		b.r.Receive(b.now, room.ConnID(1+r.IntN(3)), f)
	}
	b.flush()
	st := b.r.Stats()
	if st.Dropped[room.DropMalformed] == 0 {
		t.Error("random frames were not counted as malformed")
	}
	if st, _ := b.r.State(); st != wire.StateRunning {
		t.Error("random frames stopped the game")
	}
}

func TestLaggingThenIterating(t *testing.T) {
	b := newBench(t, nil)
	b.startGame(2)
	b.play(1, 0, 0)
	b.tick(300 * time.Millisecond)
	_, child := b.r.State()
	status := b.r.Status()
	if child != wire.ChildLagging || status.Lagging != 0b10 {
		t.Fatalf("child = %d lagging = %b, want lagging on slot 1", child, status.Lagging)
	}
	b.play(2, 0, 0)
	if _, child := b.r.State(); child != wire.ChildIterating || b.r.Stats().LateTurns != 1 {
		t.Fatalf("after the late packet: child = %d late = %d, want iterating and one late turn", child, b.r.Stats().LateTurns)
	}
}

func TestVacancyReconnectAndDrop(t *testing.T) {
	b := newBench(t, func(c *room.Config) { c.VacancyTimeout = 5 * time.Second })
	ws := b.startGame(3)
	for _, c := range []room.ConnID{1, 2, 3} {
		b.play(c, 0, 0)
	}
	// Player 3 goes silent: the room waits (lagging), then holds its slot
	// as vacant and the game goes on.
	b.playIdle(1, 2)
	for i := 0; i < 40; i++ {
		b.ack(1) // heard, and hearing the room
		b.ack(2)
		b.tick(100 * time.Millisecond)
		if i == 10 {
			if _, child := b.r.State(); child != wire.ChildLagging || b.r.Status().Lagging != 0b100 {
				t.Fatalf("child = %d lagging = %b, want lagging on slot 2", child, b.r.Status().Lagging)
			}
		}
	}
	if st := b.r.Status(); st.Vacant != 0b100 || st.Lagging&0b100 != 0 || st.VacancyMs == 0 {
		t.Fatalf("status = %+v, want slot 2 vacant with a countdown, and no longer waited for", st)
	}
	if b.r.Turn() != 2 {
		t.Fatalf("turn = %d: the game must go on without the vacant slot", b.r.Turn())
	}
	b.playIdle(2, 2)
	if _, child := b.r.State(); child != wire.ChildVacancy {
		t.Fatalf("child = %d, want vacancy while slot 2 is held", child)
	}
	ms := masters(b.peer(1))
	sawVacant := false
	for _, mt := range ms {
		for _, e := range mt.Events {
			if e.Kind == wire.EventVacant && e.Slot == 2 {
				sawVacant = true
			}
		}
	}
	if !sawVacant {
		t.Error("no EventVacant in the master stream")
	}
	// A wrong token is refused; the right one gets the slot back.
	b.send(7, wire.Join{Token: [16]byte{1}})
	if r, ok := last[wire.Refuse](b.peer(7)); !ok || r.Reason != wire.RefuseBadToken {
		t.Errorf("wrong token: %+v, want refused", r)
	}
	b.send(8, wire.Join{Token: ws[2].Token})
	if w, ok := last[wire.Welcome](b.peer(8)); !ok || w.Slot != 2 {
		t.Fatalf("right token: %+v, want slot 2 back", w)
	}
	// The returning player asks nothing of the room until it catches up:
	// its first in-time packet makes it live again.
	b.play(8, 3, game.Up)
	b.playIdle(3, 2)
	found := false
	for _, mt := range masters(b.peer(1)) {
		for _, e := range mt.Events {
			if e.Kind == wire.EventJoin && e.Slot == 2 && mt.Turn == 3 && mt.Inputs[2][0] == game.Up {
				found = true
			}
		}
	}
	if !found {
		t.Fatal("the returning player's input did not rejoin the master stream at turn 3")
	}
	// Now player 2 vanishes for good: after the vacancy timeout it is dropped
	// by a master turn carrying game.Leave.
	for i := 0; i < 100; i++ {
		b.ack(1)
		b.ack(8)
		b.tick(100 * time.Millisecond)
	}
	for turn := uint32(4); turn < 7; turn++ {
		b.play(1, turn, 0)
		b.play(8, turn, 0)
	}
	dropped := false
	for _, mt := range masters(b.peer(1)) {
		for _, e := range mt.Events {
			if e.Kind == wire.EventDrop && e.Slot == 1 && mt.Inputs[1][0] == game.Leave {
				dropped = true
			}
		}
	}
	if !dropped {
		t.Fatal("the vacant slot was not dropped with a Leave input")
	}
	if b.r.PlayerCount() != 2 {
		t.Errorf("players after the drop = %d, want 2", b.r.PlayerCount())
	}
}

func TestPauseAndResume(t *testing.T) {
	b := newBench(t, nil)
	b.startGame(1)
	b.send(1, wire.Pause{Paused: true})
	b.play(1, 0, 0)
	if _, child := b.r.State(); child != wire.ChildPaused {
		t.Fatalf("child = %d, want paused after the next turn", child)
	}
	b.play(1, 1, 0)
	if b.r.Turn() != 1 {
		t.Fatal("compiled a turn while paused")
	}
	b.send(1, wire.Pause{Paused: false})
	if _, child := b.r.State(); child != wire.ChildIterating || b.r.Turn() != 2 {
		t.Fatalf("after resume: child %d turn %d, want iterating and turn 1 compiled", child, b.r.Turn())
	}
}

// TestDesyncStopsTheGame: with repairs off, any difference stops the game.
func TestDesyncStopsTheGame(t *testing.T) {
	b := newBench(t, func(c *room.Config) { c.NoRepair = true }) // repairs: repair_test.go
	b.startGame(2)
	b.playIdle(0, 2)
	b.send(1, wire.ClientPacket{HasHash: true, HashTurn: 0, HashLow: 0xAAAA})
	b.send(2, wire.ClientPacket{HasHash: true, HashTurn: 0, HashLow: 0xAAAA})
	if b.r.Desync() != nil {
		t.Fatal("equal hashes reported a desync")
	}
	b.playIdle(1, 2)
	b.send(1, wire.ClientPacket{HasHash: true, HashTurn: 1, HashLow: 0x1111})
	b.send(2, wire.ClientPacket{HasHash: true, HashTurn: 1, HashLow: 0x2222})
	d := b.r.Desync()
	if d == nil || d.Turn != 1 || len(d.Entries) != 2 {
		t.Fatalf("desync = %+v, want turn 1 with both players' hashes", d)
	}
	if _, child := b.r.State(); child != wire.ChildDesynced {
		t.Fatal("child state is not desynced")
	}
	rep, ok := last[wire.DesyncReport](b.peer(2))
	if !ok || rep.Turn != 1 {
		t.Fatalf("players were not told: %+v", rep)
	}
	b.playIdle(2, 2)
	if b.r.Turn() != 2 {
		t.Error("turns were compiled after the desync")
	}
}

// TestHostEndsTheGame: the host's EndGame puts EventEnd in the next
// compiled turn; the room finishes there, at that turn, for everyone.
func TestHostEndsTheGame(t *testing.T) {
	b := newBench(t, nil)
	b.startGame(2)
	b.playIdle(0, 2)
	b.send(2, wire.EndGame{}) // not the host
	b.playIdle(1, 2)
	if st, _ := b.r.State(); st != wire.StateRunning {
		t.Fatal("a non-host ended the game")
	}
	b.send(1, wire.EndGame{})
	if st, _ := b.r.State(); st != wire.StateRunning {
		t.Fatal("the game ended before the turn that carries the end was compiled")
	}
	masters(b.peer(2))
	b.playIdle(2, 2)
	if st, _ := b.r.State(); st != wire.StateFinished {
		t.Fatal("the host's EndGame did not finish the game")
	}
	if reason, final := b.r.Ended(); reason != wire.EndByHost || final != 2 {
		t.Fatalf("Ended() = %d at turn %d, want EndByHost at turn 2", reason, final)
	}
	ms := masters(b.peer(2))
	if len(ms) == 0 || ms[len(ms)-1].Turn != 2 || !hasEvent(ms[len(ms)-1], wire.EventEnd) {
		t.Fatalf("the last master turn does not carry EventEnd: %+v", ms)
	}
	b.tick(10 * time.Millisecond)
	st, ok := last[wire.RoomStatus](b.peer(1))
	if !ok || st.State != wire.StateFinished || st.End != wire.EndByHost || st.Final != 2 {
		t.Fatalf("status = %+v, want finished by the host at turn 2", st)
	}
}

func hasEvent(mt wire.MasterTurn, k wire.EventKind) bool {
	for _, e := range mt.Events {
		if e.Kind == k {
			return true
		}
	}
	return false
}

// TestGameOverIsConfirmed: the room finishes only once a majority of the
// live players report, with the same hash, that their worlds ended at the
// same turn: never on one player's word, nor on a timer.
func TestGameOverIsConfirmed(t *testing.T) {
	b := newBench(t, nil)
	b.startGame(3)
	for turn := uint32(0); turn < 5; turn++ {
		for c := room.ConnID(1); c <= 3; c++ {
			b.play(c, turn, 0)
		}
	}
	over := func(c room.ConnID, turn uint32, hash uint32) {
		b.send(c, wire.ClientPacket{MasterAck: 5, HasHash: true, HashTurn: turn, HashLow: hash, Ended: true})
	}
	over(1, 3, 0xabc)
	if st, _ := b.r.State(); st != wire.StateRunning {
		t.Fatal("the room finished on one of three reports")
	}
	b.tick(10 * time.Millisecond)
	if st, _ := b.r.State(); st != wire.StateRunning {
		t.Fatal("the room finished on a timer, not on the reports")
	}
	over(2, 3, 0xabc)
	if st, _ := b.r.State(); st != wire.StateFinished {
		t.Fatal("two agreeing reports of three did not finish the game")
	}
	if reason, final := b.r.Ended(); reason != wire.EndGameOver || final != 3 {
		t.Fatalf("Ended() = %d at turn %d, want EndGameOver at turn 3", reason, final)
	}
}

// TestGameOverWithADisagreementIsADesync: a player whose world ended with
// another hash than the others' stops the game as desynced, not finished.
func TestGameOverWithADisagreementIsADesync(t *testing.T) {
	b := newBench(t, nil)
	b.startGame(2)
	for turn := uint32(0); turn < 3; turn++ {
		b.playIdle(turn, 2)
	}
	b.send(1, wire.ClientPacket{MasterAck: 3, HasHash: true, HashTurn: 2, HashLow: 1, Ended: true})
	b.send(2, wire.ClientPacket{MasterAck: 3, HasHash: true, HashTurn: 2, HashLow: 2, Ended: true})
	if st, child := b.r.State(); st != wire.StateRunning || child != wire.ChildDesynced {
		t.Fatalf("state %d child %d, want running and desynced", st, child)
	}
}

// TestGameOverWaitsOnlyForLivePlayers: a vacant player (crashed, held for a
// reconnect) does not hold the results back: two of three, a majority,
// play on and their reports finish the game.
func TestGameOverWaitsOnlyForLivePlayers(t *testing.T) {
	b := newBench(t, func(c *room.Config) { c.SilenceTimeout = time.Second })
	b.startGame(3)
	b.playIdle(0, 3)
	for i := 0; i < 6; i++ { // player 2 falls silent and its slot becomes vacant
		b.play(1, uint32(i+1), 0)
		b.play(3, uint32(i+1), 0)
		b.ack(1)
		b.ack(3)
		b.tick(250 * time.Millisecond)
	}
	if b.r.Status().Vacant != 0b10 {
		t.Fatalf("vacant = %b, want slot 1", b.r.Status().Vacant)
	}
	b.send(1, wire.ClientPacket{MasterAck: 2, HasHash: true, HashTurn: 1, HashLow: 7, Ended: true})
	b.send(3, wire.ClientPacket{MasterAck: 2, HasHash: true, HashTurn: 1, HashLow: 7, Ended: true})
	if st, _ := b.r.State(); st != wire.StateFinished {
		t.Fatal("the live players' reports did not finish the game")
	}
}

// TestLeaveIsToldAsLeft: a player who quits is dropped by the next master
// turn with EventLeft (not EventDrop), with game.Leave as its input.
func TestLeaveIsToldAsLeft(t *testing.T) {
	b := newBench(t, nil)
	b.startGame(2)
	b.playIdle(0, 2)
	masters(b.peer(1))
	b.send(2, wire.Leave{Reason: wire.LeaveQuit})
	b.play(1, 1, 0)
	var roster wire.SetupState
	for _, m := range b.peer(1).got {
		if ss, ok := m.(wire.SetupState); ok {
			roster = ss
		}
	}
	ms := masters(b.peer(1))
	if len(ms) == 0 {
		t.Fatal("no master turn after the leave")
	}
	mt := ms[len(ms)-1]
	if !hasEvent(mt, wire.EventLeft) || hasEvent(mt, wire.EventDrop) || mt.Inputs[1][0] != game.Leave {
		t.Fatalf("master turn %+v: want EventLeft for slot 1 and its Leave input", mt)
	}
	if len(roster.Players) != 1 {
		t.Fatalf("roster after the leave = %+v, want one player", roster.Players)
	}
}

// TestRematchStartsOnlyOnTheHostsStart: a Ready after the game returns the
// room to setup for the next game; a start request made for the game that
// ended is stale and starts nothing; the host's start for the new game does.
func TestRematchStartsOnlyOnTheHostsStart(t *testing.T) {
	b := newBench(t, nil)
	b.startGame(2)
	first := b.r.Game()
	b.r.EndGame()
	b.playIdle(0, 2)
	if st, _ := b.r.State(); st != wire.StateFinished {
		t.Fatal("not finished")
	}
	b.ack(1)
	b.ack(2)
	// Everyone's roster now says who is ready for the next game: no one.
	for _, id := range []room.ConnID{1, 2} {
		ss, ok := last[wire.SetupState](b.peer(id))
		if !ok || len(ss.Players) != 2 {
			t.Fatalf("player %d's last roster: %+v, want the two players", id, ss)
		}
		for _, p := range ss.Players {
			if p.Ready {
				t.Fatalf("player %d's roster after the game: %+v ready, want no one ready until the rematch", id, p)
			}
		}
	}
	b.send(2, wire.Ready{Ready: true})
	if st, _ := b.r.State(); st != wire.StateSetup || b.r.PlayerCount() != 2 || b.r.Game() != first+1 {
		t.Fatalf("a Ready after the game: state %d, %d players, game %d; want setup, 2, %d", st, b.r.PlayerCount(), b.r.Game(), first+1)
	}
	b.send(1, wire.Ready{Ready: true})
	b.send(1, wire.StartGame{Game: first}) // a wish left over from the last game
	if st, _ := b.r.State(); st != wire.StateSetup {
		t.Fatal("a start request for the last game started the rematch")
	}
	b.send(2, wire.StartGame{Game: b.r.Game()}) // not the host
	if st, _ := b.r.State(); st != wire.StateSetup {
		t.Fatal("a guest started the rematch")
	}
	b.send(1, wire.StartGame{Game: b.r.Game()})
	if st, _ := b.r.State(); st != wire.StateRunning || b.r.Turn() != 0 {
		t.Fatal("the host's start did not start the rematch at turn 0")
	}
}

// TestJoinWhileResultsShow: a newcomer while the results are shown gets a
// slot in the rematch's lobby; a spectator is refused (nothing to watch).
func TestJoinWhileResultsShow(t *testing.T) {
	b := newBench(t, nil)
	b.startGame(1)
	b.r.EndGame()
	b.play(1, 0, 0)
	w := b.join(5, "late")
	if w.Slot != 1 || w.State != wire.StateFinished {
		t.Fatalf("welcome = %+v, want slot 1 in a finished room", w)
	}
	b.send(6, wire.Join{Spectate: true})
	if r, ok := last[wire.Refuse](b.peer(6)); !ok || r.Reason != wire.RefuseRunning {
		t.Fatalf("spectator: %+v, want refused", r)
	}
}

// TestSpectatorTakesSeatForRematch: one who watched a game and asks to
// play the rematch (its Ready) gets the lowest free slot, under the name it
// joined with, ready; it cannot while a game runs, nor when the room is
// full, where it stays a spectator, is sent the roster and watches the
// rematch from its start.
func TestSpectatorTakesSeatForRematch(t *testing.T) {
	watchToEnd := func(b *bench, players int) {
		t.Helper()
		b.startGame(players)
		b.send(9, wire.Join{Spectate: true, Name: "Cy", PlayerID: [16]byte{9}})
		if w, ok := last[wire.Welcome](b.peer(9)); !ok || w.Slot != wire.SpectatorSlot {
			t.Fatalf("welcome = %+v, want a spectator's", w)
		}
		before := b.r.Stats().Dropped[room.DropUnexpected]
		b.send(9, wire.Ready{Ready: true})
		if _, ok := last[wire.Welcome](b.peer(9)); ok || b.r.Stats().Dropped[room.DropUnexpected] != before+1 {
			t.Fatal("a spectator took a seat while the game ran")
		}
		b.r.EndGame()
		b.playIdle(0, players)
		if st, _ := b.r.State(); st != wire.StateFinished {
			t.Fatalf("state = %d, want finished", st)
		}
		for c := 1; c <= players; c++ {
			b.ack(room.ConnID(c))
		}
		b.ack(9)
	}

	b := newBench(t, func(c *room.Config) { c.MaxPlayers = 3 })
	watchToEnd(b, 1)
	b.send(9, wire.Ready{Ready: true})
	w, ok := last[wire.Welcome](b.peer(9))
	if !ok || w.Slot != 1 || w.Token == ([16]byte{}) {
		t.Fatalf("welcome = %+v, want slot 1 with a token", w)
	}
	if st, _ := b.r.State(); st != wire.StateSetup {
		t.Fatalf("state = %d, want setup: its Ready asks for the rematch", st)
	}
	ss, _ := last[wire.SetupState](b.peer(1))
	if len(ss.Players) != 2 || ss.Players[1].Name != "Cy" || !ss.Players[1].Ready || ss.Players[1].ID != ([16]byte{9}) {
		t.Fatalf("the host's roster = %+v, want Cy ready in slot 1", ss.Players)
	}
	if w := b.join(10, "Dee"); w.Slot != 2 {
		t.Fatalf("a newcomer got slot %d, want 2", w.Slot)
	}
	b.send(1, wire.Ready{Ready: true})
	b.send(10, wire.Ready{Ready: true})
	b.send(1, wire.StartGame{Game: b.r.Game()})
	if st, _ := b.r.State(); st != wire.StateRunning {
		t.Fatal("the rematch with Cy seated did not start")
	}
	if st, ok := last[wire.Start](b.peer(9)); !ok || st.Names[1] != "Cy" {
		t.Fatalf("Cy's start = %+v, want Cy named in slot 1", st)
	}

	full := newBench(t, func(c *room.Config) { c.MaxPlayers = 2 })
	watchToEnd(full, 2)
	full.send(9, wire.Ready{Ready: true})
	if _, ok := last[wire.Welcome](full.peer(9)); ok {
		t.Fatal("a spectator took a seat in a full room")
	}
	full.send(9, wire.Ready{Ready: true})
	if ss, ok := last[wire.SetupState](full.peer(9)); !ok || len(ss.Players) != 2 || ss.MaxSlots != 2 {
		t.Fatalf("the spectator's roster = %+v, want the full room's", ss)
	}
	full.send(1, wire.Ready{Ready: true})
	full.send(2, wire.Ready{Ready: true})
	full.send(1, wire.StartGame{Game: full.r.Game()})
	if st, ok := last[wire.Start](full.peer(9)); !ok || st.FirstTurn != 0 {
		t.Fatalf("the spectator's start = %+v, want it to watch the rematch from turn 0", st)
	}
}

// TestNamesReachEveryone: the Start names the players, and a spectator's
// welcome comes with the roster.
func TestNamesReachEveryone(t *testing.T) {
	b := newBench(t, nil)
	b.joinReady("Ada", "Brünhilde")
	b.send(1, wire.StartGame{Game: b.r.Game()})
	st, ok := last[wire.Start](b.peer(2))
	if !ok || st.Names[0] != "Ada" || st.Names[1] != "Brünhilde" {
		t.Fatalf("start = %+v, want the players' names", st)
	}
	b.send(9, wire.Join{Spectate: true})
	var roster wire.SetupState
	for _, m := range b.peer(9).got {
		if ss, ok := m.(wire.SetupState); ok {
			roster = ss
		}
	}
	if len(roster.Players) != 2 || roster.Players[1].Name != "Brünhilde" {
		t.Fatalf("the spectator's roster = %+v", roster.Players)
	}
}

// TestFinishedRoomResendsTheLastTurns: a client that lacks the game's last
// master turns when the room finishes still gets them.
func TestFinishedRoomResendsTheLastTurns(t *testing.T) {
	b := newBench(t, nil)
	b.startGame(2)
	b.playIdle(0, 2)
	b.r.EndGame()
	b.playIdle(1, 2)
	if st, _ := b.r.State(); st != wire.StateFinished {
		t.Fatal("not finished")
	}
	masters(b.peer(2))
	b.tick(100 * time.Millisecond)
	ms := masters(b.peer(2))
	if len(ms) == 0 || ms[len(ms)-1].Turn != 1 {
		t.Fatalf("resent %+v, want the turns up to 1", ms)
	}
	b.send(2, wire.ClientPacket{MasterAck: 2})
	b.tick(100 * time.Millisecond)
	if ms := masters(b.peer(2)); len(ms) != 0 {
		t.Fatalf("resent %d turns after they were acknowledged", len(ms))
	}
}

func TestAllPlayersGoneFinishes(t *testing.T) {
	b := newBench(t, func(c *room.Config) { c.VacancyTimeout = 10 * time.Second })
	b.startGame(2)
	b.tick(4 * time.Second)
	if st, _ := b.r.State(); st != wire.StateRunning || b.r.Status().Vacant != 0b11 {
		t.Fatalf("state = %d vacant = %b: silent players' slots must be held for a reconnect", st, b.r.Status().Vacant)
	}
	turn := b.r.Turn()
	b.tick(time.Second)
	if b.r.Turn() != turn {
		t.Fatal("turns were compiled with no player live")
	}
	for i := 0; i < 12; i++ {
		b.tick(time.Second)
	}
	if st, _ := b.r.State(); st != wire.StateFinished {
		t.Fatalf("state = %d, want finished once the vacant slots are dropped", st)
	}
}

func TestEveryoneLeavesFinishes(t *testing.T) {
	b := newBench(t, nil)
	b.startGame(2)
	b.play(1, 0, 0)
	b.send(1, wire.Leave{Reason: wire.LeaveQuit})
	if st, _ := b.r.State(); st != wire.StateRunning {
		t.Fatal("one of two leaving ended the game")
	}
	b.play(2, 0, 0)
	b.play(2, 1, 0)
	if b.r.Turn() != 2 {
		t.Fatalf("turn = %d: the game must go on for the one left", b.r.Turn())
	}
	b.send(2, wire.Leave{Reason: wire.LeaveQuit})
	if st, _ := b.r.State(); st != wire.StateFinished {
		t.Fatalf("state = %d, want finished when everyone left", st)
	}
	b.tick(time.Second) // and nothing spins
}

func TestShutdownTellsEveryone(t *testing.T) {
	b := newBench(t, nil)
	b.startGame(2)
	b.r.Shutdown(b.now, "server stopping")
	b.flush()
	for _, c := range []room.ConnID{1, 2} {
		if l, ok := last[wire.Leave](b.peer(c)); !ok || l.Reason != wire.LeaveShutdown {
			t.Errorf("conn %d: %+v, want a shutdown Leave", c, l)
		}
	}
}

// turnFeed sends an 8-player game's turns to a room as the benchmarks
// need them, reusing its frames.
type turnFeed struct {
	frames [][]byte
	cp     wire.ClientPacket
	next   uint32
	sink   int
}

func newTurnFeed() *turnFeed {
	return &turnFeed{frames: make([][]byte, 8), cp: wire.ClientPacket{Turns: []wire.TurnInput{{Count: 2}}, HasHash: true}}
}

// turn hands the room every player's client packet for the next turn.
func (f *turnFeed) turn(bn *bench) {
	t := f.next
	for i := range f.frames {
		f.cp.Turns[0].Turn = t
		f.cp.Turns[0].Inputs[0] = game.Input(i) & game.ClientInputMask
		f.cp.MasterAck = t
		f.cp.HashTurn = t - 1
		f.frames[i], _ = f.cp.AppendFrame(f.frames[i][:0])
		bn.r.Receive(bn.now, room.ConnID(i+1), f.frames[i])
	}
	f.next++
}

func (f *turnFeed) send(_ room.ConnID, frame []byte) { f.sink += len(frame) }

// BenchmarkRoomTurn is the room's work for one turn of an 8-player game:
// eight client packets in, one master turn compiled and sent to eight.
// Budget (docs/ARCHITECTURE.md §6): ≤ 5 µs and 0 allocations.
func BenchmarkRoomTurn(b *testing.B) {
	bn := newBench(b, nil)
	bn.startGame(8)
	f := newTurnFeed()
	b.ReportAllocs()
	for b.Loop() {
		f.turn(bn)
		bn.r.Flush(f.send)
		bn.now += 33 * time.Millisecond
	}
}

// BenchmarkRoomTicks is a running room's work as a server drives it: a
// Tick every 10 ms (transport.Config.Interval) and an 8-player turn of
// two ticks (33 ms) in between, each op one Tick and a third of a turn.
func BenchmarkRoomTicks(b *testing.B) {
	bn := newBench(b, nil)
	bn.startGame(8)
	f := newTurnFeed()
	b.ReportAllocs()
	turnAt := bn.now
	for b.Loop() {
		if bn.now >= turnAt {
			f.turn(bn)
			turnAt += 33 * time.Millisecond
		}
		bn.r.Tick(bn.now)
		bn.r.Flush(f.send)
		bn.now += 10 * time.Millisecond
	}
}

// TestLonePlayerReconnects: the only player comes back on a new connection
// before the old one timed out; the game is not ended, and the slot is the
// player's again.
func TestLonePlayerReconnects(t *testing.T) {
	b := newBench(t, nil)
	ws := b.startGame(1)
	b.play(1, 0, 0)
	b.send(2, wire.Join{Token: ws[0].Token})
	if st, _ := b.r.State(); st != wire.StateRunning {
		t.Fatalf("state = %d after the lone player reconnected, want running", st)
	}
	if w, ok := last[wire.Welcome](b.peer(2)); !ok || w.Slot != 0 {
		t.Fatalf("welcome = %+v, want slot 0", w)
	}
	if b.r.HasConn(1) {
		t.Error("the stale connection is still a member")
	}
	b.play(2, 1, game.Fire)
	if b.r.Status().Vacant != 0 {
		t.Errorf("vacant = %b after the player's turns arrived", b.r.Status().Vacant)
	}
}

// TestRosterFollowsTheHost: when the host's slot is held for a reconnect
// the roster names the next player host, and when the host is back it
// names them again: everyone agrees on who may end, pause or start.
func TestRosterFollowsTheHost(t *testing.T) {
	b := newBench(t, func(c *room.Config) { c.SilenceTimeout = time.Second })
	ws := b.startGame(2)
	host := func() int {
		t.Helper()
		var roster wire.SetupState
		for _, m := range b.peer(2).got {
			if ss, ok := m.(wire.SetupState); ok {
				roster = ss
			}
		}
		for _, p := range roster.Players {
			if p.Host {
				return int(p.Slot)
			}
		}
		return -1
	}
	turn := uint32(0)
	for ; turn < 6; turn++ { // the host falls silent; player 2 plays on
		b.play(2, turn, 0)
		b.tick(250 * time.Millisecond)
	}
	if h := host(); h != 1 {
		t.Fatalf("while the host's slot is held, the roster names slot %d host, want 1", h)
	}
	b.send(3, wire.Join{Token: ws[0].Token})
	for i := 0; i < 10 && b.r.Status().Vacant != 0; i++ {
		b.play(3, b.r.Turn(), 0)
		b.play(2, b.r.Turn(), 0)
		b.tick(10 * time.Millisecond)
	}
	if b.r.Status().Vacant != 0 {
		t.Fatal("the host did not get its slot back")
	}
	if h := host(); h != 0 {
		t.Fatalf("with the host back, the roster names slot %d host, want 0", h)
	}
}

// TestHostComesBackAsHost: the host's connection is lost mid-game; while
// its slot is vacant the next player is host, and when it comes back with
// its token and plays again it is host once more, and every roster says
// so: the host's EndGame is honoured, the other player's is not.
func TestHostComesBackAsHost(t *testing.T) {
	b := newBench(t, nil)
	ws := b.startGame(3)
	b.playIdle(0, 3)
	hostOf := func(conn room.ConnID) int {
		t.Helper()
		st, ok := last[wire.SetupState](b.peer(conn))
		if !ok {
			t.Fatalf("conn %d: no roster received", conn)
		}
		host := -1
		for _, p := range st.Players {
			if p.Host {
				host = int(p.Slot)
			}
		}
		return host
	}
	b.r.Disconnected(b.now, 1) // the host's transport gave up on it
	b.flush()
	if h := hostOf(2); h != 1 {
		t.Fatalf("while slot 0 is vacant the roster names slot %d host, want 1", h)
	}
	b.play(2, 1, 0) // the game goes on without the vacant slot (two of three)
	b.play(3, 1, 0)

	b.send(4, wire.Join{Token: ws[0].Token})
	if w, ok := last[wire.Welcome](b.peer(4)); !ok || w.Slot != 0 {
		t.Fatalf("the host's token: %+v, want slot 0 back", w)
	}
	b.play(4, 2, 0) // caught up: live again from turn 2
	b.play(2, 2, 0)
	b.play(3, 2, 0)
	for _, conn := range []room.ConnID{2, 3, 4} {
		if h := hostOf(conn); h != 0 {
			t.Errorf("conn %d: once slot 0 plays again the roster names slot %d host, want 0", conn, h)
		}
	}
	b.send(2, wire.EndGame{}) // no longer the host
	b.send(4, wire.EndGame{})
	b.play(4, 3, 0)
	b.play(2, 3, 0)
	b.play(3, 3, 0)
	if reason, final := b.r.Ended(); reason != wire.EndByHost || final != 3 {
		t.Fatalf("Ended() = %d at turn %d, want the returned host's end at turn 3", reason, final)
	}
}

// TestChatRate: one connection's chat is limited to a person's pace (a
// burst of ChatBurst lines, then ChatPerS a second); the lines over it
// reach nobody and are counted.
func TestChatRate(t *testing.T) {
	b := newBench(t, nil)
	b.join(1, "talker")
	b.join(2, "listener")
	cfg := room.LAN()
	heard := func() int {
		n := 0
		for _, m := range b.peer(2).got {
			if _, ok := m.(wire.Chat); ok {
				n++
			}
		}
		b.peer(2).got = b.peer(2).got[:0]
		return n
	}
	heard()
	for range 600 { // a second's worth at the old 600 lines a second
		b.send(1, wire.Chat{Text: "spam"})
	}
	if got := heard(); got != cfg.ChatBurst {
		t.Errorf("600 lines at once: %d heard, want the burst of %d", got, cfg.ChatBurst)
	}
	if got, want := b.r.Stats().Dropped[room.DropChat], uint64(600-cfg.ChatBurst); got != want {
		t.Errorf("%d chat drops, want %d", got, want)
	}
	// A person's pace gets through: one line every two seconds for a minute.
	for range 30 {
		b.tick(2 * time.Second)
		b.send(2, wire.Ping{}) // keeps the listener heard
		b.send(1, wire.Chat{Text: "hello"})
	}
	if got := heard(); got != 30 {
		t.Errorf("a line every two seconds: %d of 30 heard", got)
	}
}

// TestKick: the host player removes a player from the lobby, who is told
// so and whose id the room refuses from then on; nobody else can kick,
// and the host cannot kick itself.
func TestKick(t *testing.T) {
	b := newBench(t, nil)
	b.join(1, "host")
	b.join(2, "idle")
	b.join(3, "guest")
	spoof := b.r.Stats().Dropped[room.DropSpoof]
	b.send(3, wire.Kick{Slot: 1}) // not the host
	b.send(1, wire.Kick{Slot: 0}) // itself
	b.send(1, wire.Kick{Slot: 7}) // nobody there
	if got := b.r.Stats().Dropped[room.DropSpoof]; got != spoof+3 {
		t.Errorf("spoof drops %d, want %d", got, spoof+3)
	}
	if n := b.r.PlayerCount(); n != 3 {
		t.Fatalf("%d players after kicks nobody may make, want 3", n)
	}
	b.peer(2).got = nil
	b.send(1, wire.Kick{Slot: 1})
	// The reason says it all: a text would only repeat what the player's
	// screen words from the reason ("You were removed from the game.").
	if l, ok := last[wire.Leave](b.peer(2)); !ok || l.Reason != wire.LeaveKicked || l.Text != "" {
		t.Errorf("the kicked player got %+v, want a Leave for being kicked, with no text", l)
	}
	if n := b.r.PlayerCount(); n != 2 {
		t.Errorf("%d players after the kick, want 2", n)
	}
	// The same player, on a new connection: refused for the room's life.
	b.send(4, wire.Join{Name: "idle", PlayerID: [16]byte{2}})
	if r, ok := last[wire.Refuse](b.peer(4)); !ok || r.Reason != wire.RefuseBanned || r.Text != "" {
		t.Errorf("the kicked player joining again got %+v, want RefuseBanned, with no text", r)
	}
	// Someone else still gets in.
	b.join(5, "newcomer")
	if n := b.r.PlayerCount(); n != 3 {
		t.Errorf("%d players, want 3", n)
	}
}

// TestResendsWaitForTheUsualAcknowledgement: a client whose
// acknowledgements always take 120 ms (a busy machine, or turns of five
// ticks) is not sent master turns again while it is simply slow to say it
// has them, but still is when an acknowledgement goes missing.
func TestResendsWaitForTheUsualAcknowledgement(t *testing.T) {
	const lag = 120 * time.Millisecond
	b := newBench(t, nil)
	b.startGame(2)
	compiled := map[uint32]time.Duration{}
	acked := uint32(0)
	// step advances 10 ms and delivers the acknowledgements now due, from
	// both players, unless muted.
	step := func(muted bool) {
		b.tick(10 * time.Millisecond)
		for !muted && acked < b.r.Turn() && b.now-compiled[acked] >= lag {
			acked++
			for c := room.ConnID(1); c <= 2; c++ {
				b.send(c, wire.ClientPacket{MasterAck: acked})
			}
		}
	}
	turn := uint32(0)
	play := func(ms int) { // turns every 30 ms for ms
		for i := 0; i < ms/10; i++ {
			if i%3 == 0 {
				b.playIdle(turn, 2)
				compiled[turn] = b.now
				turn++
			}
			step(false)
		}
	}
	play(1000) // the room learns how long acknowledgements take
	// Player 2 stalls for 300 ms: no new turns, acknowledgements as usual.
	resends := b.r.Stats().Resends
	for range 30 {
		step(false)
	}
	if n := b.r.Stats().Resends - resends; n != 0 {
		t.Errorf("%d master frames sent again during a stall while every acknowledgement came in its usual %v", n, lag)
	}
	// Play on, then stall again with the acknowledgements lost.
	play(300)
	resends = b.r.Stats().Resends
	for range 40 {
		step(true)
	}
	if n := b.r.Stats().Resends - resends; n == 0 {
		t.Error("no master frame sent again in 400 ms without an acknowledgement")
	}
}

// TestStaleJoinDoesNotRestart: a copy of a player's Join that arrives after
// it has started (it asked twice while the Welcome was on its way) is
// answered, but the room does not send the game's first Start again: to a
// player that came back from a snapshot it would mean starting over at
// turn 0, waiting for turns the room no longer keeps.
func TestStaleJoinDoesNotRestart(t *testing.T) {
	b := newBench(t, nil)
	b.startGame(2)
	b.playIdle(0, 2)
	b.tick(time.Second) // the game's Start is long sent
	b.peer(2).got = nil
	b.send(2, wire.Join{Name: "p", PlayerID: [16]byte{2}})
	if _, ok := last[wire.Welcome](b.peer(2)); !ok {
		t.Fatal("the repeated Join was not answered")
	}
	for turn := uint32(1); turn < 20; turn++ {
		b.tick(50 * time.Millisecond) // the room's loop runs between the player's packets
		b.playIdle(turn, 2)
		for _, m := range b.peer(2).got {
			if st, ok := m.(wire.Start); ok {
				t.Fatalf("turn %d: the room sent Start (first turn %d) to a player already playing", turn, st.FirstTurn)
			}
		}
		b.peer(2).got = b.peer(2).got[:0]
	}
}

// TestEveryoneBackWithNobodyToCatchUpFrom: every player of a game loses
// its connection and comes back with its token. Nobody is left playing to
// give the world to catch up from, and the room holds none: the returning
// players' slots go at the vacancy timeout like any vacant slot, and the
// room, empty, finishes; before, it waited for them for ever.
func TestEveryoneBackWithNobodyToCatchUpFrom(t *testing.T) {
	b := newBench(t, func(c *room.Config) { c.VacancyTimeout = 5 * time.Second })
	ws := b.startGame(2)
	b.playIdle(0, 2)
	b.r.Disconnected(b.now, 1)
	b.r.Disconnected(b.now, 2)
	b.send(11, wire.Join{Token: ws[0].Token})
	b.send(12, wire.Join{Token: ws[1].Token})
	for _, c := range []room.ConnID{11, 12} {
		if w, ok := last[wire.Welcome](b.peer(c)); !ok || w.State != wire.StateRunning {
			t.Fatalf("conn %d: %+v, want welcomed back into the running game", c, w)
		}
	}
	for i := 0; i < 100; i++ {
		b.send(11, wire.Ping{})
		b.send(12, wire.Ping{})
		b.tick(100 * time.Millisecond)
		if st, _ := b.r.State(); st == wire.StateFinished {
			if end, _ := b.r.Ended(); end != wire.EndEmpty {
				t.Fatalf("finished with %v, want everyone gone", end)
			}
			return
		}
	}
	st, child := b.r.State()
	t.Fatalf("after 10 s the room is %v (%v), want finished: nobody can catch the players up", st, child)
}

// TestStatusRepeatsSeldomWhileTurnsFlow: a running game whose players are
// all there repeats its status every 5 s, not every StatusEvery (the
// master turns say it goes on); once a slot is vacant, every StatusEvery
// again, for the countdown.
func TestStatusRepeatsSeldomWhileTurnsFlow(t *testing.T) {
	b := newBench(t, func(c *room.Config) { c.SilenceTimeout = 2 * time.Second })
	b.startGame(2)
	statuses := func(c room.ConnID) int {
		n := 0
		for _, m := range b.peer(c).got {
			if _, ok := m.(wire.RoomStatus); ok {
				n++
			}
		}
		b.peer(c).got = b.peer(c).got[:0]
		return n
	}
	turn := uint32(0)
	play := func(conns []room.ConnID, d time.Duration) {
		for end := b.now + d; b.now < end; turn++ {
			for _, c := range conns {
				b.play(c, turn, 0)
				b.ack(c)
			}
			b.tick(33 * time.Millisecond)
		}
	}
	play([]room.ConnID{1, 2}, time.Second)
	statuses(1)
	play([]room.ConnID{1, 2}, 10*time.Second)
	if n := statuses(1); n < 1 || n > 3 {
		t.Errorf("%d statuses in 10 s of a game in full flow, want 2 (one every 5 s)", n)
	}
	// Player 2 goes silent: lost, its slot vacant and held.
	play([]room.ConnID{1}, 3*time.Second)
	if b.r.Status().Vacant == 0 {
		t.Fatal("the silent player's slot is not vacant")
	}
	statuses(1)
	play([]room.ConnID{1}, 3*time.Second)
	if n := statuses(1); n < 2 {
		t.Errorf("%d statuses in 3 s with a vacant slot, want one a second", n)
	}
}

// TestRosterPingZeroIsNotMeasured: the roster's ping is 0 only until the
// room has timed a round trip; one under a millisecond reads 1 ms, so every
// lobby can tell "not measured" from "near".
func TestRosterPingZeroIsNotMeasured(t *testing.T) {
	b := newBench(t, nil)
	b.join(1, "ada")
	roster := func() (wire.SetupState, wire.Ping) {
		t.Helper()
		b.tick(time.Second) // a ping and a setup broadcast are due
		var ss wire.SetupState
		var pg wire.Ping
		var haveSS, havePing bool
		for _, m := range b.peer(1).got {
			switch v := m.(type) {
			case wire.SetupState:
				ss, haveSS = v, true
			case wire.Ping:
				pg, havePing = v, true
			}
		}
		b.peer(1).got = nil
		if !haveSS || !havePing || len(ss.Players) != 1 {
			t.Fatalf("after a second: roster %v (%+v), ping %v; want both", haveSS, ss.Players, havePing)
		}
		return ss, pg
	}
	ss, pg := roster()
	if got := ss.Players[0].Ping; got != 0 {
		t.Fatalf("ping before any pong = %d ms, want 0 (not measured)", got)
	}
	b.send(1, wire.Pong{ID: pg.ID, Time: pg.Time}) // answered at once
	if ss, pg = roster(); ss.Players[0].Ping != 1 {
		t.Fatalf("ping after an instant pong = %d ms, want 1", ss.Players[0].Ping)
	}
	b.send(1, wire.Pong{ID: pg.ID, Time: pg.Time - 250_000}) // a ping sent 250 ms earlier
	if ss, _ = roster(); ss.Players[0].Ping != 250 {
		t.Fatalf("ping after a 250 ms round trip = %d ms, want 250", ss.Players[0].Ping)
	}
}

// TestSetupChangeClearsOthersReady: a Ready is given for a setup. When the
// host changes it, every other player is asked to confirm again (not
// ready), the host stays ready, and a Start is refused until they do; the
// same setup sent again changes nothing.
func TestSetupChangeClearsOthersReady(t *testing.T) {
	b := newBench(t, nil)
	b.joinReady("Ann", "Bob")
	readies := func(conn room.ConnID) [2]bool {
		t.Helper()
		st, ok := last[wire.SetupState](b.peer(conn))
		if !ok || len(st.Players) != 2 {
			t.Fatalf("setup state = %+v, want two players", st)
		}
		return [2]bool{st.Players[0].Ready, st.Players[1].Ready}
	}
	if got := readies(2); got != [2]bool{true, true} {
		t.Fatalf("ready = %v, want both", got)
	}
	s := b.r.Setup()
	b.send(1, wire.SetupChange{Setup: s})
	if got := readies(1); got != [2]bool{true, true} { // sent back to the host alone
		t.Fatalf("ready after the same setup = %v, want both still", got)
	}
	s.Mode = game.Versus
	b.send(1, wire.SetupChange{Setup: s})
	if got := readies(2); got != [2]bool{true, false} {
		t.Fatalf("ready after a change = %v, want the host only", got)
	}
	b.send(1, wire.StartGame{Game: b.r.Game()})
	if st, _ := b.r.State(); st != wire.StateSetup {
		t.Fatal("started with a player not ready for the new setup")
	}
	b.send(2, wire.Ready{Ready: true})
	b.send(1, wire.StartGame{Game: b.r.Game()})
	if st, _ := b.r.State(); st != wire.StateRunning {
		t.Fatalf("state = %v once both are ready and the host starts, want running", st)
	}
}
