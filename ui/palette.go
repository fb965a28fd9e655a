package ui

import (
	"image/color"

	"rockstep/assets/palette"
)

// The game's colours, from assets/palette (shared with the icon).
var (
	colBars   = palette.Bars
	colField  = palette.Field
	colBorder = palette.Border
	colRock   = palette.Rock
	colFlame  = palette.Flame
	colCore   = palette.Core
	colStar   = palette.Star
	colText   = palette.Text
	colDim    = palette.Dim
	colDanger = palette.Danger
)

// playerColours gives each player slot its colour, slot 0 first.
var playerColours = palette.Players

// playerColour returns the colour of slot i.
func playerColour(i int) color.RGBA { return playerColours[i&7] }

// The backdrop colours as color.Color, boxed once rather than every frame.
var (
	fillBars  color.Color = colBars
	fillField color.Color = colField
)
