package ui

import (
	"github.com/ebitenui/ebitenui/widget"

	"rockstep/assets/palette"
	"rockstep/net/transport"
)

// serverList is the Settings screen's list of known servers: each with
// its pinned host key and Remove, then a field to add one by address.
type serverList struct {
	a     *App
	edit  *Settings
	col   *widget.Container
	rows  *widget.Container
	input *widget.TextInput
	note  *widget.Text // why an address was not added, or how the list is used
}

// serverListNote is what the list says while nothing went wrong.
const serverListNote = "Community servers (rockstep -server) to host rooms on when your router will not open a port, and whose rooms Join lists. A server's key is pinned the first time it answers."

func (l *serverList) build(a *App, edit *Settings) *widget.Container {
	t := a.theme()
	l.a, l.edit = a, edit
	l.col = t.vbox(6, nil, widget.ContainerOpts.WidgetOpts(stretchRow()))
	l.rows = t.vbox(4, nil, widget.ContainerOpts.WidgetOpts(stretchRow()))
	l.col.AddChild(l.rows)
	add := t.hbox(10)
	l.input = t.input("host or host:port", func(text string) { l.add(text) }, t.size(300, 0),
		widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter}))
	add.AddChild(l.input, t.buttonFunc("Add", func() { l.add(l.input.GetText()) }, t.size(90, 0)))
	l.col.AddChild(add)
	l.note = t.para(serverListNote, &t.smallFace, palette.Dim, 440)
	l.col.AddChild(l.note)
	l.show()
	return l.col
}

// add adds the server typed, or says why not.
func (l *serverList) add(text string) {
	if _, err := l.edit.addServer(text); err != nil {
		l.note.Label = sentence(err.Error())
		return
	}
	l.input.SetText("")
	l.note.Label = serverListNote
	l.show()
}

// show lists the servers being edited.
func (l *serverList) show() {
	t := l.a.theme()
	l.rows.RemoveChildren()
	if len(l.edit.Servers) == 0 {
		l.rows.AddChild(t.dim("No server yet."))
	}
	for _, k := range l.edit.Servers {
		row := t.hbox(10)
		mid := widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter})
		key := "key not seen yet"
		if k.Fingerprint != "" {
			key = "key " + transport.FormatFingerprint(k.Fingerprint)[:19] + "…"
		}
		row.AddChild(t.text(k.Addr, &t.bodyFace, palette.Text, t.size(200, 0), mid))
		row.AddChild(t.text(key, &t.monoFace, palette.Dim, t.size(210, 0), mid))
		addr := k.Addr
		row.AddChild(t.buttonFunc("Remove", func() { l.edit.removeServer(addr); l.show() }, t.size(100, 0)))
		l.rows.AddChild(row)
	}
}
