//go:build js

package ui

// inBrowser: see browser.go.
const inBrowser = true
