package ui

import (
	"fmt"
	"image"
	"net/netip"
	"rockstep/net/lan"
	"strings"
	"testing"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/game"
	"rockstep/net/wire"
)

// layoutSizes are the window sizes the layouts are checked at, in device
// pixels.
var layoutSizes = []struct{ W, H int }{{800, 600}, {1280, 720}, {2560, 1440}}

// layoutScreens are the screens layOut draws on, by size.
var layoutScreens = map[image.Point]*ebiten.Image{}

// layOut lays root out in a w×h screen, as the App's frame does: ebitenui
// lays widgets out as it renders them.
func layOut(a *App, root *widget.Container, w, h int) {
	a.theme()
	a.ui.Container = root
	sz := image.Pt(w, h)
	img, ok := layoutScreens[sz]
	if !ok {
		img = ebiten.NewImage(w, h)
		layoutScreens[sz] = img
	}
	for range 2 { // a relayout asked for during the first round
		a.ui.Update()
		a.ui.Draw(img)
	}
}

// lobbyRoster returns a room of n players, slot 0 the host, every player
// ready or not.
func lobbyRoster(n int, ready bool) wire.SetupState {
	st := wire.SetupState{Name: "Ada's game", MaxSlots: 8, Setup: game.DefaultSetup()}
	for i := range n {
		st.Players = append(st.Players, wire.Player{Slot: uint8(i), Name: fmt.Sprintf("Player %d", i+1), Host: i == 0, Ready: ready, Connected: true, Colour: uint8(i), Ping: 30})
	}
	return st
}

// TestLobbyHoldsStill: as players join, leave and press Ready, the
// lobby's Ready button and its roster rows keep their place (a second
// click must not miss), on the host's screen and a guest's, at 800×600,
// 1280×720 and 2560×1440. Rects are the widgets' own, laid out by
// ebitenui.
func TestLobbyHoldsStill(t *testing.T) {
	for _, sz := range layoutSizes {
		for _, host := range []bool{true, false} {
			t.Run(fmt.Sprintf("%dx%d host=%v", sz.W, sz.H, host), func(t *testing.T) {
				a := newTestApp(t, nil)
				a.screenW, a.screenH = float64(sz.W), float64(sz.H)
				a.th = nil // the theme of this size
				s := newLobbyScreen(a)
				var readyAt image.Rectangle
				rows := map[int]image.Rectangle{}
				for _, n := range []int{1, 2, 4, 8, 2, 1} {
					for _, ready := range []bool{false, true} {
						a.nv.ok, a.nv.host = true, host
						a.nv.slot = 0
						if !host {
							a.nv.slot = min(1, n-1)
						}
						a.nv.setup = lobbyRoster(n, ready)
						if err := s.update(Intents{}); err != nil {
							t.Fatal(err)
						}
						layOut(a, s.top, sz.W, sz.H)
						r := s.ready.GetWidget().Rect
						if !r.In(image.Rect(0, 0, sz.W, sz.H)) {
							t.Errorf("%d players: the Ready button %v is outside the window", n, r)
						}
						if readyAt.Empty() {
							readyAt = r
						} else if r != readyAt {
							t.Errorf("%d players, ready=%v: the Ready button is at %v, was at %v", n, ready, r, readyAt)
						}
						// The roster's first child is its header; then a row a player.
						kids := s.roster.Children()
						for i := 0; i <= n && i < len(kids); i++ {
							r := kids[i].GetWidget().Rect
							if was, ok := rows[i]; !ok {
								rows[i] = r
							} else if r != was {
								t.Errorf("%d players, ready=%v: roster row %d is at %v, was at %v", n, ready, i, r, was)
							}
						}
					}
				}
			})
		}
	}
}

// lanGamesOf returns n joinable games on the LAN.
func lanGamesOf(n int) []lan.Game {
	var games []lan.Game
	for i := range n {
		games = append(games, lan.Game{
			ID: fmt.Sprintf("g%d", i), Addr: netip.AddrPortFrom(netip.AddrFrom4([4]byte{192, 168, 1, byte(10 + i)}), wire.DefaultPort),
			Name: fmt.Sprintf("Game %d", i+1), Host: fmt.Sprintf("Host %d", i+1), Players: 1, Max: 8,
			State: wire.StateSetup.String(), Version: wire.Version, Compatible: true,
		})
	}
	return games
}

