package ui

import (
	"image"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"rockstep/assets/palette"
	"rockstep/game"
	"rockstep/net/replay"
	"rockstep/ui/draw"
)

// replayScreen watches a replay: the world drawn as in a network game,
// with every player's score, explosions and sound, and a control bar at
// the bottom: pause, the speeds, and a timeline to click or drag. Keys:
// Space or P pause, ← → jump 10 s, ↑ ↓ (or 1 to 5) the speed, Esc or Q
// leave.
type replayScreen struct {
	a      *App
	top    *widget.Container
	p      *replayPlayer // nil: the replay cannot be played (err says why)
	err    string
	notice string // the replay was read in part
	title  string // the room and the file
	sub    string // players, date, length

	fx         *draw.Particles
	board      draw.Scoreboard
	ticks      uint32
	bannerWave uint8
	bannerLeft int

	bar      *widget.Container
	timeline *widget.Container // empty: its rectangle is where the timeline is drawn
	pauseBtn *widget.Button
	pauseOf  string
	speeds   [len(replaySpeeds)]*widget.Button
	clock    *widget.Text
	clockOf  [2]int

	// What the bar's buttons asked for, done in update.
	askPause bool
	askSpeed int // index+1 into replaySpeeds; 0: none

	dragging bool
	// mouse reads the cursor in screen pixels and the left button (held,
	// just pressed); tests replace it.
	mouse func() (x, y int, held, just bool)

	titleL, subL, noticeL draw.Label
	endOf                 string
	endL                  draw.Label
}

// replayJump is how far ← and → move, in ticks.
const replayJump = 10 * game.TicksPerSecond

func newReplayScreen(a *App, path string) *replayScreen {
	s := &replayScreen{a: a, fx: draw.NewParticles(a.opt.Seed ^ 0xbeef), mouse: readMouse}
	s.title = "REPLAY  ·  " + filepath.Base(path)
	rp, err := replay.ReadFile(path)
	switch {
	case rp == nil:
		s.err = err.Error()
	default:
		if err != nil {
			s.notice = "This replay is damaged: it plays to its last good turn (" + strconv.Itoa(len(rp.Turns)) + " turns). " + shortErr(err)
		}
		p, perr := newReplayPlayer(rp)
		if perr != nil {
			s.err = perr.Error()
			break
		}
		s.p = p
		if rp.RoomName != "" {
			s.title = "REPLAY  ·  " + rp.RoomName
		}
		n := playerCount(rp.Setup.Players)
		e := replayEntry{Players: n, Started: rp.Started, Ticks: p.length()}
		s.sub = e.players() + "  ·  " + modeName(rp.Setup.Mode) + "  ·  " + e.when() + "  ·  " + e.length() + "  ·  " + filepath.Base(path)
		s.bannerWave, s.bannerLeft = p.world.Wave, bannerTicks
	}

	s.retheme()
	return s
}

