package ui

import (
	"image/color"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"rockstep/assets/palette"
	"rockstep/game"
	"rockstep/game/fixed"
	"rockstep/net/client"
	"rockstep/net/lockstep"
	"rockstep/net/migrate"
	"rockstep/net/wire"
	"rockstep/ui/draw"
)

// netPlayScreen is a network game: the session's displayed world drawn
// with interpolation between the ticks it executes, explosions and sound
// from its events, every player's score, overlays for the room's troubles,
// the network graph (F3) and the in-game menu (Esc).
type netPlayScreen struct {
	a          *App
	top        *widget.Container
	menu       *widget.Container
	menuNote   *widget.Text // under the menu's heading: whether the game goes on
	prev, cur  game.World
	have       bool
	changedAt  time.Time     // when cur arrived
	span       time.Duration // the time cur's ticks take to play
	fx         *draw.Particles
	smooth     draw.Smoother // glides ships over prediction corrections
	pause      *widget.Button
	detail     string // a line under the overlay's banner, at the bottom
	subOf      string // the banner's line wrapped into subLines (desync words)
	subLines   []string
	subLabels  [maxSubLines]draw.Label
	graph      draw.NetGraph
	reportOf   string // the desync report reportS names
	reportS    string
	start      time.Time
	ticks      uint32
	bannerWave uint8
	bannerLeft int

	// The vacancy countdown runs on from the last status the room sent.
	vacancyMs uint32
	vacancyAt time.Time
	strip     draw.Label // the reconnecting strip
	stripS    string     // its line, formatted when stripKey changes
	stripKey  [2]int     // vacant slots and seconds left of stripS
	slowS     string     // the strip's line for machines too slow, formatted when slowKey changes
	slowKey   uint8      // the slow slots of slowS

	awayOf [game.MaxPlayers]draw.Label // "away" under a ship whose player is away

	board   draw.Scoreboard
	specOf  draw.Label
	netLine draw.Label
	netS    string
	netOf   [4]int

	// news is the last thing the room told of the players (who left, was
	// dropped or came back; newsKind says which, 0 for the screen's own
	// news), shown for a few seconds.
	news     string
	newsKind newsKind
	newsLeft int
	newsOf   draw.Label
	end      *widget.Button

	hint controlsHint // the player's controls, the game's first seconds
	beat heartbeat
	ran  int // world ticks the displayed world advanced this update
}

// The in-game menu's note under its heading.
const (
	menuNoteRunning = "The game goes on while this is open."
	menuNotePaused  = "The game is paused for everyone."
)

// newsTicks is how long a line of news stays on screen: 4 s.
const newsTicks = 4 * game.TicksPerSecond

func newNetPlayScreen(a *App) *netPlayScreen {
	s := &netPlayScreen{a: a, fx: draw.NewParticles(a.opt.Seed ^ 0xf00d), start: time.Now()}
	if a.nv.hasWorld {
		s.cur, s.prev, s.have = a.nv.world, a.nv.world, true
		if s.cur.Tick < bannerTicks {
			// The game begins: its first wave. A player coming back
			// mid-wave (a rejoin, a new host) is not told it again.
			s.bannerWave, s.bannerLeft = s.cur.Wave, bannerTicks
		}
	}
	if a.nv.slot >= 0 {
		s.hint.show(a.controlsLines(true))
	}
	s.retheme()
	return s
}

// retheme implements rethemer: it builds the in-game menu with the App's
// theme, shown if it was.
func (s *netPlayScreen) retheme() {
	a := s.a
	t := a.theme()
	shown := s.menu != nil && s.menu.GetWidget().GetVisibility() == widget.Visibility_Show
	s.menu = t.panelColumn(12, widget.ContainerOpts.WidgetOpts(t.size(320, 0)))
	s.menu.AddChild(t.heading("Menu", centred()))
	s.menuNote = t.dim(menuNoteRunning, centred())
	s.menu.AddChild(s.menuNote)
	s.menu.AddChild(t.button("Resume", a.emit, Intent{Kind: IntentResume}, stretchRow()))
	s.menu.AddChild(t.buttonFunc("Controls", func() {
		// Back to the game, with the controls shown again.
		s.hint.show(a.controlsLines(true))
		a.emit(Intent{Kind: IntentResume})
	}, stretchRow()))
	s.pause = t.buttonFunc("Pause for everyone", func() {
		a.emit(Intent{Kind: IntentPause, Paused: a.nv.status.Child != wire.ChildPaused})
	}, stretchRow())
	s.menu.AddChild(s.pause)
	s.end = t.button("End the game for everyone", a.emit, Intent{Kind: IntentEndGame}, stretchRow())
	s.menu.AddChild(s.end)
	s.menu.AddChild(t.button("Leave game", a.emit, Intent{Kind: IntentLeave}, stretchRow()))
	s.top = t.screenRoot(s.menu, false)
	if !shown {
		s.menu.GetWidget().SetVisibility(widget.Visibility_Hide)
	}
}

