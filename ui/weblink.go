package ui

import (
	"net"
	"net/url"
	"sync/atomic"
	"time"

	"github.com/ebitenui/ebitenui/widget"

	"rockstep/assets/palette"
	"rockstep/net/invite"
)

// linkRow is the lobby's line for a room on a server that serves the
// game to browsers (`rockstep -server -web`): the room's
// https://SERVER/join/CODE link, which opens the game in a tab in this
// room, with Copy. The server says where its web face is in its room list
// (wire.RoomList.Web), asked once for the room's server. Hidden while
// there is no link.
type linkRow struct {
	row    *widget.Container
	label  *widget.Text
	link   *widget.Text
	copy   *widget.Button // nil with no clipboard tool
	shown  string         // the link shown ("" none)
	copied atomic.Int32   // copyUnknown, copyDone, copyFailed
}

func (l *linkRow) build(a *App, col *widget.Container) {
	t := a.theme()
	l.row = t.hbox(12, widget.ContainerOpts.WidgetOpts(stretchRow()))
	l.label = t.dim(linkLabel(copyUnknown), widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter}))
	l.row.AddChild(l.label)
	if l.copy = copyButton(t, &l.copied, func() string { return l.shown }); l.copy != nil {
		l.row.AddChild(l.copy)
	}
	l.link = t.text(" ", &t.smallFace, palette.Text)
	for _, w := range []*widget.Widget{l.row.GetWidget(), l.link.GetWidget()} {
		w.SetVisibility(widget.Visibility_Hide)
	}
	col.AddChild(l.row, l.link)
}

// update shows the link of the room the lobby is in, code its invite code
// ("" none): asks the room's server for its web face until it answered.
func (l *linkRow) update(a *App, code string) {
	link := ""
	if id, srv, _ := a.nv.serverRoom(); id != 0 && code != "" {
		if got, ok := a.serverRooms.listing(srv); ok {
			link = webLink(got.list.Web, srv, code)
		} else {
			a.serverRooms.poll([]KnownServer{{Addr: srv, Fingerprint: a.nv.hostFingerprint()}}, time.Now())
		}
	}
	if link != l.shown {
		l.shown = link
		l.copied.Store(copyUnknown)
		vis := widget.Visibility_Show
		if link == "" {
			vis = widget.Visibility_Hide
		}
		l.link.Label = link
		for _, w := range []*widget.Widget{l.row.GetWidget(), l.link.GetWidget()} {
			w.SetVisibility(vis)
		}
	}
	l.label.Label = linkLabel(l.copied.Load())
}

// linkLabel is the label of the link, with the last Copy's outcome.
func linkLabel(copied int32) string {
	s := "Link: opens the game in a browser, in this room"
	switch copied {
	case copyDone:
		s += " (copied)"
	case copyFailed:
		s += " (not copied)"
	}
	return s
}

// webLink returns the link of the room of invite code on the server at
// server (its "host:port"), whose web face is at base
// (wire.RoomList.Web: "https://example.org:8443", or with no host,
// "https://:8443", for the server's own); "" when base is none or not a
// URL.
func webLink(base, server, code string) string {
	if base == "" || code == "" {
		return ""
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Port() == "" && u.Hostname() == "" {
		return ""
	}
	host := u.Hostname()
	if host == "" {
		h, _, err := net.SplitHostPort(server)
		if err != nil || h == "" {
			return ""
		}
		host = h
	}
	hp := host
	if p := u.Port(); p != "" {
		hp = net.JoinHostPort(host, p)
	} else if net.ParseIP(host) != nil && net.ParseIP(host).To4() == nil {
		hp = "[" + host + "]"
	}
	return u.Scheme + "://" + hp + invite.LinkPath + code
}
