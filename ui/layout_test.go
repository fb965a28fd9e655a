package ui

import (
	"fmt"
	"image"
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
