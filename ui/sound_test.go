package ui

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/assets"
	"rockstep/game"
	"rockstep/internal/testwait"
)

// envSoundVolume is the volume the sound test's child plays at.
const envSoundVolume = "ROCKSTEP_SOUND_TEST_VOLUME"

// Bounds of the sound test's waits (not budgets: a loaded machine is slow).
const (
	pulseStartLimit = 10 * time.Second // the PulseAudio server opens its socket
	recordLimit     = 5 * time.Second  // parec starts, or stops
)

// soundCue is one sound the test plays through the game's own path: the
// events of a frame (and the worlds around them) handed to sound.react.
type soundCue struct {
	name   string
	events []game.Event
	thrust bool // the local ship's thrust level goes up: the thrust puff
	pcm    func(*assets.Sounds) []byte
}

var soundCues = []soundCue{
	{name: "shot", events: []game.Event{{Kind: game.ShotFired, Slot: 0}}, pcm: func(s *assets.Sounds) []byte { return s.Shot }},
	{name: "thrust", thrust: true, pcm: func(s *assets.Sounds) []byte { return s.Thrust }},
	{name: "explosion", events: []game.Event{{Kind: game.RockDestroyed, Size: game.Big}}, pcm: func(s *assets.Sounds) []byte { return s.Explosion }},
	{name: "ship destroyed", events: []game.Event{{Kind: game.ShipDestroyed, Slot: 0}}, pcm: func(s *assets.Sounds) []byte { return s.Boom }},
	{name: "respawn", events: []game.Event{{Kind: game.ShipRespawned, Slot: 0}}, pcm: func(s *assets.Sounds) []byte { return s.Respawn }},
}

// TestSoundIsHeard plays each cue of the game (shot, thrust, explosion,
// ship destroyed, respawn), then the heartbeat of a full wave and of its
// last rock, through a PulseAudio server of the test's own,
// whose only sink is a null sink, records the sink's monitor with parec
// and finds every cue in the recording, in order, by its waveform. At
// volume 0 the recording is silent. The cues are played in a child process
// with a window, one after another once the last has finished.
//
//	xvfb-run -a go test -run SoundIsHeard ./ui/
func TestSoundIsHeard(t *testing.T) {
	if os.Getenv(envWindowChild) == t.Name() {
		playCues(t)
		return
	}
	for _, tool := range []string{"pulseaudio", "parec"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s (Debian: pulseaudio; make test installs it): %v", tool, err)
		}
	}
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		t.Skip("needs a display (DISPLAY is empty): run under xvfb-run -a")
	}
	sock := startPulse(t)
	t.Setenv("PULSE_SERVER", "unix:"+sock)
	t.Setenv(EnvAudio, "")
	a, err := assets.Load()
	if err != nil {
		t.Fatal(err)
	}

	t.Setenv(envSoundVolume, "100")
	// A machine starved of CPU can underrun the audio chain (the game,
	// PulseAudio, parec) and tear a cue's waveform in the recording: a
	// recording that lacks a cue is made once more, and the test fails
	// only if the second one lacks it too (a cue the game never plays
	// is missing from both).
	var rec []int16
	var from int
	for try := 1; ; try++ {
		rec = record(t, sock, func() { inWindowProcess(t) })
		var missing string
		from, missing = cuesHeard(t, rec, a.Sounds)
		if missing == "" {
			break
		}
		if try == 2 {
			t.Fatal(missing)
		}
		t.Logf("recording %d: %s; recording again (a loaded machine can tear the audio)", try, missing)
	}
	heartbeatHeard(t, rec, from, a.Sounds)

	t.Setenv(envSoundVolume, "0")
	quiet := record(t, sock, func() { inWindowProcess(t) })
	if l := loudest(quiet); l > 0 {
		t.Errorf("volume 0: the loudest sample recorded is %d, want silence", l)
	}
}

// cuesHeard finds every cue in rec, in order, and returns the sample after
// the last one; or what is missing.
func cuesHeard(t *testing.T, rec []int16, fx *assets.Sounds) (from int, missing string) {
	t.Helper()
	for _, c := range soundCues {
		at, correl := findCue(rec, mono(c.pcm(fx)), from)
		if at < 0 || correl < 0.9 {
			return from, fmt.Sprintf("%s: not in the recording after sample %d (best match %.2f at %d; %d samples recorded, loudest %d)", c.name, from, correl, at, len(rec), loudest(rec))
		}
		t.Logf("%s: at %.3f s, correlation %.3f", c.name, float64(at)/assets.SampleRate, correl)
		from = at + len(c.pcm(fx))/4
	}
	return from, ""
}

