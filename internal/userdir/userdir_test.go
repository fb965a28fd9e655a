package userdir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDir(t *testing.T) {
	base, err := os.UserConfigDir()
	if err != nil {
		t.Skipf("no user config directory here: %v", err)
	}
	cases := []struct {
		name string
		env  string
		want string
	}{
		{"from the environment", "/some/where", "/some/where"},
		{"in the user's config directory", "", filepath.Join(base, "rockstep")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(Env, c.env)
			if got, err := Dir(); err != nil || got != c.want {
				t.Errorf("Dir() = %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

// TestWriteFile: the file is written whole into a folder it creates, an
// old file is replaced, nothing temporary is left behind, and a failed
// write leaves the old file as it was.
func TestWriteFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "rockstep")
	for _, want := range []string{"first", "second"} {
		if err := WriteFile(dir, "settings.json", []byte(want)); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(filepath.Join(dir, "settings.json")); err != nil || string(got) != want {
			t.Fatalf("read back %q, %v; want %q", got, err, want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the folder holds %d files, want settings.json alone", len(entries))
	}
	if fi, err := os.Stat(filepath.Join(dir, "settings.json")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v; want owner read and write only", fi.Mode().Perm(), err)
	}
	// A folder in the way of the name: the rename fails, the temporary
	// file goes, and what was there stays.
	if err := os.Mkdir(filepath.Join(dir, "scores"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(dir, "scores", []byte("x")); err == nil {
		t.Error("a write over a folder succeeded")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("after a failed write the folder holds %d entries, want 2", len(entries))
	}
}

// TestReadFile: what ReadFile finds, and what becomes of a file it cannot
// use: a damaged one stands aside for a look, an unreadable one stays.
func TestReadFile(t *testing.T) {
	decode := func(data []byte) error {
		if string(data) != "good" {
			return errors.New("not good")
		}
		return nil
	}
	dir := t.TempDir()
	if found, err := ReadFile(dir, "none.json", decode); found != NotFound || err != nil {
		t.Errorf("missing file: %v, %v; want NotFound, nil", found, err)
	}

	if err := os.WriteFile(filepath.Join(dir, "good.json"), []byte("good"), 0o600); err != nil {
		t.Fatal(err)
	}
	if found, err := ReadFile(dir, "good.json", decode); found != Decoded || err != nil {
		t.Errorf("good file: %v, %v; want Decoded, nil", found, err)
	}

	path := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(path, []byte("{broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	found, err := ReadFile(dir, "bad.json", decode)
	if found != MovedAside || err == nil || !strings.Contains(err.Error(), "not good") || !strings.Contains(err.Error(), "bad.json.bad") {
		t.Errorf("damaged file: %v, %v; want MovedAside and an error naming the cause and bad.json.bad", found, err)
	}
	if got, rerr := os.ReadFile(path + ".bad"); rerr != nil || string(got) != "{broken" {
		t.Errorf("set aside %q, %v", got, rerr)
	}
	if _, serr := os.Stat(path); !os.IsNotExist(serr) {
		t.Errorf("the damaged file is still in place: %v", serr)
	}

	// A folder where the file should be cannot be read: it stays.
	if merr := os.Mkdir(filepath.Join(dir, "dir.json"), 0o755); merr != nil {
		t.Fatal(merr)
	}
	found, err = ReadFile(dir, "dir.json", decode)
	if found != LeftInPlace || err == nil || !strings.Contains(err.Error(), "cannot read") {
		t.Errorf("unreadable file: %v, %v; want LeftInPlace and an error saying it cannot be read", found, err)
	}
	if fi, serr := os.Stat(filepath.Join(dir, "dir.json")); serr != nil || !fi.IsDir() {
		t.Errorf("the unreadable file was moved: %v", serr)
	}
}
