package ui

import (
	goimage "image"
	"image/color"
	"math"

	"github.com/ebitenui/ebitenui/image"
	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"rockstep/assets"
	"rockstep/assets/palette"
	"rockstep/net/wire"
)

// Colours of the menus, after the vector look of the field: dark glass
// panels edged with a thin glowing line, cyan accents.
var (
	colAccent   = color.RGBA{0x4d, 0xe3, 0xff, 0xff} // slot 0's cyan
	colPanel    = color.RGBA{0x08, 0x0c, 0x1a, 0xe8}
	colPanelRim = color.RGBA{0x2f, 0x4a, 0x78, 0xff}
	colButton   = color.RGBA{0x0c, 0x16, 0x2c, 0xff}
	colHover    = color.RGBA{0x14, 0x2c, 0x50, 0xff}
	colPressed  = color.RGBA{0x1c, 0x4a, 0x72, 0xff}
	colDisabled = color.RGBA{0x0a, 0x0e, 0x18, 0xff}
	colGreyText = color.RGBA{0x4a, 0x54, 0x6c, 0xff}
	colGood     = color.RGBA{0x6d, 0xff, 0x7a, 0xff}
	colWarn     = color.RGBA{0xff, 0xd8, 0x4d, 0xff}
)

// theme is everything the menus are drawn with, built once from the
// embedded fonts and images generated here, with one small factory per
// kind of widget.
type theme struct {
	// scale multiplies every size in pixels the menus are designed with:
	// their text, paddings, spacings, least sizes and frames (see
	// uiScale).
	scale float64

	titleFace, headingFace, bodyFace, smallFace, monoFace text.Face

	buttonImg, toggleOn *widget.ButtonImage
	panel, row, rowHi   *image.NineSlice
	inputImg            *widget.TextInputImage
	buttonText          *widget.ButtonTextColor
	inputColour         *widget.TextInputColor
	ui                  *widget.Theme
	star                *ebiten.Image // the versus winner's mark, made on first use
}

// Text sizes of the menus, in design pixels (pixels at scale 1).
const (
	menuTitleSize   = 64
	menuHeadingSize = 28
	menuBodySize    = 20
	menuSmallSize   = 16
)

