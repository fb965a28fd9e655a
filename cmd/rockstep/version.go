package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version is the release version, stamped by `make dist` with
// -ldflags "-X main.version=$(git describe --tags --always --dirty)".
// Left empty, versionString falls back to what the Go toolchain recorded.
var version string

// versionFlag adds -version to fs.
func versionFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("version", false, "print the version and exit")
}

// versionString is the stamped version, else the VCS revision the Go
// toolchain recorded at build time ("devel+abc1234[-dirty]"), else "devel".
func versionString() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if len(rev) > 7 {
		rev = rev[:7]
	}
	if rev == "" {
		return "devel"
	}
	return "devel+" + rev + dirty
}

// printVersion writes the line `rockstep -version` prints.
func printVersion(w io.Writer) {
	fmt.Fprintf(w, "rockstep %s %s/%s %s\n", versionString(), runtime.GOOS, runtime.GOARCH, runtime.Version())
}