func (s *netPlayScreen) id() screenID            { return screenPlay }
func (s *netPlayScreen) root() *widget.Container { return s.top }

// hostButtons shows the in-game menu's Pause and End game to the host
// only, Pause reading what it does now.
func (s *netPlayScreen) hostButtons() {
	nv := &s.a.nv
	if !nv.host {
		s.pause.GetWidget().SetVisibility(widget.Visibility_Hide)
		s.end.GetWidget().SetVisibility(widget.Visibility_Hide)
		return
	}
	s.pause.GetWidget().SetVisibility(widget.Visibility_Show)
	s.end.GetWidget().SetVisibility(widget.Visibility_Show)
	if nv.status.Child == wire.ChildPaused {
		s.pause.SetText("Resume for everyone")
	} else {
		s.pause.SetText("Pause for everyone")
	}
}

func (s *netPlayScreen) update(in Intents) error {
	a := s.a
	nv := &a.nv
	s.ticks++
	if in.Graph {
		s.graph.Shown = !s.graph.Shown
	}
	s.hostButtons()
	for _, e := range nv.news {
		if line := newsLine(e, nv); line != "" {
			s.news, s.newsKind, s.newsLeft = line, e.kind, newsTicks
		}
	}
	nv.news = nv.news[:0]
	if s.newsLeft > 0 {
		s.newsLeft--
	}
	note := menuNoteRunning
	if nv.status.Child == wire.ChildPaused {
		note = menuNotePaused
	}
	s.menuNote.Label = note
	if a.flow.gameMenu {
		s.menu.GetWidget().SetVisibility(widget.Visibility_Show)
	} else {
		s.menu.GetWidget().SetVisibility(widget.Visibility_Hide)
	}
	s.ran = 0
	if nv.hasWorld && (!s.have || nv.world.Tick != s.cur.Tick) {
		now := time.Now()
		if s.have && nv.world.Tick > s.cur.Tick {
			s.ran = int(nv.world.Tick - s.cur.Tick)
			s.prev = s.cur
			s.span = time.Duration(nv.world.Tick-s.cur.Tick) * time.Second / game.TicksPerSecond
		} else {
			s.prev, s.span = nv.world, 0
		}
		s.cur, s.have, s.changedAt = nv.world, true, now
		// With prediction, draw each ship where the smoother says: a
		// corrected prediction glides into place instead of jumping.
		// Without it the world shown is confirmed and never corrected.
		if nv.predicting() {
			off := s.smooth.Update(&nv.world)
			for i := range s.cur.Ships {
				sh := &s.cur.Ships[i]
				if off[i] != [2]float64{} {
					sh.Pos.X = wrapNum(sh.Pos.X+fixed.Num(off[i][0]*float64(fixed.One)), game.FieldW)
					sh.Pos.Y = wrapNum(sh.Pos.Y+fixed.Num(off[i][1]*float64(fixed.One)), game.FieldH)
				}
			}
		}
	}
	for _, e := range nv.events {
		if e.Kind == game.WaveStarted {
			s.bannerWave, s.bannerLeft = uint8(e.Value), bannerTicks
		}
	}
	s.fx.React(nv.events)
	s.fx.Step()
	for _, e := range nv.events {
		if e.Kind == game.ExtraLife && int(e.Slot) == nv.slot && nv.slot >= 0 {
			s.news, s.newsKind, s.newsLeft = "EXTRA LIFE", 0, newsTicks
		}
		if e.Kind == game.ShipDestroyed && e.Slot >= 0 && int(e.Slot) < game.MaxPlayers && s.cur.Ships[e.Slot].Lives == 0 {
			s.news, s.newsKind, s.newsLeft = outLine(s.cur.Setup.Mode, int(e.Slot) == nv.slot, nv.playerName(int(e.Slot))), 0, newsTicks
		}
	}
	if s.have {
		a.sound.react(nv.events, &s.prev, &s.cur, nv.slot)
		a.sound.heartbeat(&s.beat, &s.cur, s.ran)
	}
	nv.events = nv.events[:0] // each event once, however often the view is read
	if s.bannerLeft > 0 {
		s.bannerLeft--
	}
	if nv.status.Child != wire.ChildPaused {
		s.hint.step(in.Ship)
	}
	if st := nv.status; st.Child == wire.ChildVacancy && st.VacancyMs != s.vacancyMs {
		s.vacancyMs, s.vacancyAt = st.VacancyMs, time.Now()
	}
	s.graph.Paused = nv.status.Child == wire.ChildPaused
	s.graph.Sample(time.Since(s.start), nv.stats)

	// The local ship's controls, every frame; none while the menu is open.
	ship := in.Ship
	if a.flow.gameMenu || nv.slot < 0 {
		ship = 0
	}
	nv.setInput(ship)
	return nil
}

