package assets

import (
	"bytes"
	_ "embed"
	"fmt"
	"image"
	"image/png"
)

//go:generate go run gen_icon.go

// IconPNG is Rockstep's application icon, 256×256 PNG, drawn from the game's
// vector art by package iconart (regenerate with `go generate ./assets`). The
// window uses it, and the release packager builds the Windows .ico, the macOS
// .icns and the Linux desktop icon from the same art.
//
//go:embed icon.png
var IconPNG []byte

// Icon decodes IconPNG.
func Icon() (image.Image, error) {
	img, err := png.Decode(bytes.NewReader(IconPNG))
	if err != nil {
		return nil, fmt.Errorf("decode icon.png: %w", err)
	}
	return img, nil
}
