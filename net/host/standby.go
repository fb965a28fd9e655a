package host

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/netip"
	"sync/atomic"
	"time"

	"rockstep/net/lockstep"
	"rockstep/net/room"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// Standby is a player's listening socket while it plays a game it might
// inherit (host migration): the others probe it to show they can reach it,
// and if the host goes away and this player is the first live successor,
// a Host with the resumed game serves on it (Adopt). Until then it answers
// handshakes and tells whoever joins too early to try again; a resuming
// Join is the sign that the others have lost the host, and Called fires.
type Standby struct {
	srv    *transport.Server
	ctx    context.Context // ends when the standby (or the host it adopted) stops
	cancel context.CancelFunc
	done   chan struct{}
	called func() wire.RefuseReason // set before Run; may be nil

	host    atomic.Pointer[Host]
	advStop context.CancelFunc                  // ends the adopted game's LAN listing (client goroutine)
	adopted bool                                // on the loop goroutine
	conns   map[transport.ConnID]netip.AddrPort // connections before Adopt (loop goroutine)
}

// ListenStandby opens a standby socket on addr ("127.0.0.1:0", ":0") with
// the transport settings cfg (its HostKey is the player's identity as a
// host) and serves it. called, if not nil, is called (on the transport's
// goroutine; it must not block) when a player asks to resume the game
// here before this player has taken over; it returns 0 if this player
// goes along (it lost the host too, and the game may come here), else why
// not: wire.RefuseNotHosting (it still plays under the host) or
// wire.RefuseMoving (it is on its way to another successor). The caller is
// then refused with that reason and tries the successors again; without
// called, every such Join waits to be answered.
//
// The socket shares its port with the player's dials to the other
// standbys (transport.ListenShared, DialShared), and KeepAlive keeps the
// paths to them open through NATs.
func ListenStandby(addr string, cfg transport.Config, called func() wire.RefuseReason) (*Standby, error) {
	srv, err := transport.ListenShared(addr, cfg)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Standby{srv: srv, ctx: ctx, cancel: cancel, done: make(chan struct{}), called: called, conns: map[transport.ConnID]netip.AddrPort{}}
	go func() {
		defer close(s.done)
		_ = srv.Run(ctx, s)
	}()
	return s, nil
}

// Port returns the UDP port the standby listens on.
func (s *Standby) Port() uint16 { return s.srv.Addr().Port() }

// KeepAlive makes addrs the addresses the standby's socket sends a
// keep-alive to every few seconds (transport.Server.KeepAlive): the other
// players' standbys, whose routers then let their dials from there in.
func (s *Standby) KeepAlive(addrs []netip.AddrPort) { s.srv.KeepAlive(addrs) }

// PathOpen reports whether the standby's keep-alives have opened the path
// to addr (transport.Server.PathOpen).
func (s *Standby) PathOpen(addr netip.AddrPort) bool { return s.srv.PathOpen(addr) }

// DialShared dials addr from the standby's port (transport.Server.DialShared):
// through the path its keep-alives opened.
func (s *Standby) DialShared(ctx context.Context, addr string, cfg transport.Config) (*transport.Client, error) {
	return s.srv.DialShared(ctx, addr, cfg)
}

// Key returns the standby's host key fingerprint as bytes (wire.Standby.Key).
func (s *Standby) Key() [16]byte { return FingerprintBytes(s.srv.HostKey().Fingerprint()) }

// FingerprintBytes converts a fingerprint (transport.Fingerprint) to the
// 16 bytes the wire carries; zero if it is not one.
func FingerprintBytes(fp string) [16]byte {
	var b [16]byte
	if _, err := hex.Decode(b[:], []byte(fp)); err != nil || len(fp) != 32 {
		return [16]byte{}
	}
	return b
}

// Adopt makes h serve on the standby's socket from now on: the host of
// the resumed game. h must be new (not served elsewhere). Connections made
// before are handed to h as they are.
func (s *Standby) Adopt(h *Host) {
	h.srv = s.srv
	h.cancel = s.cancel
	s.host.Store(h)
}

