package bots

import (
	"fmt"
	"strconv"
	"strings"

	"rockstep/net/lockstep"
)

// ParseFault reads a bot fault (`-fault`): "bot=N," (the bot, from 0;
// bot 0 if left out) then lockstep.ParseFault's "flip@TICK" or
// "hash@TICK", e.g. "bot=2,flip@600".
func ParseFault(spec string) (bot int, f lockstep.Fault, err error) {
	rest := spec
	if v, ok := strings.CutPrefix(spec, "bot="); ok {
		n, tail, _ := strings.Cut(v, ",")
		bot, err = strconv.Atoi(n)
		if err != nil || bot < 0 {
			return 0, lockstep.Fault{}, fmt.Errorf("fault %q: bot=N wants a bot number from 0", spec)
		}
		rest = tail
	}
	f, err = lockstep.ParseFault(rest)
	return bot, f, err
}
