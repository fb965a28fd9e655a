package ui

import (
	"fmt"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/assets/palette"
	"rockstep/net/invite"
	"rockstep/net/wire"
	"rockstep/ui/draw"
)

// joinScreen lists the games on the LAN, refreshing by itself, and joins
// one, or the address the player types.
type joinScreen struct {
	a       *App
	top     *widget.Container
	list    *widget.Container
	addr    *widget.TextInput
	join    *widget.Button
	status  *widget.Text
	code    codeField // Join → Invite code (invite.go)
	sig     string
	rows    []lanRow
	first   *widget.Button // Join of the first joinable LAN game, or nil
	polled  int            // ticks since the list was last read
	shownOf string
	// servers holds the rooms of the known servers (serverrooms.go).
	servers *widget.Container
	srvSig  string
}

// lanPollTicks is how often the LAN list is read: four times a second.
const lanPollTicks = 15

// joinListWidth is the LAN list's width in design pixels (see theme.px).
const joinListWidth = 860

func newJoinScreen(a *App) *joinScreen {
	t := a.theme()
	s := &joinScreen{a: a}
	col := t.panelColumn(14)
	col.AddChild(t.heading("Join a game"))
	col.AddChild(t.dim("Games on your network"))
	s.list = t.vbox(6, nil, widget.ContainerOpts.WidgetOpts(stretchRow(), t.size(joinListWidth, joinListHeight(a))))
	col.AddChild(s.list)
	if len(a.settings.Servers) > 0 {
		col.AddChild(t.dim(serverRoomsTitle(a.settings.Servers)))
		s.servers = t.vbox(6, nil, widget.ContainerOpts.WidgetOpts(stretchRow()))
		col.AddChild(s.servers)
	}

	col.AddChild(t.dim(fmt.Sprintf("Or join by address (the port is %d unless the host says otherwise)", wire.DefaultPort)))
	by := t.hbox(10, widget.ContainerOpts.WidgetOpts(stretchRow()))
	s.addr = t.input("host or host:port", func(text string) { a.emit(Intent{Kind: IntentJoinAddr, Addr: text}) },
		widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter}), t.size(560, 0))
	if a.opt.Join != "" && !invite.Looks(a.opt.Join) {
		s.addr.SetText(a.opt.Join)
	}
	by.AddChild(s.addr)
	s.join = t.buttonFunc("Join", func() { a.emit(Intent{Kind: IntentJoinAddr, Addr: s.addr.GetText()}) }, t.size(140, 0))
	by.AddChild(s.join)
	col.AddChild(by)
	s.code.build(a, col)
	// Two lines of room, so that a message does not move the buttons.
	s.status = t.para(" ", &t.bodyFace, palette.Danger, joinListWidth, stretchRow(), t.size(0, 56))
	col.AddChild(s.status)
	col.AddChild(t.button("Back", a.emit, Intent{Kind: IntentBack}, t.size(160, 0)))
	s.top = t.screenRoot(col, false)
	s.refresh()
	return s
}

func (s *joinScreen) id() screenID            { return screenJoin }
func (s *joinScreen) root() *widget.Container { return s.top }

func (s *joinScreen) update(Intents) error {
	s.a.backdrop.step()
	s.polled++
	if s.polled >= lanPollTicks {
		s.refresh()
	}
	// What is happening: an error, or the game being joined.
	f := &s.a.flow
	msg, col := f.joinErr, palette.Danger
	if f.target != "" {
		msg, col = "Connecting to "+f.target+"…", colAccent
		if s.a.nv.ok {
			msg = "Joining " + f.target + "…"
		}
	}
	if msg == "" {
		msg = " "
	}
	if msg != s.shownOf {
		s.shownOf = msg
		s.status.Label = msg
		s.status.SetColor(col)
	}
	enable(s.join, f.target == "")
	s.code.update(f.target == "")
	return nil
}

