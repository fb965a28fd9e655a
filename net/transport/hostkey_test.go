package transport

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestHostKeyKept: a host key made once is read back the same from its
// file, which only its owner may read; a file that is not a key is an
// error, never silently replaced.
func TestHostKeyKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "host.key")
	k1, created, err := LoadOrCreateHostKey(path)
	if err != nil || !created {
		t.Fatalf("first use: %v, created %v", err, created)
	}
	k2, created, err := LoadOrCreateHostKey(path)
	if err != nil || created {
		t.Fatalf("second use: %v, created %v", err, created)
	}
	if k1.Fingerprint() != k2.Fingerprint() || !ValidFingerprint(k1.Fingerprint()) {
		t.Errorf("fingerprints %q then %q", k1.Fingerprint(), k2.Fingerprint())
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key file: %v, mode %v; want 0600", err, fi.Mode().Perm())
	}
	if err := os.WriteFile(path, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadOrCreateHostKey(path); err == nil {
		t.Errorf("a file that is not a key was taken")
	}
	if b, _ := os.ReadFile(path); string(b) != "not a key" {
		t.Errorf("the file was replaced")
	}
}

// newHostKey returns a new host key or fails the test.
func newHostKey(t *testing.T) *HostKey {
	t.Helper()
	key, err := NewHostKey()
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// TestDialHostKey over loopback: a client that expects the server's
// fingerprint connects and reports it; one that expects another key gives
// up with ErrHostKey.
func TestDialHostKey(t *testing.T) {
	key, other := newHostKey(t), newHostKey(t)
	cfg := LAN()
	cfg.HostKey = key
	srv := listen(t, cfg)
	serveStreams(t, srv, 0) // its Tick serves the connected client through srv

	want := LAN()
	want.HostFingerprint = key.Fingerprint()
	c := dialT(t, srv, "", want)
	if got := c.HostFingerprint(); got != key.Fingerprint() {
		t.Errorf("client reports host key %s, want %s", got, key.Fingerprint())
	}
	c.Close()

	impostor := LAN()
	impostor.HostFingerprint = other.Fingerprint()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	_, err := Dial(ctx, srv.Addr().String(), impostor)
	var hk *HostKeyError
	if !errors.Is(err, ErrHostKey) || !errors.As(err, &hk) || hk.Got != key.Fingerprint() {
		t.Errorf("dial expecting another key: %v, want ErrHostKey naming %s", err, key.Fingerprint())
	}
}
