package draw

import (
	"image/color"

	"rockstep/assets/palette"
)

// PlayerColour returns the colour of player slot i.
func PlayerColour(i int) color.RGBA { return palette.Players[i&7] }

// The backdrop colours as color.Color, boxed once rather than every frame.
var (
	fillBars  color.Color = palette.Bars
	fillField color.Color = palette.Field
)
