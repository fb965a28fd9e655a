//go:build windows && !noui

package main

import (
	"os"
	"path/filepath"
	"syscall"

	"rockstep/internal/userdir"
)

// Release builds are Windows GUI programs (-H=windowsgui), so that a
// double-click opens no console window. Such a process starts without a
// console: its standard handles are empty unless the parent redirected them,
// and whatever it prints is lost. init gives the output somewhere to go
// before main writes anything:
//
//   - started from a console (cmd, PowerShell), the process attaches to that
//     console and prints there, as a console program would;
//   - otherwise, -server logs to server.log beside the settings
//     (%AppData%\rockstep\server.log, or in $ROCKSTEP_CONFIG_DIR), since an
//     operator needs its log.
//
// Handles the parent redirected (rockstep -server > log.txt) are kept.
func init() {
	attached := attachConsole(attachParentProcess)
	for _, f := range []**os.File{&os.Stdout, &os.Stderr} {
		if usable(*f) {
			continue
		}
		if attached {
			if c, err := os.OpenFile("CONOUT$", os.O_WRONLY, 0); err == nil {
				*f = c
				continue
			}
		}
		if f == &os.Stderr && wantsServer(os.Args[1:]) {
			if l, err := openServerLog(); err == nil {
				*f = l
			}
		}
	}
}

// attachParentProcess is ATTACH_PARENT_PROCESS: the console of the parent.
const attachParentProcess = ^uint32(0) // (DWORD)-1

var procAttachConsole = syscall.NewLazyDLL("kernel32.dll").NewProc("AttachConsole")

// attachConsole calls kernel32 AttachConsole; it fails when the parent has
// no console (started from Explorer) or this process already has one.
func attachConsole(pid uint32) bool {
	if procAttachConsole.Find() != nil {
		return false
	}
	ok, _, _ := procAttachConsole.Call(uintptr(pid))
	return ok != 0
}

// usable reports whether f is an open handle: a GUI process's missing
// standard handles are nil or have no file type.
func usable(f *os.File) bool {
	if f == nil {
		return false
	}
	h := syscall.Handle(f.Fd())
	if h == 0 || h == syscall.InvalidHandle {
		return false
	}
	t, err := syscall.GetFileType(h)
	return err == nil && t != 0 // FILE_TYPE_UNKNOWN
}

// openServerLog opens server.log in Rockstep's folder, beside settings.json,
// for appending.
func openServerLog() (*os.File, error) {
	dir, err := userdir.Dir()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return os.OpenFile(filepath.Join(dir, "server.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
}
