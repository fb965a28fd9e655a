package draw

import (
	"testing"

	"rockstep/game"
)

// TestExtraLifeFlash: the HUD flashes for lifeFlashTicks after the local
// player earns a life, not after another player does.
func TestExtraLifeFlash(t *testing.T) {
	h := &HUD{}
	h.React([]game.Event{{Kind: game.ExtraLife, Slot: 2, Value: 4}}, 0)
	if h.lifeFlash != 0 {
		t.Fatalf("another player's extra life flashes the HUD (%d ticks)", h.lifeFlash)
	}
	h.React([]game.Event{{Kind: game.RockDestroyed, Slot: 0}, {Kind: game.ExtraLife, Slot: 0, Value: 4}}, 0)
	if h.lifeFlash != lifeFlashTicks {
		t.Fatalf("flash %d ticks after my extra life, want %d", h.lifeFlash, lifeFlashTicks)
	}
	for range lifeFlashTicks {
		h.React(nil, 0)
	}
	if h.lifeFlash != 0 {
		t.Errorf("flash still on (%d ticks) after %d ticks", h.lifeFlash, lifeFlashTicks)
	}
}