// retheme implements rethemer: it builds the control bar with the App's
// theme.
func (s *replayScreen) retheme() {
	t := s.a.theme()
	s.bar = t.vbox(8, t.insets(24, 24, 10, 12), widget.ContainerOpts.WidgetOpts(t.size(0, 10+26+8+34+12)))
	s.timeline = widget.NewContainer(widget.ContainerOpts.WidgetOpts(stretchRow(), t.size(0, 26)))
	s.bar.AddChild(s.timeline)
	controls := t.hbox(8, widget.ContainerOpts.WidgetOpts(stretchRow(), t.size(0, 34)))
	small := func(label string, click func(), w int) *widget.Button {
		b := widget.NewButton(
			widget.ButtonOpts.WidgetOpts(t.size(w, 0), widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter})),
			widget.ButtonOpts.Image(t.buttonImg),
			widget.ButtonOpts.Text(label, &t.smallFace, t.buttonText),
			widget.ButtonOpts.TextPadding(t.insets(12, 12, 6, 6)),
			widget.ButtonOpts.ClickedHandler(func(*widget.ButtonClickedEventArgs) { click() }),
			widget.ButtonOpts.DisableDefaultKeys(), // Space is the viewer's pause key
		)
		return b
	}
	s.pauseBtn = small("Pause", func() { s.askPause = true }, 96)
	controls.AddChild(s.pauseBtn)
	controls.AddChild(widget.NewContainer(widget.ContainerOpts.WidgetOpts(t.size(8, 1))))
	for i, name := range replaySpeedNames {
		s.speeds[i] = small(name, func() { s.askSpeed = i + 1 }, 52)
		controls.AddChild(s.speeds[i])
	}
	s.clock = t.text("", &t.monoFace, palette.Text, t.size(220, 0), widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter}))
	s.clock.SetPosition(&widget.TextPositioning{HTextPosition: widget.TextPositionEnd, VTextPosition: widget.TextPositionCenter})
	controls.AddChild(widget.NewContainer(widget.ContainerOpts.WidgetOpts(t.size(8, 1))))
	controls.AddChild(s.clock)
	controls.AddChild(widget.NewContainer(widget.ContainerOpts.WidgetOpts(t.size(8, 1))))
	controls.AddChild(t.text("← → 10 s  ·  ↑ ↓ speed  ·  Esc back", &t.smallFace, palette.Dim,
		widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter})))
	s.bar.AddChild(controls)

	s.top = widget.NewContainer(widget.ContainerOpts.Layout(widget.NewAnchorLayout()))
	s.bar.GetWidget().LayoutData = widget.AnchorLayoutData{
		HorizontalPosition: widget.AnchorLayoutPositionCenter,
		VerticalPosition:   widget.AnchorLayoutPositionEnd,
		StretchHorizontal:  true,
	}
	s.top.AddChild(s.bar)
	if s.p == nil {
		s.bar.GetWidget().SetVisibility(widget.Visibility_Hide)
	}
	s.showControls()
}

// readMouse reads the real cursor and left button.
func readMouse() (x, y int, held, just bool) {
	x, y = ebiten.CursorPosition()
	return x, y, ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft), inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft)
}

// shortErr cuts an error to its last part (the file's path is shown already).
func shortErr(err error) string {
	s := err.Error()
	if i := strings.Index(s, ": replay record"); i >= 0 {
		s = s[i+2:]
	}
	return s
}

func modeName(m game.Mode) string {
	if m == game.Versus {
		return "versus"
	}
	return "co-op"
}

func (s *replayScreen) id() screenID            { return screenReplay }
func (s *replayScreen) root() *widget.Container { return s.top }

func (s *replayScreen) update(in Intents) error {
	s.ticks++
	if in.Leave {
		s.a.emit(Intent{Kind: IntentBack})
	}
	p := s.p
	if p == nil {
		return nil
	}
	if in.Space || in.Pause || s.askPause {
		if p.done() && p.paused == false {
			p.seek(0) // play again from the start
		} else {
			p.paused = !p.paused
		}
	}
	if in.SeekBy != 0 {
		s.seek(p.pos + in.SeekBy*replayJump)
	}
	if in.SpeedStep != 0 {
		p.setSpeed(p.speed + in.SpeedStep)
	}
	if in.Speed > 0 {
		p.setSpeed(in.Speed - 1)
	}
	if s.askSpeed > 0 {
		p.setSpeed(s.askSpeed - 1)
	}
	s.askPause, s.askSpeed = false, 0

	// The timeline: press on it and drag.
	x, y, held, just := s.mouse()
	r := s.timelineRect()
	if just && !r.Empty() && image.Pt(x, y).In(r.Inset(-6)) {
		s.dragging = true
	}
	if s.dragging {
		if !held {
			s.dragging = false
		} else if t := timelineTick(x, r, p.length()); t != p.pos {
			s.seek(t)
		}
	}

	p.update()
	for _, e := range p.events {
		if e.Kind == game.WaveStarted {
			s.bannerWave, s.bannerLeft = uint8(e.Value), bannerTicks
		}
	}
	s.fx.React(p.events)
	if !p.paused {
		s.fx.Step()
		if s.bannerLeft > 0 {
			s.bannerLeft--
		}
	}
	if p.speed <= replayNormalSpeed+1 {
		s.a.sound.react(p.events, &p.prev, &p.world, -1)
	}
	s.showControls()
	return nil
}

