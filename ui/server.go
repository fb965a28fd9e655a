package ui

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/netip"
	"strings"
	"time"

	"rockstep/game"
	"rockstep/net/client"
	"rockstep/net/host"
	"rockstep/net/invite"
	"rockstep/net/portmap"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// Hosting on a community server (`rockstep -server`): a player whose
// router will not open a port opens its room on a server every player can
// reach, and plays in it as its guests do, over an outbound connection
// (docs/ARCHITECTURE.md, "Rooms on a server"). The player knows servers
// by address, and pins each one's host key the first time it answers
// (trust on first use): a server that later proves another key is refused.

// KnownServer is a server the player hosts or finds rooms on (Settings →
// Servers, or -add-server).
type KnownServer struct {
	Addr string `json:"addr"` // host:port
	// Fingerprint is the server's host key (transport.Fingerprint), pinned
	// the first time it answered; "" until then.
	Fingerprint string `json:"fingerprint,omitempty"`
}

// maxServers bounds the known servers (a hand-edited file may hold any
// number): the Host choice and the Join screen show at most these.
const maxServers = 8

// addServer adds the server at addr (host or host:port, port 7777 by
// default) to the known ones, unpinned, and returns its host:port; a
// server already known is left as it is.
func (s *Settings) addServer(addr string) (string, error) {
	a, err := parseJoinAddr(addr)
	if err != nil {
		return "", err
	}
	for _, k := range s.Servers {
		if k.Addr == a {
			return a, nil
		}
	}
	if len(s.Servers) >= maxServers {
		return "", fmt.Errorf("at most %d servers are kept: remove one first", maxServers)
	}
	s.Servers = append(s.Servers, KnownServer{Addr: a})
	return a, nil
}

// removeServer forgets the server at addr, and its key.
func (s *Settings) removeServer(addr string) {
	out := s.Servers[:0]
	for _, k := range s.Servers {
		if k.Addr != addr {
			out = append(out, k)
		}
	}
	s.Servers = out
}

// server returns the known server at addr.
func (s *Settings) server(addr string) (KnownServer, bool) {
	for _, k := range s.Servers {
		if k.Addr == addr {
			return k, true
		}
	}
	return KnownServer{}, false
}

// pinServer pins fp as the key of the known server at addr if it has
// none yet (trust on first use), and reports whether it did.
func (s *Settings) pinServer(addr, fp string) bool {
	if fp == "" {
		return false
	}
	for i := range s.Servers {
		if s.Servers[i].Addr == addr && s.Servers[i].Fingerprint == "" {
			s.Servers[i].Fingerprint = fp
			return true
		}
	}
	return false
}

// repairServers drops known servers whose address does not parse or
// whose pin is not a fingerprint (a hand-edited file), and duplicates.
func (s *Settings) repairServers() []string {
	var fixed []string
	out := s.Servers[:0]
	seen := map[string]bool{}
	for _, k := range s.Servers {
		a, err := parseJoinAddr(k.Addr)
		switch {
		case err != nil || seen[a] || len(out) == maxServers:
			fixed = append(fixed, fmt.Sprintf("server %q dropped", k.Addr))
			continue
		case k.Fingerprint != "" && !transport.ValidFingerprint(k.Fingerprint):
			fixed = append(fixed, fmt.Sprintf("server %s: key %q forgotten (not a fingerprint)", a, k.Fingerprint))
			k.Fingerprint = ""
		}
		k.Addr, seen[a] = a, true
		out = append(out, k)
	}
	s.Servers = out
	return fixed
}

// ServerKeyError is why a known server was not used: it proved another
// host key than the one pinned for it.
type ServerKeyError struct {
	Addr     string
	Old, New string // fingerprints: pinned, and proved now
}

func (e *ServerKeyError) Error() string {
	return fmt.Sprintf("the server at %s proved the host key %s, not %s it proved before: refused (if its operator changed the key, remove the server in Settings and add it again)",
		e.Addr, transport.FormatFingerprint(e.New), transport.FormatFingerprint(e.Old))
}

// ServerRefusedError is a known server's refusal to open a room for us,
// in its words.
type ServerRefusedError struct {
	Addr string
	Text string
}

func (e *ServerRefusedError) Error() string {
	if e.Text == "" {
		return "the server at " + e.Addr + " would not open a room"
	}
	return "the server at " + e.Addr + " would not open a room: " + e.Text
}

// serverError turns a dial's host key mismatch with a known server into a
// ServerKeyError, and its refusal to open a room into a
// ServerRefusedError; other errors are returned as they are.
func serverError(addr string, err error) error {
	var hk *transport.HostKeyError
	var refused *client.RoomRefusedError
	switch {
	case errors.As(err, &hk):
		return &ServerKeyError{Addr: addr, Old: hk.Want, New: hk.Got}
	case errors.As(err, &refused):
		return &ServerRefusedError{Addr: addr, Text: refused.Text}
	}
	return err
}

// portmapClosed reports whether the router's verdict leaves our room
// closed to the internet: it did not answer, refused, sits behind another
// NAT, or there is no router (not: still asking, opened, or asking is off).
func portmapClosed(st portmap.Status) bool {
	switch st.Verdict {
	case portmap.NoAnswer, portmap.Refused, portmap.DoubleNAT, portmap.NoRouter:
		return true
	}
	return false
}

