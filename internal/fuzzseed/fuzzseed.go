// Package fuzzseed keeps the seed corpora of fuzz tests (testdata/fuzz/FuzzX)
// in step with the code: seeds are made by a test from real messages and
// refreshed by a flag, never edited by hand. It is for tests only.
package fuzzseed

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// File returns a corpus file in the `go test fuzz v1` format holding
// values, one per argument of the fuzz function, in order. A value must be
// a []byte, string, bool or uint8; anything else panics (a bug in the test).
func File(values ...any) []byte {
	b := []byte("go test fuzz v1\n")
	for _, v := range values {
		switch v := v.(type) {
		case []byte:
			b = fmt.Appendf(b, "[]byte(%s)\n", strconv.QuoteToASCII(string(v)))
		case string:
			b = fmt.Appendf(b, "string(%s)\n", strconv.QuoteToASCII(v))
		case bool:
			b = fmt.Appendf(b, "bool(%t)\n", v)
		case uint8:
			b = fmt.Appendf(b, "uint8(%d)\n", v)
		default:
			panic(fmt.Sprintf("fuzzseed: a %T in a corpus file", v))
		}
	}
	return b
}

// Check compares the files in dir with seeds (file name → contents, from
// File). With update it writes them instead. A file no seed names is stale
// and fails the check (update removes it), except the inputs `go test
// -fuzz` saves when it finds a failure (named by 16 hex digits): those are
// regression seeds and are kept.
func Check(tb testing.TB, dir string, seeds map[string][]byte, update bool) {
	tb.Helper()
	hint := "(run go test -run " + tb.Name() + " -update-corpus)"
	if update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatalf("seed corpus: %v %s", err, hint)
	}
	for _, e := range entries {
		if _, ok := seeds[e.Name()]; ok || found(e.Name()) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if !update {
			tb.Errorf("seed %s is made by no test %s", path, hint)
			continue
		}
		if err := os.Remove(path); err != nil {
			tb.Fatal(err)
		}
	}
	names := make([]string, 0, len(seeds))
	for name := range seeds {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		path := filepath.Join(dir, name)
		if update {
			if err := os.WriteFile(path, seeds[name], 0o644); err != nil {
				tb.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			tb.Errorf("seed %s: %v %s", path, err, hint)
			continue
		}
		if !bytes.Equal(got, seeds[name]) {
			tb.Errorf("seed %s is stale %s", path, hint)
		}
	}
}

// found reports whether name is one `go test -fuzz` gives a failing input:
// the first 16 hex digits of its SHA-256.
func found(name string) bool {
	if len(name) != 16 {
		return false
	}
	for _, c := range name {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
