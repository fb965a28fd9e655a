package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestScanReplays: the folder's replays are listed with their room,
// players, length and report; a damaged file is listed and says so;
// other files and folders are not.
func TestScanReplays(t *testing.T) {
	data := testReplay(t)
	dir := t.TempDir()
	write := func(name string, b []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("20250101-100000-whole.rsrp", data)
	write("20250101-100000-whole.rsrp"+reportExt, []byte("Rockstep desync report\nslot 1 DIVERGED\n"))
	write("20250101-090000-cut.rsrp", cutInsideARecord(data, len(data)/2))
	write("notes.txt", []byte("not a replay"))
	if err := os.Mkdir(filepath.Join(dir, "folder.rsrp"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := scanReplays(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("listed %d replays, want 2: %+v", len(got), got)
	}
	byFile := map[string]replayEntry{}
	for _, e := range got {
		byFile[e.File] = e
	}
	whole, cut := byFile["20250101-100000-whole.rsrp"], byFile["20250101-090000-cut.rsrp"]
	if whole.Room == "" || whole.Players != 3 || whole.Ticks < 1500 || whole.Damaged != "" {
		t.Errorf("whole replay: %+v, want its room, 3 players, at least 1500 ticks", whole)
	}
	if whole.Report != whole.Path+reportExt || cut.Report != "" {
		t.Errorf("reports: whole %q, cut %q; want only the whole one's", whole.Report, cut.Report)
	}
	if cut.Damaged == "" || cut.Ticks >= whole.Ticks || cut.Players != 3 {
		t.Errorf("cut replay: %+v, want it marked damaged, shorter, 3 players", cut)
	}
	text, err := readReport(whole.Report)
	if err != nil || !strings.Contains(text, "DIVERGED") {
		t.Errorf("readReport: %q, %v", text, err)
	}
	if l, err := scanReplays(filepath.Join(dir, "missing")); err != nil || len(l) != 0 {
		t.Errorf("missing folder: %v, %v; want an empty list", l, err)
	}
}

// TestReplaysNewestFirst: by the game's start, then by file name.
func TestReplaysNewestFirst(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 20, 0, 0, 0, time.UTC)
	in := []replayEntry{
		{File: "b", Started: t0},
		{File: "c", Started: t0.Add(time.Hour)},
		{File: "a", Started: t0},
		{File: "d", Started: t0.Add(-time.Hour)},
	}
	var got []string
	for _, e := range sortReplays(in) {
		got = append(got, e.File)
	}
	if strings.Join(got, "") != "cbad" {
		t.Errorf("order %v, want c b a d", got)
	}
	many := make([]replayEntry, replayMaxListed+5)
	if n := len(sortReplays(many)); n != replayMaxListed {
		t.Errorf("kept %d, want %d", n, replayMaxListed)
	}
}

func TestClockText(t *testing.T) {
	for _, tc := range []struct {
		ticks int
		want  string
	}{{0, "0:00"}, {59, "0:00"}, {60, "0:01"}, {60 * 75, "1:15"}, {60 * 3725, "1:02:05"}, {-5, "0:00"}} {
		if got := clockText(tc.ticks); got != tc.want {
			t.Errorf("clockText(%d) = %q, want %q", tc.ticks, got, tc.want)
		}
	}
}
