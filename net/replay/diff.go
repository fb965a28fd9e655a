package replay

import (
	"fmt"
	"reflect"
	"strings"

	"rockstep/game"
)

// FirstDifference names the first field in which two worlds differ, as a
// path into game.World with both values, e.g.
// "Ships[0].Score: 1501 vs 1500"; "" if they are equal. Only live rocks and
// bullets are compared, and not the events of the last step.
func FirstDifference(a, b *game.World) string {
	x, y := *a, *b
	x.NumEvents, y.NumEvents = 0, 0
	x.Events, y.Events = [game.MaxEvents]game.Event{}, [game.MaxEvents]game.Event{}
	for i := int(x.NumRocks); i < len(x.Rocks); i++ {
		x.Rocks[i] = game.Rock{}
	}
	for i := int(y.NumRocks); i < len(y.Rocks); i++ {
		y.Rocks[i] = game.Rock{}
	}
	for i := int(x.NumBullet); i < len(x.Bullets); i++ {
		x.Bullets[i] = game.Bullet{}
	}
	for i := int(y.NumBullet); i < len(y.Bullets); i++ {
		y.Bullets[i] = game.Bullet{}
	}
	return firstDiff(reflect.ValueOf(x), reflect.ValueOf(y), nil)
}

func firstDiff(a, b reflect.Value, path []string) string {
	switch a.Kind() {
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			name := a.Type().Field(i).Name
			if d := firstDiff(a.Field(i), b.Field(i), append(path, "."+name)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Array, reflect.Slice:
		for i := 0; i < a.Len() && i < b.Len(); i++ {
			if d := firstDiff(a.Index(i), b.Index(i), append(path, fmt.Sprintf("[%d]", i))); d != "" {
				return d
			}
		}
		return ""
	}
	if a.Interface() == b.Interface() {
		return ""
	}
	p := strings.TrimPrefix(strings.Join(path, ""), ".")
	return fmt.Sprintf("%s: %v vs %v", p, a.Interface(), b.Interface())
}

// Report explains a desync from a replay that recorded one: for every
// player's snapshot, the first field where its world differs from the
// world re-simulated from the master turns (the referee). Players whose
// world agrees with the referee are named as such.
func Report(rp *Replay) string {
	var b strings.Builder
	if rp.Desync == nil {
		return "no desync recorded\n"
	}
	fmt.Fprintf(&b, "Rockstep desync report\nroom %q, game started %s, seed %d\n", rp.RoomName, rp.Started.UTC().Format("2006-01-02 15:04:05 UTC"), rp.Setup.Seed)
	fmt.Fprintf(&b, "hashes diverged at turn %d:\n", rp.Desync.Turn)
	for _, e := range rp.Desync.Entries {
		fmt.Fprintf(&b, "  slot %d reported %08x\n", e.Slot, e.HashLow)
	}
	if len(rp.Snapshots) == 0 {
		b.WriteString("no player sent its world; re-simulate the replay to inspect the turn\n")
		return b.String()
	}
	for _, s := range rp.Snapshots {
		var w game.World
		if err := w.UnmarshalBinary(s.Data); err != nil {
			fmt.Fprintf(&b, "slot %d: its snapshot does not decode: %v\n", s.Slot, err)
			continue
		}
		ref, err := WorldAt(rp, s.Turn)
		if err != nil {
			fmt.Fprintf(&b, "slot %d: world at turn %d: cannot re-simulate: %v\n", s.Slot, s.Turn, err)
			continue
		}
		if d := FirstDifference(&w, ref); d != "" {
			fmt.Fprintf(&b, "slot %d DIVERGED at turn %d: first difference (player vs re-simulation): %s\n", s.Slot, s.Turn, d)
		} else {
			fmt.Fprintf(&b, "slot %d agrees with the re-simulation at turn %d\n", s.Slot, s.Turn)
		}
	}
	return b.String()
}
