// Package browsertab starts headless Chromium for the tests that play the
// game in a real browser tab (net/web's, cmd/rockstep's): Debian's chromium
// with software WebGL 2 (SwiftShader), one tab, its console lines kept so
// that a test reads what the game logged (its autopilot's lines, hashes and
// results).
package browsertab

import (
	"context"
	"encoding/json"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Path returns the chromium executable, or skips t where there is none.
func Path(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("needs chromium (Debian: chromium; make check-tools installs it)")
	}
	return path
}

// A Tab is one headless Chromium tab whose console lines are kept. Run
// chromedp actions in Ctx.
type Tab struct {
	Ctx context.Context

	mu    sync.Mutex
	lines []string
}

// Open starts headless Chromium (software WebGL: SwiftShader, a 1280×720
// window) with one tab and the extra flags, or skips t where there is no
// Chromium or it cannot start. The browser ends with t.
func Open(t testing.TB, flags ...chromedp.ExecAllocatorOption) *Tab {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(Path(t)),
		chromedp.Flag("headless", "new"),
		chromedp.NoSandbox,
		chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.WindowSize(1280, 720),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), append(opts, flags...)...)
	ctx, cancelT := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelT(); cancelA() })
	tb := &Tab{Ctx: ctx}
	// Listen starts the browser: its error is Chromium's failing to.
	err := chromedp.Listen(ctx, func(ev any) {
		e, ok := ev.(*cdpruntime.EventConsoleAPICalled)
		if !ok {
			return
		}
		var parts []string
		for _, a := range e.Args {
			var s string
			if json.Unmarshal(a.Value, &s) == nil {
				parts = append(parts, s)
			} else {
				parts = append(parts, string(a.Value))
			}
		}
		tb.mu.Lock()
		tb.lines = append(tb.lines, strings.Join(parts, " "))
		tb.mu.Unlock()
	})
	if err != nil {
		t.Skipf("cannot start chromium: %v", err)
	}
	return tb
}

// Find returns the submatches of the first console line re matches, or nil.
func (tb *Tab) Find(re *regexp.Regexp) []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, l := range tb.lines {
		if m := re.FindStringSubmatch(l); m != nil {
			return m
		}
	}
	return nil
}

// FindAll returns the submatches of every console line re matches, in
// order.
func (tb *Tab) FindAll(re *regexp.Regexp) [][]string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	var all [][]string
	for _, l := range tb.lines {
		if m := re.FindStringSubmatch(l); m != nil {
			all = append(all, m)
		}
	}
	return all
}

// Log returns the last max console lines (all of them if max <= 0), one a
// line.
func (tb *Tab) Log(max int) string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	lines := tb.lines
	if max > 0 && len(lines) > max {
		lines = lines[len(lines)-max:]
	}
	return strings.Join(lines, "\n")
}