// fraction returns how far between prev and cur to draw now, 0..1.
func (s *netPlayScreen) fraction() float64 {
	if s.span <= 0 {
		return 1
	}
	f := float64(time.Since(s.changedAt)) / float64(s.span)
	return math.Min(math.Max(f, 0), 1)
}

func (s *netPlayScreen) draw(dst *ebiten.Image, v draw.View, _ float64) {
	e := s.a.env
	r := e.draw
	if s.graph.Shown {
		// The graph stands beside the field, which makes room for it,
		// or over its right edge on a narrow screen (Room).
		b := dst.Bounds()
		v = draw.FitViewBeside(float64(b.Dx()), float64(b.Dy()), s.graph.Room(float64(b.Dx()), float64(b.Dy())))
	}
	field := r.Begin(dst, v)
	r.DrawBackdrop(dst, field, s.ticks)
	if !s.have {
		e.hud.Banner(field, v, "STARTING", "waiting for the first turn…", palette.Text, 1)
		return
	}
	t := s.fraction()
	// Explosions under the world: the rocks and ships in a flash stay
	// drawn over it.
	s.fx.Draw(field, r, 1)
	r.DrawWorld(field, &s.prev, &s.cur, t)

	nv := &s.a.nv
	h := e.hud
	s.drawAway(field, v)
	me := nv.slot
	title, sub, col := s.overlay()
	if title != "" {
		h.Dim(field, r)
	}
	s.drawHUD(dst, r, h, v, me)
	newsY := 48.0
	if line := s.stripLine(); line != "" {
		// The game goes on meanwhile: a strip at the top, not a banner.
		h.Band(field, r, v, &s.strip, line, 22, colWarn, 1, 0.7)
		newsY = 56
	}
	switch {
	case title != "" && s.a.flow.gameMenu:
		// The menu says it (and would be written over).
	case title != "":
		if title == "DESYNC" {
			s.drawWrapped(field, v, h, title, sub, col)
		} else {
			h.Banner(field, v, title, sub, col, 1)
		}
		if s.detail != "" {
			h.Hint(field, r, v, s.detail, 1)
		}
	case s.bannerLeft > 0 && !s.a.flow.gameMenu:
		a := float32(s.bannerLeft) / (bannerTicks / 3)
		h.Banner(field, v, h.WaveBanner(s.bannerWave), "", palette.Text, min(a, 1))
	}
	if title == "" && !s.a.flow.gameMenu {
		s.hint.draw(e, field, v)
	}
	if me < 0 {
		h.Text(dst, v, &s.specOf, "SPECTATING", draw.FaceLabel, draw.FieldW/2, draw.FieldH+9, text.AlignCenter, colAccent, 1)
	}
	if s.newsLeft > 0 && title == "" {
		a := min(float32(s.newsLeft)/(game.TicksPerSecond/2), 1)
		h.Text(field, v, &s.newsOf, s.news, draw.FaceSub, draw.FieldW/2, newsY, text.AlignCenter, palette.Text, a)
	}
	s.graph.Draw(dst, r, h, v)
}