// refresh reads the LAN list and rebuilds the rows if it changed.
func (s *joinScreen) refresh() {
	s.polled = 0
	s.refreshServers()
	rows := lanRows(s.a.lanGames(), s.a.saved)
	sig := lanSignature(rows)
	if sig == s.sig && s.list.Children() != nil {
		return
	}
	s.sig, s.rows = sig, rows
	t := s.a.theme()
	s.list.RemoveChildren()
	s.first = nil
	if len(rows) == 0 {
		s.list.AddChild(t.text("Looking for games on your network…", &t.bodyFace, palette.Dim, widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter}), t.size(0, 60)))
		return
	}
	head := t.grid([]bool{true, false, false, false, false}, 18, 0, widget.ContainerOpts.WidgetOpts(stretchRow()))
	for _, h := range []string{"GAME", "HOST", "PLAYERS", "STATE", ""} {
		head.AddChild(t.text(h, &t.smallFace, palette.Dim, t.size(colWidth(h), 0)))
	}
	s.list.AddChild(head)
	shown, more := lanRowsShown(len(rows), joinListHeight(s.a))
	for _, r := range rows[:shown] {
		line := t.grid([]bool{true, false, false, false, false}, 18, 0,
			widget.ContainerOpts.BackgroundImage(t.row),
			widget.ContainerOpts.WidgetOpts(stretchRow()))
		line.GetWidget().LayoutData = widget.RowLayoutData{Stretch: true}
		c := palette.Text
		if !r.Joinable {
			c = colGreyText
		}
		cell := func(text string, h string) *widget.Text {
			return t.text(text, &t.bodyFace, c, t.size(colWidth(h), 0),
				widget.WidgetOpts.LayoutData(widget.GridLayoutData{VerticalPosition: widget.GridLayoutPositionCenter}))
		}
		name := r.Game.Name
		if name == "" {
			name = r.Game.Addr.String()
		}
		fit := func(s, h string) string { return draw.Ellipsis(s, t.bodyFace, float64(t.px(colWidth(h)-8))) }
		line.AddChild(cell(fit("  "+name, "GAME"), "GAME"), cell(fit(r.Game.Host, "HOST"), "HOST"), cell(r.Players, "PLAYERS"), cell(r.State, "STATE"))
		g := r.Game
		b := t.button(r.Action, s.a.emit, Intent{Kind: IntentJoinLAN, Game: g, Rejoin: r.Rejoin}, t.size(colWidth(""), 0))
		enable(b, r.Joinable)
		if r.Joinable && s.first == nil {
			s.first = b
		}
		line.AddChild(b)
		s.list.AddChild(line)
	}
	if more > 0 {
		s.list.AddChild(t.text(fmt.Sprintf("  and %d more on your network (join one by its address below)", more), &t.smallFace, palette.Dim))
	}
}

// A LAN list row's height with the spacing above it, and the header's,
// in design pixels (see theme.px): what lanRowsShown fits in the list.
const lanRowH, lanHeadH = 45, 25

// lanRowsShown returns how many of n LAN games the list shows in its
// height (design pixels), and how many more a line under them counts: the
// list keeps its size, so that the address field and the buttons under it
// hold still however many games the network has.
func lanRowsShown(n, height int) (shown, more int) {
	fit := max((height-lanHeadH)/lanRowH, 2)
	if n <= fit {
		return n, 0
	}
	return fit - 1, n - (fit - 1)
}

// initialFocus implements focusStart: the first game found on the LAN,
// as soon as there is one (Enter joins it), else the address's Join.
func (s *joinScreen) initialFocus() widget.Focuser {
	if s.first != nil {
		return s.first
	}
	return s.join
}

// colWidth is the least width of a LAN list column, in design pixels.
func colWidth(head string) int {
	switch head {
	case "GAME":
		return 220
	case "HOST":
		return 150
	case "PLAYERS":
		return 90
	case "STATE":
		return 190
	}
	return 120
}

func (s *joinScreen) draw(dst *ebiten.Image, v draw.View, t float64) {
	s.a.backdrop.draw(s.a.env, dst, v, t)
}
