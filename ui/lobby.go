package ui

import (
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"rockstep/assets/palette"
	"rockstep/game"
	"rockstep/net/invite"
	"rockstep/net/portmap"
	"rockstep/net/transport"
	"rockstep/net/wire"
	"rockstep/ui/draw"
)

// lobbyScreen is the room during setup: the roster, the setup (changed by
// the host, seen by all), ready, start, chat and leave.
type lobbyScreen struct {
	a   *App
	top *widget.Container

	title, where, hostKey            *widget.Text
	roster                           *widget.Container
	coop, versus                     *widget.Button
	lives, wave                      *widget.Text
	livesDn, livesUp, waveDn, waveUp *widget.Button
	ff, saucers, hyper               *widget.Button
	ready, start                     *widget.Button
	hint                             *widget.Text
	chat                             *widget.Container
	say                              *widget.TextInput
	invite                           inviteRow // the invite code of the game we host (invite.go)
	link                             linkRow   // the room's link, on a server that serves the web (weblink.go)
	move                             moveOffer // the offer to move our room to a server (lobbyserver.go)

	portmap   *widget.Text // what the router said of our room's port (updatePortmap)
	hostWhere string       // where others join the game we host, worked out once
	rosterSig string
	chatSig   string
	setupSig  string
	want      game.Setup // the host's last change, until the room shows it
	wantAge   int        // ticks since want was asked for; -1: none

	seen     game.Setup // the room's setup at the last update
	wasReady bool       // whether we were ready then
	askAgain bool       // the host changed the setup we were ready for

	players  []wire.Player // the roster at the last update, to see who left
	left     string        // who left the room, said in the hint for leftLeft ticks
	moves    int           // the host migrations the lobby has told of (lobbyMovedLine)
	moved    string        // ... and the last line it said of them (the autopilot logs it)
	leftLeft int
}

// switchWidth is the width of the setup's on/off buttons: one for On, Off
// and Always, so that the panel does not change with them.
const switchWidth = 120

// setupPatience is how long a setup change asked for is shown before the
// room's own setup wins again, in ticks.
const setupPatience = game.TicksPerSecond

// lobbyWhereWidth is where the line saying how to join wraps, in design pixels.
const lobbyWhereWidth = 560

