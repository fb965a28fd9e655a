// Package lan advertises hosted Rockstep games on the local network with
// mDNS / DNS-SD and browses for the games others host.
//
// A host publishes the service _rockstep._udp.local. (records built by
// github.com/hashicorp/mdns, answered by its own RFC 6762 responder: see
// respond.go), with one instance per game named after the game id, a SRV
// record for the game's UDP port and a TXT record describing the room
// (see Info). A browser queries about once a second on every multicast-capable
// interface, over IPv4 and IPv6 where the system allows, and keeps the list of
// games it has heard from recently (see Browser). Everything in an answer is
// untrusted: it is checked, sanitised and bounded, and used only for display
// and for the address a player may choose to join.
//
// Discovery is a convenience: joining by host:port never depends on it.
package lan

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"rockstep/internal/peertext"
	"rockstep/net/transport"
	"rockstep/net/wire"
)

// DNS-SD names of the service.
const (
	Service     = "_rockstep._udp"
	Domain      = "local."
	serviceName = Service + "." + Domain // fully qualified, as asked in queries
)

// Bounds on what an answer may carry and what a browser keeps.
const (
	MaxName     = wire.MaxName // bytes of a room or host name, after sanitising
	MaxGames    = 256          // games a browser lists at once
	maxCount    = 64           // players or max in an answer; larger is absurd
	maxTXT      = 16           // strings in one TXT record
	maxIDLen    = 32           // bytes of a game id
	maxStateLen = 16           // bytes of a state token of another protocol version
)

// Info is what a host publishes about its game.
type Info struct {
	ID      string // random per hosted game, stable while it runs; see NewGameID
	Name    string // room name, at most MaxName bytes of UTF-8 after sanitising
	Host    string // host or player name, at most MaxName bytes
	Players int    // players in the room
	Max     int    // players the room accepts
	State   string // a wire.RoomState's name, such as wire.StateSetup.String()
	// Fingerprint is the host key's (transport.Fingerprint): a client that
	// joins from the LAN list accepts no other host. "": not published.
	Fingerprint string
}

// NewGameID returns a fresh random game id: 16 lowercase hex digits.
func NewGameID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported systems
	return hex.EncodeToString(b[:])
}

