package ui

import (
	"github.com/ebitenui/ebitenui/widget"

	"rockstep/ui/draw"
)

// moveOffer is the lobby's offer to move the room we host to a known
// server (App.moveServer): a line saying why, and the button. Hidden
// while there is nothing to offer.
type moveOffer struct {
	row    *widget.Container
	button *widget.Button
	addr   string // the server offered ("": none)
}

func (m *moveOffer) build(a *App, col *widget.Container) {
	t := a.theme()
	m.row = t.hbox(12, widget.ContainerOpts.WidgetOpts(stretchRow()))
	m.button = t.buttonFunc("Move this room to a server", func() {
		if m.addr != "" {
			a.emit(Intent{Kind: IntentMoveToServer, Addr: m.addr})
		}
	})
	m.row.AddChild(m.button)
	m.row.AddChild(t.dim("everyone can reach it", widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter})))
	m.row.GetWidget().SetVisibility(widget.Visibility_Hide)
	col.AddChild(m.row)
}

// update shows the offer while the App has one to make.
func (m *moveOffer) update(a *App) {
	srv, ok := a.moveServer()
	addr := ""
	if ok {
		addr = srv.Addr
	}
	if addr == m.addr {
		return
	}
	m.addr = addr
	if addr == "" {
		m.row.GetWidget().SetVisibility(widget.Visibility_Hide)
		return
	}
	m.button.SetText("Move this room to " + addr)
	m.row.GetWidget().SetVisibility(widget.Visibility_Show)
}

// maxHostServers is how many known servers the main menu offers to host
// on, under Host game (on this machine, the default): the first, as the
// menu has room for one more button at 800×600.
const maxHostServers = 1

// hostOnServerButtons adds, under the main menu's Host game, a "Host on
// SERVER" button for each known server (the first maxHostServers).
func hostOnServerButtons(a *App, buttons *widget.Container) {
	t := a.theme()
	for i, k := range a.settings.Servers {
		if i == maxHostServers {
			break
		}
		label := draw.Ellipsis("Host on "+k.Addr, t.bodyFace, float64(t.px(260)))
		buttons.AddChild(t.button(label, a.emit, Intent{Kind: IntentHostServer, Addr: k.Addr}, stretchRow(), t.size(280, 0)))
	}
}
