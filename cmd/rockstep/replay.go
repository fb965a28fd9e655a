package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"rockstep/net/replay"
)

// replayOptions are the flags about replays.
type replayOptions struct {
	file   string // -replay FILE
	verify bool
	record string // -record FILE ("off": none)
}

func replayFlags(fs *flag.FlagSet) *replayOptions {
	o := &replayOptions{}
	fs.StringVar(&o.file, "replay", "", "watch the replay in `FILE` (with -verify: re-simulate it headless)")
	fs.BoolVar(&o.verify, "verify", false, "with -replay: re-simulate the replay without a window, print the final hash and whether every recorded hash matched")
	fs.StringVar(&o.record, "record", "", "with -server, -host or -bots -local: write the game's replay to `FILE` (\"off\": record nothing; default for -server and -host: a file in the replays folder beside the settings)")
	return o
}

// watchReplay opens the game's window on the replay in path; leaving the
// viewer quits. A file that is no replay at all is refused before the
// window opens; a damaged one plays to its last good turn, and says so.
func watchReplay(path string, stderr io.Writer) int {
	if _, err := replay.ReadHeaderFile(path); err != nil && !errors.Is(err, replay.ErrTruncated) && !errors.Is(err, replay.ErrCorrupt) {
		fmt.Fprintf(stderr, "rockstep: %v\n", err)
		return 1
	}
	return openReplayWindow(path)
}

// runReplay verifies a replay headless.
func runReplay(o *replayOptions, stdout, stderr io.Writer) int {
	rp, err := replay.ReadFile(o.file)
	if rp == nil {
		fmt.Fprintf(stderr, "rockstep: %v\n", err)
		return 1
	}
	if err != nil {
		// A truncated or damaged file plays to its last good turn.
		fmt.Fprintf(stderr, "rockstep: %v; using the %d turns before it\n", err, len(rp.Turns))
	}
	res, verr := replay.Verify(rp)
	if verr != nil {
		fmt.Fprintf(stderr, "rockstep: verify %s: %v\n", o.file, verr)
		return 1
	}
	fmt.Fprintf(stdout, "turns=%d last_turn=%d ticks=%d hash=%016x hashes_checked=%d mismatches=%d ok=%v\n",
		res.Turns, res.LastTurn, res.Ticks, res.FinalHash, res.Checked, len(res.Mismatches), res.OK())
	for i, m := range res.Mismatches {
		if i == 10 {
			fmt.Fprintf(stdout, "… and %d more\n", len(res.Mismatches)-10)
			break
		}
		fmt.Fprintf(stdout, "mismatch turn=%d slot=%d reported=%08x computed=%08x\n", m.Turn, m.Slot, m.Reported, m.Computed)
	}
	if rp.Desync != nil {
		fmt.Fprint(stdout, replay.Report(rp))
	}
	if !res.OK() || errors.Is(err, replay.ErrCorrupt) {
		return 1
	}
	return 0
}
