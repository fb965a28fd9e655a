//go:build !js

package userdir

import (
	"errors"
	"fmt"
	"io/fs"
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

// ReadFile reads dir/name and hands its bytes to decode. A missing file is
// no error. A file that cannot be read is left alone; one that decode
// refuses is renamed to name.bad (replacing an older one), so that the
// player's data is kept for a look and the next save starts afresh. The
// error names the file and says what became of it.
func ReadFile(dir, name string, decode func([]byte) error) (Found, error) {
	path := filepath.Join(dir, name)
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return NotFound, nil
	case err != nil:
		return LeftInPlace, fmt.Errorf("cannot read %s (%w)", path, err)
	}
	if derr := decode(data); derr != nil {
		bad := path + ".bad"
		if mverr := os.Rename(path, bad); mverr != nil {
			return LeftInPlace, fmt.Errorf("%s is damaged (%w) and could not be moved aside (%v)", path, derr, mverr)
		}
		return MovedAside, fmt.Errorf("%s was damaged (%w); kept as %s", path, derr, filepath.Base(bad))
	}
	return Decoded, nil
}
