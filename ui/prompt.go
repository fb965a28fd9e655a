package ui

import (
	"image"
	"image/color"

	euiimage "github.com/ebitenui/ebitenui/image"
	"github.com/ebitenui/ebitenui/widget"
)

// promptShade is laid over the screen behind a prompt: black at 60 %,
// so that the question stands out and what it stops reads as paused.
var promptShade = color.RGBA{0, 0, 0, 0x99}

// prompt is a question over the screen (Leave the room?), in a modal
// ebitenui window as large as the screen, which it dims, with the
// question's box in its middle: Esc, B or its first button closes it,
// the other button emits its intent.
type prompt struct {
	win    *widget.Window
	remove widget.RemoveWindowFunc
	box    *widget.Container
	shade  *widget.Container // the window's contents: the dimmed screen, the box centred in it
}

// ask shows question with a Stay button, in focus, and a button yes that
// emits in.
func (a *App) ask(question, detail, yes string, in Intent) {
	a.closePrompt()
	t := a.theme()
	box := t.panelColumn(14)
	box.AddChild(t.heading(question))
	if detail != "" {
		box.AddChild(t.dim(detail))
	}
	buttons := t.hbox(12, widget.ContainerOpts.WidgetOpts(widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionEnd})))
	stay := t.buttonFunc("Stay", a.closePrompt, t.size(140, 0))
	buttons.AddChild(stay, t.buttonFunc(yes, func() { a.closePrompt(); a.emit(in) }, t.size(140, 0)))
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
	a.ui.SetFocusedWidget(stay)
}

// placePrompt keeps an open prompt's window over the whole screen when the
// window is resized (a resize that changes the menus' scale closes it).
func (a *App) placePrompt() {
	if a.prompt != nil {
		a.prompt.win.SetLocation(a.screenRect())
	}
}

// screenRect is the whole screen, in device pixels.
func (a *App) screenRect() image.Rectangle {
	if r := a.ui.Container.GetWidget().Rect; !r.Empty() {
		return r
	}
	return image.Rect(0, 0, int(a.screenW), int(a.screenH))
}

// closePrompt closes the prompt, if one is open.
func (a *App) closePrompt() {
	if a.prompt == nil {
		return
	}
	a.prompt.remove()
	a.prompt = nil
	a.ui.ClearFocus()
}
