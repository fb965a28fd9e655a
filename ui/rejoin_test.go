package ui

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSessionKeptUntilForgotten(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	if _, ok, err := loadSession(dir, now); ok || err != nil {
		t.Fatalf("no file: ok %v err %v", ok, err)
	}
	want := savedSession{Addr: "192.0.2.7:7777", GameID: "g1", Room: "Ada’s game", Slot: 2,
		Token: "00112233445566778899aabbccddeeff", Saved: now}
	if err := saveSession(dir, want); err != nil {
		t.Fatal(err)
	}
	got, ok, err := loadSession(dir, now.Add(time.Minute))
	if !ok || err != nil || got != want {
		t.Fatalf("load = %+v %v %v, want %+v", got, ok, err, want)
	}
	if tok, ok := got.token(); !ok || tok[0] != 0x00 || tok[15] != 0xff {
		t.Fatalf("token %x %v", tok, ok)
	}
	if _, ok, _ := loadSession(dir, now.Add(sessionMaxAge+time.Minute)); ok {
		t.Error("a session older than its age limit is still offered")
	}
	if _, err := os.Stat(filepath.Join(dir, sessionFile)); !os.IsNotExist(err) {
		t.Error("a stale session file was not removed")
	}
	if err := saveSession(dir, want); err != nil {
		t.Fatal(err)
	}
	clearSession(dir)
	if _, ok, _ := loadSession(dir, now); ok {
		t.Error("a cleared session is still offered")
	}
}

func TestDamagedSessionFileGivesNoRejoin(t *testing.T) {
	for name, data := range map[string]string{
		"not json":    "{{{",
		"bad token":   `{"addr":"192.0.2.7:7777","token":"xyz","saved":"2026-11-23T12:00:00Z"}`,
		"zero token":  `{"addr":"192.0.2.7:7777","token":"00000000000000000000000000000000","saved":"2026-11-23T12:00:00Z"}`,
		"no address":  `{"token":"00112233445566778899aabbccddeeff","saved":"2026-11-23T12:00:00Z"}`,
		"short token": `{"addr":"h:1","token":"0011","saved":"2026-11-23T12:00:00Z"}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, sessionFile)
			if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, ok, err := loadSession(dir, time.Date(2026, 11, 23, 12, 1, 0, 0, time.UTC)); ok || err == nil {
				t.Fatalf("ok %v err %v: want no session and a message", ok, err)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Error("the damaged file was kept")
			}
		})
	}
}