// newTheme builds the theme at scale (see uiScale).
func newTheme(f assets.Fonts, scale float64) *theme {
	if scale <= 0 || math.IsNaN(scale) || math.IsInf(scale, 0) {
		scale = 1
	}
	face := func(src *text.GoTextFaceSource, size float64) text.Face {
		return &text.GoTextFace{Source: src, Size: size * scale}
	}
	frameImage := func(fill, rim color.RGBA, glow float64) *image.NineSlice {
		return frameImageAt(fill, rim, glow, scale)
	}
	t := &theme{
		scale:       scale,
		titleFace:   face(f.Bold, menuTitleSize),
		headingFace: face(f.Bold, menuHeadingSize),
		bodyFace:    face(f.Regular, menuBodySize),
		smallFace:   face(f.Regular, menuSmallSize),
		monoFace:    face(f.Mono, menuSmallSize),
	}
	t.buttonImg = &widget.ButtonImage{
		Idle: frameImage(colButton, colPanelRim, 0.5),
		// The pointer over a button only lightens it: the focus (drawn
		// so by ebitenui too) is the one button ringed and rimmed in the
		// accent (drawFocus), so that two never look selected.
		Hover:        frameImage(colHover, colPanelRim, 0.6),
		Pressed:      frameImage(colPressed, colAccent, 1),
		PressedHover: frameImage(colPressed, colAccent, 1),
		Disabled:     frameImage(colDisabled, color.RGBA{0x1c, 0x24, 0x38, 0xff}, 0),
	}
	t.toggleOn = &widget.ButtonImage{
		Idle:         frameImage(colPressed, colAccent, 0.8),
		Hover:        frameImage(colPressed, colAccent, 1),
		Pressed:      frameImage(colPressed, colAccent, 1),
		PressedHover: frameImage(colPressed, colAccent, 1),
		// What is chosen stays plain to a player who cannot change it
		// (a guest in the lobby): filled and rimmed as the host sees it,
		// without the glow.
		Disabled: frameImage(colPressed, colAccent, 0),
	}
	t.panel = frameImage(colPanel, colPanelRim, 0.6)
	t.row = frameImage(color.RGBA{0x0a, 0x10, 0x22, 0xd0}, color.RGBA{0x18, 0x24, 0x40, 0xff}, 0)
	t.rowHi = frameImage(color.RGBA{0x0e, 0x1c, 0x34, 0xe0}, colPanelRim, 0.3)
	t.inputImg = &widget.TextInputImage{
		Idle:     frameImage(color.RGBA{0x03, 0x06, 0x10, 0xff}, colPanelRim, 0.3),
		Disabled: frameImage(colDisabled, colPanelRim, 0),
	}
	t.buttonText = &widget.ButtonTextColor{Idle: palette.Text, Hover: color.White, Pressed: color.White, Disabled: colGreyText}
	t.inputColour = &widget.TextInputColor{Idle: palette.Text, Disabled: colGreyText, Caret: colAccent, DisabledCaret: colGreyText}
	t.ui = &widget.Theme{
		DefaultFace:      &t.bodyFace,
		DefaultTextColor: palette.Text,
		ButtonTheme: &widget.ButtonParams{
			Image: t.buttonImg, TextColor: t.buttonText, TextFace: &t.bodyFace,
			TextPadding:  t.insets(24, 24, 8, 8),
			TextPosition: &widget.TextPositioning{HTextPosition: widget.TextPositionCenter, VTextPosition: widget.TextPositionCenter},
		},
		PanelTheme: &widget.PanelParams{BackgroundImage: t.panel},
		TextTheme:  &widget.TextParams{Face: &t.bodyFace, Color: palette.Text},
		LabelTheme: &widget.LabelParams{Face: &t.bodyFace, Color: &widget.LabelColor{Idle: palette.Text, Disabled: colGreyText}},
		TextInputTheme: &widget.TextInputParams{
			Face: &t.bodyFace, Image: t.inputImg, Color: t.inputColour, Padding: t.insets(8, 8, 8, 8),
		},
	}
	return t
}

// frameImageAt draws a nine-slice frame at scale: a rounded rectangle of
// fill with a rim and, for glow > 0, a soft light around the rim of that
// strength.
func frameImageAt(fill, rim color.RGBA, glow, scale float64) *image.NineSlice {
	var (
		border = int(math.Round(10 * scale)) // pixels of each corner slice
		centre = 4                           // pixels of the stretched middle
		size   = 2*border + centre
		radius = 6.0 * scale // corner radius, pixels
		inset  = 3.0 * scale // rim's distance from the image's edge, pixels, room for the glow
		rimW   = max(1, scale)
	)
	img := goimage.NewRGBA(goimage.Rect(0, 0, size, size))
	half := float64(size)/2 - inset
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			// Signed distance to the rounded rectangle's edge (negative inside).
			px := math.Abs(float64(x)+0.5-float64(size)/2) - (half - radius)
			py := math.Abs(float64(y)+0.5-float64(size)/2) - (half - radius)
			d := math.Hypot(math.Max(px, 0), math.Max(py, 0)) + math.Min(math.Max(px, py), 0) - radius
			var r, g, b, a float64
			blend := func(c color.RGBA, alpha float64) {
				alpha *= float64(c.A) / 255
				r = r*(1-alpha) + float64(c.R)*alpha
				g = g*(1-alpha) + float64(c.G)*alpha
				b = b*(1-alpha) + float64(c.B)*alpha
				a = a*(1-alpha) + 255*alpha
			}
			if glow > 0 && d > 0 {
				blend(rim, glow*0.35*math.Exp(-d*1.1/scale))
			}
			if d <= 0.5 {
				blend(fill, math.Min(1, 0.5-d))
			}
			if rimA := math.Min(1, rimW/2+0.5-math.Abs(d+rimW/2)); rimA > 0 {
				blend(rim, rimA)
			}
			// Premultiplied for Ebiten.
			img.SetRGBA(x, y, color.RGBA{uint8(r * a / 255), uint8(g * a / 255), uint8(b * a / 255), uint8(a)})
		}
	}
	return image.NewNineSliceSimple(ebiten.NewImageFromImage(img), border, centre)
}

