package ui

import (
	"log"
	"os"

	"github.com/hajimehoshi/ebiten/v2/audio"

	"rockstep/assets"
	"rockstep/game"
)

// EnvAudio set to "off" silences the game whatever the settings say.
const EnvAudio = "ROCKSTEP_AUDIO"

// maxVoices bounds the sounds playing at once.
const maxVoices = 12

// sound plays the effects of the engine's events. With no audio device it
// is silent: a machine without sound plays the game all the same. A nil
// *sound is silent too.
type sound struct {
	ctx    *audio.Context // nil: silent
	fx     *assets.Sounds
	volume float64 // 0..1
	voices []*audio.Player
	// why says why nothing plays ("" while sound can play): for the
	// Settings screen to say so beside the volume.
	why string
}

// cue is one effect to play, at a gain of 0..1.
type cue struct {
	pcm  []byte
	gain float64
}

// newSound returns the game's sound at volume (0..100). It opens the audio
// device only if one seems usable: Ebiten ends the game when a device it
// opened fails, so a machine with none (a server, a CI box, a VM) must
// never open one.
func newSound(fx *assets.Sounds, volume int) *sound {
	s := &sound{fx: fx}
	s.setVolume(volume)
	if fx == nil || os.Getenv(EnvAudio) == "off" {
		s.why = "Sound is off (" + EnvAudio + "=off): nothing will play."
		return s
	}
	if ok, why := audioDevice(); !ok {
		log.Printf("rockstep: no sound: %s", why)
		s.why = "No sound device found: nothing will play."
		return s
	}
	s.ctx = audio.CurrentContext()
	if s.ctx == nil {
		s.ctx = audio.NewContext(assets.SampleRate)
	}
	return s
}

func (s *sound) setVolume(v int) {
	if s != nil {
		s.volume = float64(min(max(v, 0), 100)) / 100
	}
}

// react plays the sounds of one frame's events; prev and cur are the
// worlds before and after them, me the local slot (-1: none).
func (s *sound) react(events []game.Event, prev, cur *game.World, me int) {
	if s == nil || s.ctx == nil || s.volume == 0 {
		return
	}
	for _, c := range cues(s.fx, events, prev, cur, me) {
		s.play(c)
	}
}

// cues returns the effects of events: the local player's sounds louder
// than the others', and a puff of thrust when the local ship's thrust
// level goes up.
func cues(fx *assets.Sounds, events []game.Event, prev, cur *game.World, me int) []cue {
	var out []cue
	for _, e := range events {
		mine := int(e.Slot) == me
		switch e.Kind {
		case game.ShotFired:
			g := 0.25
			if mine {
				g = 0.6
			}
			if e.Value >= game.MaxCharge {
				g *= 1.4
			}
			out = append(out, cue{fx.Shot, g})
		case game.RockDestroyed:
			out = append(out, cue{fx.Explosion, 0.3 + 0.15*float64(e.Size)})
		case game.ShipDestroyed:
			out = append(out, cue{fx.Boom, 1})
		case game.ShipRespawned:
			g := 0.35
			if mine {
				g = 0.7
			}
			out = append(out, cue{fx.Respawn, g})
		case game.ExtraLife:
			g := 0.35
			if mine {
				g = 0.9
			}
			out = append(out, cue{fx.ExtraLife, g})
		case game.HyperspaceOut, game.HyperspaceIn:
			g := 0.25
			if mine {
				g = 0.6
			}
			out = append(out, cue{fx.Warp, g})
		case game.SaucerAppeared:
			out = append(out, cue{fx.Saucer, 0.45})
		case game.SaucerFired:
			out = append(out, cue{fx.Shot, 0.2})
		case game.SaucerDestroyed:
			out = append(out, cue{fx.Explosion, 0.7})
		}
	}
	if me >= 0 && me < game.MaxPlayers && cur.Ships[me].Alive && cur.Ships[me].Thrust > prev.Ships[me].Thrust {
		out = append(out, cue{fx.Thrust, 0.6})
	}
	return out
}

func (s *sound) play(c cue) {
	// Forget finished voices; drop the sound if too many still play.
	n := 0
	for _, p := range s.voices {
		if p.IsPlaying() {
			s.voices[n] = p
			n++
		} else {
			p.Close()
		}
	}
	s.voices = s.voices[:n]
	if len(s.voices) >= maxVoices {
		return
	}
	p := s.ctx.NewPlayerFromBytes(c.pcm)
	p.SetVolume(min(c.gain, 1) * s.volume)
	p.Play()
	s.voices = append(s.voices, p)
}

// heartbeat plays the heartbeat's beats in ticks world ticks of the
// displayed world w (0 while the game waits: no beat), and reports
// whether a beat fell in them (played or, silent, not).
func (s *sound) heartbeat(hb *heartbeat, w *game.World, ticks int) bool {
	beat, high := hb.step(w, ticks)
	if !beat || s == nil || s.ctx == nil || s.volume == 0 {
		return beat
	}
	pcm := s.fx.BeatLow
	if high {
		pcm = s.fx.BeatHigh
	}
	s.play(cue{pcm, 0.8})
	return true
}

// silentWhy returns why no sound plays on this machine, or "" if it can.
func (s *sound) silentWhy() string {
	if s == nil {
		return "Sound is off: nothing will play."
	}
	return s.why
}
