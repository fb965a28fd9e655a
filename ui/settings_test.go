package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/game"
	"rockstep/internal/userdir"
	"rockstep/net/lan"
)

func readSettingsFile(t *testing.T, dir string) Settings {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, settingsFile))
	if err != nil {
		t.Fatalf("settings file: %v", err)
	}
	var s Settings
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("settings file does not parse: %v\n%s", err, data)
	}
	return s
}

func TestMissingSettingsGiveDefaultsAndAreSaved(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "not", "yet")
	s, warning, err := LoadSettings(dir)
	if err != nil || warning != "" {
		t.Fatalf("LoadSettings = warning %q, err %v; want neither", warning, err)
	}
	if !regexp.MustCompile(`^Guest-[0-9A-F]{4}$`).MatchString(s.Name) {
		t.Errorf("default name %q, want Guest-XXXX", s.Name)
	}
	if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(s.PlayerID) || s.ID() == [16]byte{} {
		t.Errorf("player id %q, want 32 random hex digits", s.PlayerID)
	}
	if s.Volume < 0 || s.Volume > 100 {
		t.Errorf("volume %d", s.Volume)
	}
	saved := readSettingsFile(t, dir)
	if saved.PlayerID != s.PlayerID || saved.Name != s.Name {
		t.Errorf("saved %+v, want %+v", saved, s)
	}
	again, warning, err := LoadSettings(dir)
	if err != nil || warning != "" || again.PlayerID != s.PlayerID {
		t.Errorf("second load: id %q (want %q), warning %q, err %v", again.PlayerID, s.PlayerID, warning, err)
	}
}

func TestTwoInstallsGetDifferentIDs(t *testing.T) {
	a, _, _ := LoadSettings(t.TempDir())
	b, _, _ := LoadSettings(t.TempDir())
	if a.PlayerID == b.PlayerID {
		t.Errorf("two installs share player id %s", a.PlayerID)
	}
}

func TestSettingsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	want := DefaultSettings()
	want.Name, want.Volume, want.Fullscreen = "Ada", 35, true
	want.Keys.Fire = []string{"ControlLeft", "Space"}
	want.Setup = &game.Setup{Mode: game.Versus, Lives: 5, StartWave: 2, Hyperspace: true} // the last one hosted
	if err := SaveSettings(dir, want); err != nil {
		t.Fatal(err)
	}
	got, warning, err := LoadSettings(dir)
	if err != nil || warning != "" {
		t.Fatalf("warning %q, err %v", warning, err)
	}
	if got.Name != want.Name || got.Volume != want.Volume || !got.Fullscreen || strings.Join(got.Keys.Fire, ",") != "ControlLeft,Space" || got.Setup == nil || *got.Setup != *want.Setup {
		t.Errorf("loaded %+v, want %+v", got, want)
	}
}

func TestCorruptSettingsAreKeptAsideWithOneWarning(t *testing.T) {
	for _, tc := range []struct{ name, content string }{
		{"garbage", "\x00\x01not json at all"},
		{"truncated", `{"name": "Ada", "volume": 4`},
		{"wrong types", `{"name": 12, "volume": "loud"}`},
		{"empty", ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, settingsFile)
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			s, warning, err := LoadSettings(dir)
			if err != nil {
				t.Fatalf("LoadSettings: %v", err)
			}
			if warning == "" || strings.Count(warning, "\n") != 0 {
				t.Errorf("warning %q, want one line", warning)
			}
			if !strings.HasPrefix(s.Name, "Guest-") {
				t.Errorf("name %q, want the default", s.Name)
			}
			bad, err := os.ReadFile(path + ".bad")
			if err != nil || string(bad) != tc.content {
				t.Errorf("settings.json.bad = %q, %v; want the damaged file kept as it was", bad, err)
			}
			if readSettingsFile(t, dir).PlayerID != s.PlayerID {
				t.Error("fresh defaults were not saved in place of the damaged file")
			}
			// The next run is quiet.
			if _, warning, _ := LoadSettings(dir); warning != "" {
				t.Errorf("second run warned again: %q", warning)
			}
		})
	}
}