// seek moves playback to tick, dropping the explosions of another time.
func (s *replayScreen) seek(tick int) {
	s.p.seek(tick)
	s.fx.Clear()
	s.bannerLeft = 0
}

// timelineRect is where the timeline is, in screen pixels (empty before
// the first layout).
func (s *replayScreen) timelineRect() image.Rectangle {
	return s.timeline.GetWidget().Rect
}

// timelineTick maps a cursor x on the timeline r to a tick of a replay of
// length ticks.
func timelineTick(x int, r image.Rectangle, length int) int {
	if r.Dx() <= 0 {
		return 0
	}
	f := float64(x-r.Min.X) / float64(r.Dx())
	f = min(max(f, 0), 1)
	return int(f*float64(length) + 0.5)
}

// showControls puts the player's state on the bar.
func (s *replayScreen) showControls() {
	p := s.p
	if p == nil {
		return
	}
	t := s.a.theme()
	label := "Pause"
	if p.paused || p.done() {
		label = "Play"
	}
	if s.pauseOf != label {
		s.pauseOf = label
		s.pauseBtn.SetText(label)
	}
	for i, b := range s.speeds {
		t.setOn(b, i == p.speed)
	}
	secs := p.pos / game.TicksPerSecond
	if s.clockOf != [2]int{secs, int(p.currentTurn())} || s.clock.Label == "" {
		s.clockOf = [2]int{secs, int(p.currentTurn())}
		s.clock.Label = clockText(p.pos) + " / " + clockText(p.length()) + "   turn " + strconv.Itoa(int(p.currentTurn()))
	}
}

func (s *replayScreen) draw(dst *ebiten.Image, v draw.View, t float64) {
	if s.p != nil {
		// The control bar has the bottom: the field goes above it.
		b := dst.Bounds()
		v = draw.FitViewAbove(float64(b.Dx()), float64(b.Dy()), float64(s.bar.GetWidget().Rect.Dy()))
	}
	e := s.a.env
	r := e.draw
	h := e.hud
	field := r.Begin(dst, v)
	r.DrawBackdrop(dst, field, s.ticks)
	p := s.p
	if p == nil {
		h.Dim(field, r)
		h.Banner(field, v, "CANNOT PLAY", s.err, palette.Danger, 1)
		h.Hint(field, r, v, "Esc to go back", 1)
		return
	}
	r.DrawWorld(field, &p.prev, &p.world, p.fraction(t))
	s.fx.Draw(field, r, 1)
	end := s.endText()
	if end != "" || p.paused {
		h.Dim(field, r)
	}
	s.board.Draw(dst, r, h, v, &p.world, -1, func(slot int) string { return replayPlayerName(p.rp, slot) }, func(i int) int { return i })
	// What is being watched: in the top band, left of the wave, while the
	// scoreboard leaves room (up to four players); else at the field's top.
	if s.board.Columns() <= 2 {
		h.Text(dst, v, &s.titleL, s.title, draw.FaceLabel, draw.FieldW-130, -draw.HUDTop+8, text.AlignEnd, colAccent, 1)
		h.Text(dst, v, &s.subL, s.sub, draw.FaceLabel, draw.FieldW-130, -draw.HUDTop+34, text.AlignEnd, palette.Dim, 1)
	} else {
		h.Text(field, v, &s.titleL, s.title, draw.FaceLabel, draw.FieldW/2, 12, text.AlignCenter, colAccent, 1)
		h.Text(field, v, &s.subL, s.sub, draw.FaceLabel, draw.FieldW/2, 34, text.AlignCenter, palette.Dim, 1)
	}
	if s.notice != "" {
		h.Text(field, v, &s.noticeL, s.notice, draw.FaceLabel, draw.FieldW/2, 58, text.AlignCenter, colWarn, 1)
	}
	switch {
	case end != "":
		h.Banner(field, v, "END", end, palette.Text, 1)
	case p.paused:
		h.Banner(field, v, "PAUSED", "Space to play", palette.Text, 1)
	case s.bannerLeft > 0:
		a := float32(s.bannerLeft) / (bannerTicks / 3)
		h.Banner(field, v, h.WaveBanner(s.bannerWave), "", palette.Text, min(a, 1))
	}
	s.drawBar(dst, r, v)
}

