package ui

import (
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/ebitenui/ebitenui/widget"

	"rockstep/net/invite"
)

// codeTarget is how the join screen names the game of an invite code
// while it is joined: which address answers is not known yet.
const codeTarget = "the game of the invite code"

// joinCode starts joining the game of the invite code s, every address
// in it at once, pinned to its key; or says on the join screen why the
// code cannot be used.
func (f *flow) joinCode(s string) []effect {
	if strings.TrimSpace(s) == "" {
		f.joinErr = "Type or paste the invite code the host gave you."
		return nil
	}
	s, _ = invite.FromLink(s) // a room's link as good as its code
	c, err := invite.Decode(s)
	if err != nil {
		f.joinErr = sentence(err.Error())
		return nil
	}
	f.joinErr, f.target, f.hosting, f.rejoin = "", codeTarget, false, false
	return []effect{{kind: effDial, addrs: c.Targets(), hostFP: c.Fingerprint(), room: c.RoomID}}
}

// sentence starts s with a capital and ends it with a full stop.
func sentence(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// externalAddr is the router's outside address for the game we host, once
// the router opened a port (net/portmap); invalid while there is none.
func (v *netView) externalAddr() netip.AddrPort { return v.external }

// hostCode returns the invite code of the game we host: its addresses
// (the router's outside one first, when there is one; see
// invite.HostAddrs) and our host key's pin; "" when there is none to give
// (no key yet, or no address anyone could use).
func hostCode(listen string, ifaceAddrs []netip.Addr, external netip.AddrPort, fingerprint string) string {
	ap, err := netip.ParseAddrPort(listen)
	if err != nil || fingerprint == "" {
		return ""
	}
	c, err := invite.New(invite.HostAddrs(ap, ifaceAddrs, external), fingerprint)
	if err != nil {
		return ""
	}
	return c.String()
}

// codeField is the join screen's "Invite code" row: a field to type the
// code in (Enter joins), Join, and Paste where there is a clipboard tool.
type codeField struct {
	a     *App
	input *widget.TextInput
	join  *widget.Button
	paste *widget.Button // nil with no clipboard tool

	mu     sync.Mutex
	pasted string // from the clipboard, for the next update to put in the field
}

func (c *codeField) build(a *App, col *widget.Container) {
	t := a.theme()
	c.a = a
	col.AddChild(t.dim("Or join with the invite code the host gave you (letters and digits; dashes and case do not matter)"))
	row := t.hbox(10, widget.ContainerOpts.WidgetOpts(stretchRow()))
	c.input = t.input("XXXX-XXXX-XXXX-XXXX-…", func(text string) { a.emit(Intent{Kind: IntentJoinCode, Addr: text}) },
		widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter}), t.size(560, 0))
	if invite.Looks(a.opt.Join) {
		c.input.SetText(a.opt.Join)
	}
	row.AddChild(c.input)
	c.join = t.buttonFunc("Join", func() { a.emit(Intent{Kind: IntentJoinCode, Addr: c.input.GetText()}) }, t.size(140, 0))
	row.AddChild(c.join)
	if clipboard() != nil {
		c.paste = t.buttonFunc("Paste", func() {
			pasteText(func(text string, ok bool) {
				if ok {
					c.mu.Lock()
					c.pasted = text
					c.mu.Unlock()
				}
			})
		}, t.size(120, 0))
		row.AddChild(c.paste)
	}
	col.AddChild(row)
}

// update puts pasted text in the field, and enables the buttons while
// nothing is being joined.
func (c *codeField) update(idle bool) {
	c.mu.Lock()
	text := c.pasted
	c.pasted = ""
	c.mu.Unlock()
	if text != "" {
		c.input.SetText(text)
	}
	enable(c.join, idle)
	if c.paste != nil {
		enable(c.paste, idle)
	}
}