func newLobbyScreen(a *App) *lobbyScreen {
	t := a.theme()
	s := &lobbyScreen{a: a, wantAge: -1}

	left := t.panelColumn(6, widget.ContainerOpts.WidgetOpts(t.size(620, 0)))
	// The room's name with the host's key beside it, to compare.
	head := t.hbox(24)
	s.title = t.heading("Connecting…")
	s.hostKey = t.dim(" ", widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter}))
	head.AddChild(s.title, s.hostKey)
	left.AddChild(head)
	s.where = t.para(" ", &t.smallFace, palette.Dim, lobbyWhereWidth)
	left.AddChild(s.where)
	s.portmap = t.para(" ", &t.smallFace, palette.Dim, lobbyWhereWidth)
	left.AddChild(s.portmap)
	s.invite.build(a, left)
	s.link.build(a, left)
	s.move.build(a, left)
	// The roster keeps the room of eight rows whoever is in it, so that
	// the panel, the rows and the Ready button hold still as players
	// join, leave and press Ready.
	s.roster = t.vbox(rosterSpacing, nil, widget.ContainerOpts.WidgetOpts(stretchRow(), widget.WidgetOpts.MinSize(0, rosterHeight(t))))
	left.AddChild(s.roster)

	// Two settings a line: mode, lives and the starting wave on the left,
	// the switches on the right; the grid is filled a row at a time.
	setup := t.grid([]bool{false, false, false, true}, 14, 8, widget.ContainerOpts.WidgetOpts(stretchRow()))
	label := func(text string) *widget.Text {
		return t.text(text, &t.bodyFace, palette.Dim,
			widget.WidgetOpts.LayoutData(widget.GridLayoutData{VerticalPosition: widget.GridLayoutPositionCenter}))
	}
	modes := t.hbox(8)
	s.coop = t.buttonFunc("Co-op", func() { s.change(func(g *game.Setup) { g.Mode = game.Coop }) }, t.size(96, 0))
	s.versus = t.buttonFunc("Versus", func() { s.change(func(g *game.Setup) { g.Mode = game.Versus }) }, t.size(96, 0))
	modes.AddChild(s.coop, s.versus)

	stepper := func(get func(*game.Setup) *uint8, lo, hi uint8) (*widget.Button, *widget.Text, *widget.Button, *widget.Container) {
		r := t.hbox(8)
		dn := t.buttonFunc("−", func() {
			s.change(func(g *game.Setup) {
				if v := get(g); *v > lo {
					*v--
				}
			})
		}, t.size(48, 0))
		val := t.text("", &t.headingFace, palette.Text, t.size(56, 0), widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter}))
		val.SetPosition(&widget.TextPositioning{HTextPosition: widget.TextPositionCenter, VTextPosition: widget.TextPositionCenter})
		up := t.buttonFunc("+", func() {
			s.change(func(g *game.Setup) {
				if v := get(g); *v < hi {
					*v++
				}
			})
		}, t.size(48, 0))
		r.AddChild(dn, val, up)
		return dn, val, up, r
	}
	var lives, wave *widget.Container
	s.livesDn, s.lives, s.livesUp, lives = stepper(func(g *game.Setup) *uint8 { return &g.Lives }, 1, game.MaxLives)
	s.waveDn, s.wave, s.waveUp, wave = stepper(func(g *game.Setup) *uint8 { return &g.StartWave }, 1, game.MaxStartWave)
	s.ff = t.buttonFunc("Off", func() { s.change(func(g *game.Setup) { g.FriendlyFire = !g.FriendlyFire }) }, stretchCell(), t.size(switchWidth, 0))
	s.saucers = t.buttonFunc("On", func() { s.change(func(g *game.Setup) { g.Saucers = !g.Saucers }) }, stretchCell(), t.size(switchWidth, 0))
	s.hyper = t.buttonFunc("On", func() { s.change(func(g *game.Setup) { g.Hyperspace = !g.Hyperspace }) }, stretchCell(), t.size(switchWidth, 0))
	setup.AddChild(label("Mode"), modes, label("Friendly fire"), s.ff)
	setup.AddChild(label("Lives"), lives, label("Saucers"), s.saucers)
	setup.AddChild(label("Starting wave"), wave, label("Hyperspace"), s.hyper)
	left.AddChild(setup)

	// The hint above the buttons, the buttons at the column's end: the
	// hint's changing words never move them.
	buttons := t.hbox(12, widget.ContainerOpts.WidgetOpts(widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionEnd})))
	s.ready = t.buttonFunc("Ready", func() { a.emit(Intent{Kind: IntentReady, Ready: !s.myReady()}) }, t.size(170, 0))
	s.start = t.button("Start game", a.emit, Intent{Kind: IntentStart}, t.size(170, 0))
	buttons.AddChild(t.button("Leave", a.emit, Intent{Kind: IntentLeave}, t.size(120, 0)), s.ready, s.start)
	s.hint = t.dim(" ")
	left.AddChild(s.hint)
	left.AddChild(buttons)

	right := s.chatColumn(t)
	both := t.hbox(16)
	both.AddChild(left, right)
	s.top = t.screenRoot(both, false)
	return s
}

// chatColumn returns the lobby's chat: it fills its column, its lines
// from the top, the field to type in at the bottom, level with the Ready
// button.
func (s *lobbyScreen) chatColumn(t *theme) *widget.Container {
	a := s.a
	right := widget.NewContainer(
		widget.ContainerOpts.BackgroundImage(t.panel),
		widget.ContainerOpts.Layout(widget.NewGridLayout(
			widget.GridLayoutOpts.Columns(1),
			widget.GridLayoutOpts.Stretch([]bool{true}, []bool{false, true, false}),
			widget.GridLayoutOpts.Spacing(0, t.px(10)),
			widget.GridLayoutOpts.Padding(t.insets(28, 28, 24, 24)),
		)),
		widget.ContainerOpts.WidgetOpts(t.size(300, 0), widget.WidgetOpts.LayoutData(widget.RowLayoutData{Stretch: true})))
	right.AddChild(t.heading("Chat"))
	s.chat = t.vbox(4, nil, widget.ContainerOpts.WidgetOpts(t.size(chatWidth, 300)))
	right.AddChild(s.chat)
	s.say = t.inputClearing("say something…", func(text string) { a.emit(Intent{Kind: IntentSay, Text: text}) }, true, stretchRow())
	s.say.GetWidget().LayoutData = widget.GridLayoutData{VerticalPosition: widget.GridLayoutPositionEnd}
	right.AddChild(s.say)

	return right
}

