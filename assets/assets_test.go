package assets

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

func TestLoadParsesEveryFont(t *testing.T) {
	a, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	for _, tc := range []struct {
		name string
		src  *text.GoTextFaceSource
	}{
		{"Regular", a.Fonts.Regular},
		{"Bold", a.Fonts.Bold},
		{"Mono", a.Fonts.Mono},
	} {
		if tc.src == nil {
			t.Errorf("Fonts.%s is nil", tc.name)
			continue
		}
		face := &text.GoTextFace{Source: tc.src, Size: 20}
		if w, _ := text.Measure("GAME OVER — 0123", face, 0); w <= 0 {
			t.Errorf("Fonts.%s: measured width %v, want > 0", tc.name, w)
		}
	}
}

func TestSoundsAreShortAudibleStereoPCM(t *testing.T) {
	a, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	for _, tc := range []struct {
		name string
		pcm  []byte
	}{
		{"Shot", a.Sounds.Shot}, {"Thrust", a.Sounds.Thrust}, {"Explosion", a.Sounds.Explosion},
		{"Boom", a.Sounds.Boom}, {"Respawn", a.Sounds.Respawn},
		{"ExtraLife", a.Sounds.ExtraLife}, {"Warp", a.Sounds.Warp}, {"Saucer", a.Sounds.Saucer},
		{"BeatLow", a.Sounds.BeatLow}, {"BeatHigh", a.Sounds.BeatHigh},
	} {
		if len(tc.pcm) == 0 || len(tc.pcm)%4 != 0 {
			t.Errorf("%s: %d bytes, want whole 16-bit stereo frames", tc.name, len(tc.pcm))
			continue
		}
		if secs := float64(len(tc.pcm)/4) / SampleRate; secs > 1.5 {
			t.Errorf("%s lasts %.2f s, want a short effect", tc.name, secs)
		}
		var peak int
		for i := 0; i+1 < len(tc.pcm); i += 2 {
			v := int(int16(uint16(tc.pcm[i]) | uint16(tc.pcm[i+1])<<8))
			peak = max(peak, v, -v)
		}
		if peak < 3000 {
			t.Errorf("%s: peak %d, want an audible sound", tc.name, peak)
		}
	}
	b, _ := Load()
	if string(b.Sounds.Boom) != string(a.Sounds.Boom) {
		t.Error("sounds differ between loads")
	}
}