// playCues is the child's part: a window whose updates play each cue once
// the previous one has finished, then close it.
func playCues(t *testing.T) {
	a, err := assets.Load()
	if err != nil {
		t.Fatal(err)
	}
	vol, err := strconv.Atoi(os.Getenv(envSoundVolume))
	if err != nil {
		t.Fatalf("%s: %v", envSoundVolume, err)
	}
	p := &cuePlayer{s: newSound(a.Sounds, vol), next: 30}
	if p.s.ctx == nil {
		t.Fatalf("no audio context with PULSE_SERVER=%s", os.Getenv("PULSE_SERVER"))
	}
	ebiten.SetWindowSize(320, 240)
	if err := ebiten.RunGame(p); err != nil {
		t.Fatal(err)
	}
	if p.played != len(soundCues) {
		t.Fatalf("played %d cues, want %d", p.played, len(soundCues))
	}
	if p.beats != [2]int{beatsMany, beatsFew} {
		t.Fatalf("beat %v times, want %v", p.beats, [2]int{beatsMany, beatsFew})
	}
}

// The heartbeat part of the sound test: beatsMany beats of a full wave,
// a pause of beatPause ticks (the game waiting: no ticks, no beat), then
// beatsFew beats of the wave's last rock.
const (
	beatsMany = 3
	beatsFew  = 5
	beatPause = 60
)

// heartbeatHeard finds the heartbeat in rec after sample from: every
// sound after it is one of the two notes; they fall in two runs split by
// the pause, and the run of few rocks beats at least twice as quick.
func heartbeatHeard(t *testing.T, rec []int16, from int, fx *assets.Sounds) {
	t.Helper()
	var at []int
	for range beatsMany + beatsFew + 1 {
		lo, cl := findCue(rec, mono(fx.BeatLow), from)
		hi, ch := findCue(rec, mono(fx.BeatHigh), from)
		if lo < 0 && hi < 0 {
			break
		}
		if ch > cl {
			lo, cl = hi, ch
		}
		if cl < 0.9 {
			t.Fatalf("heartbeat: the sound after sample %d is no beat (best match %.2f at %d)", from, cl, lo)
		}
		at = append(at, lo)
		from = lo + len(fx.BeatLow)/4
	}
	if len(at) != beatsMany+beatsFew {
		t.Fatalf("heartbeat: %d beats heard at %v, want %d", len(at), at, beatsMany+beatsFew)
	}
	mean := func(x []int) float64 { return float64(x[len(x)-1]-x[0]) / float64(len(x)-1) / assets.SampleRate }
	many, few := mean(at[:beatsMany]), mean(at[beatsMany:])
	t.Logf("heartbeat: a beat every %.3f s with a full wave, every %.3f s with one rock left", many, few)
	if few*2 > many {
		t.Errorf("heartbeat: every %.3f s with one rock left, %.3f s with a full wave: want it at least twice as quick", few, many)
	}
}

// cuePlayer plays soundCues one after another, each 10 updates after the
// last sound stopped, then the heartbeat (see heartbeatHeard).
type cuePlayer struct {
	s      *sound
	frame  int
	next   int // update at which the next cue may play
	played int

	// Then the heartbeat: a full wave, a pause, one small rock left.
	beating   bool
	hb        heartbeat
	beats     [2]int // beats of the full wave, of the last rock
	paused    int    // ticks of the pause so far
	full, few *game.World
	// The heartbeat's ticks follow the wall clock, 60 a second as a game
	// runs, not the count of Updates: on a loaded machine Ebiten runs
	// Updates in bursts to catch up, which would sound two beats at once.
	t0     time.Time
	ticked int
}

// due returns the world ticks due since the last call, 60 a second of the
// wall clock since the heartbeat began.
func (p *cuePlayer) due() int {
	n := int(time.Since(p.t0)*60/time.Second) - p.ticked
	if n < 0 {
		n = 0
	}
	p.ticked += n
	return n
}

func (p *cuePlayer) Update() error {
	p.frame++
	if p.beating {
		return p.heartbeat()
	}
	for _, v := range p.s.voices {
		if v.IsPlaying() {
			p.next = p.frame + 10
		}
	}
	if p.frame < p.next {
		return nil
	}
	if p.played == len(soundCues) {
		p.beating, p.t0 = true, time.Now()
		return p.heartbeat()
	}
	c := soundCues[p.played]
	var prev, cur game.World
	cur.Ships[0].Alive = true
	if c.thrust {
		cur.Ships[0].Thrust = 1
	}
	p.s.react(c.events, &prev, &cur, 0)
	p.played++
	p.next = p.frame + 10
	return nil
}