func (s *lobbyScreen) id() screenID            { return screenLobby }
func (s *lobbyScreen) root() *widget.Container { return s.top }

// setupNow is the setup to show: the one asked for while the room has
// not yet answered, else the room's.
func (s *lobbyScreen) setupNow() game.Setup {
	if s.wantAge >= 0 {
		return s.want
	}
	return s.a.nv.setup.Setup
}

// change emits the host's change of the setup.
func (s *lobbyScreen) change(edit func(*game.Setup)) {
	g := s.setupNow()
	edit(&g)
	g = g.Options()
	s.want, s.wantAge = g, 0
	s.a.emit(Intent{Kind: IntentSetup, Setup: g})
}

func (s *lobbyScreen) me() *wire.Player {
	nv := &s.a.nv
	for i := range nv.setup.Players {
		if int(nv.setup.Players[i].Slot) == nv.slot {
			return &nv.setup.Players[i]
		}
	}
	return nil
}

func (s *lobbyScreen) myReady() bool {
	if p := s.me(); p != nil {
		return p.Ready
	}
	return false
}

func (s *lobbyScreen) update(Intents) error {
	a := s.a
	a.backdrop.step()
	nv := &a.nv
	room := nv.setup.Setup.Options()
	if s.wantAge >= 0 {
		s.wantAge++
		if room == s.want || s.wantAge > setupPatience {
			s.wantAge = -1
		}
	}
	if !nv.ok || nv.setup.Name == "" {
		s.title.Label = "Connecting…"
		for _, b := range []*widget.Button{s.coop, s.versus, s.livesDn, s.livesUp, s.waveDn, s.waveUp, s.ff, s.saucers, s.hyper, s.ready, s.start} {
			enable(b, false)
		}
		s.setupSig, s.rosterSig = "", "" // shown again once connected (the room may have moved to a server)
		return nil
	}
	s.title.Label = lobbyTitle(nv)
	switch id, srv, _ := nv.serverRoom(); {
	case id != 0:
		s.where.Label = serverWhere(id, srv, a.flow.hosting, nv)
	case (a.flow.hosting || nv.roomHere) && nv.active(): // our room, or the one we took over
		if s.hostWhere == "" {
			s.hostWhere = hostWhere(nv.addr(), invite.InterfaceAddrs())
		}
		s.where.Label = s.hostWhere
	case nv.active():
		s.where.Label = "at " + nv.addr()
	}
	s.invite.update(a.flow.hosting || nv.roomHere, nv) // a room taken over is ours too: its code, with our own addresses
	s.link.update(a, s.invite.shown)
	s.move.update(a)
	if fp := nv.hostFingerprint(); fp != "" {
		// The host's identity, for players to compare with what the
		// host's screen shows: joined from the LAN list, no other key
		// is accepted.
		s.hostKey.Label = "Host key " + transport.FormatFingerprint(fp)
	}
	s.updatePortmap()
	s.updateRoster()
	s.updateSetup()
	s.updateChat()
	s.updateButtons(room)
	if nv.phase.String() == "starting" {
		s.hint.Label = "Starting…"
	}
	return nil
}

