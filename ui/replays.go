package ui

import (
	"image/color"
	"log"
	"path/filepath"
	"strconv"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/assets/palette"
	"rockstep/net/wire"
	"rockstep/ui/draw"
)

// replaysScreen lists the recent replays, newest first, with a marker on
// those that have a desync report: Watch opens the viewer, Report shows
// the report's text in a scrollable panel.
type replaysScreen struct {
	a       *App
	top     *widget.Container
	dir     string
	entries []replayEntry
	err     string
	page    int

	panel *widget.Container // the list, or a report
}

// replaysPerPage is how many replays one page of the list shows.
const replaysPerPage = 8

// replaysListWidth is the list's width in design pixels.
const replaysListWidth = 940

func newReplaysScreen(a *App) *replaysScreen {
	s := &replaysScreen{a: a, dir: replaysDir(a.settingsDir)}
	if s.dir != "" {
		var err error
		if s.entries, err = scanReplays(s.dir); err != nil {
			log.Printf("rockstep: %v", err)
			s.err = err.Error()
		}
	}
	s.top = widget.NewContainer(widget.ContainerOpts.Layout(widget.NewAnchorLayout(widget.AnchorLayoutOpts.Padding(widget.NewInsetsSimple(a.theme().px(screenPad))))))
	s.showList()
	return s
}

// setPanel makes c the screen's one panel, centred.
func (s *replaysScreen) setPanel(c *widget.Container) {
	if s.panel != nil {
		s.top.RemoveChild(s.panel)
	}
	c.GetWidget().LayoutData = widget.AnchorLayoutData{
		HorizontalPosition: widget.AnchorLayoutPositionCenter,
		VerticalPosition:   widget.AnchorLayoutPositionCenter,
	}
	s.panel = c
	s.top.AddChild(c)
}

// showList shows the current page of the list.
func (s *replaysScreen) showList() {
	a := s.a
	t := a.theme()
	col := t.panelColumn(12, widget.ContainerOpts.WidgetOpts(t.size(replaysListWidth, 0)))
	col.AddChild(t.heading("Replays"))
	where := "Games you host are recorded"
	if s.dir != "" {
		where += " in " + s.dir
	}
	col.AddChild(t.para(where+". Newest first; a red mark means the game stopped on a desync and left a report.", &t.smallFace, palette.Dim, replaysListWidth-56))
	list := t.vbox(6, nil, widget.ContainerOpts.WidgetOpts(stretchRow(), t.size(0, replaysPerPage*50)))
	switch {
	case s.err != "":
		list.AddChild(t.text(s.err, &t.bodyFace, palette.Danger))
	case len(s.entries) == 0:
		list.AddChild(t.text("No replays yet: host a game and it is recorded here.", &t.bodyFace, palette.Dim))
	}
	first := s.page * replaysPerPage
	for i := first; i < min(first+replaysPerPage, len(s.entries)); i++ {
		list.AddChild(s.row(s.entries[i]))
	}
	col.AddChild(list)

	nav := t.hbox(12, widget.ContainerOpts.WidgetOpts(stretchRow()))
	nav.AddChild(t.button("Back", a.emit, Intent{Kind: IntentBack}, t.size(140, 0)))
	if len(s.entries) > replaysPerPage {
		newer := t.buttonFunc("Newer", func() { s.page--; s.showList() }, t.size(120, 0))
		enable(newer, s.page > 0)
		older := t.buttonFunc("Older", func() { s.page++; s.showList() }, t.size(120, 0))
		enable(older, first+replaysPerPage < len(s.entries))
		nav.AddChild(newer, older)
		nav.AddChild(t.dim(strconv.Itoa(first+1)+"–"+strconv.Itoa(min(first+replaysPerPage, len(s.entries)))+" of "+strconv.Itoa(len(s.entries)),
			widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter})))
	}
	col.AddChild(nav)
	s.setPanel(col)
}