// heartbeat runs the heartbeat's part, the world ticks due by the wall
// clock an update, and ends the window once the last beat has sounded.
func (p *cuePlayer) heartbeat() error {
	if p.full == nil {
		p.full = game.StandardScene(1)
		few := *p.full
		few.NumRocks, few.Rocks[0].Size = 1, game.Small
		p.few = &few
	}
	ticks := p.due()
	switch {
	case p.beats[0] < beatsMany:
		if p.s.heartbeat(&p.hb, p.full, ticks) {
			p.beats[0]++
		}
	case p.paused < beatPause:
		p.paused += ticks
		p.s.heartbeat(&p.hb, p.few, 0) // the game waits: no beat
	case p.beats[1] < beatsFew:
		if p.s.heartbeat(&p.hb, p.few, ticks) {
			p.beats[1]++
		}
	default:
		for _, v := range p.s.voices {
			if v.IsPlaying() {
				return nil
			}
		}
		return ebiten.Termination
	}
	return nil
}

func (p *cuePlayer) Draw(*ebiten.Image)         {}
func (p *cuePlayer) Layout(int, int) (int, int) { return 320, 240 }

// startPulse starts a PulseAudio server with a private runtime folder,
// no configuration (-n), a null sink at the game's rate and a socket that
// needs no cookie; it is killed when the test ends. It returns the
// socket's path.
func startPulse(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	sock := filepath.Join(dir, "native")
	cmd := exec.Command("pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--log-target=stderr",
		"-L", fmt.Sprintf("module-null-sink sink_name=rockstep rate=%d channels=2 format=s16le", assets.SampleRate),
		"-L", "module-native-protocol-unix auth-anonymous=1 socket="+sock)
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_RUNTIME_DIR="+dir, "XDG_CONFIG_HOME="+dir)
	log, err := os.Create(filepath.Join(dir, "pulseaudio.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatalf("start pulseaudio: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); log.Close() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	deadline := time.Now().Add(pulseStartLimit)
	for {
		if _, err := os.Stat(sock); err == nil {
			return sock
		}
		select {
		case err := <-exited:
			out, _ := os.ReadFile(log.Name())
			t.Fatalf("pulseaudio exited (%v):\n%s", err, out)
		default:
		}
		if time.Now().After(deadline) {
			out, _ := os.ReadFile(log.Name())
			t.Fatalf("pulseaudio opened no socket in %v:\n%s", pulseStartLimit, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// record records the null sink's monitor while play runs and returns the
// left channel of the recording.
func record(t *testing.T, sock string, play func()) []int16 {
	t.Helper()
	path := filepath.Join(t.TempDir(), "monitor.raw")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd := exec.Command("parec", "--server=unix:"+sock, "--device=rockstep.monitor", "--raw", "--format=s16le", "--channels=2",
		"--rate="+strconv.Itoa(assets.SampleRate), "--latency-msec=20")
	cmd.Stdout = out
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start parec: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// The recording is under way once parec has written something (the
	// null sink's silence); a slow start costs at most the wait.
	testwait.Until(recordLimit, func() bool { fi, err := out.Stat(); return err == nil && fi.Size() > 0 })
	play()
	_ = cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-exited:
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("parec: %v", err)
		}
	case <-time.After(recordLimit):
		_ = cmd.Process.Kill()
		<-exited
		t.Fatalf("parec did not stop in %v: %s", recordLimit, stderr.b)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return mono(data)
}

// limitedBuffer keeps the first 4 KB written to it.
type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	l.b = append(l.b, p[:min(len(p), max(0, 4096-len(l.b)))]...)
	return len(p), nil
}

// mono returns the left channel of 16-bit stereo PCM.
func mono(pcm []byte) []int16 {
	out := make([]int16, len(pcm)/4)
	for i := range out {
		out[i] = int16(binary.LittleEndian.Uint16(pcm[i*4:]))
	}
	return out
}

func loudest(x []int16) int {
	m := 0
	for _, v := range x {
		m = max(m, abs(int(v)))
	}
	return m
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// findCue finds cue in rec at or after sample from: at the first sound
// after from (a sample above a small threshold), the offset around it at
// which the cue's opening (up to 4096 samples) best matches, by
// normalised correlation (1: the same waveform at any volume). It returns
// the offset and the correlation, or -1 if nothing sounds after from.
func findCue(rec, cue []int16, from int) (int, float64) {
	const (
		threshold = 300  // of 32767: above the silence of a null sink
		search    = 1024 // samples either side of the onset searched
	)
	onset := -1
	for i := max(from, 0); i < len(rec); i++ {
		if abs(int(rec[i])) > threshold {
			onset = i
			break
		}
	}
	if onset < 0 {
		return -1, 0
	}
	n := min(len(cue), 4096)
	best, bestAt := -1.0, -1
	for at := max(from, onset-search); at <= onset+search && at+n <= len(rec); at++ {
		var xy, xx, yy float64
		for i := 0; i < n; i++ {
			x, y := float64(cue[i]), float64(rec[at+i])
			xy += x * y
			xx += x * x
			yy += y * y
		}
		if xx == 0 || yy == 0 {
			continue
		}
		if c := xy / math.Sqrt(xx*yy); c > best {
			best, bestAt = c, at
		}
	}
	return bestAt, best
}

func TestSoundCues(t *testing.T) {
	a, err := assets.Load()
	if err != nil {
		t.Fatal(err)
	}
	fx := a.Sounds
	var prev, cur game.World
	cur.Ships[1].Alive, cur.Ships[1].Thrust = true, 2
	prev.Ships[1].Thrust = 1
	cs := cues(fx, []game.Event{
		{Kind: game.ShotFired, Slot: 1},
		{Kind: game.ShotFired, Slot: 2},
		{Kind: game.RockDestroyed, Size: game.Big},
		{Kind: game.ShipDestroyed, Slot: 3},
		{Kind: game.ShipRespawned, Slot: 1},
		{Kind: game.WaveStarted, Value: 2},
	}, &prev, &cur, 1)
	if len(cs) != 6 {
		t.Fatalf("%d cues, want 6 (five events with a sound, and thrust)", len(cs))
	}
	if &cs[0].pcm[0] != &fx.Shot[0] || &cs[3].pcm[0] != &fx.Boom[0] || &cs[5].pcm[0] != &fx.Thrust[0] {
		t.Error("wrong sounds")
	}
	if cs[0].gain <= cs[1].gain {
		t.Errorf("own shot gain %v not above another's %v", cs[0].gain, cs[1].gain)
	}
	if got := cues(fx, nil, &cur, &prev, 1); len(got) != 0 {
		t.Errorf("thrust lowered: %d cues, want none", len(got))
	}
	if got := cues(fx, nil, &prev, &cur, -1); len(got) != 0 {
		t.Errorf("a spectator hears thrust: %d cues", len(got))
	}
}

// TestSoundCuesOfTheNewRules: an extra life chimes (louder for one's own),
// hyperspace whooshes both ways, a saucer sounds as it comes, fires and
// breaks.
func TestSoundCuesOfTheNewRules(t *testing.T) {
	a, err := assets.Load()
	if err != nil {
		t.Fatal(err)
	}
	fx := a.Sounds
	var w game.World
	tests := []struct {
		name string
		e    game.Event
		pcm  []byte
	}{
		{"my extra life", game.Event{Kind: game.ExtraLife, Slot: 1}, fx.ExtraLife},
		{"into hyperspace", game.Event{Kind: game.HyperspaceOut, Slot: 1}, fx.Warp},
		{"out of hyperspace", game.Event{Kind: game.HyperspaceIn, Slot: 2}, fx.Warp},
		{"a saucer comes", game.Event{Kind: game.SaucerAppeared, Slot: -1}, fx.Saucer},
		{"a saucer fires", game.Event{Kind: game.SaucerFired, Slot: -1}, fx.Shot},
		{"a saucer breaks", game.Event{Kind: game.SaucerDestroyed, Slot: 1}, fx.Explosion},
	}
	for _, tt := range tests {
		cs := cues(fx, []game.Event{tt.e}, &w, &w, 1)
		if len(cs) != 1 || &cs[0].pcm[0] != &tt.pcm[0] || cs[0].gain <= 0 {
			t.Errorf("%s: cues %d, want the one sound", tt.name, len(cs))
		}
	}
	mine := cues(fx, []game.Event{{Kind: game.ExtraLife, Slot: 1}}, &w, &w, 1)
	theirs := cues(fx, []game.Event{{Kind: game.ExtraLife, Slot: 3}}, &w, &w, 1)
	if mine[0].gain <= theirs[0].gain {
		t.Errorf("own extra life gain %v not above another's %v", mine[0].gain, theirs[0].gain)
	}
}

// With no audio device the game is silent and goes on: nothing plays,
// nothing fails, nothing ends the program.
func TestNoAudioDeviceIsSilent(t *testing.T) {
	a, err := assets.Load()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvAudio, "off")
	s := newSound(a.Sounds, 80)
	if s.ctx != nil {
		t.Fatal("an audio context was opened with ROCKSTEP_AUDIO=off")
	}
	if s.silentWhy() == "" {
		t.Error("silent, and no reason for the Settings screen to give")
	}
	w := game.StandardScene(1)
	s.react([]game.Event{{Kind: game.ShipDestroyed}}, w, w, 0)
	var none *sound
	none.react([]game.Event{{Kind: game.ShotFired}}, w, w, 0)
	none.setVolume(50)
	if ok, why := audioDevice(); !ok && why == "" {
		t.Error("no device, and no reason given")
	}
}