// TestJoinHoldsStill: as games appear on the LAN and go, the Join
// screen's list rows, its address field, its Join and Back buttons keep
// their place (a row its top left corner: the last may be a line that
// counts the games left out), at the three sizes, with a known server or
// none.
func TestJoinHoldsStill(t *testing.T) {
	for _, sz := range layoutSizes {
		for _, servers := range []int{0, 1} {
			t.Run(fmt.Sprintf("%dx%d servers=%d", sz.W, sz.H, servers), func(t *testing.T) {
				fake := &lan.Fake{}
				a, err := NewApp(Options{ConfigDir: t.TempDir(), Silent: true, Discovery: fake})
				if err != nil {
					t.Fatal(err)
				}
				if servers > 0 {
					// A server on loopback where nothing answers: its rooms
					// take the list's lower part, and the LAN list is shorter.
					a.settings.Servers = []KnownServer{{Addr: "127.0.0.1:9"}}
				}
				a.screenW, a.screenH = float64(sz.W), float64(sz.H)
				a.th = nil
				s := newJoinScreen(a)
				was := map[string]image.Rectangle{}
				looking := false
				for _, n := range []int{0, 1, 2, 4, 8, 2, 0} {
					fake.Set(lanGamesOf(n))
					if n == 0 || looking { // no games: one line, "Looking for games"
						for k := range was {
							if strings.HasPrefix(k, "list row") {
								delete(was, k)
							}
						}
					}
					looking = n == 0
					s.refresh()
					layOut(a, s.top, sz.W, sz.H)
					at := map[string]image.Rectangle{
						"address field": s.addr.GetWidget().Rect,
						"Join":          s.join.GetWidget().Rect,
						"list":          s.list.GetWidget().Rect,
					}
					for i, k := range s.list.Children() {
						at[fmt.Sprintf("list row %d", i)] = k.GetWidget().Rect
					}
					for name, r := range at {
						if !r.In(image.Rect(0, 0, sz.W, sz.H)) {
							t.Errorf("%d games: %s %v is outside the window", n, name, r)
						}
						if w, ok := was[name]; ok && w != r && (!strings.HasPrefix(name, "list row") || w.Min != r.Min) {
							t.Errorf("%d games: %s is at %v, was at %v", n, name, r, w)
						}
						was[name] = r
					}
				}
			})
		}
	}
}

// resultsOf returns the results of a game of n players in mode.
func resultsOf(mode game.Mode, n int) game.Results {
	r := game.Results{Tick: 3600, Mode: mode, Over: true, Winner: -1, Wave: 3, N: n}
	for i := range n {
		r.Lines[i] = game.Standing{Slot: int8(i), Name: fmt.Sprintf("Player %d", i+1), Score: uint32(1000 * (n - i)), Lives: 1, Kills: uint16(i)}
	}
	if mode == game.Versus {
		r.Winner, r.Lines[0].Winner = 0, true
	}
	return r
}

// TestResultsHoldStill: the results' buttons keep their place whether
// the game had one player or eight, and when the room goes away (a line
// then says why Back to lobby is off); the table's rows start where they
// did. At the three sizes, co-op and versus.
func TestResultsHoldStill(t *testing.T) {
	for _, sz := range layoutSizes {
		for _, mode := range []game.Mode{game.Coop, game.Versus} {
			t.Run(fmt.Sprintf("%dx%d %v", sz.W, sz.H, mode), func(t *testing.T) {
				a := newTestApp(t, nil)
				a.screenW, a.screenH = float64(sz.W), float64(sz.H)
				a.th = nil
				was := map[string]image.Rectangle{}
				for _, n := range []int{1, 2, 4, 8} {
					for _, gone := range []string{"", "The room has closed: the host left."} {
						a.nv.results, a.nv.slot = resultsOf(mode, n), 0
						a.nv.setup = lobbyRoster(n, true)
						a.flow.roomGone = ""
						s := newResultsScreen(a)
						a.flow.roomGone = gone
						if err := s.update(Intents{}); err != nil {
							t.Fatal(err)
						}
						layOut(a, s.top, sz.W, sz.H)
						at := map[string]image.Rectangle{"Back to lobby": s.rematch.GetWidget().Rect}
						for _, f := range s.top.GetFocusers() {
							if b, ok := f.(*widget.Button); ok {
								at[b.Text().Label] = b.GetWidget().Rect
							}
						}
						for name, r := range at {
							if !r.In(image.Rect(0, 0, sz.W, sz.H)) {
								t.Errorf("%d players: %s %v is outside the window", n, name, r)
							}
							if w, ok := was[name]; ok && w != r {
								t.Errorf("%d players, room gone %v: %s is at %v, was at %v", n, gone != "", name, r, w)
							}
							was[name] = r
						}
					}
				}
			})
		}
	}
}