// row is one replay's line: room, date, length, players, marker, buttons.
func (s *replaysScreen) row(e replayEntry) *widget.Container {
	a := s.a
	t := a.theme()
	img := t.row
	if e.Report != "" {
		img = t.rowHi
	}
	r := widget.NewContainer(
		widget.ContainerOpts.BackgroundImage(img),
		widget.ContainerOpts.Layout(widget.NewGridLayout(
			widget.GridLayoutOpts.Columns(7),
			widget.GridLayoutOpts.Stretch([]bool{true, false, false, false, false, false, false}, nil),
			widget.GridLayoutOpts.Spacing(t.px(12), 0),
			widget.GridLayoutOpts.Padding(t.insets(14, 8, 4, 4)),
		)),
		widget.ContainerOpts.WidgetOpts(stretchRow()),
	)
	cell := func(text string, c color.RGBA, w int) *widget.Text {
		return t.text(text, &t.bodyFace, c, t.size(w, 40))
	}
	r.AddChild(cell(wire.Truncate(e.title(), 40), palette.Text, 160))
	r.AddChild(cell(e.when(), palette.Dim, 140))
	r.AddChild(cell(e.length(), palette.Text, 60))
	r.AddChild(cell(e.players(), palette.Dim, 90))
	switch {
	case e.Report != "":
		r.AddChild(cell("● desync report", palette.Danger, 140))
	case e.Damaged != "":
		r.AddChild(cell("damaged", colWarn, 140))
	case e.Desync:
		r.AddChild(cell("● desync", palette.Danger, 140))
	default:
		r.AddChild(cell("", palette.Dim, 140))
	}
	report := t.buttonFunc("Report", func() { s.showReport(e) }, t.size(90, 0))
	enable(report, e.Report != "")
	r.AddChild(report)
	r.AddChild(t.button("Watch", a.emit, Intent{Kind: IntentWatch, Path: e.Path}, t.size(90, 0)))
	return r
}

// showReport shows e's desync report in a scrollable panel.
func (s *replaysScreen) showReport(e replayEntry) {
	t := s.a.theme()
	body, err := readReport(e.Report)
	if err != nil {
		body = "Cannot read the report: " + err.Error()
	}
	col := t.panelColumn(12, widget.ContainerOpts.WidgetOpts(t.size(replaysListWidth, 0)))
	col.AddChild(t.heading("Desync report  ·  " + e.title()))
	col.AddChild(t.dim(filepath.Base(e.Report) + "  ·  " + e.when()))
	area := widget.NewTextArea(
		// At most the panel's width: the report's long lines scroll.
		widget.TextAreaOpts.ContainerOpts(widget.ContainerOpts.WidgetOpts(t.size(0, 380),
			widget.WidgetOpts.LayoutData(widget.RowLayoutData{Stretch: true, MaxWidth: t.px(replaysListWidth - 56)}))),
		widget.TextAreaOpts.ControlWidgetSpacing(t.px(4)),
		widget.TextAreaOpts.ProcessBBCode(false),
		widget.TextAreaOpts.FontColor(palette.Text),
		widget.TextAreaOpts.FontFace(&t.monoFace),
		widget.TextAreaOpts.TextPadding(*t.insets(12, 12, 10, 10)),
		widget.TextAreaOpts.ShowVerticalScrollbar(),
		widget.TextAreaOpts.VerticalScrollMode(widget.ScrollBeginning),
		widget.TextAreaOpts.ScrollContainerImage(&widget.ScrollContainerImage{Idle: t.inputImg.Idle, Disabled: t.inputImg.Idle, Mask: t.inputImg.Idle}),
		widget.TextAreaOpts.SliderParams(&widget.SliderParams{
			TrackImage:    &widget.SliderTrackImage{Idle: t.row, Hover: t.row},
			HandleImage:   t.buttonImg,
			MinHandleSize: intPtr(24),
			TrackPadding:  widget.NewInsetsSimple(t.px(2)),
		}),
		widget.TextAreaOpts.Text(body),
	)
	col.AddChild(area)
	buttons := t.hbox(12)
	buttons.AddChild(t.buttonFunc("Back to the list", func() { s.showList() }, t.size(200, 0)))
	buttons.AddChild(t.button("Watch the replay", s.a.emit, Intent{Kind: IntentWatch, Path: e.Path}, t.size(200, 0)))
	col.AddChild(buttons)
	s.setPanel(col)
}

func intPtr(n int) *int { return &n }

func (s *replaysScreen) id() screenID            { return screenReplays }
func (s *replaysScreen) root() *widget.Container { return s.top }
func (s *replaysScreen) update(Intents) error {
	s.a.backdrop.step()
	return nil
}
func (s *replaysScreen) draw(dst *ebiten.Image, v draw.View, t float64) {
	s.a.backdrop.draw(s.a.env, dst, v, t)
}