// serverDialTimeout bounds connecting to a server and its answer to a
// CreateRoom.
const serverDialTimeout = dialTimeout + 10*time.Second

// hostOnServer opens a room named roomName on the known server srv and
// joins it as its player and host, pinned to the server's key if it has
// one (else the key is pinned once it answers: see App.pinServers).
func hostOnServer(cfg netConfig, srv KnownServer, roomName string) *netGame {
	// g.addr stays "" until read fills it from the client (the address
	// that answered), on the UI's goroutine, which alone reads it.
	g := &netGame{cfg: cfg, dialing: true, server: srv.Addr}
	ctx, cancel := context.WithTimeout(context.Background(), serverDialTimeout)
	g.cancel = cancel
	cfg.hostFP = srv.Fingerprint
	ask := wire.CreateRoom{Name: roomName, Setup: hostSetup(host.LAN().Room.Setup, cfg.setup)}
	ask.Setup.Seed = 0 // the server picks one
	go func() {
		defer cancel()
		c, id, err := client.CreateRoom(ctx, []string{srv.Addr}, ask, cfg.options())
		if err != nil {
			err = serverError(srv.Addr, err)
			log.Printf("rockstep: cannot open a room on the server %s: %v", srv.Addr, err)
		} else {
			log.Printf("rockstep: opened room %d on the server %s", id, c.HostAddr())
		}
		g.dialled(c, err, id)
	}()
	return g
}

// serverRoom returns the id of the room on a server the session plays in
// (one this player opened there, or joined by its code), and the server's
// address; 0 for any other session.
func (v *netView) serverRoom() (uint32, string, uint64) {
	if v.g == nil {
		return 0, "", 0
	}
	v.g.mu.Lock()
	defer v.g.mu.Unlock()
	if v.g.roomID == 0 {
		return 0, "", 0
	}
	if v.g.server == "" {
		return v.g.roomID, v.g.addr, v.g.roomSecret // joined by an invite code: the address that answered
	}
	return v.g.roomID, v.g.server, v.g.roomSecret
}

// serverRoomCode returns the invite code of room id on the server at addr
// (an IP address and port) whose host key has fingerprint fp (format 1;
// format 2 with the secret of an unlisted room); "" if it cannot be made.
func serverRoomCode(addr, fp string, id uint32, secret uint64) string {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil || fp == "" || id == 0 {
		return ""
	}
	c, err := invite.New([]netip.AddrPort{ap}, fp)
	if err != nil {
		return ""
	}
	c.RoomID, c.Secret = id, secret
	return c.String()
}

// moveServer returns the known server the lobby offers to move a room
// we host to, and whether it offers it: before anyone has joined, when
// the router would not open the room's port (no answer, a refusal, a
// double NAT, no router) and a server is known.
func (a *App) moveServer() (KnownServer, bool) {
	nv := &a.nv
	if !a.flow.hosting || a.net == nil || a.net.h == nil || !nv.ok || len(a.settings.Servers) == 0 {
		return KnownServer{}, false
	}
	if id, _, _ := nv.serverRoom(); id != 0 || nv.phase != phaseLobby || len(nv.setup.Players) > 1 {
		return KnownServer{}, false
	}
	if !portmapClosed(nv.portmap) {
		return KnownServer{}, false
	}
	return a.settings.Servers[0], true
}

// serverWhere is the lobby's line for a room on a server: where it is,
// that the pings are to the server, and the input delay the room chose.
func serverWhere(id uint32, addr string, hosting bool, nv *netView) string {
	var b strings.Builder
	if hosting {
		fmt.Fprintf(&b, "You host this game on the server %s (room %d): players join with the invite code below.", addr, id)
	} else {
		fmt.Fprintf(&b, "A room on the server %s (room %d).", addr, id)
	}
	b.WriteString(" Pings are to the server")
	if d := nv.stats.Delay; d > 0 {
		// The last game's: a rematch starts with it.
		fmt.Fprintf(&b, "; the room's input delay is %d turn", d)
		if d > 1 {
			b.WriteString("s")
		}
		if k := nv.stats.K; k > 0 {
			fmt.Fprintf(&b, " (%d ms)", d*k*1000/game.TicksPerSecond)
		}
	} else {
		b.WriteString("; the room sets the input delay from them when the game starts")
	}
	b.WriteString(".")
	return b.String()
}

// addServer adds the server at addr to the known servers and saves the
// settings.
func (a *App) addServer(addr string) error {
	if _, err := a.settings.addServer(addr); err != nil {
		return err
	}
	a.saveSettings()
	return nil
}

// saveSettings keeps the settings, saying on the menu if it cannot.
func (a *App) saveSettings() {
	if a.settingsDir == "" {
		return
	}
	if err := SaveSettings(a.settingsDir, a.settings); err != nil {
		log.Printf("rockstep: %v", err)
		a.flow.notice = err.Error()
	}
}

// pinServers pins the host key of the server our session's room is on,
// the first time that server answers (trust on first use).
func (a *App) pinServers() {
	if a.net == nil || a.net.server == "" {
		return
	}
	if fp := a.nv.hostFingerprint(); fp != "" && a.settings.pinServer(a.net.server, fp) {
		log.Printf("rockstep: the server %s proved the host key %s: pinned", a.net.server, transport.FormatFingerprint(fp))
		a.saveSettings()
	}
}