// inviteRow is the lobby's invite code line, for the game we host: the
// code, large, in groups of four, and Copy where there is a clipboard
// tool (see clipboard.go); hidden when we do not host.
type inviteRow struct {
	row   *widget.Container
	label *widget.Text
	code  *widget.Text
	copy  *widget.Button // nil with no clipboard tool

	ifaces []netip.Addr // this machine's addresses, read once
	looked bool         // ifaces was read
	key    string       // what the code shown was made from
	shown  string       // the code shown ("" none)
	copied atomic.Int32 // copyUnknown, copyDone, copyFailed: the last Copy's outcome
}

// Outcomes of Copy.
const (
	copyUnknown = iota
	copyDone
	copyFailed
)

func (r *inviteRow) build(a *App, col *widget.Container) {
	t := a.theme()
	r.row = t.hbox(12, widget.ContainerOpts.WidgetOpts(stretchRow()))
	r.label = t.dim(" ", widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter}))
	r.row.AddChild(r.label)
	if clipboard() != nil {
		r.copy = t.buttonFunc("Copy", func() {
			r.copied.Store(copyUnknown)
			copyText(r.shown, func(ok bool) {
				if ok {
					r.copied.Store(copyDone)
				} else {
					r.copied.Store(copyFailed)
				}
			})
		}, t.size(100, 0))
		r.row.AddChild(r.copy)
	}
	r.code = t.text(" ", &t.headingFace, colAccent)
	for _, w := range []*widget.Widget{r.row.GetWidget(), r.code.GetWidget()} {
		w.SetVisibility(widget.Visibility_Hide)
	}
	col.AddChild(r.row, r.code)
}

// codeGroupsPerLine is the most groups of four a line of the lobby's code
// holds: six fill the lobby's column at its narrowest.
const codeGroupsPerLine = 6

// codeLines breaks a grouped code into lines of even length, at most
// codeGroupsPerLine groups each.
func codeLines(code string) string {
	groups := strings.Split(code, "-")
	lines := (len(groups) + codeGroupsPerLine - 1) / codeGroupsPerLine
	per := (len(groups) + lines - 1) / lines
	var b strings.Builder
	for i, g := range groups {
		switch {
		case i == 0:
		case i%per == 0:
			b.WriteString("-\n")
		default:
			b.WriteByte('-')
		}
		b.WriteString(g)
	}
	return b.String()
}

// update shows the code of the game we host: made again when what goes in
// it changes (the router's outside address comes a moment after Host).
func (r *inviteRow) update(hosting bool, nv *netView) {
	fp := nv.hostFingerprint()
	if !hosting || !nv.active() || fp == "" {
		r.show("")
		return
	}
	if !r.looked {
		r.ifaces, r.looked = invite.InterfaceAddrs(), true
	}
	ext := nv.externalAddr()
	id, _ := nv.serverRoom()
	if key := nv.addr() + "|" + ext.String() + "|" + fp + "|" + strconv.FormatUint(uint64(id), 10); key != r.key {
		r.key = key
		if id != 0 { // our room on a server: its address, its key, the room (format 1)
			r.show(serverRoomCode(nv.addr(), fp, id))
		} else {
			r.show(hostCode(nv.addr(), r.ifaces, ext, fp))
		}
	}
	switch r.copied.Load() {
	case copyDone:
		r.label.Label = "Invite code, copied: players on the internet or your network join with it"
	case copyFailed:
		r.label.Label = "Invite code (it could not be copied: read it out): players join with it"
	}
}

// show shows code, or hides the row if it is "".
func (r *inviteRow) show(code string) {
	if code == r.shown {
		return
	}
	r.shown = code
	r.copied.Store(copyUnknown)
	vis := widget.Visibility_Show
	if code == "" {
		vis = widget.Visibility_Hide
	}
	r.label.Label = "Invite code: players on the internet or your network join with it"
	r.code.Label = codeLines(code)
	for _, w := range []*widget.Widget{r.row.GetWidget(), r.code.GetWidget()} {
		w.SetVisibility(vis)
	}
}
