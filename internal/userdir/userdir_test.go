package userdir

import (
	"os"
	"path/filepath"
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