// AdvertiseLAN lists the adopted host's game on the LAN, reachable on the
// standby's port, until the standby stops (see Host.AdvertiseLAN).
func (s *Standby) AdvertiseLAN(hostName string) error {
	h := s.host.Load()
	if h == nil {
		return errors.New("standby: no game to list: nothing was adopted")
	}
	ctx, stop := context.WithCancel(s.ctx)
	s.advStop = stop
	return h.AdvertiseLAN(ctx, s.srv, hostName)
}

// Yield makes the adopted host give its running game to the successor to,
// which leads it too (room.Room.Yield), and waits (a second at most) until
// its players have been told. It reports whether they were.
func (h *Host) Yield(to wire.Successor) bool {
	h.yieldTo.Store(&to)
	deadline := time.Now().Add(time.Second)
	for !h.yielded.Load() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	return h.yielded.Load()
}

// Release drops the adopted host (after it yielded its game): the socket
// is a plain standby again, for the game's next succession, and a LAN
// listing of the adopted game is withdrawn.
func (s *Standby) Release() {
	if s.advStop != nil {
		s.advStop()
	}
	s.host.Store(nil) // the loop starts afresh at its next event (current)
}

// Host returns the adopted host, or nil.
func (s *Standby) Host() *Host { return s.host.Load() }

// Close stops the standby: an adopted host first tells its players the
// game is going (handing it over if it can) and is given a moment for it.
// Close waits for the socket's loop, a second at most.
func (s *Standby) Close() {
	if h := s.host.Load(); h != nil {
		h.closing.Store(true) // the host's Tick shuts down, then cancels
		select {
		case <-s.done:
			return
		case <-time.After(time.Second):
		}
	}
	s.cancel()
	select {
	case <-s.done:
	case <-time.After(time.Second):
	}
}

// Abandon stops the standby as a crash would: nobody is told (a LAN
// listing of an adopted game is withdrawn, as the socket stops).
func (s *Standby) Abandon() {
	s.srv.Abandon()
	select {
	case <-s.done:
	case <-time.After(time.Second):
	}
	s.cancel()
}

// current returns the adopted host, handing it the connections made before
// it, on the loop goroutine.
func (s *Standby) current() *Host {
	h := s.host.Load()
	if h == nil {
		if s.adopted { // released: a plain standby again
			s.adopted, s.conns = false, map[transport.ConnID]netip.AddrPort{}
		}
		return nil
	}
	if !s.adopted {
		s.adopted = true
		for c, addr := range s.conns {
			h.Connected(c, addr)
		}
		s.conns = nil
	}
	return h
}

// Connected implements transport.ServerHandler.
func (s *Standby) Connected(c transport.ConnID, addr netip.AddrPort) {
	if h := s.current(); h != nil {
		h.Connected(c, addr)
		return
	}
	if len(s.conns) < maxStandbyConns {
		s.conns[c] = addr
		return
	}
	s.srv.CloseConn(c, 0)
}

// maxStandbyConns bounds the connections a standby keeps before it hosts:
// the players of one game, and probes.
const maxStandbyConns = 32

// Message implements transport.ServerHandler.
func (s *Standby) Message(c transport.ConnID, frame []byte) {
	if h := s.current(); h != nil {
		h.Message(c, frame)
		return
	}
	if msg, err := wire.Decode(frame); err == nil {
		j, ok := msg.(wire.Join)
		if !ok || s.called == nil {
			return
		}
		why := wire.RefuseNotHosting
		if j.Resuming {
			why = s.called()
		}
		// A plain Join comes from a player a room sent here (LeaveYield: it
		// rejoins from a snapshot), not one that lost its host: this player
		// hosts nothing, so the caller looks further (it would wait here
		// for an answer until its handover limit).
		if why == 0 {
			return // they lost the host: so will we; the Join is repeated until answered
		}
		if b, err := wire.Append(nil, wire.Refuse{Reason: why}); err == nil {
			_ = s.srv.Send(c, b)
		}
	}
}