// updateButtons sets Ready (or Play) and Start, and the hint under them
// (who is ready, what the host changed, who left), room being the
// setup's options now.
func (s *lobbyScreen) updateButtons(room game.Setup) {
	a := s.a
	nv := &a.nv
	host := nv.host
	all, n := true, 0
	for _, p := range nv.setup.Players {
		if p.Connected {
			n++
			all = all && p.Ready
		}
	}
	mine := s.myReady()
	// The room clears a player's Ready when the host changes the setup:
	// say why the button reads Ready again.
	if room != s.seen && s.wasReady && !mine && !host {
		s.askAgain = true
	}
	s.askAgain = s.askAgain && !mine
	s.seen, s.wasReady = room, mine
	watching := nv.slot < 0 // watched the last game; Play asks for a seat in the next
	seat := len(nv.setup.Players) < int(nv.setup.MaxSlots)
	switch {
	case watching:
		s.ready.SetText("Play")
	case mine:
		s.ready.SetText("Not ready")
	default:
		s.ready.SetText("Ready")
	}
	a.theme().setOn(s.ready, mine)
	enable(s.ready, !watching || seat)
	enable(s.start, host && all && n > 0)
	s.start.GetWidget().SetVisibility(widget.Visibility_Show)
	if !host {
		s.start.GetWidget().SetVisibility(widget.Visibility_Hide)
	}
	switch {
	case a.flow.awayEnded:
		s.hint.Label = awayEndedLine(nv.setup.Players, nv.slot, nv.status)
	case watching && seat:
		s.hint.Label = "You watched the last game: press Play to play the next."
	case watching:
		s.hint.Label = "The room is full: you will watch the next game."
	case host && all:
		s.hint.Label = "Everyone is ready: start when you like."
	case host:
		s.hint.Label = "The game can start when every player is ready."
	case s.askAgain:
		s.hint.Label = "The host changed the setup: press Ready to play it."
	case all:
		s.hint.Label = "Everyone is ready: waiting for the host to start."
	default:
		s.hint.Label = "Waiting for every player to be ready."
	}
	if line := lobbyHeldHint(nv); line != "" && !a.flow.awayEnded && !watching {
		s.hint.Label = line
	}
	if gone := departures(s.players, nv.setup.Players); len(gone) > 0 {
		s.left, s.leftLeft = strings.Join(gone, ", ")+" left the room.", leftTicks
	}
	if line := lobbyMovedLine(nv, &s.moves); line != "" {
		s.left, s.leftLeft, s.moved = line, leftTicks, line
	}
	s.players = append(s.players[:0], nv.setup.Players...)
	if s.leftLeft > 0 {
		s.leftLeft--
		s.hint.Label = s.left
	}
	if line := lobbyHostLine(nv); line != "" {
		s.hint.Label = line // the host went silent, or another took the room on
	}
}

// The roster's rows, in design pixels: every row is rosterRow high (a
// Kick button included), and the roster keeps the room of its header and
// eight rows.
const (
	rosterRow     = 24
	rosterSpacing = 4
	rosterHead    = 20 // the header's line
)

// rosterHeight is the roster's height under theme t, in pixels: the
// header and eight rows, each rounded as the layout rounds it.
func rosterHeight(t *theme) int {
	return t.px(rosterHead) + game.MaxPlayers*(t.px(rosterRow)+t.px(rosterSpacing))
}

// leftTicks is how long the lobby says who left: 4 s.
const leftTicks = 4 * game.TicksPerSecond

// departures returns the names of the players of roster before who are
// not in roster after (by player ID and slot): who left the room, or was
// sent away, between two updates.
func departures(before, after []wire.Player) []string {
	var gone []string
	for _, b := range before {
		if !slices.ContainsFunc(after, func(a wire.Player) bool { return a.ID == b.ID && a.Slot == b.Slot }) {
			gone = append(gone, b.Name)
		}
	}
	return gone
}

// maxJoinAddrs is how many of this machine's addresses the lobby names.
const maxJoinAddrs = 3

// joinAddrs lists the addresses others join a game listening on listen
// at: listen itself if it names one address, else each of this machine's
// addresses (from ifaceAddrs) that another machine can reach, IPv4 first,
// with the port. None means the machine's addresses are unknown.
func joinAddrs(listen netip.AddrPort, ifaceAddrs []netip.Addr) []string {
	port := listen.Port()
	if a := listen.Addr(); a.IsValid() && !a.IsUnspecified() {
		return []string{netip.AddrPortFrom(a.Unmap(), port).String()}
	}
	var v4, v6 []string
	for _, a := range ifaceAddrs {
		a = a.Unmap()
		if a.IsLoopback() || a.IsMulticast() || a.IsUnspecified() || a.IsLinkLocalUnicast() {
			continue
		}
		s := netip.AddrPortFrom(a, port).String()
		if a.Is4() {
			v4 = append(v4, s)
		} else {
			v6 = append(v6, s)
		}
	}
	all := append(v4, v6...)
	return all[:min(len(all), maxJoinAddrs)]
}

