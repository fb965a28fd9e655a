package ui

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	euiimage "github.com/ebitenui/ebitenui/image"
	"github.com/ebitenui/ebitenui/widget"

	"rockstep/net/wire"
)

// askNameOnFirstStart makes the first start (no settings file yet) ask the
// player's name over the main menu. The package's tests, which start with
// an empty config every time, turn it off; the test of the question turns
// it on.
var askNameOnFirstStart = true

// firstStart reports whether dir holds no settings yet: the game has never
// run with it.
func firstStart(dir string) bool {
	if dir == "" {
		return false
	}
	_, err := os.Stat(filepath.Join(dir, settingsFile))
	return errors.Is(err, fs.ErrNotExist)
}

// askName shows the first start's question: a name to play under, the
// guest name given, selected, so that typing replaces it. Skip keeps the
// guest name (Settings can change it later).
func (a *App) askName() {
	a.closePrompt()
	t := a.theme()
	box := t.panelColumn(14)
	box.AddChild(t.heading("Welcome to Rockstep"))
	box.AddChild(t.dim("What should the other players call you? (Settings can change it later)"))
	var field *widget.TextInput
	save := func() {
		name := strings.TrimSpace(field.GetText())
		a.closePrompt()
		if name == "" || name == a.settings.Name {
			return
		}
		s := a.settings
		s.Name = wire.Truncate(name, wire.MaxName)
		a.emit(Intent{Kind: IntentSaveSettings, Settings: s})
	}
	field = t.inputWith("your name", func(string) { save() }, false, []widget.TextInputOpt{widget.TextInputOpts.Validation(func(s string) (bool, *string) {
		if len(s) <= wire.MaxName {
			return true, nil
		}
		cut := wire.Truncate(s, wire.MaxName)
		return false, &cut
	})}, stretchRow())
	field.SetText(a.settings.Name)
	field.SelectAll()
	box.AddChild(field)
	buttons := t.hbox(12, widget.ContainerOpts.WidgetOpts(widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionEnd})))
	buttons.AddChild(t.buttonFunc("Skip", a.closePrompt, t.size(140, 0)), t.buttonFunc("Play", save, t.size(140, 0)))
	box.AddChild(buttons)
	box.GetWidget().LayoutData = widget.AnchorLayoutData{
		HorizontalPosition: widget.AnchorLayoutPositionCenter,
		VerticalPosition:   widget.AnchorLayoutPositionCenter,
	}
	shade := widget.NewContainer(
		widget.ContainerOpts.BackgroundImage(euiimage.NewNineSliceColor(promptShade)),
		widget.ContainerOpts.Layout(widget.NewAnchorLayout()))
	shade.AddChild(box)
	w := widget.NewWindow(widget.WindowOpts.Contents(shade), widget.WindowOpts.Modal(), widget.WindowOpts.CloseMode(widget.NONE))
	w.SetLocation(a.screenRect())
	a.prompt = &prompt{win: w, remove: a.ui.AddWindow(w), box: box, shade: shade}
	a.ui.SetFocusedWidget(field)
}

// maybeAskName asks the first start's question once, when the main menu
// is on screen.
func (a *App) maybeAskName() {
	if a.wantName && a.flow.screen == screenMenu && a.prompt == nil && a.opt.Autopilot == nil {
		a.wantName = false
		a.askName()
	}
}