func TestBadFieldsAreRepairedAndTheRestKept(t *testing.T) {
	dir := t.TempDir()
	content := `{"name":"Ada","player_id":"xyz","keys":{"up":["NoSuchKey"],"fire":["Enter"]},"volume":250,"fullscreen":true}`
	if err := os.WriteFile(filepath.Join(dir, settingsFile), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	s, warning, err := LoadSettings(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"player_id replaced with a new one", "volume 250 clamped to 100", "keys.up (NoSuchKey) replaced with the default keys"} {
		if !strings.Contains(warning, want) {
			t.Errorf("warning %q does not say %q", warning, want)
		}
	}
	if s.Name != "Ada" || !s.Fullscreen || s.Volume != 100 || strings.Join(s.Keys.Fire, ",") != "Enter" {
		t.Errorf("good fields lost: %+v", s)
	}
	if strings.Join(s.Keys.Up, ",") != strings.Join(DefaultKeys().Up, ",") || strings.Join(s.Keys.Down, ",") != strings.Join(DefaultKeys().Down, ",") {
		t.Errorf("keys %+v, want the defaults for up (bad) and down (missing)", s.Keys)
	}
	if strings.Join(s.Keys.Jump, ",") != "Shift" {
		t.Errorf("hyperspace keys %v, want the default (Shift) for a file that has none", s.Keys.Jump)
	}
	if s.ID() == [16]byte{} {
		t.Error("no new player id")
	}
}

func TestSettingsOutOfRangeAreClampedAndSaySo(t *testing.T) {
	tests := []struct {
		name    string
		content string
		volume  int
		say     string
	}{
		{"loud", `{"name":"Ada","volume":900}`, 100, "volume 900 clamped to 100"},
		{"below zero", `{"name":"Ada","volume":-5}`, 0, "volume -5 clamped to 0"},
		{"long name", `{"name":"` + strings.Repeat("x", 30) + `","volume":50}`, 50, "name shortened to \"" + strings.Repeat("x", 24) + "\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, settingsFile), []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			s, warning, err := LoadSettings(dir)
			if err != nil {
				t.Fatal(err)
			}
			if s.Volume != tc.volume {
				t.Errorf("volume %d, want %d", s.Volume, tc.volume)
			}
			if !strings.Contains(warning, tc.say) || strings.Contains(warning, "default") {
				t.Errorf("warning %q, want it to say %q and nothing of defaults", warning, tc.say)
			}
		})
	}
}

func TestLongNamesAreCutOnACharacter(t *testing.T) {
	s := Settings{Name: strings.Repeat("é", 20)}
	s.repair(DefaultSettings())
	if len(s.Name) > 24 || !strings.HasPrefix(strings.Repeat("é", 20), s.Name) {
		t.Errorf("name %q (%d bytes)", s.Name, len(s.Name))
	}
}

// TestReplaysFolderIsTheServers: with no ConfigDir, the game keeps its
// settings in Rockstep's folder, and the Host button records into and the
// Replays screen lists the replays folder there: the one a -server records
// into (see net/host's TestRecordsIntoTheReplaysFolder).
func TestReplaysFolderIsTheServers(t *testing.T) {
	home := t.TempDir()
	t.Setenv(userdir.Env, home)
	app, err := NewApp(Options{Seed: 1, Silent: true, Discovery: &lan.Fake{}})
	if err != nil {
		t.Fatalf("NewApp: %v", err)
	}
	t.Cleanup(app.Close)
	if _, err := os.Stat(filepath.Join(home, settingsFile)); err != nil {
		t.Errorf("settings not kept in %s: %v", home, err)
	}
	want := filepath.Join(home, "replays")
	if got := app.netConfig().recordDir; got != want {
		t.Errorf("the Host button records into %q, want %q", got, want)
	}
	if got := newReplaysScreen(app).dir; got != want {
		t.Errorf("the Replays screen lists %q, want %q", got, want)
	}
}

func TestRemappedKeys(t *testing.T) {
	b := DefaultKeys()
	b.Fire = []string{"ControlLeft"}
	b.Left = []string{"J"}
	m := NewKeyMap(b)
	tests := []struct {
		name string
		down []ebiten.Key
		want game.Input
	}{
		{"new fire key", []ebiten.Key{ebiten.KeyControlLeft}, game.Fire},
		{"default hyperspace key", []ebiten.Key{ebiten.KeyShift}, game.Hyperspace},
		{"old fire key is free", []ebiten.Key{ebiten.KeySpace}, 0},
		{"new left", []ebiten.Key{ebiten.KeyJ}, game.Left},
		{"untouched controls keep defaults", []ebiten.Key{ebiten.KeyW, ebiten.KeyArrowRight}, game.Up | game.Right},
		{"opposites still cancel", []ebiten.Key{ebiten.KeyJ, ebiten.KeyD}, 0},
	}
	for _, tc := range tests {
		if got := m.Input(keys(tc.down...)); got != tc.want {
			t.Errorf("%s: Input(%v) = %05b, want %05b", tc.name, tc.down, got, tc.want)
		}
	}
	if got := NewKeyMap(DefaultKeys()).Intents(keys(), keys(ebiten.KeyF3, ebiten.KeyF11)); !got.Graph || !got.Fullscreen {
		t.Errorf("F3, F11 = %+v, want Graph and Fullscreen", got)
	}
}

