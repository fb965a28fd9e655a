//go:build !js

package ui

// inBrowser is true in the game built for a browser tab (GOOS=js), whose
// menus show only what a tab can do: join by code or link, practice,
// replays, high scores and settings; no Host (a tab opens no socket to
// listen on) and no Quit (the tab is closed instead).
const inBrowser = false
