// Package assets holds the files Rockstep ships inside its executable:
// the fonts of the interface and the sound effects.
//
// The fonts are the Go fonts (golang.org/x/image/font/gofont, BSD licence),
// compiled into the binary; the sounds are synthesised at load time (see
// sounds.go). The game needs no files next to it.
package assets

import (
	"bytes"
	"fmt"

	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
)

// Fonts are the typefaces of the interface, ready to make faces of any size
// with text.GoTextFace.
type Fonts struct {
	Regular *text.GoTextFaceSource // body text, hints
	Bold    *text.GoTextFaceSource // titles, banners
	Mono    *text.GoTextFaceSource // numbers that must not jitter: score, wave
}

// Assets is everything Load returns.
type Assets struct {
	Fonts  Fonts
	Sounds *Sounds
}

// Load parses the embedded assets. It fails only if an embedded file is
// damaged, which a test catches before release.
func Load() (*Assets, error) {
	var a Assets
	for _, f := range []struct {
		name string
		ttf  []byte
		dst  **text.GoTextFaceSource
	}{
		{"goregular", goregular.TTF, &a.Fonts.Regular},
		{"gobold", gobold.TTF, &a.Fonts.Bold},
		{"gomono", gomono.TTF, &a.Fonts.Mono},
	} {
		src, err := text.NewGoTextFaceSource(bytes.NewReader(f.ttf))
		if err != nil {
			return nil, fmt.Errorf("load font %s: %w", f.name, err)
		}
		*f.dst = src
	}
	snd := makeSounds()
	a.Sounds = &snd
	return &a, nil
}