// starSize is the winner's star's width and height, in design pixels.
const starSize = 24

// starImage returns a five-pointed star in the winner's gold: drawn, as
// the fonts have no "★".
func (t *theme) starImage() *ebiten.Image {
	if t.star == nil {
		t.star = ebiten.NewImageFromImage(starPicture(t.px(starSize), colWarn))
	}
	return t.star
}

// starPicture draws a five-pointed star of colour c filling a size×size
// square, point up, its edges smoothed by 4×4 samples a pixel.
func starPicture(size int, c color.RGBA) *goimage.RGBA {
	// The star's ten corners, alternately outer and inner, in pixels.
	var pts [10][2]float64
	mid, outer := float64(size)/2, float64(size)/2-0.5
	inner := outer * 0.42
	for i := range pts {
		r := outer
		if i%2 == 1 {
			r = inner
		}
		a := -math.Pi/2 + float64(i)*math.Pi/5
		pts[i] = [2]float64{mid + r*math.Cos(a), mid + 1 + r*math.Sin(a)}
	}
	in := func(x, y float64) bool { // even-odd rule
		odd := false
		for i, j := 0, len(pts)-1; i < len(pts); j, i = i, i+1 {
			a, b := pts[i], pts[j]
			if (a[1] > y) != (b[1] > y) && x < a[0]+(y-a[1])*(b[0]-a[0])/(b[1]-a[1]) {
				odd = !odd
			}
		}
		return odd
	}
	img := goimage.NewRGBA(goimage.Rect(0, 0, size, size))
	const sub = 4
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			n := 0
			for sy := 0; sy < sub; sy++ {
				for sx := 0; sx < sub; sx++ {
					if in(float64(x)+(float64(sx)+0.5)/sub, float64(y)+(float64(sy)+0.5)/sub) {
						n++
					}
				}
			}
			a := float64(n) / sub / sub
			// Premultiplied for Ebiten.
			img.SetRGBA(x, y, color.RGBA{uint8(float64(c.R) * a), uint8(float64(c.G) * a), uint8(float64(c.B) * a), uint8(255 * a)})
		}
	}
	return img
}

// swatchImage is a filled square of colour c, for a player's colour.
func (t *theme) swatchImage(c color.RGBA) *image.NineSlice {
	return frameImageAt(c, c, 0.6, t.scale)
}

// Factories, one per kind of widget. Click handlers only emit intents.

func (t *theme) text(s string, face *text.Face, c color.Color, opts ...widget.WidgetOpt) *widget.Text {
	return widget.NewText(widget.TextOpts.Text(s, face, c), widget.TextOpts.WidgetOpts(opts...),
		// Vertically centred in whatever height a layout gives it.
		widget.TextOpts.Position(widget.TextPositionStart, widget.TextPositionCenter))
}

// para is text wrapped at width design pixels: a message that may be long (why
// joining failed) and must stay inside its panel.
func (t *theme) para(s string, face *text.Face, c color.Color, width int, opts ...widget.WidgetOpt) *widget.Text {
	return widget.NewText(widget.TextOpts.Text(s, face, c), widget.TextOpts.WidgetOpts(opts...),
		widget.TextOpts.MaxWidth(float64(t.px(width))),
		widget.TextOpts.Position(widget.TextPositionStart, widget.TextPositionCenter))
}

func (t *theme) heading(s string, opts ...widget.WidgetOpt) *widget.Text {
	return t.text(s, &t.headingFace, palette.Text, opts...)
}

func (t *theme) dim(s string, opts ...widget.WidgetOpt) *widget.Text {
	return t.text(s, &t.smallFace, palette.Dim, opts...)
}

// button returns a button that emits in when clicked.
func (t *theme) button(s string, emit func(Intent), in Intent, opts ...widget.WidgetOpt) *widget.Button {
	return t.buttonFunc(s, func() { emit(in) }, opts...)
}

