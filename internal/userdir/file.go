package userdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile writes data to dir/name, creating dir, through a temporary
// file in dir renamed over the old one: a crash or a full disk leaves the
// old file or none, never half of one. The file is readable and writable
// by its owner only (settings.json, high scores, the game to rejoin).
func WriteFile(dir, name string, data []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, name+".*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	if err := errors.Join(werr, tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// SetAside renames a file that does not decode to path+".bad" (replacing
// an older one), so that the player's data is kept for a look and the
// next save does not write over it. It returns the new name.
func SetAside(path string) (string, error) {
	bad := path + ".bad"
	return bad, os.Rename(path, bad)
}