// validID reports whether s can be a game id: 1 to maxIDLen letters, digits,
// '-' or '_', so that it is also a plain DNS label.
func validID(s string) bool {
	if s == "" || len(s) > maxIDLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// knownState reports whether s names a room state of this protocol version.
func knownState(s string) bool {
	_, ok := wire.ParseRoomState(s)
	return ok
}

// clean returns the info as it will be published: names sanitised, counts
// clamped to 0 ≤ Players ≤ Max ≤ maxCount with Max ≥ 1, and an unknown state
// replaced by setup, so that a host never publishes what browsers reject.
func (info Info) clean() Info {
	info.Name, _ = sanitiseName(info.Name)
	info.Host, _ = sanitiseName(info.Host)
	if !transport.ValidFingerprint(info.Fingerprint) {
		info.Fingerprint = ""
	}
	info.Max = min(max(info.Max, 1), maxCount)
	info.Players = min(max(info.Players, 0), info.Max)
	if !knownState(info.State) {
		info.State = wire.StateSetup.String()
	}
	return info
}

// encodeTXT returns the TXT strings of info in the escaped form that
// github.com/miekg/dns packs (a backslash starts an escape).
func encodeTXT(info Info) []string {
	return []string{
		"v=" + strconv.Itoa(wire.Version),
		"id=" + info.ID,
		"name=" + escapeTXT(info.Name),
		"host=" + escapeTXT(info.Host),
		"players=" + strconv.Itoa(info.Players),
		"max=" + strconv.Itoa(info.Max),
		"state=" + info.State,
		"fp=" + info.Fingerprint,
	}
}

// escapeTXT escapes s for miekg/dns, which reads `\X` and `\DDD` as escapes
// when packing and writes every other byte as it is.
func escapeTXT(s string) string {
	return strings.ReplaceAll(s, `\`, `\\`)
}

// unescapeTXT returns the raw bytes of a TXT string as unpacked by
// miekg/dns, which writes `"` and `\` as `\"` and `\\` and every byte outside
// printable ASCII as `\DDD`.
func unescapeTXT(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b = append(b, c)
			continue
		}
		if i+3 < len(s) && isDigit(s[i+1]) && isDigit(s[i+2]) && isDigit(s[i+3]) {
			if v := int(s[i+1]-'0')*100 + int(s[i+2]-'0')*10 + int(s[i+3]-'0'); v <= 255 {
				b = append(b, byte(v))
				i += 3
				continue
			}
		}
		i++
		b = append(b, s[i])
	}
	return string(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// sanitiseName makes an untrusted name safe to display on one line, as
// every text from a peer is (peertext.Clean: no control, format or
// invisible characters, NFC, spaces collapsed), at most MaxName bytes.
// changed reports whether that altered s.
func sanitiseName(s string) (clean string, changed bool) {
	clean = peertext.Clean(s, MaxName)
	return clean, clean != s
}

// Errors of a TXT record; decodeTXT wraps them with the field.
var (
	errMissing   = errors.New("missing")
	errDuplicate = errors.New("duplicate")
	errBadValue  = errors.New("bad value")
	errTooMany   = errors.New("too many strings")
)

// decodeTXT reads the game described by the TXT strings of an answer, as
// unpacked by miekg/dns. Fields v, id, name, players, max and state are
// required, host is optional, unknown keys are ignored (newer versions may add
// some). Names are sanitised (sanitised reports it); anything else out of
// bounds is an error. The state must be known when the version is ours; a game
// of another version may use any short lowercase token and is listed as
// incompatible.
func decodeTXT(txt []string) (g Game, sanitised bool, err error) {
	if len(txt) > maxTXT {
		return Game{}, false, fmt.Errorf("txt: %d strings: %w", len(txt), errTooMany)
	}
	const (
		hasV = 1 << iota
		hasID
		hasName
		hasHost
		hasPlayers
		hasMax
		hasState
		hasFP
		required = hasV | hasID | hasName | hasPlayers | hasMax | hasState
	)
	var seen int
	for _, s := range txt {
		key, val, ok := strings.Cut(unescapeTXT(s), "=")
		if !ok {
			continue // a boolean attribute (RFC 6763 §6.4): none of ours
		}
		var bit int
		switch strings.ToLower(key) {
		case "v":
			bit = hasV
			g.Version, ok = parseCount(val, 1<<16-1)
		case "id":
			bit = hasID
			g.ID, ok = val, validID(val)
		case "name":
			bit = hasName
			var changed bool
			g.Name, changed = sanitiseName(val)
			sanitised = sanitised || changed
		case "host":
			bit = hasHost
			var changed bool
			g.Host, changed = sanitiseName(val)
			sanitised = sanitised || changed
		case "players":
			bit = hasPlayers
			g.Players, ok = parseCount(val, maxCount)
		case "max":
			bit = hasMax
			g.Max, ok = parseCount(val, maxCount)
		case "state":
			bit = hasState
			g.State, ok = val, validStateToken(val)
		case "fp":
			bit = hasFP
			g.Fingerprint, ok = val, val == "" || transport.ValidFingerprint(val)
		default:
			continue
		}
		if seen&bit != 0 {
			return Game{}, false, fmt.Errorf("txt: field %.16q: %w", key, errDuplicate)
		}
		seen |= bit
		if !ok {
			return Game{}, false, fmt.Errorf("txt: field %s=%.32q: %w", key, val, errBadValue)
		}
	}
	if seen&required != required {
		for _, f := range []struct {
			bit  int
			name string
		}{{hasV, "v"}, {hasID, "id"}, {hasName, "name"}, {hasPlayers, "players"}, {hasMax, "max"}, {hasState, "state"}} {
			if seen&f.bit == 0 {
				return Game{}, false, fmt.Errorf("txt: field %s: %w", f.name, errMissing)
			}
		}
	}
	if g.Max < 1 || g.Players > g.Max {
		return Game{}, false, fmt.Errorf("txt: %d/%d players: %w", g.Players, g.Max, errBadValue)
	}
	g.Compatible = g.Version == wire.Version
	if g.Compatible && !knownState(g.State) {
		return Game{}, false, fmt.Errorf("txt: state %q: %w", g.State, errBadValue)
	}
	return g, sanitised, nil
}

// parseCount parses a decimal count in [0, limit], digits only: no sign,
// spaces or leading zeros beyond a lone "0".
func parseCount(s string, limit int) (int, bool) {
	if s == "" || len(s) > 5 || len(s) > 1 && s[0] == '0' {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, n <= limit
}

// validStateToken reports whether s can be a state of some protocol version:
// 1 to maxStateLen lowercase ASCII letters.
func validStateToken(s string) bool {
	if s == "" || len(s) > maxStateLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}
