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
	return []effect{{kind: effDial, addrs: c.Targets(), hostFP: c.Fingerprint(), room: c.RoomID, secret: c.Secret}}
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
	if external.IsValid() {
		// The outside address alone: a code of some 15 symbols to read
		// out or paste, rather than 30 to 50 with the LAN's addresses
		// (players on the LAN find the game in their list anyway).
		ap, ifaceAddrs = netip.AddrPortFrom(netip.IPv6Unspecified(), ap.Port()), nil
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

// inviteRow is the lobby's invite code line: the code, large, in groups
// of four, and Copy where there is a clipboard tool (see clipboard.go);
// hidden while there is none to give.
type inviteRow struct {
	row   *widget.Container
	label *widget.Text
	code  *widget.Text
	copy  *widget.Button // nil with no clipboard tool

	ifaces []netip.Addr // this machine's addresses, read once
	looked bool         // ifaces was read
	key    string       // what the code shown was made from
	shown  string       // the code shown ("" none)
	reach  codeReach    // who it reaches
	copied atomic.Int32 // copyUnknown, copyDone, copyFailed: the last Copy's outcome
}

// Outcomes of Copy.
const (
	copyUnknown = iota
	copyDone
	copyFailed
)

// copyButton is a row's Copy button (nil with no clipboard tool): it puts
// what text returns on the clipboard and keeps the outcome in copied.
func copyButton(t *theme, copied *atomic.Int32, text func() string) *widget.Button {
	if clipboard() == nil {
		return nil
	}
	return t.buttonFunc("Copy", func() {
		copied.Store(copyUnknown)
		copyText(text(), func(ok bool) {
			if ok {
				copied.Store(copyDone)
			} else {
				copied.Store(copyFailed)
			}
		})
	}, t.size(100, 0))
}

func (r *inviteRow) build(a *App, col *widget.Container) {
	t := a.theme()
	r.row = t.hbox(12, widget.ContainerOpts.WidgetOpts(stretchRow()))
	r.label = t.dim(" ", widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter}))
	r.row.AddChild(r.label)
	if r.copy = copyButton(t, &r.copied, func() string { return r.shown }); r.copy != nil {
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
// codeGroupsPerLine groups each, between groups: a line ends with a whole
// group, never a dash, so that what is read out is what is typed.
func codeLines(code string) string {
	groups := strings.Split(code, "-")
	lines := (len(groups) + codeGroupsPerLine - 1) / codeGroupsPerLine
	per := (len(groups) + lines - 1) / lines
	var b strings.Builder
	for i, g := range groups {
		switch {
		case i == 0:
		case i%per == 0:
			b.WriteByte('\n')
		default:
			b.WriteByte('-')
		}
		b.WriteString(g)
	}
	return b.String()
}

// codeReach is who an invite code reaches, for its label.
type codeReach uint8

const (
	reachLAN      codeReach = iota // this machine's LAN addresses only
	reachInternet                  // the router's outside address, or a public one
	reachServer                    // a room on a community server
)

// inviteLabel is the label of a code that reaches as far as reach.
func inviteLabel(reach codeReach, copied int32) string {
	var s string
	switch reach {
	case reachServer:
		s = "Invite code: joins from anywhere, through the server"
	case reachInternet:
		s = "Invite code: joins from the internet or your network"
	default:
		s = "Invite code: joins from your network only"
	}
	switch copied {
	case copyDone:
		s += " (copied)"
	case copyFailed:
		s += " (not copied: read it out)"
	}
	return s
}

// update shows the code of the game: made again when what goes in it
// changes (the router's outside address comes a moment after Host). A
// guest's lobby shows it too, made of the address the guest reached the
// room at and the host key it pinned, so that a guest can pass it on.
func (r *inviteRow) update(hosting bool, nv *netView) {
	fp := nv.hostFingerprint()
	if !nv.active() || fp == "" {
		r.show("", reachLAN)
		return
	}
	if hosting && !r.looked {
		r.ifaces, r.looked = invite.InterfaceAddrs(), true
	}
	ext := nv.externalAddr()
	id, srv, secret := nv.serverRoom()
	if key := strconv.FormatBool(hosting) + "|" + nv.addr() + "|" + srv + "|" + ext.String() + "|" + fp + "|" + strconv.FormatUint(uint64(id), 10); key != r.key {
		r.key = key
		switch {
		case id != 0 && hosting: // our room on a server: its address, its key, the room (format 1, or 2 unlisted)
			r.show(serverRoomCode(nv.addr(), fp, id, secret), reachServer)
		case id != 0:
			r.show(serverRoomCode(srv, fp, id, secret), reachServer)
		case hosting && ext.IsValid():
			r.show(hostCode(nv.addr(), r.ifaces, ext, fp), reachInternet)
		case hosting:
			r.show(hostCode(nv.addr(), r.ifaces, ext, fp), reachLAN)
		default:
			r.show(guestCode(nv.addr(), fp))
		}
	}
	r.label.Label = inviteLabel(r.reach, r.copied.Load())
}

// guestCode returns the invite code a guest passes on: the address it
// reached the room at, pinned to the host key it accepted, and how far
// that address reaches ("" if the address is no IP address and port).
func guestCode(addr, fp string) (string, codeReach) {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return "", reachLAN
	}
	c, err := invite.New([]netip.AddrPort{ap}, fp)
	if err != nil {
		return "", reachLAN
	}
	reach := reachInternet
	if ip := ap.Addr().Unmap(); ip.IsPrivate() || ip.IsLoopback() || ip.IsLinkLocalUnicast() {
		reach = reachLAN
	}
	return c.String(), reach
}

// show shows code, reaching as far as reach, or hides the row if it is "".
func (r *inviteRow) show(code string, reach codeReach) {
	if code == r.shown && reach == r.reach {
		return
	}
	r.shown, r.reach = code, reach
	r.copied.Store(copyUnknown)
	vis := widget.Visibility_Show
	if code == "" {
		vis = widget.Visibility_Hide
	}
	r.label.Label = inviteLabel(reach, copyUnknown)
	r.code.Label = codeLines(code)
	for _, w := range []*widget.Widget{r.row.GetWidget(), r.code.GetWidget()} {
		w.SetVisibility(vis)
	}
}
