package main

import "strings"

// wantsServer reports whether args ask for -server, before the flags are
// parsed: on Windows the console (or the log file) must be set up before
// anything is written. A value that merely looks like the flag (-name -server)
// is misread, which costs only a log file.
func wantsServer(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && name == "server" {
			return !hasVal || (val != "false" && val != "0" && val != "f" && val != "F" && val != "FALSE" && val != "False")
		}
	}
	return false
}