// hostWhere says where a game hosted at addr (":7777", "[::]:7777",
// "127.0.0.1:7777") is joined: its LAN addresses and port.
func hostWhere(addr string, ifaceAddrs []netip.Addr) string {
	const found = "You host this game: others see it in their LAN list"
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return found + "."
	}
	list := joinAddrs(ap, ifaceAddrs)
	if len(list) == 0 {
		return fmt.Sprintf("%s, or join this machine's address, port %d.", found, ap.Port())
	}
	return found + ", or join " + strings.Join(list, " or ")
}

func (s *lobbyScreen) updateRoster() {
	nv := &s.a.nv
	var b strings.Builder
	for _, p := range nv.setup.Players {
		held, _ := lobbyHeldSecs(nv, int(p.Slot))
		fmt.Fprintf(&b, "%d|%v|%v|%v|%d|%d|%d|%s\n", p.Slot, p.Ready, p.Host, p.Connected, p.Colour, p.Ping/10, held, p.Name)
	}
	fmt.Fprintf(&b, "me=%d max=%d host=%v here=%v", nv.slot, nv.setup.MaxSlots, nv.host, nv.roomHere)
	sig := b.String()
	if sig == s.rosterSig {
		return
	}
	s.rosterSig = sig
	t := s.a.theme()
	s.roster.RemoveChildren()
	head := t.grid([]bool{false, true, false, false, false}, 14, 0, widget.ContainerOpts.WidgetOpts(stretchRow()))
	for _, h := range []struct {
		s string
		w int
	}{{"", 28}, {"PLAYER", 0}, {"", 70}, {"", 120}, {"PING", 70}} {
		head.AddChild(t.text(h.s, &t.smallFace, palette.Dim, t.size(h.w, 0)))
	}
	s.roster.AddChild(head)
	for _, p := range nv.setup.Players {
		line := t.grid([]bool{false, true, false, false, false}, 14, 0,
			widget.ContainerOpts.BackgroundImage(t.row), widget.ContainerOpts.WidgetOpts(stretchRow(), t.size(0, rosterRow)))
		mid := widget.WidgetOpts.LayoutData(widget.GridLayoutData{VerticalPosition: widget.GridLayoutPositionCenter})
		pad := widget.NewContainer(widget.ContainerOpts.Layout(widget.NewAnchorLayout(widget.AnchorLayoutOpts.Padding(t.insets(10, 0, 0, 0)))), widget.ContainerOpts.WidgetOpts(mid))
		pad.AddChild(widget.NewContainer(widget.ContainerOpts.BackgroundImage(t.swatchImage(draw.PlayerColour(int(p.Colour)))), widget.ContainerOpts.WidgetOpts(t.size(16, 16))))
		line.AddChild(pad)
		name := draw.Ellipsis(p.Name, t.bodyFace, float64(t.px(lobbyNameWidth)))
		if int(p.Slot) == nv.slot {
			name += "  (you)"
		}
		c := palette.Text
		if secs, held := lobbyHeldSecs(nv, int(p.Slot)); held && !p.Connected {
			c = colGreyText
			name += fmt.Sprintf("  — waiting %d s", secs) // a seat held for its player (lobbyhandover.go)
		} else if !p.Connected {
			c = colGreyText
			name += "  — reconnecting"
		}
		line.AddChild(t.text(name, &t.bodyFace, c, mid))
		switch {
		case p.Host:
			line.AddChild(t.text("HOST", &t.smallFace, colAccent, t.size(70, 0), mid))
		case nv.host && int(p.Slot) != nv.slot:
			// The host may remove a player (one who idles, say); the
			// room then refuses that player for as long as it is open.
			line.AddChild(t.smallButton("Kick", func() { s.a.emit(Intent{Kind: IntentKick, Slot: p.Slot}) }, t.size(70, 0), mid))
		default:
			line.AddChild(t.text("", &t.smallFace, colAccent, t.size(70, 0), mid))
		}
		ready, rc := "not ready", palette.Dim
		if p.Ready {
			ready, rc = "READY", colGood
		}
		line.AddChild(t.text(ready, &t.bodyFace, rc, t.size(120, 0), mid))
		line.AddChild(t.text(pingLabel(p), &t.monoFace, palette.Dim, t.size(70, 0), mid))
		s.roster.AddChild(line)
	}
	if free := int(nv.setup.MaxSlots) - len(nv.setup.Players); free > 0 {
		s.roster.AddChild(t.dim(fmt.Sprintf("%d more can join", free)))
	}
}

