package ui

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ebitengine/purego"
)

// audioDevice reports whether sound can play here, and if not why: a
// PulseAudio (or PipeWire) server answers, or ALSA has a playback device
// and its library loads.
func audioDevice() (bool, string) {
	if pulseAnswers() {
		return true, ""
	}
	pcm, _ := filepath.Glob("/dev/snd/pcmC*D*p")
	if len(pcm) == 0 {
		return false, "no PulseAudio server and no ALSA playback device"
	}
	h, err := purego.Dlopen("libasound.so.2", purego.RTLD_LAZY|purego.RTLD_GLOBAL)
	if err != nil {
		return false, "no PulseAudio server, and ALSA's library does not load: " + err.Error()
	}
	_ = purego.Dlclose(h)
	return true, ""
}

// pulseAnswers reports whether a PulseAudio server accepts a connection.
func pulseAnswers() bool {
	var paths []string
	if s := os.Getenv("PULSE_SERVER"); s != "" {
		paths = append(paths, strings.TrimPrefix(s, "unix:"))
	}
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		paths = append(paths, filepath.Join(d, "pulse", "native"))
	}
	paths = append(paths, "/run/pulse/native", "/var/run/pulse/native")
	for _, p := range paths {
		if !strings.HasPrefix(p, "/") {
			continue // a TCP server: not probed, to keep startup quick
		}
		c, err := net.DialTimeout("unix", p, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return true
		}
	}
	return false
}