// drawAway writes "away" under each ship whose player is away (its slot
// held for a reconnect): the engine keeps it out of play, drawn faint,
// until they are back.
func (s *netPlayScreen) drawAway(field *ebiten.Image, v draw.View) {
	h := s.a.env.hud
	for i := range s.cur.Ships {
		sh := &s.cur.Ships[i]
		if !sh.Present || !sh.Away {
			continue
		}
		x, y := float64(sh.Pos.X)/float64(fixed.One), float64(sh.Pos.Y)/float64(fixed.One)
		h.Text(field, v, &s.awayOf[i], awayLabel, draw.FaceLabel, x, y+26, text.AlignCenter, palette.Dim, 1)
	}
}

// awayLabel is written under the ship of a player who is away.
const awayLabel = "away"

// hostSilentLine is the overlay's line while the room is silent.
const hostSilentLine = "waiting for the host… (no word from it)"

// backText is a player's news of its own return to the game.
const backText = "You are back in the game"

// newsLine is what the player is told of news of a player, or "".
func newsLine(e news, nv *netView) string {
	switch e.kind {
	case newsQuit:
		return nv.playerName(e.slot) + " left the game"
	case newsDropped:
		return nv.playerName(e.slot) + " was dropped: no reconnect in time"
	case newsRejoined:
		if e.slot == nv.slot {
			return backText // this player's own return (a Rejoin, or its game's own redial)
		}
		return nv.playerName(e.slot) + " is back"
	case newsStrayed:
		return nv.playerName(e.slot) + " " + lockstep.StrayedText
	case newsRepaired:
		return lockstep.RepairedText
	case newsHosts:
		if e.slot == migrate.OnServer {
			return client.MovedText(nv.server)
		}
		if e.slot == nv.slot {
			return "The host left: you host the game now"
		}
		return "The host left: " + nv.playerName(e.slot) + " hosts the game now"
	}
	return ""
}

// overlay returns the banner the room's state calls for, if any.
func (s *netPlayScreen) overlay() (title, sub string, c color.RGBA) {
	s.detail = ""
	nv := &s.a.nv
	st := nv.status
	switch {
	case nv.ended && nv.desync == nil:
		// The game ended in our confirmed world; the room confirms that
		// every player's ended alike, then the results show.
		if !nv.results.Over {
			return "GAME ENDED", "the host ended the game — the results are on their way…", palette.Text
		}
		return "GAME OVER", "the results are on their way…", palette.Danger
	case nv.desync != nil || st.Child == wire.ChildDesynced:
		turn := st.Turn
		if nv.desync != nil {
			turn = nv.desync.Turn
		}
		s.detail = s.reportLine()
		if nv.rewound && nv.stopped != "" {
			return "DESYNC", "The players' games disagree at turn " + strconv.Itoa(int(turn)) + " again after going back to where they agreed: " + nv.stopped + ".", palette.Danger
		}
		return "DESYNC", "The players' games disagree at turn " + strconv.Itoa(int(turn)) + ": the game stopped.", palette.Danger
	case nv.silence >= lockstep.SilentAfter:
		// Turns come many times a second: half a second without a word
		// from the room is a crash or a hang, and the player is told at
		// once (a migration, if it comes, is announced on its own).
		return "WAITING", hostSilentLine, colWarn
	case st.Child == wire.ChildLagging:
		return "WAITING", "waiting for " + s.names(st.Lagging) + "…", colWarn
	case st.Child == wire.ChildPaused:
		return "PAUSED", "the host paused the game", palette.Text
	}
	return "", "", color.RGBA{}
}

// The desync words are longer than a line of the field: they are wrapped
// at subLineChars characters (at the banner's 24 units a character is at
// most about 14 units wide, so a line stays within the 1280-unit field
// at any window size, 800×600 included), at most maxSubLines lines.
const (
	subLineChars = 60
	maxSubLines  = 5
	subLineStep  = 32 // units between lines
)

