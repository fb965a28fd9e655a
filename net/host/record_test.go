package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rockstep/game"
	"rockstep/internal/userdir"
	"rockstep/net/replay"
)

// TestLastReportIsPublished: once a desync report is written, the host's
// stats name it, so the host's player can be told where it is.
func TestLastReportIsPublished(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "game.rsrp")
	w, err := replay.Create(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Started(game.Setup{Seed: 1, Players: 1, Mode: game.Coop, Lives: 3, StartWave: 1}, "room", [game.MaxPlayers]string{"Ada", "Bo"}, 2, 1)
	rs := &recorders{log: func(string, ...any) {}}
	rs.reports = []*recording{{w: w, path: path, desync: time.Now().Add(-time.Minute)}}
	if got := rs.lastReport(); got != "" {
		t.Fatalf("before: lastReport = %q, want none", got)
	}
	rs.tick(time.Now())
	want := path + ".desync.txt"
	if got := rs.lastReport(); got != want {
		t.Fatalf("lastReport = %q, want %q", got, want)
	}
	if _, err := os.Stat(want); err != nil {
		t.Errorf("report not written: %v", err)
	}
	h := &Host{rooms: map[uint32]*hosted{}, rec: rs}
	h.publishStats()
	if got := h.Stats().LastReport; got != want {
		t.Errorf("Stats().LastReport = %q, want %q", got, want)
	}
}

// TestRecordsIntoTheReplaysFolder: with neither RecordFile nor RecordDir, a
// host (the -server command's) records into the replays folder of
// Rockstep's folder, the one the game's Replays screen lists; RecordFile
// and RecordDir still say otherwise.
func TestRecordsIntoTheReplaysFolder(t *testing.T) {
	home := t.TempDir()
	t.Setenv(userdir.Env, home)
	other := t.TempDir()
	cases := []struct {
		name      string
		dir, file string // Config.RecordDir, RecordFile
		wantDir   string
	}{
		{"default", "", "", filepath.Join(home, "replays")},
		{"RecordDir", other, "", other},
		{"RecordFile", "", filepath.Join(other, "game.rsrp"), other},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rs := &recorders{dir: c.dir, file: c.file}
			p, _, err := rs.path(2, "Friday night")
			if err != nil {
				t.Fatal(err)
			}
			if got := filepath.Dir(p); got != c.wantDir {
				t.Errorf("recorded into %q, want %q", got, c.wantDir)
			}
		})
	}
}

// TestLoadHostKey: the host key is kept in the folder given, the same
// from one load to the next.
func TestLoadHostKey(t *testing.T) {
	dir := t.TempDir()
	k1, err := LoadHostKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	k2, err := LoadHostKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	if k1.Fingerprint() != k2.Fingerprint() {
		t.Errorf("fingerprints %s then %s", k1.Fingerprint(), k2.Fingerprint())
	}
	if _, err := os.Stat(filepath.Join(dir, userdir.HostKeyFile)); err != nil {
		t.Errorf("no key file: %v", err)
	}
}

// TestReplayNamesAreUnique: games started in the same second on one host,
// in two rooms of one name or one after the other in the same room, each
// get a file of their own, named with the room's id; a file another
// process left under the next name is not written over.
func TestReplayNamesAreUnique(t *testing.T) {
	dir := t.TempDir()
	rs := &recorders{dir: dir, log: func(string, ...any) {}}
	setup := game.Setup{Seed: 1, Players: 1, Mode: game.Coop, Lives: 3, StartWave: 1}
	// A file another server wrote under the name the third game would
	// take (its count, 3, this second or the next).
	now := time.Now()
	var planted []string
	for _, at := range []time.Time{now, now.Add(time.Second)} {
		p := filepath.Join(dir, replay.FileName(at, 1, 3, "Friday"))
		if err := os.WriteFile(p, []byte("another game"), 0o644); err != nil {
			t.Fatal(err)
		}
		planted = append(planted, p)
	}
	paths := map[string]bool{}
	for i, roomID := range []uint32{1, 2, 1, 1} {
		rec := rs.newRecorder(roomID, "Friday")
		if rec == nil {
			t.Fatalf("game %d: no recorder", i+1)
		}
		rec.Started(setup, "Friday", [game.MaxPlayers]string{"Ada"}, 2, 1)
		rec.Finished(0, 0)
		p := rec.(*hostRecorder).rec.path
		if paths[p] {
			t.Fatalf("game %d recorded into %s, as an earlier one", i+1, p)
		}
		paths[p] = true
		if want := fmt.Sprintf("-r%d-", roomID); !strings.Contains(filepath.Base(p), want) {
			t.Errorf("game %d in room %d: file %s does not name the room (%s)", i+1, roomID, p, want)
		}
	}
	for _, p := range planted {
		if b, err := os.ReadFile(p); err != nil || string(b) != "another game" {
			t.Errorf("%s written over: %q, %v", p, b, err)
		}
	}
	for p := range paths {
		if _, err := replay.ReadFile(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}
