// Package draw draws Rockstep's field for the ui package: the view that
// fits the field and the HUD's bands into the window, the renderer of the
// world as glowing vector outlines (in batches of triangles, beams), the
// explosions, the interpolation between ticks and the smoothing of
// prediction corrections, the HUD and the scoreboard, the network graph,
// and labels, lines of text rendered once. Nothing here knows the App,
// its screens or the network session: it draws the worlds, events and
// figures it is given, and everything it adds to a game is cosmetic.
package draw
