//go:build ignore

// gen_icon writes icon.png, Rockstep's 256×256 application icon, from the
// vector art of package iconart. It runs only at `go generate` time; the
// committed PNG is what the game and the release packages embed.
package main

import (
	"bytes"
	"image/png"
	"log"
	"os"

	"rockstep/assets/iconart"
)

func main() {
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&b, iconart.Render(256)); err != nil {
		log.Fatalf("encode icon.png: %v", err)
	}
	if err := os.WriteFile("icon.png", b.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}
