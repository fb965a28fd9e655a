// Package highscore keeps the ten best practice and co-op scores of this
// machine, with the player's name, the date and the wave reached, in
// highscores.json beside the settings (userdir.Dir). A damaged file never
// stops the game: the table starts empty, the file is kept aside as
// highscores.json.bad and the player is told once.
package highscore

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"rockstep/game"
	"rockstep/internal/userdir"
	"rockstep/net/wire"
)

// File is the name of the high-score file in Rockstep's folder.
const File = "highscores.json"

// Max is how many scores a table keeps.
const Max = 10

// Kind says which table a score belongs to.
type Kind uint8

// Kinds of game with a table.
const (
	Practice Kind = iota // alone on the local engine
	Coop                 // a network co-op game; the local player's own score
)

func (k Kind) String() string {
	if k == Coop {
		return "co-op"
	}
	return "practice"
}

// Entry is one score.
type Entry struct {
	Name  string    `json:"name"`  // the player's name then, at most wire.MaxName bytes
	Score uint32    `json:"score"` //
	Wave  uint8     `json:"wave"`  // the wave the game reached, 1..255
	Date  time.Time `json:"date"`  // when the game ended
}

// Tables are both tables, each best first: a higher score first, and of
// equal scores the earlier one.
type Tables struct {
	Practice []Entry `json:"practice"`
	Coop     []Entry `json:"coop"`
}

// Of returns the table of kind k.
func (t *Tables) Of(k Kind) []Entry {
	if k == Coop {
		return t.Coop
	}
	return t.Practice
}

func (t *Tables) of(k Kind) *[]Entry {
	if k == Coop {
		return &t.Coop
	}
	return &t.Practice
}

// Rank returns where a score would enter table k (0 is the best), or -1
// if it would not: it must be above zero and beat the tenth.
func (t *Tables) Rank(k Kind, score uint32) int {
	if score == 0 {
		return -1
	}
	list := t.Of(k)
	// After every entry at least as good: a tie goes to the earlier game.
	i, _ := slices.BinarySearchFunc(list, score, func(e Entry, s uint32) int {
		if e.Score >= s {
			return -1
		}
		return 1
	})
	if i >= Max {
		return -1
	}
	return i
}

// Add enters e into table k if it is good enough and returns its rank (0
// is the best), or -1 if it did not enter. The name is cleaned as Decode
// would.
func (t *Tables) Add(k Kind, e Entry) int {
	e.Name = cleanName(e.Name)
	e.Wave = max(e.Wave, 1)
	e.Date = e.Date.UTC().Truncate(time.Second)
	i := t.Rank(k, e.Score)
	if i < 0 {
		return -1
	}
	list := t.of(k)
	*list = slices.Insert(*list, i, e)
	if len(*list) > Max {
		*list = (*list)[:Max]
	}
	return i
}

// cleanName makes a name fit a table: trimmed, valid UTF-8, at most
// wire.MaxName bytes, "?" if nothing is left.
func cleanName(s string) string {
	s = strings.TrimSpace(strings.ToValidUTF8(s, "?"))
	s = wire.Truncate(s, wire.MaxName)
	if s == "" {
		return "?"
	}
	return s
}

// Decode reads the tables in data. Anything that is not such a file is an
// error; the tables it returns then are empty. Entries that could not have
// been written (a score of 0, a wave of 0) are dropped, names are cleaned,
// and each table is sorted and cut to Max, so what decodes re-encodes to a
// file that decodes to the same.
func Decode(data []byte) (Tables, error) {
	var t Tables
	if err := json.Unmarshal(data, &t); err != nil {
		return Tables{}, err
	}
	for _, list := range []*[]Entry{&t.Practice, &t.Coop} {
		for i := range *list {
			e := &(*list)[i]
			e.Name = cleanName(e.Name)
			e.Date = e.Date.UTC().Truncate(time.Second)
		}
		*list = slices.DeleteFunc(*list, func(e Entry) bool {
			// A year JSON cannot write back (an offset can carry 9999 over).
			return e.Score == 0 || e.Wave == 0 || e.Date.Year() < 0 || e.Date.Year() > 9999
		})
		slices.SortStableFunc(*list, func(a, b Entry) int { return cmp.Compare(b.Score, a.Score) })
		if len(*list) > Max {
			*list = (*list)[:Max]
		}
		if len(*list) == 0 {
			*list = nil
		}
	}
	return t, nil
}

// Encode returns the tables as the file holds them.
func (t Tables) Encode() []byte {
	data, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		panic("highscore: " + err.Error()) // plain fields always encode
	}
	return append(data, '\n')
}

// Load reads the tables in dir. A missing file gives empty tables. A file
// that does not decode is renamed to highscores.json.bad and empty tables
// are used; warning, if not empty, is the one line to show the player.
func Load(dir string) (t Tables, warning string) {
	_, err := userdir.ReadFile(dir, File, func(data []byte) (err error) {
		t, err = Decode(data)
		return err
	})
	if err != nil {
		return Tables{}, fmt.Sprintf("high scores: %v; starting with none", err)
	}
	return t, ""
}

// Save writes the tables to dir/highscores.json, creating dir, through a
// temporary file so that a crash never leaves half a file.
func Save(dir string, t Tables) error {
	if err := userdir.WriteFile(dir, File, t.Encode()); err != nil {
		return fmt.Errorf("save high scores: %w", err)
	}
	return nil
}

// FromWorld returns the entry of slot me at the end of world w, under
// name, dated now.
func FromWorld(w *game.World, me int, name string, now time.Time) Entry {
	return Entry{Name: name, Score: w.Ships[me].Score, Wave: w.Wave, Date: now}
}
