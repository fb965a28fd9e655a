package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServerRoomKey: a server started with room keys (-room-key, and a
// -room-keys file) refuses bots that create rooms without a key, in words,
// logs and counts the refusal; bots with a key from either create their
// room and play it.
func TestServerRoomKey(t *testing.T) {
	file := filepath.Join(t.TempDir(), "keys")
	if err := os.WriteFile(file, []byte("# friends\n  sunday-2  \n\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv, addr := startServer(t, "-room-key", "friday-7", "-room-keys", file)
	if !strings.Contains(srv.stderr(), "rooms only for holders of one of 2 room keys") {
		t.Errorf("the listening line does not say rooms need a key:\n%s", srv.stderr())
	}
	for _, c := range []struct {
		name string
		key  []string
		ok   bool
	}{
		{"no key", nil, false},
		{"wrong key", []string{"-room-key", "friday-8"}, false},
		{"the flag's key", []string{"-room-key", "friday-7"}, true},
		{"the file's key", []string{"-room-key", "sunday-2"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := start(t, append([]string{"-bots", "2", "-join", addr, "-per-room", "2", "-ticks", "120", "-seed", "3"}, c.key...)...)
			code, _ := b.wait(t, gameLimit)
			if got := code == 0; got != c.ok {
				t.Fatalf("bots exit %d, want success %v\nstdout: %s\nstderr: %s", code, c.ok, b.stdout(), b.stderr())
			}
			if !c.ok && !strings.Contains(b.stderr(), "this server opens rooms only for players with its room key") {
				t.Errorf("the bots were not told why:\n%s", b.stderr())
			}
		})
	}
	srv.waitMetrics(t, "two refusals and two rooms counted", func(m map[string]float64) bool {
		return m[`rockstep_rooms_refused_total{reason="room_key"}`] == 2 && m["rockstep_rooms_created_total"] == 2
	})
	if !strings.Contains(srv.stderr(), `msg="host: room refused" reason=room_key`) {
		t.Errorf("the server did not log the refusal:\n%s", srv.stderr())
	}
}

// TestServerRoomKeyFlags: keys that could never be sent, and a file with
// none, stop the server before it listens.
func TestServerRoomKeyFlags(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, []byte("# none yet\n\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"a key too long", []string{"-room-key", strings.Repeat("k", 65)}, "at most 64"},
		{"an empty key", []string{"-room-key", ""}, "empty key"},
		{"a file with no key", []string{"-room-keys", empty}, "no key in the file"},
		{"no such file", []string{"-room-keys", filepath.Join(dir, "missing")}, "-room-keys"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := start(t, append([]string{"-server", "-listen", "127.0.0.1:0", "-lan=false"}, c.args...)...)
			code, _ := p.wait(t, startLimit)
			if code != 2 || !strings.Contains(p.stderr(), c.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 saying %q", code, p.stderr(), c.want)
			}
		})
	}
}
