// Package userdir says where Rockstep keeps a player's files: settings.json,
// the game to rejoin, the replays folder and a Windows server's log. The game
// window, -server and the Replays screen all ask it, so that they agree.
package userdir

import (
	"fmt"
	"os"
	"path/filepath"
)

// Env names the environment variable that, when set, is the folder used
// instead of the one in the user's config directory (tests, portable
// installs).
const Env = "ROCKSTEP_CONFIG_DIR"

// Dir returns Rockstep's folder: $ROCKSTEP_CONFIG_DIR if set, else
// "rockstep" in os.UserConfigDir (~/.config/rockstep on Linux,
// %AppData%\rockstep on Windows, ~/Library/Application Support/rockstep on
// macOS). It does not create the folder.
func Dir() (string, error) {
	if d := os.Getenv(Env); d != "" {
		return d, nil
	}
	d, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("settings folder: %w", err)
	}
	return filepath.Join(d, "rockstep"), nil
}

// HostKeyFile is the name, in Dir, of the file that keeps the host's
// long-term key (its identity: the fingerprint LAN lists show), so that
// it stays the same from one run to the next.
const HostKeyFile = "host.key"

// HostKeyPath returns where the host key is kept: HostKeyFile in Dir.
func HostKeyPath() (string, error) {
	d, err := Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, HostKeyFile), nil
}