// buttonFunc returns a button that calls click, which must only build and
// emit an intent.
func (t *theme) buttonFunc(s string, click func(), opts ...widget.WidgetOpt) *widget.Button {
	return widget.NewButton(
		widget.ButtonOpts.WidgetOpts(opts...),
		widget.ButtonOpts.Image(t.buttonImg),
		widget.ButtonOpts.Text(s, &t.bodyFace, t.buttonText),
		widget.ButtonOpts.TextPadding(t.insets(24, 24, 8, 8)),
		widget.ButtonOpts.ClickedHandler(func(*widget.ButtonClickedEventArgs) { click() }),
		// Enter and a gamepad's A press the focused button through the
		// game's input layer (navigate); ebitenui's own Enter would press
		// it a second time, and its Space would fire with the ship.
		widget.ButtonOpts.DisableDefaultKeys(),
	)
}

// smallButton returns a button in the small face, as low as a line of
// text: one inside a row (a roster's Kick) keeps the row's height.
func (t *theme) smallButton(s string, click func(), opts ...widget.WidgetOpt) *widget.Button {
	return widget.NewButton(
		widget.ButtonOpts.WidgetOpts(opts...),
		widget.ButtonOpts.Image(t.buttonImg),
		widget.ButtonOpts.Text(s, &t.smallFace, t.buttonText),
		widget.ButtonOpts.TextPadding(t.insets(10, 10, 2, 2)),
		widget.ButtonOpts.ClickedHandler(func(*widget.ButtonClickedEventArgs) { click() }),
		widget.ButtonOpts.DisableDefaultKeys(), // as buttonFunc's
	)
}

// setOn shows a button as switched on (a toggle's state) or off.
func (t *theme) setOn(b *widget.Button, on bool) {
	if on {
		b.SetImage(t.toggleOn)
	} else {
		b.SetImage(t.buttonImg)
	}
}

// input returns a one-line text field; submit, if set, is called with its
// text on Enter.
func (t *theme) input(placeholder string, submit func(string), opts ...widget.WidgetOpt) *widget.TextInput {
	return t.inputClearing(placeholder, submit, false, opts...)
}

// inputMax is input that holds at most maxBytes bytes of text: what would
// make it longer, typed or pasted, is cut there as it comes (on a
// character's boundary).
func (t *theme) inputMax(placeholder string, maxBytes int, opts ...widget.WidgetOpt) *widget.TextInput {
	return t.inputWith(placeholder, nil, false, []widget.TextInputOpt{widget.TextInputOpts.Validation(func(s string) (bool, *string) {
		if len(s) <= maxBytes {
			return true, nil
		}
		cut := wire.Truncate(s, maxBytes)
		return false, &cut
	})}, opts...)
}

// inputClearing is input, emptied after each Enter if clear (chat).
func (t *theme) inputClearing(placeholder string, submit func(string), clear bool, opts ...widget.WidgetOpt) *widget.TextInput {
	return t.inputWith(placeholder, submit, clear, nil, opts...)
}

// inputWith is inputClearing with more options of the text input.
func (t *theme) inputWith(placeholder string, submit func(string), clear bool, more []widget.TextInputOpt, opts ...widget.WidgetOpt) *widget.TextInput {
	o := []widget.TextInputOpt{
		widget.TextInputOpts.WidgetOpts(opts...),
		widget.TextInputOpts.Image(t.inputImg),
		widget.TextInputOpts.Face(&t.bodyFace),
		widget.TextInputOpts.Color(t.inputColour),
		widget.TextInputOpts.Padding(t.insets(8, 8, 8, 8)),
		widget.TextInputOpts.Placeholder(placeholder),
	}
	if submit != nil {
		o = append(o, widget.TextInputOpts.SubmitHandler(func(a *widget.TextInputChangedEventArgs) { submit(a.InputText) }))
	}
	if clear {
		o = append(o, widget.TextInputOpts.ClearOnSubmit(true))
	}
	return widget.NewTextInput(append(o, more...)...)
}

// px converts a length in design pixels to pixels at the theme's scale.
func (t *theme) px(n int) int { return int(math.Round(float64(n) * t.scale)) }