// TestPredictSetting: prediction is on by default, survives a round trip
// when turned off, and a file from before the setting existed keeps it on.
func TestPredictSetting(t *testing.T) {
	if !DefaultSettings().Predict {
		t.Fatal("prediction is off by default, want on")
	}
	dir := t.TempDir()
	s := DefaultSettings()
	s.Predict = false
	if err := SaveSettings(dir, s); err != nil {
		t.Fatal(err)
	}
	got, warning, err := LoadSettings(dir)
	if err != nil || warning != "" || got.Predict {
		t.Fatalf("after saving predict=false: predict %v, warning %q, err %v", got.Predict, warning, err)
	}
	old := `{"name":"Ada","player_id":"00112233445566778899aabbccddeeff","volume":40}`
	if err := os.WriteFile(filepath.Join(dir, settingsFile), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	got, _, err = LoadSettings(dir)
	if err != nil || !got.Predict || got.Volume != 40 || got.Name != "Ada" {
		t.Errorf("an older file: predict %v volume %d name %q, err %v; want predict on and the file's values", got.Predict, got.Volume, got.Name, err)
	}
}

// TestPredictFlagOverridesTheSetting: -predict (Options.Predict) wins over
// the settings either way; without it the settings decide.
func TestPredictFlagOverridesTheSetting(t *testing.T) {
	on, off := true, false
	for _, tc := range []struct {
		name     string
		setting  bool
		override *bool
		want     bool
	}{
		{"setting on, no flag", true, nil, true},
		{"setting off, no flag", false, nil, false},
		{"setting on, -predict=false", true, &off, false},
		{"setting off, -predict=true", false, &on, true},
	} {
		if got := predictOn(Settings{Predict: tc.setting}, tc.override); got != tc.want {
			t.Errorf("%s: predict %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestSettingsSayNothingWillPlay: where no sound plays (no sound device,
// as under the test's driver), the volume row says so, in the sound's own
// words, rather than offering a volume that changes nothing.
func TestSettingsSayNothingWillPlay(t *testing.T) {
	d := newInputDriver(t, Options{ConfigDir: t.TempDir(), Silent: true})
	d.app.emit(Intent{Kind: IntentOpenSettings})
	d.update(InputState{})
	why := d.app.sound.silentWhy()
	if why == "" {
		t.Fatal("a silent app gives no reason for its silence")
	}
	found := false
	var walk func(w widget.PreferredSizeLocateableWidget)
	walk = func(w widget.PreferredSizeLocateableWidget) {
		if tx, ok := w.(*widget.Text); ok && tx.Label == why {
			found = true
		}
		if c, ok := w.(widget.Containerer); ok {
			for _, ch := range c.Children() {
				walk(ch)
			}
		}
	}
	walk(d.app.cur.(*settingsScreen).top)
	if !found {
		t.Errorf("the settings screen does not say %q", why)
	}
}

// TestSettingsToggles: each On/Off row turns its own setting.
func TestSettingsToggles(t *testing.T) {
	d := newInputDriver(t, Options{ConfigDir: t.TempDir(), Silent: true})
	d.app.emit(Intent{Kind: IntentOpenSettings})
	d.update(InputState{})
	s := d.app.cur.(*settingsScreen)
	if !s.edit.Predict || !s.edit.Portmap {
		t.Fatalf("defaults: predict %v, portmap %v; want both on", s.edit.Predict, s.edit.Portmap)
	}
	s.pmap.Click()
	d.update(InputState{}) // the UI hands on the click at its next update
	if !s.edit.Predict || s.edit.Portmap {
		t.Errorf("after Internet: predict %v, portmap %v; want on, off", s.edit.Predict, s.edit.Portmap)
	}
	s.pred.Click()
	d.update(InputState{})
	if s.edit.Predict || s.edit.Portmap {
		t.Errorf("after Predict: predict %v, portmap %v; want off, off", s.edit.Predict, s.edit.Portmap)
	}
}
