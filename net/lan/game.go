package lan

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"
)

// Game is a hosted game as a browser sees it. Every field but Addr and Seen
// comes from the host's answer: display it, never trust it further.
type Game struct {
	ID string
	// Addr is where to join: the address the host answered from (IPv4
	// preferred when it answered on both) and the port it advertised.
	Addr       netip.AddrPort
	Name, Host string // sanitised: valid UTF-8, printable, at most MaxName bytes
	Players    int    // 0 ≤ Players ≤ Max
	Max        int    // 1 ≤ Max ≤ 64
	State      string // a wire.RoomState's name, or another version's token
	Version    int    // the host's protocol version
	Compatible bool   // Version is ours, so the game can be joined
	// Fingerprint is the host key the host published ("" if none): a
	// client joining from the list requires it (transport.Config's
	// HostFingerprint), so that a responder answering for someone else's
	// game cannot take its players.
	Fingerprint string
	Seen        time.Time // when the host last answered
}

// String describes the game on one line: address, quoted room name, host,
// players/max, state and protocol version, and "incompatible" when it cannot
// be joined.
func (g Game) String() string {
	s := fmt.Sprintf("%s %q host=%q %d/%d %s v%d", g.Addr, g.Name, g.Host, g.Players, g.Max, g.State, g.Version)
	if !g.Compatible {
		s += " incompatible"
	}
	return s
}

// Discovery is a live list of LAN games, for the UI. Browser implements it
// over mDNS and Fake in memory.
type Discovery interface {
	// Games returns the games currently known, sorted by name, then address,
	// then id.
	Games() []Game
	// Close stops discovery.
	Close() error
}

// Advertiser publishes a hosted game. Advertisement implements it over mDNS.
type Advertiser interface {
	// Update replaces what is published (the game id stays).
	Update(Info)
	// Close withdraws the game.
	Close() error
}

var (
	_ Discovery  = (*Browser)(nil)
	_ Discovery  = (*Fake)(nil)
	_ Advertiser = (*Advertisement)(nil)
)

// sortGames sorts games stably for display: by name (case-insensitively,
// then exactly), then address, then id.
func sortGames(games []Game) {
	slices.SortStableFunc(games, func(a, b Game) int {
		if c := strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)); c != 0 {
			return c
		}
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		if c := a.Addr.Compare(b.Addr); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// Fake is a Discovery whose games are set by hand, for UI tests.
// The zero value lists no games.
type Fake struct {
	mu     sync.Mutex
	games  []Game
	closed bool
}

// Set replaces the listed games; Games returns them sorted.
func (f *Fake) Set(games []Game) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.games = slices.Clone(games)
	sortGames(f.games)
}

// Games returns a copy of the games last Set, or none once closed.
func (f *Fake) Games() []Game {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil
	}
	return slices.Clone(f.games)
}

// Close makes the list empty for good.
func (f *Fake) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	return nil
}
