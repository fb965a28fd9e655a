package ui

import (
	"slices"
	"strconv"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/assets/palette"
	"rockstep/net/wire"
	"rockstep/ui/draw"
)

// settingsScreen edits the player's name, the volume and full screen, and
// leads to the Controls screen.
type settingsScreen struct {
	a      *App
	top    *widget.Container
	edit   Settings
	name   *widget.TextInput
	volume *widget.Text
	full   *widget.Button
	pred   *widget.Button
	pmap   *widget.Button
	// servers lists the known servers being edited (serverList).
	servers serverList
	// toServers focuses the servers' address field at the first update:
	// Settings opened by the lobby's "Add a community server".
	toServers bool
}

func newSettingsScreen(a *App) *settingsScreen {
	t := a.theme()
	s := &settingsScreen{a: a, edit: a.settings}
	if d := a.settingsDraft; d != nil {
		// Back from Controls: the edits not yet saved, with the bindings
		// Controls saved.
		s.edit, a.settingsDraft = *d, nil
		s.edit.Keys, s.edit.Pad = a.settings.Keys, a.settings.Pad
	}
	s.edit.Servers = slices.Clone(s.edit.Servers) // edited in place until Save
	col := t.panelColumn(14, widget.ContainerOpts.WidgetOpts(t.size(640, 0)))
	col.AddChild(t.heading("Settings"))

	form := t.grid([]bool{false, true}, 18, 12, widget.ContainerOpts.WidgetOpts(stretchRow()))
	label := func(text string) *widget.Text {
		return t.text(text, &t.bodyFace, palette.Dim, t.size(150, 0),
			widget.WidgetOpts.LayoutData(widget.GridLayoutData{VerticalPosition: widget.GridLayoutPositionCenter}))
	}
	form.AddChild(label("Name"))
	s.name = t.inputMax("your name", wire.MaxName, t.size(360, 0))
	s.name.SetText(s.edit.Name)
	form.AddChild(s.name)

	form.AddChild(label("Volume"))
	vol := t.hbox(8)
	s.volume = t.text("", &t.headingFace, palette.Text, t.size(70, 0), widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter}))
	s.volume.SetPosition(&widget.TextPositioning{HTextPosition: widget.TextPositionCenter, VTextPosition: widget.TextPositionCenter})
	vol.AddChild(
		t.buttonFunc("−", func() { s.edit.Volume = max(s.edit.Volume-10, 0); s.show() }, t.size(48, 0)),
		s.volume,
		t.buttonFunc("+", func() { s.edit.Volume = min(s.edit.Volume+10, 100); s.show() }, t.size(48, 0)),
	)
	if why := a.sound.silentWhy(); why != "" {
		// A volume nothing will play at says so (no sound device, or
		// sound turned off for this run).
		vol.AddChild(t.dim(why, widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter})))
	}
	form.AddChild(vol)

	form.AddChild(label("Full screen"))
	s.full = t.buttonFunc("", func() { s.edit.Fullscreen = !s.edit.Fullscreen; s.show() }, t.size(120, 0),
		widget.WidgetOpts.LayoutData(widget.GridLayoutData{MaxWidth: t.px(120)}))
	form.AddChild(s.full)

	// toggle adds a row of the form: an On/Off button for *on, and what it
	// does.
	toggle := func(name, does string, on *bool) *widget.Button {
		form.AddChild(label(name))
		row := t.hbox(14)
		b := t.buttonFunc("", func() { *on = !*on; s.show() }, t.size(120, 0),
			widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter}))
		row.AddChild(b, t.dim(does, widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter})))
		form.AddChild(row)
		return b
	}
	s.pred = toggle("Predict my ship", "hide latency: your ship answers your keys at once in network games", &s.edit.Predict)
	s.pmap = toggle("Internet", "Let players on the internet join (ask my router to open a port)", &s.edit.Portmap)

	form.AddChild(label("Servers"))
	form.AddChild(s.servers.build(a, &s.edit))

	form.AddChild(label("Controls"))
	form.AddChild(t.buttonFunc("Keys and gamepad…", func() {
		d := s.edit
		d.Name = s.name.GetText()
		a.settingsDraft = &d
		a.emit(Intent{Kind: IntentOpenControls})
	},
		widget.WidgetOpts.LayoutData(widget.GridLayoutData{MaxWidth: t.px(260)})))
	col.AddChild(form)
	col.AddChild(t.dim("F11 toggles full screen at any time; F3 shows the network graph in a game."))

	buttons := t.hbox(12, widget.ContainerOpts.WidgetOpts(widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionEnd})))
	buttons.AddChild(
		t.button("Cancel", a.emit, Intent{Kind: IntentBack}, t.size(140, 0)),
		t.buttonFunc("Save", func() {
			e := s.edit
			e.Name = s.name.GetText()
			e.repair(a.settings)
			a.emit(Intent{Kind: IntentSaveSettings, Settings: e})
		}, t.size(140, 0)),
	)
	col.AddChild(buttons)
	s.top = t.screenRoot(col, false)
	s.toServers = a.flow.settingsFrom == screenLobby
	s.show()
	return s
}

// show puts the edited values on the widgets.
func (s *settingsScreen) show() {
	s.volume.Label = strconv.Itoa(s.edit.Volume)
	if s.edit.Fullscreen {
		s.full.SetText("On")
	} else {
		s.full.SetText("Off")
	}
	s.a.theme().setOn(s.full, s.edit.Fullscreen)
	for _, b := range []struct {
		w  *widget.Button
		on bool
	}{{s.pred, s.edit.Predict}, {s.pmap, s.edit.Portmap}} {
		if b.on {
			b.w.SetText("On")
		} else {
			b.w.SetText("Off")
		}
		s.a.theme().setOn(b.w, b.on)
	}
}

func (s *settingsScreen) id() screenID            { return screenSettings }
func (s *settingsScreen) root() *widget.Container { return s.top }
func (s *settingsScreen) update(Intents) error {
	s.a.backdrop.step()
	if s.toServers && s.servers.input != nil {
		s.toServers = false
		s.a.ui.SetFocusedWidget(s.servers.input)
	}
	return nil
}
func (s *settingsScreen) draw(dst *ebiten.Image, v draw.View, t float64) {
	s.a.backdrop.draw(s.a.env, dst, v, t)
}
