package main

import (
	"flag"
)

// predictOptions are the flags about prediction.
type predictOptions struct {
	fs       *flag.FlagSet
	predict  bool
	syncTest int
}

func predictFlags(fs *flag.FlagSet) *predictOptions {
	o := &predictOptions{fs: fs}
	fs.BoolVar(&o.predict, "predict", true, "predict your own ship in network games, hiding the latency; -predict=false turns it off for this run whatever the settings say (with -bots: only when given, since it costs each bot a re-simulation per frame)")
	fs.IntVar(&o.syncTest, "synctest", 0, "debug: re-simulate the last `N` confirmed ticks after every tick and count the hashes that differ (the game's sessions, or with -bots -local every bot's; the bots' summary prints sync_errors)")
	return o
}

// given reports whether -predict was on the command line.
func (o *predictOptions) given() bool {
	given := false
	o.fs.Visit(func(f *flag.Flag) { given = given || f.Name == "predict" })
	return given
}

// override is the game's ui.Options.Predict: nil unless -predict was
// given, so that the settings decide.
func (o *predictOptions) override() *bool {
	if !o.given() {
		return nil
	}
	v := o.predict
	return &v
}

// forBots says whether bots predict: only when -predict is given.
func (o *predictOptions) forBots() bool { return o.given() && o.predict }
