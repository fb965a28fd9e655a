package ui

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/game"
	"rockstep/internal/userdir"
	"rockstep/net/wire"
)

// Settings are the player's choices, kept between runs as JSON in
// settings.json in Rockstep's folder (see userdir.Dir).
type Settings struct {
	Name       string      `json:"name"`       // shown to other players; at most wire.MaxName bytes
	PlayerID   string      `json:"player_id"`  // 32 hex digits, random, made once per install
	Keys       KeyBindings `json:"keys"`       // ship controls
	Pad        KeyBindings `json:"pad"`        // ship controls on a gamepad, by button name ("A", "RT", "DpadLeft", …; see padButtonNames)
	Volume     int         `json:"volume"`     // sound effects, 0 (mute) to 100
	Fullscreen bool        `json:"fullscreen"` // start in full screen
	// Predict shows the player's own ship answering the keys at once in
	// network games, hiding the latency (-predict=false overrides it for
	// a run). A file without the field keeps the default, on.
	Predict bool `json:"predict"`
	// Portmap lets players on the internet join a game this player hosts:
	// the game asks the home router (PCP, NAT-PMP, UPnP) to open its port
	// (-portmap=false overrides it for a run). A file without the field
	// keeps the default, on.
	Portmap bool `json:"portmap"`
	// Setup is the last setup this player chose as a host (its options:
	// mode, lives, starting wave, …); the next game they host opens with
	// it (hostSetup). Absent: the room's default.
	Setup *game.Setup `json:"setup,omitempty"`
	// Servers are the community servers (`rockstep -server`) the player
	// hosts rooms on and lists rooms of, each with its host key pinned
	// the first time it answered (ui/server.go).
	Servers []KnownServer `json:"servers,omitempty"`
}

// KeyBindings name the keys of each ship control, by Ebiten's key names
// ("ArrowUp", "W", "Space", "KP8", …). A control may have several keys.
type KeyBindings struct {
	Up    []string `json:"up"`
	Down  []string `json:"down"`
	Left  []string `json:"left"`
	Right []string `json:"right"`
	Fire  []string `json:"fire"`
	Jump  []string `json:"hyperspace"` // a file without it (older versions) gets the default
}

// settingsFile is the name of the settings file in its directory.
const settingsFile = "settings.json"

// DefaultKeys are the controls of a fresh install: arrows or WASD steer,
// Space fires, Shift (either) jumps into hyperspace.
func DefaultKeys() KeyBindings {
	return KeyBindings{
		Up:    []string{"ArrowUp", "W"},
		Down:  []string{"ArrowDown", "S"},
		Left:  []string{"ArrowLeft", "A"},
		Right: []string{"ArrowRight", "D"},
		Fire:  []string{"Space"},
		Jump:  []string{"Shift"},
	}
}

// DefaultSettings returns the settings of a fresh install, with a new
// random player id and guest name.
func DefaultSettings() Settings {
	var id [16]byte
	_, _ = rand.Read(id[:]) // crypto/rand never fails on supported systems
	var tag [2]byte
	_, _ = rand.Read(tag[:])
	return Settings{
		Name:     "Guest-" + strings.ToUpper(hex.EncodeToString(tag[:])),
		PlayerID: hex.EncodeToString(id[:]),
		Keys:     DefaultKeys(),
		Pad:      DefaultPad(),
		Volume:   70,
		Predict:  true,
		Portmap:  true,
	}
}

// ID returns the player id as bytes (the session's PlayerID).
func (s Settings) ID() [16]byte {
	var id [16]byte
	b, err := hex.DecodeString(s.PlayerID)
	if err == nil && len(b) == len(id) {
		copy(id[:], b)
	}
	return id
}

// repair fills what is missing or out of range and reports what it did,
// one phrase each ("volume 900 clamped to 100"), so that a hand-edited
// file with one bad field keeps the rest and the player is told the truth:
// numbers out of range are clamped, a long name shortened, bad ids and
// keys replaced with def's or the default keys.
func (s *Settings) repair(def Settings) []string {
	var fixed []string
	name := strings.TrimSpace(s.Name)
	switch {
	case name == "" || !utf8.ValidString(name):
		if s.Name != "" {
			fixed = append(fixed, "name replaced with "+def.Name)
		}
		name = def.Name
	case len(name) > wire.MaxName:
		name = wire.Truncate(name, wire.MaxName)
		fixed = append(fixed, fmt.Sprintf("name shortened to %q (at most %d bytes)", name, wire.MaxName))
	}
	s.Name = name
	if b, err := hex.DecodeString(s.PlayerID); err != nil || len(b) != 16 {
		if s.PlayerID != "" {
			fixed = append(fixed, "player_id replaced with a new one")
		}
		s.PlayerID = def.PlayerID
	}
	if s.Volume < 0 || s.Volume > 100 {
		v := min(max(s.Volume, 0), 100)
		fixed = append(fixed, fmt.Sprintf("volume %d clamped to %d", s.Volume, v))
		s.Volume = v
	}
	d := DefaultKeys()
	for _, k := range []struct {
		name string
		keys *[]string
		def  []string
	}{{"up", &s.Keys.Up, d.Up}, {"down", &s.Keys.Down, d.Down}, {"left", &s.Keys.Left, d.Left}, {"right", &s.Keys.Right, d.Right}, {"fire", &s.Keys.Fire, d.Fire}, {"hyperspace", &s.Keys.Jump, d.Jump}} {
		if len(*k.keys) == 0 {
			*k.keys = k.def
			continue
		}
		for _, n := range *k.keys {
			var key ebiten.Key
			if key.UnmarshalText([]byte(n)) != nil {
				fixed = append(fixed, "keys."+k.name+" ("+n+") replaced with the default keys")
				*k.keys = k.def
				break
			}
		}
	}
	fixed = append(fixed, repairPad(&s.Pad)...)
	fixed = append(fixed, s.repairServers()...)
	return fixed
}

// LoadSettings reads the settings in dir. A missing file gives the defaults,
// saved at once so the player id stays. A file that does not parse is
// renamed to settings.json.bad (never overwritten silently) and the
// defaults are used; a file with some bad fields keeps the good ones. The
// warning, if not empty, is the one line to show the player; err is set
// only when the settings could not be saved (they are still usable).
func LoadSettings(dir string) (s Settings, warning string, err error) {
	def := DefaultSettings()
	// Fields the file lacks (written by an older version) keep their
	// defaults.
	s = def
	s.Name, s.PlayerID = "", ""
	found, rerr := userdir.ReadFile(dir, settingsFile, func(data []byte) error {
		return json.Unmarshal(data, &s)
	})
	switch found {
	case userdir.NotFound:
		return def, "", SaveSettings(dir, def)
	case userdir.MovedAside:
		return def, fmt.Sprintf("settings: %v, using defaults", rerr), SaveSettings(dir, def)
	case userdir.LeftInPlace:
		// Unreadable (permissions, a directory in the way), or damaged
		// and stuck there: use the defaults for this run and leave the
		// file alone.
		return def, fmt.Sprintf("settings: %v; using defaults for this run", rerr), nil
	}
	if fixed := s.repair(def); len(fixed) > 0 {
		warning = fmt.Sprintf("settings: %s: %s", filepath.Join(dir, settingsFile), strings.Join(fixed, "; "))
		err = SaveSettings(dir, s)
	}
	return s, warning, err
}

// SaveSettings writes s to dir/settings.json, creating dir, through a
// temporary file so that a crash never leaves half a file.
func SaveSettings(dir string, s Settings) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	if err := userdir.WriteFile(dir, settingsFile, append(data, '\n')); err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	return nil
}
