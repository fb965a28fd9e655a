//go:build race

package web_test

// raceEnabled: the race detector slows this process's host and bots
// several times over, and a browser tab is a real-time peer beside them.
const raceEnabled = true
