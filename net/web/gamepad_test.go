package web_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/netip"
	neturl "net/url"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"rockstep/internal/browsertab"
	"rockstep/internal/testwait"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/transport"
	"rockstep/net/web"
)

// fakePad stands in for the Gamepad API before the page's scripts run
// (headless Chromium has no gamepad): navigator.getGamepads returns one
// pad with the standard mapping, whose buttons the test presses through
// window.rockstepPad.press(button, down), and counts how often the game
// read it (window.rockstepPad.reads).
const fakePad = `(() => {
  const buttons = Array.from({length: 17}, () => ({pressed: false, touched: false, value: 0}));
  const pad = {id: "Rockstep test pad (STANDARD GAMEPAD)", index: 0, connected: true, mapping: "standard",
    timestamp: 0, axes: [0, 0, 0, 0], buttons: buttons, vibrationActuator: null};
  const ctl = {reads: 0, press(b, down) { buttons[b].pressed = down; buttons[b].value = down ? 1 : 0; pad.timestamp = performance.now(); }};
  window.rockstepPad = ctl;
  Object.defineProperty(Navigator.prototype, "getGamepads", {configurable: true, value() { ctl.reads++; return [pad, null, null, null]; }});
})();`

// The standard mapping's buttons (W3C Gamepad, "standard"): A is 0, the
// d-pad's down 13.
const (
	padA    = 0
	padDown = 13
)

var tabScreen = regexp.MustCompile(`autopilot: screen (\w+)`)

// TestBrowserTabGamepad: a gamepad drives the game in a tab as on the
// desktop (ui's TestGamepadAloneDrivesTheMenusAndAPracticeGame): the main
// menu opens with Join game in focus, the d-pad's down moves it to
// Practice, and A opens a practice game. Had the focus not moved, A would
// open the Join screen. The page's autopilot only lingers a second, then
// says which screens the player's input opened.
func TestBrowserTabGamepad(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser: not with -short")
	}
	tb := browsertab.Open(t)
	game := gameBuild(t)
	hs := hosttest.Start(t, transport.LAN(), host.LAN())
	ts := httptest.NewServer(web.New(web.Config{Server: hs.Transport, Addrs: []netip.AddrPort{hs.Transport.Addr()}, Game: game}))
	t.Cleanup(ts.Close)
	inject := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: fakePad})
		return err
	})
	if err := chromedp.Do(tb.Ctx, inject, chromedp.Navigate(ts.URL+"/?autopilot="+neturl.QueryEscape("linger 1"))); err != nil {
		t.Fatal(err)
	}
	if !testwait.Until(3*time.Minute, func() bool { return tb.Find(regexp.MustCompile(`autopilot: linger 1 done`)) != nil }) {
		t.Fatalf("the game did not reach its menu; the console:\n%s", tb.Log(40))
	}
	reads := func() int {
		n, err := chromedp.Run(tb.Ctx, chromedp.Evaluate[int](`window.rockstepPad.reads`))
		if err != nil {
			return -1
		}
		return n
	}
	// tap holds button b while the game reads the pad three times, then
	// lets go for as long: a press the game's input sees once.
	tap := func(b int) {
		t.Helper()
		for _, down := range []bool{true, false} {
			if _, err := chromedp.Run(tb.Ctx, chromedp.Evaluate[any](fmt.Sprintf(`window.rockstepPad.press(%d, %v)`, b, down))); err != nil {
				t.Fatal(err)
			}
			from := reads()
			if !testwait.Until(time.Minute, func() bool { return reads() >= from+3 }) {
				t.Fatalf("the game stopped reading the gamepad (%d reads); the console:\n%s", reads(), tb.Log(40))
			}
		}
	}
	if reads() <= 0 {
		t.Fatal("the game never read navigator.getGamepads")
	}
	tap(padDown)
	tap(padA)
	var screen string
	testwait.Until(time.Minute, func() bool {
		for _, m := range tb.FindAll(tabScreen) {
			if m[1] != "menu" {
				screen = m[1]
			}
		}
		return screen != ""
	})
	if screen != "practice" {
		t.Fatalf("after the d-pad's down and A the tab's screen is %q, want practice; the console:\n%s", screen, tb.Log(40))
	}
}