func (s *lobbyScreen) updateSetup() {
	g := s.setupNow()
	host := s.a.nv.host
	sig := fmt.Sprintf("%v|%d|%d|%v|%v|%v|%v", g.Mode, g.Lives, g.StartWave, g.FriendlyFire, g.Saucers, g.Hyperspace, host)
	if sig == s.setupSig {
		return
	}
	s.setupSig = sig
	t := s.a.theme()
	t.setOn(s.coop, g.Mode == game.Coop)
	t.setOn(s.versus, g.Mode == game.Versus)
	s.lives.Label = strconv.Itoa(int(g.Lives))
	s.wave.Label = strconv.Itoa(int(g.StartWave))
	// Friendly fire is co-op's: in versus every bullet hits every ship. A
	// word that fits switchWidth, so that the panel keeps its width (and its
	// buttons their place under the host's pointer) when the mode changes.
	versus := g.Mode == game.Versus
	switch {
	case versus:
		s.ff.SetText("Always")
	case g.FriendlyFire:
		s.ff.SetText("On")
	default:
		s.ff.SetText("Off")
	}
	t.setOn(s.ff, g.FriendlyFire && !versus)
	for _, o := range []struct {
		b  *widget.Button
		on bool
	}{{s.saucers, g.Saucers}, {s.hyper, g.Hyperspace}} {
		if o.on {
			o.b.SetText("On")
		} else {
			o.b.SetText("Off")
		}
		t.setOn(o.b, o.on)
	}
	for _, b := range []*widget.Button{s.coop, s.versus, s.saucers, s.hyper} {
		enable(b, host)
	}
	enable(s.ff, host && !versus)
	enable(s.livesDn, host && g.Lives > 1)
	enable(s.livesUp, host && g.Lives < game.MaxLives)
	enable(s.waveDn, host && g.StartWave > 1)
	enable(s.waveUp, host && g.StartWave < game.MaxStartWave)
}

// Widths in the lobby, in design pixels: the roster's names, the chat's column
// and the names in it.
const (
	lobbyNameWidth = 200
	chatWidth      = 244
	chatNameWidth  = 100
)

// chatLines is how many chat lines the lobby shows.
const chatLines = 14

func (s *lobbyScreen) updateChat() {
	nv := &s.a.nv
	sig := strconv.Itoa(len(nv.chat))
	if len(nv.chat) > 0 {
		sig += nv.chat[len(nv.chat)-1].Text
	}
	if sig == s.chatSig {
		return
	}
	s.chatSig = sig
	t := s.a.theme()
	s.chat.RemoveChildren()
	lines := nv.chat
	if len(lines) > chatLines {
		lines = lines[len(lines)-chatLines:]
	}
	if len(lines) == 0 {
		s.chat.AddChild(t.dim("No messages yet."))
	}
	for _, c := range lines {
		from := draw.Ellipsis(nv.playerName(int(c.From))+":", t.bodyFace, float64(t.px(chatNameWidth)))
		fromW, _ := text.Measure(from, t.bodyFace, 0)
		line := t.hbox(8)
		line.AddChild(t.text(from, &t.bodyFace, draw.PlayerColour(s.colourOf(int(c.From))), t.size(0, 0)))
		msg := t.text(c.Text, &t.bodyFace, palette.Text)
		msg.MaxWidth = float64(t.px(chatWidth-8)) - fromW
		line.AddChild(msg)
		s.chat.AddChild(line)
	}
}

// colourOf returns the palette index of slot.
func (s *lobbyScreen) colourOf(slot int) int {
	for _, p := range s.a.nv.setup.Players {
		if int(p.Slot) == slot {
			return int(p.Colour)
		}
	}
	return slot
}

func (s *lobbyScreen) draw(dst *ebiten.Image, v draw.View, t float64) {
	s.a.backdrop.draw(s.a.env, dst, v, t)
}

