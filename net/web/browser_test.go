package web_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http/httptest"
	"net/netip"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"rockstep/internal/browsertab"
	"rockstep/internal/testwait"
	"rockstep/net/bots"
	"rockstep/net/host"
	"rockstep/net/host/hosttest"
	"rockstep/net/invite"
	"rockstep/net/transport"
	"rockstep/net/web"
)

// gameBuild returns the game for browsers: the one `make build` embedded,
// or one built now for the test (GOOS=js GOARCH=wasm).
func gameBuild(t *testing.T) *web.Game {
	t.Helper()
	if g := web.Embedded(); g != nil {
		return g
	}
	goCmd := filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	if _, err := os.Stat(goCmd); err != nil {
		goCmd = "go"
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "rockstep.wasm")
	cmd := exec.Command(goCmd, "build", "-o", out, "rockstep/cmd/rockstep")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the game for WebAssembly: %v\n%s", err, b)
	}
	wasm, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	root, err := exec.Command(goCmd, "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	execJS, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	zw.Write(wasm)
	zw.Close()
	return &web.Game{WasmGzip: gz.Bytes(), Size: int64(len(wasm)), Exec: execJS}
}

var tabResults = regexp.MustCompile(`autopilot: results digest=([0-9a-f]{16}) (.*)`)

// A browser tab opened at a room's /join/CODE link plays a game to its end
// with two bots over UDP: the tab's results table (its digest, of the
// confirmed world's results at the game's last tick) is the bots'.
func TestBrowserTabPlaysWithBots(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser and a game: not with -short")
	}
	if raceEnabled {
		// The host and the bots run in this process, several times slower
		// under the detector, beside a tab that plays in real time; the
		// same game with real processes is cmd/rockstep's
		// TestBrowserTabDesktopAndBotsPlayOneGame, which runs under -race.
		t.Skip("in-process host and bots under -race: see TestBrowserTabDesktopAndBotsPlayOneGame; run this without -race")
	}
	tb := browsertab.Open(t)
	game := gameBuild(t)
	hs := hosttest.Start(t, transport.LAN(), host.LAN())
	ts := httptest.NewServer(web.New(web.Config{Server: hs.Transport, Addrs: []netip.AddrPort{hs.Transport.Addr()}, Game: game}))
	t.Cleanup(ts.Close)

	resp, v := post(t, ts.URL+"/rooms", "", `{"seed":11}`)
	if resp.StatusCode != 201 {
		t.Fatalf("POST /rooms = %s %v", resp.Status, v)
	}
	code := v["code"].(string)
	c, err := invite.Decode(code)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var sum bots.Summary
	var botErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		sum, botErr = bots.RunRemote(ctx, bots.RemoteConfig{Addr: hs.Addr(), Bots: 2, Players: 3, Ticks: 600, Seed: 3,
			Transport: transport.LAN(), Pin: c.Fingerprint(), RoomID: c.RoomID})
	}()
	url := v["url"].(string) + "?autopilot=" + neturl.QueryEscape("join "+v["url"].(string)+"; ready; play-to-end")
	if _, err := chromedp.Run(tb.Ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	var m []string
	if !testwait.Until(4*time.Minute, func() bool { m = tb.Find(tabResults); return m != nil }) {
		t.Fatalf("the tab showed no results; its console:\n%s", tb.Log(40))
	}
	<-done
	if botErr != nil {
		t.Fatalf("bots: %v", botErr)
	}
	if sum.ResultGroups != 1 || sum.HashGroups != 1 {
		t.Errorf("bots disagree: %d results, %d hashes", sum.ResultGroups, sum.HashGroups)
	}
	t.Logf("tab: %s; bots: played %d ticks, hash %016x, results %016x", m[0], sum.Played, sum.Hash, sum.Results)
	if want := strings.ToLower(hex16(sum.Results)); m[1] != want {
		t.Errorf("tab's results digest %s (%s), bots' %s: want one results table", m[1], m[2], want)
	}
}

func hex16(v uint64) string {
	const digits = "0123456789abcdef"
	var b [16]byte
	for i := 15; i >= 0; i-- {
		b[i] = digits[v&15]
		v >>= 4
	}
	return string(b[:])
}

// The page at / starts the game at its main menu in a tab: the game's
// canvas appears, and the Go program neither panics nor exits. The time it
// took is logged (BENCHMARKS.md); ROCKSTEP_TAB_SHOT=FILE keeps a
// screenshot of the menu (README's).
func TestBrowserMainMenu(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser and a game: not with -short")
	}
	tb := browsertab.Open(t)
	game := gameBuild(t)
	hs := hosttest.Start(t, transport.LAN(), host.LAN())
	ts := httptest.NewServer(web.New(web.Config{Server: hs.Transport, Addrs: []netip.AddrPort{hs.Transport.Addr()}, Game: game}))
	t.Cleanup(ts.Close)
	start := time.Now()
	if _, err := chromedp.Run(tb.Ctx, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatal(err)
	}
	if !testwait.Until(2*time.Minute, func() bool {
		canvas, err := chromedp.Run(tb.Ctx, chromedp.Evaluate[bool](`document.querySelector("canvas") !== null`))
		return err == nil && canvas
	}) {
		t.Fatalf("no game canvas; the console:\n%s", tb.Log(40))
	}
	t.Logf("page to the game's canvas: %v (wasm %d bytes, %d gzipped)", time.Since(start).Round(time.Millisecond), game.Size, len(game.WasmGzip))
	// A few frames of the menu, then what the console says.
	started := time.Now()
	testwait.Until(3*time.Second, func() bool { return time.Since(started) > 2*time.Second })
	for _, bad := range []*regexp.Regexp{regexp.MustCompile(`panic:|rockstep: exited|fatal error`)} {
		if m := tb.Find(bad); m != nil {
			t.Errorf("the game failed in the tab: %q; the console:\n%s", m[0], tb.Log(40))
		}
	}
	// The player's settings (a new guest's id and name) are kept in the
	// browser's storage.
	if !testwait.Until(30*time.Second, func() bool {
		kept, err := chromedp.Run(tb.Ctx, chromedp.Evaluate[bool](`localStorage.getItem("rockstep:/rockstep/settings.json") !== null`))
		return err == nil && kept
	}) {
		keys, _ := chromedp.Run(tb.Ctx, chromedp.Evaluate[[]string](`Object.keys(localStorage)`))
		t.Errorf("no settings in the browser's storage; its items: %q", keys)
	}
	if file := os.Getenv("ROCKSTEP_TAB_SHOT"); file != "" {
		png, err := chromedp.Run(tb.Ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A browser without WebGL 2 is told so at once, before the download.
func TestBrowserWithoutWebGL2(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser: not with -short")
	}
	tb := browsertab.Open(t, chromedp.Flag("disable-webgl2", true))
	_, ts := startWeb(t)
	if _, err := chromedp.Run(tb.Ctx, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatal(err)
	}
	var said string
	if !testwait.Until(time.Minute, func() bool {
		var err error
		said, err = chromedp.Run(tb.Ctx, chromedp.Evaluate[string](`document.getElementById("msg").textContent`))
		return err == nil && strings.Contains(said, "no WebGL 2")
	}) {
		t.Errorf("the page says %q, want that the browser has no WebGL 2", said)
	}
}