// insets returns paddings given in design pixels.
func (t *theme) insets(left, right, top, bottom int) *widget.Insets {
	return &widget.Insets{Left: t.px(left), Right: t.px(right), Top: t.px(top), Bottom: t.px(bottom)}
}

// vbox returns a container laying its children out top to bottom,
// spacing and padding in design pixels.
func (t *theme) vbox(spacing int, padding *widget.Insets, opts ...widget.ContainerOpt) *widget.Container {
	if padding == nil {
		padding = &widget.Insets{}
	}
	return widget.NewContainer(append([]widget.ContainerOpt{
		widget.ContainerOpts.Layout(widget.NewRowLayout(
			widget.RowLayoutOpts.Direction(widget.DirectionVertical),
			widget.RowLayoutOpts.Spacing(t.px(spacing)),
			widget.RowLayoutOpts.Padding(padding),
		)),
	}, opts...)...)
}

// hbox returns a container laying its children out left to right.
func (t *theme) hbox(spacing int, opts ...widget.ContainerOpt) *widget.Container {
	return widget.NewContainer(append([]widget.ContainerOpt{
		widget.ContainerOpts.Layout(widget.NewRowLayout(
			widget.RowLayoutOpts.Direction(widget.DirectionHorizontal),
			widget.RowLayoutOpts.Spacing(t.px(spacing)),
		)),
	}, opts...)...)
}

// grid returns a container of columns, the ones marked stretching.
func (t *theme) grid(stretch []bool, spacingX, spacingY int, opts ...widget.ContainerOpt) *widget.Container {
	return widget.NewContainer(append([]widget.ContainerOpt{
		widget.ContainerOpts.Layout(widget.NewGridLayout(
			widget.GridLayoutOpts.Columns(len(stretch)),
			widget.GridLayoutOpts.Stretch(stretch, nil),
			widget.GridLayoutOpts.Spacing(t.px(spacingX), t.px(spacingY)),
		)),
	}, opts...)...)
}

// panelColumn returns a column on the theme's framed panel.
func (t *theme) panelColumn(spacing int, opts ...widget.ContainerOpt) *widget.Container {
	return t.vbox(spacing, t.insets(28, 28, 24, 24), append([]widget.ContainerOpt{widget.ContainerOpts.BackgroundImage(t.panel)}, opts...)...)
}

// screenPad is the margin around a screen's contents, in design pixels.
const screenPad = 24

// screenRoot returns a root container with its one child centred (or
// stretched across, with stretch).
func (t *theme) screenRoot(child widget.PreferredSizeLocateableWidget, stretch bool) *widget.Container {
	root := widget.NewContainer(widget.ContainerOpts.Layout(widget.NewAnchorLayout(widget.AnchorLayoutOpts.Padding(widget.NewInsetsSimple(t.px(screenPad))))))
	child.GetWidget().LayoutData = widget.AnchorLayoutData{
		HorizontalPosition: widget.AnchorLayoutPositionCenter,
		VerticalPosition:   widget.AnchorLayoutPositionCenter,
		StretchHorizontal:  stretch,
		StretchVertical:    stretch,
	}
	root.AddChild(child)
	return root
}

// stretchRow is layout data that stretches a child across a column.
func stretchRow() widget.WidgetOpt {
	return widget.WidgetOpts.LayoutData(widget.RowLayoutData{Stretch: true})
}

// centred is layout data that centres a child in a column.
func centred() widget.WidgetOpt {
	return widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionCenter})
}

// size sets a widget's least size in design pixels.
func (t *theme) size(w, h int) widget.WidgetOpt { return widget.WidgetOpts.MinSize(t.px(w), t.px(h)) }

// enable enables or disables a widget.
func enable(w widget.HasWidget, on bool) { w.GetWidget().Disabled = !on }

// frameImage is frameImageAt at the theme's scale.
func (t *theme) frameImage(fill, rim color.RGBA, glow float64) *image.NineSlice {
	return frameImageAt(fill, rim, glow, t.scale)
}

// stretchCell is layout data that stretches a child across its grid cell.
func stretchCell() widget.WidgetOpt {
	return widget.WidgetOpts.LayoutData(widget.GridLayoutData{HorizontalPosition: widget.GridLayoutPositionStart})
}
