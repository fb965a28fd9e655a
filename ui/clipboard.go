package ui

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Ebiten has no clipboard, and ebitenui's text inputs cannot select or
// paste: the invite code is copied and pasted through the platform's own
// clipboard tool where there is one (Windows and macOS always have one;
// on Linux, wl-clipboard under Wayland, xclip or xsel under X11). With
// none, the Copy and Paste buttons are not shown, and the code is read
// from the screen and typed.

// clipboardTimeout bounds one run of a clipboard tool.
const clipboardTimeout = 2 * time.Second

// clipTool is a clipboard tool's commands: copy reads its stdin, paste
// writes the clipboard's text to its stdout.
type clipTool struct{ copy, paste []string }

// clipTools are the tools tried on this platform, in order.
func clipTools() []clipTool {
	switch runtime.GOOS {
	case "windows":
		return []clipTool{{[]string{"clip"}, []string{"powershell", "-NoProfile", "-Command", "Get-Clipboard"}}}
	case "darwin":
		return []clipTool{{[]string{"pbcopy"}, []string{"pbpaste"}}}
	}
	var tools []clipTool
	if os.Getenv("WAYLAND_DISPLAY") != "" {
		tools = append(tools, clipTool{[]string{"wl-copy"}, []string{"wl-paste", "--no-newline"}})
	}
	return append(tools,
		clipTool{[]string{"xclip", "-selection", "clipboard"}, []string{"xclip", "-selection", "clipboard", "-o"}},
		clipTool{[]string{"xsel", "--clipboard", "--input"}, []string{"xsel", "--clipboard", "--output"}})
}

var (
	clipOnce  sync.Once
	clipFound *clipTool
)

// clipboard returns this machine's clipboard tool, or nil; looked for
// once. Tests replace it (see setClipboard).
var clipboard = func() *clipTool {
	clipOnce.Do(func() {
		for _, t := range clipTools() {
			if _, err := exec.LookPath(t.copy[0]); err == nil {
				clipFound = &t
				return
			}
		}
	})
	return clipFound
}

// copyText puts s on the clipboard, in the background (a tool may take a
// moment: never a frame's), and calls done with the outcome.
func copyText(s string, done func(ok bool)) {
	t := clipboard()
	if t == nil {
		done(false)
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), clipboardTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, t.copy[0], t.copy[1:]...)
		cmd.Stdin = strings.NewReader(s)
		done(cmd.Run() == nil)
	}()
}

// pasteText reads the clipboard's text in the background and calls done
// with it ("" and false if it cannot be read).
func pasteText(done func(text string, ok bool)) {
	t := clipboard()
	if t == nil {
		done("", false)
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), clipboardTimeout)
		defer cancel()
		out, err := exec.CommandContext(ctx, t.paste[0], t.paste[1:]...).Output()
		done(strings.TrimSpace(string(out)), err == nil)
	}()
}