// Disconnected implements transport.ServerHandler.
func (s *Standby) Disconnected(c transport.ConnID, reason error) {
	if h := s.current(); h != nil {
		h.Disconnected(c, reason)
		return
	}
	delete(s.conns, c)
}

// Tick implements transport.ServerHandler.
func (s *Standby) Tick(now time.Time) {
	if h := s.current(); h != nil {
		h.Tick(now)
	}
}

// NewResumed returns a host whose default room carries on a game handed
// over by a host that went away (room.Resume).
func NewResumed(cfg Config, hd room.Handover) *Host {
	h := New(cfg)
	hr := h.rooms[DefaultRoom]
	rc := h.cfg.Room
	rc.RoomID = DefaultRoom
	rc.Name = hr.r.Name()
	if hd.Name != "" {
		rc.Name = hd.Name // the game keeps its name, in lobbies and LAN lists
	}
	rc.Random = rand.Reader
	rc.Hosts = h.hostsOf(DefaultRoom)
	hr.r = room.Resume(rc, hd)
	if hd.Listing != ([8]byte{}) {
		h.lanID = hex.EncodeToString(hd.Listing[:])
		h.toldRoom = true // the resumed room has it
	}
	return h
}

// HandoverOf is what a successor's room needs from its player's session
// state st: the slots still in the game are those with a token, and the
// room waits for the expected ones (HandoverWait at most).
func HandoverOf(st lockstep.State, expected uint8) room.Handover {
	var present uint8
	for i, t := range st.Successors.Tokens {
		if t != ([16]byte{}) {
			present |= 1 << i
		}
	}
	return room.Handover{
		Game: st.Game, Name: st.Room, Revision: st.Revision, Setup: st.Setup, Names: st.Names, Roster: st.Roster,
		Tokens: st.Successors.Tokens, Present: present, Expected: expected,
		Next: st.Next, K: st.K, Delay: st.Delay, PendingAt: st.PendingAt, PendingK: st.PendingK, PendingDelay: st.PendingDelay,
		History: st.History, NewHost: st.Names[st.Slot], Host: uint8(st.Slot), Listing: st.Successors.Listing,
		Servers: st.Successors.Servers,
	}
}

// NewResumedLobby returns a host whose default room carries on the lobby
// of a host that went away (room.ResumeLobby), under the same name and
// LAN listing id.
func NewResumedLobby(cfg Config, hd room.LobbyHandover) *Host {
	h := New(cfg)
	hr := h.rooms[DefaultRoom]
	rc := h.cfg.Room
	rc.RoomID = DefaultRoom
	rc.Name = hr.r.Name()
	if hd.Name != "" {
		rc.Name = hd.Name
	}
	if hd.MaxSlots > 0 {
		rc.MaxPlayers = int(hd.MaxSlots) // the seats the lobby offered
	}
	rc.Random = rand.Reader
	rc.Hosts = h.hostsOf(DefaultRoom)
	hr.r = room.ResumeLobby(rc, hd)
	if hd.Listing != ([8]byte{}) {
		h.lanID = hex.EncodeToString(hd.Listing[:])
		h.toldRoom = true
	}
	return h
}

// LobbyHandoverOf is what a successor's room needs from its player's
// lobby state st: the seats with a token are held for their players.
func LobbyHandoverOf(st lockstep.LobbyState) room.LobbyHandover {
	return room.LobbyHandover{
		Game: st.Game, Name: st.Room, Revision: st.Revision, Setup: st.Setup.Setup, MaxSlots: st.Setup.MaxSlots,
		Roster: st.Setup.Players, Tokens: st.Successors.Tokens, Chat: st.Chat, Host: uint8(st.Slot), Listing: st.Successors.Listing,
	}
}
