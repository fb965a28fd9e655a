package host

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"rockstep/game"
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