// endText says why the replay ends, once it has.
func (s *replayScreen) endText() string {
	p := s.p
	if !p.done() {
		return ""
	}
	if s.endOf == "" {
		rp := p.rp
		switch {
		case rp.Desync != nil:
			s.endOf = "The players' games disagreed at turn " + strconv.Itoa(int(rp.Desync.Turn)) + ": the game stopped (see its desync report)."
		case rp.EndReason == replay.EndFinished:
			s.endOf = "The game is over."
		case rp.EndReason == 0:
			s.endOf = "The recording stops here."
		default:
			s.endOf = "The game was closed."
		}
		s.endOf += "   Space plays it again."
	}
	return s.endOf
}

// replayPlayerName names a slot as the replay's game named its players
// ("Player n" in a replay from before names were kept).
func replayPlayerName(rp *replay.Replay, slot int) string {
	if slot >= 0 && slot < len(rp.Names) && rp.Names[slot] != "" {
		return rp.Names[slot]
	}
	return "Player " + strconv.Itoa(slot+1)
}

// drawBar draws the control bar's band and the timeline under its
// widgets: the indexed part, the played part, the desync marker and the
// handle.
func (s *replayScreen) drawBar(dst *ebiten.Image, r *draw.Renderer, v draw.View) {
	tr := s.timelineRect()
	br := s.bar.GetWidget().Rect
	if tr.Empty() || br.Empty() {
		return
	}
	p := s.p
	o := r.Overlay()
	o.Rect(float32(br.Min.X), float32(br.Min.Y), float32(br.Dx()), float32(br.Dy()), draw.Tint(palette.Bars, 0.82))
	o.Rect(float32(br.Min.X), float32(br.Min.Y), float32(br.Dx()), 1, draw.Tint(colPanelRim, 1))
	x0, w := float32(tr.Min.X), float32(tr.Dx())
	cy := float32(tr.Min.Y+tr.Max.Y) / 2
	n := float32(max(p.length(), 1))
	o.Rect(x0, cy-3, w, 6, draw.Tint(palette.Border, 1))
	o.Rect(x0, cy-3, w*float32(p.indexed())/n, 6, draw.Tint(colPanelRim, 1))
	played := w * float32(p.pos) / n
	o.Rect(x0, cy-3, played, 6, draw.Tint(colAccent, 0.9))
	if p.rp.Desync != nil {
		if at := p.tickAtTurn(p.rp.Desync.Turn); at >= 0 {
			dx := x0 + w*float32(at)/n
			o.Rect(dx-1.5, float32(tr.Min.Y), 3, float32(tr.Dy()), draw.Tint(palette.Danger, 1))
		}
	}
	// A mark every minute along the track.
	for k := replayJump * 6; k < p.length(); k += replayJump * 6 {
		kx := x0 + w*float32(k)/n
		o.Rect(kx, cy+5, 1, 5, draw.Tint(palette.Dim, 0.6))
	}
	hc := palette.Text
	if s.dragging {
		hc = colAccent
	}
	o.Disc(x0+played, cy, 9, draw.Tint(hc, 1), false)
	r.DrawOverlay(dst)
}