// initialFocus implements focusStart: Ready, not Leave, is where Enter
// (or a gamepad's A) should first land.
func (s *lobbyScreen) initialFocus() widget.Focuser { return s.ready }

// pingLabel is the roster's ping column for p: the round trip the room
// measured to p, the same on every screen whoever looks, the host's own
// line included; "—" until it is measured. The player whose machine runs
// the room reaches it through an in-process pipe, which the room reads
// once a transport tick (10 ms): its line reads a few ms, not the "host"
// it once read on its own screen while guests saw a figure.
func pingLabel(p wire.Player) string {
	if p.Ping == 0 {
		return "—"
	}
	return strconv.Itoa(int(p.Ping)) + " ms"
}

// updatePortmap shows what the router said when asked to open our room's
// port to the internet (only when the room runs here).
func (s *lobbyScreen) updatePortmap() {
	label := portmapLine(s.a.nv.portmap)
	if shut(s.a.nv.portmap.Verdict) && label != "" && len(s.a.settings.Servers) == 0 {
		// With a server known, the offer to move there is the next
		// step, on its own line below.
		label += " " + nextStep(false)
	}
	vis := widget.Visibility_Show
	if !s.a.nv.roomHere || label == "" {
		label, vis = " ", widget.Visibility_Hide // no line at all: the panel keeps its room for the roster
	}
	s.portmap.Label = label
	s.portmap.GetWidget().SetVisibility(vis)
}

// portmapLine is the lobby's sentence for what came of asking the router
// to open the room's port, in a player's words ("": nothing asked).
func portmapLine(st portmap.Status) string {
	forward := fmt.Sprintf("forward UDP port %d to this computer", st.Internal)
	switch st.Verdict {
	case portmap.Asking:
		return "Asking your router to open a port for players on the internet…"
	case portmap.Opened:
		return fmt.Sprintf("Players on the internet can join with the invite code below (your router opened port %d by %v: %v).", st.External.Port(), st.Proto, st.External)
	case portmap.NoAnswer:
		return "Players on the internet cannot join yet: your router did not answer (" + forward + ")."
	case portmap.Refused:
		why := ""
		if st.Why != "" {
			why = " (" + st.Why + ")"
		}
		return "Players on the internet cannot join yet: your router refused to open a port" + why + " (" + forward + ")."
	case portmap.DoubleNAT:
		return "Players on the internet cannot join: your router's outside address is itself private (double NAT: a second router or your provider's NAT is in the way)."
	case portmap.NoRouter:
		return "Players on the internet cannot join: no router was found to open a port."
	case portmap.Off:
		return "Only players on your network can join: opening a router port is off (Settings → Internet)."
	}
	return ""
}

// shut reports whether verdict leaves the room's port shut to the
// internet for a reason the router gave (not by the player's choice).
func shut(v portmap.Verdict) bool {
	switch v {
	case portmap.NoAnswer, portmap.Refused, portmap.DoubleNAT, portmap.NoRouter:
		return true
	}
	return false
}

// nextStep is what a host whose port stayed shut can do next: move the
// room to the known server (the button below the sentence), or add one.
func nextStep(serverKnown bool) string {
	if serverKnown {
		return "Or move the room to a community server with the button below: everyone can reach it."
	}
	return "Or host on a community server: add one with the button below (Settings → Servers), or start with -add-server HOST."
}

// awayEndedLine is the lobby's word to a player whose Rejoin came after
// the game's end (flow.awayEnded): the game is over, how, while the room
// still shows the last game's end (st finished), and who hosts the next
// one (the roster's host: the player whose machine runs the room, which
// after a host migration is not the one who started it).
func awayEndedLine(players []wire.Player, me int, st wire.RoomStatus) string {
	line := "The game ended while you were away"
	if st.State == wire.StateFinished {
		switch st.End {
		case wire.EndGameOver:
			line += ": game over"
		case wire.EndByHost:
			line += ": the host ended it"
		case wire.EndEmpty:
			line += ": every player left"
		}
	}
	line += "."
	for _, p := range players {
		switch {
		case !p.Host:
		case int(p.Slot) == me:
			return line + " You host the next game."
		case p.Name != "":
			return line + " " + p.Name + " hosts the next game."
		}
	}
	return line
}
