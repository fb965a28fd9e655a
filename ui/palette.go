package ui

import (
	"rockstep/assets/palette"
	"rockstep/ui/draw"
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

// playerColour returns the colour of slot i.
var playerColour = draw.PlayerColour
