package lockstep

import (
	"rockstep/internal/peertext"
	"rockstep/net/wire"
)

// cleanText returns msg with every text in it made safe to show
// (peertext.Clean: no control, bidi or zero-width characters, NFC, one
// line, within the protocol's limits): the names of the room and of the
// players, chat lines, and the words of a refusal or goodbye. The room
// cleans what it relays, but the room is a peer too (a player's own
// server, or a stranger's), so the session cleans again where messages
// enter, and the UI shows only what passed here. ok is false for a chat
// line with nothing left to show.
func cleanText(msg wire.Message) (_ wire.Message, ok bool) {
	switch m := msg.(type) {
	case wire.SetupState:
		m.Name = peertext.Clean(m.Name, wire.MaxName)
		for i := range m.Players {
			m.Players[i].Name = peertext.Clean(m.Players[i].Name, wire.MaxName)
		}
		return m, true
	case wire.Start:
		for i := range m.Names {
			m.Names[i] = peertext.Clean(m.Names[i], wire.MaxName)
		}
		return m, true
	case wire.Chat:
		m.Text = peertext.Clean(m.Text, wire.MaxChat)
		return m, m.Text != ""
	case wire.Refuse:
		m.Text = peertext.Clean(m.Text, wire.MaxText)
		return m, true
	case wire.Leave:
		m.Text = peertext.Clean(m.Text, wire.MaxText)
		return m, true
	}
	return msg, true
}
