package ui

import (
	"github.com/ebitenui/ebitenui/widget"

	"rockstep/ui/draw"
)

// moveOffer is the lobby's next step for a room we host whose port stayed
// shut: move it to a known server (App.moveServer), or, with no server
// known, add one (Settings → Servers, and back to this lobby). Hidden
// while there is nothing to offer.
type moveOffer struct {
	row    *widget.Container
	button *widget.Button
	why    *widget.Text
	addr   string // the server offered ("": none)
	add    bool   // the offer is to add a server
}

func (m *moveOffer) build(a *App, col *widget.Container) {
	t := a.theme()
	m.row = t.hbox(12, widget.ContainerOpts.WidgetOpts(stretchRow()))
	m.button = t.buttonFunc("Move this room to a server", func() {
		switch {
		case m.addr != "":
			a.emit(Intent{Kind: IntentMoveToServer, Addr: m.addr})
		case m.add:
			a.emit(Intent{Kind: IntentOpenSettings})
		}
	})
	m.row.AddChild(m.button)
	m.why = t.dim("everyone can reach it", widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter}))
	m.row.AddChild(m.why)
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
	add := !ok && a.addServerOffer()
	if addr == m.addr && add == m.add {
		return
	}
	m.addr, m.add = addr, add
	switch {
	case addr != "":
		m.button.SetText("Move this room to " + addr)
		m.why.Label = "everyone can reach it"
	case add:
		m.button.SetText(addServerLabel)
		m.why.Label = "a server everyone can reach hosts your room"
	default:
		m.row.GetWidget().SetVisibility(widget.Visibility_Hide)
		return
	}
	m.row.GetWidget().SetVisibility(widget.Visibility_Show)
}

// addServerLabel is the lobby's button to Settings → Servers.
const addServerLabel = "Add a community server…"

// addServerOffer reports whether the lobby offers to add a server: we
// host the room here, its port stayed shut, and no server is known.
func (a *App) addServerOffer() bool {
	nv := &a.nv
	return a.flow.hosting && nv.ok && nv.roomHere && len(a.settings.Servers) == 0 && portmapClosed(nv.portmap)
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