// drawWrapped draws a banner whose line under the title is wrapped.
func (s *netPlayScreen) drawWrapped(field *ebiten.Image, v draw.View, h *draw.HUD, title, sub string, col color.RGBA) {
	if s.subOf != sub || s.subLines == nil {
		s.subOf, s.subLines = sub, wrapWords(sub, subLineChars, maxSubLines)
	}
	h.Banner(field, v, title, "", col, 1)
	for i, line := range s.subLines {
		h.Text(field, v, &s.subLabels[i], line, draw.FaceSub, draw.FieldW/2, draw.FieldH/2+24+float64(i*subLineStep), text.AlignCenter, palette.Text, 1)
	}
}

// wrapWords breaks s at spaces into lines of at most width characters
// (a word longer than that stands alone), at most most lines, the last
// taking the rest.
func wrapWords(s string, width, most int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case len([]rune(line))+1+len([]rune(w)) <= width || len(lines) == most-1:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// stripLine is the line of the strip at the top of the field while the
// game goes on: a player's slot waiting for them to reconnect, or else a
// machine that cannot keep up; "" for neither.
func (s *netPlayScreen) stripLine() string {
	if line := s.reconnecting(); line != "" {
		return line
	}
	return s.slowLine()
}

// slowLine says whose machine the room finds too slow for the game (it
// sends one away that stays so, with words), or "".
func (s *netPlayScreen) slowLine() string {
	nv := &s.a.nv
	mask := nv.status.Slow
	if mask == 0 || nv.status.State != wire.StateRunning || nv.desync != nil || nv.ended {
		return ""
	}
	if s.slowS == "" || s.slowKey != mask {
		s.slowKey = mask
		if nv.slot >= 0 && mask&(1<<nv.slot) != 0 {
			s.slowS = "Your computer cannot keep up with the game: close other programs, or it will be sent away"
		} else {
			s.slowS = s.names(mask) + " cannot keep up with the game: it runs slower for everyone"
		}
	}
	return s.slowS
}

// reconnecting returns the line of the strip shown while a player's slot
// waits for them to reconnect (the game goes on), with the seconds left,
// or "".
func (s *netPlayScreen) reconnecting() string {
	nv := &s.a.nv
	st := nv.status
	if st.Child != wire.ChildVacancy || nv.desync != nil || nv.ended {
		return ""
	}
	left := time.Duration(s.vacancyMs)*time.Millisecond - time.Since(s.vacancyAt)
	secs := int(math.Ceil(max(left, 0).Seconds()))
	key := [2]int{int(st.Vacant), secs}
	if nv.unfound {
		key[0] |= 1 << game.MaxPlayers
	}
	if s.stripS == "" || s.stripKey != key {
		s.stripKey = key // the words change when the search finds nobody too
		s.stripS = s.names(st.Vacant) + " lost the connection: waiting " + strconv.Itoa(secs) + " s for them to come back"
		if nv.apart { // our side lacks a majority: the game waits
			var who []string
			for i := 0; i < game.MaxPlayers; i++ {
				if nv.absent&(1<<i) != 0 {
					who = append(who, nv.playerName(i))
				}
			}
			s.stripS = apartLine(who, secs, nv.unfound)
		}
	}
	return s.stripS
}

// apartLine is the strip of a side without a majority: "lost contact with
// Bea and Cy: waiting 24 s for them" (lockstep.ApartText), and, once the
// search for the game they may play elsewhere found nobody (the host cut
// off while its network is down, or after they all left), that it did:
// when the countdown ends they are dropped and the game goes on here.
func apartLine(who []string, secs int, unfound bool) string {
	line := lockstep.ApartText(who, secs)
	if unfound {
		line += " · they do not answer: is your network down?"
	}
	return line
}

// reportLine says where the desync report is: on the host, the file once
// written (net/host publishes its path), else the folder it goes to.
func (s *netPlayScreen) reportLine() string {
	a := s.a
	dir, p := a.nv.reports()
	if !a.flow.hosting || dir == "" {
		return "The host's machine keeps a report beside the game's replay."
	}
	if p != "" {
		if s.reportOf != p {
			s.reportOf = p
			s.reportS = "Report: " + filepath.Base(p) + " in " + filepath.Dir(p) + "  ·  main menu → Replays shows it"
		}
		return s.reportS
	}
	return "Writing the report beside the replay in " + dir + "…"
}

// names lists the players of the slots set in mask.
func (s *netPlayScreen) names(mask uint8) string {
	var names []string
	for i := 0; i < game.MaxPlayers; i++ {
		if mask&(1<<i) != 0 {
			names = append(names, s.a.nv.playerName(i))
		}
	}
	if len(names) == 0 {
		return "a player"
	}
	return strings.Join(names, ", ")
}

// drawHUD draws the scoreboard, the wave, the local ship's thrust and the
// connection line.
func (s *netPlayScreen) drawHUD(dst *ebiten.Image, r *draw.Renderer, h *draw.HUD, v draw.View, me int) {
	nv := &s.a.nv
	s.board.Draw(dst, r, h, v, &s.cur, me, nv.playerName, s.colourOf)
	if me >= 0 && me < game.MaxPlayers {
		h.Thrust(dst, r, v, s.cur.Ships[me].Thrust, draw.PlayerColour(s.colourOf(me)))
	}
	// Ping and input delay: what the network costs this player.
	st := &nv.stats
	rtt := int(st.RTT / time.Millisecond)
	delay := (st.Delay*st.K*1000 + game.TicksPerSecond/2) / game.TicksPerSecond // ms, rounded: one tick reads 17
	if me < 0 {
		delay = -1 // a spectator sends no input: no delay to speak of
	}
	if nv.silence >= silentPing {
		rtt = -1 // the last figure is stale: the room says nothing
	}
	slow := 0
	if me >= 0 && me < game.MaxPlayers && nv.status.Slow&(1<<me) != 0 {
		slow = 1 // the room sees this machine fall behind: its delay is ours
	}
	if s.netS == "" || s.netOf != [4]int{rtt, delay, slow, st.TPS} {
		s.netOf = [4]int{rtt, delay, slow, st.TPS}
		s.netS = netLine(rtt, delay, st.TPS, slow == 1)
	}
	h.Text(dst, v, &s.netLine, s.netS, draw.FaceLabel, draw.FieldW-28, draw.FieldH+9, text.AlignEnd, palette.Dim, 1)
}

// outLine is the news when a player's last ship goes: in co-op the
// player watches the others play on; in versus the player is out.
func outLine(mode game.Mode, mine bool, name string) string {
	switch {
	case mine && mode == game.Coop:
		return "OUT OF LIVES: WATCHING"
	case mine:
		return "OUT"
	case mode == game.Coop:
		return name + " is out of lives: watching"
	}
	return name + " is out"
}

// silentPing is how long the room may be silent before the HUD's ping
// reads "—" rather than the last figure measured.
const silentPing = time.Second

// netLine is the connection line at the bottom right: ping and input
// delay in ms; rtt < 0 (the room silent) reads "—", delay < 0 (a
// spectator's) is not shown. When the delay is this machine's doing, not
// the network's, it says so: tps is the tick rate the session sustains
// (ticks a second, lockstep.Stats.TPS; 0 before it is measured), and
// below game.TicksPerSecond the room lengthens the turns for it
// (net/room/timing.go); roomSlow is the room's Slow status for our slot.
func netLine(rtt, delay, tps int, roomSlow bool) string {
	ping := "ping —"
	if rtt >= 0 {
		ping = "ping " + strconv.Itoa(rtt) + " ms"
	}
	switch {
	case delay < 0:
		return ping
	case tps > 0 && tps < game.TicksPerSecond:
		return ping + "   ·   input delay " + strconv.Itoa(delay) + " ms: this computer runs " + strconv.Itoa(tps) + " of " + strconv.Itoa(game.TicksPerSecond) + " ticks a second"
	case roomSlow:
		return ping + "   ·   input delay " + strconv.Itoa(delay) + " ms: this computer is slow"
	}
	return ping + "   ·   input delay " + strconv.Itoa(delay) + " ms"
}

// colourOf returns the palette index of slot.
func (s *netPlayScreen) colourOf(slot int) int {
	for _, p := range s.a.nv.setup.Players {
		if int(p.Slot) == slot {
			return int(p.Colour)
		}
	}
	return slot
}

// wrapNum brings n back into [0, size).
func wrapNum(n, size fixed.Num) fixed.Num {
	n %= size
	if n < 0 {
		n += size
	}
	return n
}
