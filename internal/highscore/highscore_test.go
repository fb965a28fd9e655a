package highscore

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rockstep/internal/fuzzseed"
)

var day = time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC)

func entry(name string, score uint32) Entry {
	return Entry{Name: name, Score: score, Wave: 3, Date: day}
}

func TestAddKeepsTheTenBest(t *testing.T) {
	tests := []struct {
		name   string
		have   []uint32 // scores in the practice table, best first
		score  uint32
		rank   int
		length int
	}{
		{"first score", nil, 500, 0, 1},
		{"zero never enters", nil, 0, -1, 0},
		{"best", []uint32{900, 500}, 1000, 0, 3},
		{"middle", []uint32{900, 500}, 700, 1, 3},
		{"a tie goes after the earlier game", []uint32{900, 500}, 500, 2, 3},
		{"tenth of ten: enters, the last leaves", []uint32{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 2, 9, 10},
		{"full and not better than the last", []uint32{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 1, -1, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tab Tables
			for _, s := range tt.have {
				tab.Practice = append(tab.Practice, entry("old", s))
			}
			if got := tab.Rank(Practice, tt.score); got != tt.rank {
				t.Errorf("Rank = %d, want %d", got, tt.rank)
			}
			got := tab.Add(Practice, entry("new", tt.score))
			if got != tt.rank || len(tab.Practice) != tt.length {
				t.Fatalf("Add = %d with %d entries, want %d with %d", got, len(tab.Practice), tt.rank, tt.length)
			}
			if got >= 0 && tab.Practice[got].Name != "new" {
				t.Errorf("entry %d is %+v, want the new one", got, tab.Practice[got])
			}
			if len(tab.Coop) != 0 {
				t.Error("a practice score went into the co-op table")
			}
		})
	}
}

func TestAddCleansTheEntry(t *testing.T) {
	var tab Tables
	tab.Add(Coop, Entry{Name: "  " + strings.Repeat("é", 40) + "\xff", Score: 20, Wave: 0, Date: day.In(time.FixedZone("x", 3600)).Add(time.Millisecond)})
	e := tab.Coop[0]
	if len(e.Name) > 24 || e.Wave != 1 || e.Date.Location() != time.UTC || !e.Date.Equal(day) {
		t.Errorf("entry %+v: want a name of at most 24 bytes, wave 1, the date in UTC to the second", e)
	}
}

func TestLoadSave(t *testing.T) {
	dir := t.TempDir()
	if tab, warning := Load(dir); len(tab.Practice)+len(tab.Coop) != 0 || warning != "" {
		t.Fatalf("no file: %+v, %q; want empty tables and no warning", tab, warning)
	}
	var tab Tables
	tab.Add(Practice, entry("Ada", 1200))
	tab.Add(Coop, entry("Grace", 4500))
	if err := Save(dir, tab); err != nil {
		t.Fatal(err)
	}
	got, warning := Load(dir)
	if warning != "" || !bytes.Equal(got.Encode(), tab.Encode()) {
		t.Fatalf("loaded %+v (%q), want %+v", got, warning, tab)
	}
}

func TestDamagedFileGivesEmptyTablesAndAMessage(t *testing.T) {
	for _, content := range []string{"{not json", `{"practice":[{"score":-5}]}`, `{"coop":[{"date":"yesterday"}]}`, "\x00\x01"} {
		dir := t.TempDir()
		path := filepath.Join(dir, File)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		tab, warning := Load(dir)
		if len(tab.Practice)+len(tab.Coop) != 0 || !strings.Contains(warning, "damaged") {
			t.Errorf("%q: %+v, %q; want empty tables and a warning", content, tab, warning)
		}
		if b, err := os.ReadFile(path + ".bad"); err != nil || string(b) != content {
			t.Errorf("%q: the damaged file was not kept aside: %v", content, err)
		}
	}
}

func TestDecodeNormalises(t *testing.T) {
	data := `{"practice":[
		{"name":"b","score":5,"wave":1,"date":"2026-01-02T03:04:05Z"},
		{"name":"","score":9,"wave":2,"date":"2026-01-02T03:04:05+01:00"},
		{"name":"zero","score":0,"wave":2},
		{"name":"nowave","score":7,"wave":0},
		{"name":"far","score":7,"wave":1,"date":"9999-12-31T23:00:00-05:00"}
	]}`
	tab, err := Decode([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Practice) != 2 || tab.Practice[0].Score != 9 || tab.Practice[0].Name != "?" || tab.Practice[0].Date.Hour() != 2 {
		t.Errorf("decoded %+v: want the two good entries, best first, a blank name as ?, dates in UTC", tab.Practice)
	}
}

var updateCorpus = flag.Bool("update-corpus", false, "rewrite the fuzz seed corpus in testdata/fuzz")

func corpus() map[string][]byte {
	var tab Tables
	for i := range Max + 2 {
		tab.Add(Practice, entry("Ada", uint32(100*(i+1))))
		tab.Add(Coop, entry("Grace Hopper", uint32(1000*(i%4+1))))
	}
	return map[string][]byte{
		"full":    tab.Encode(),
		"empty":   Tables{}.Encode(),
		"damaged": []byte(`{"practice":[{"name":"x","score":`),
		"odd":     []byte(`{"practice":[{"name":"\u00e9\ud800","score":4294967295,"wave":255,"date":"0001-01-01T00:00:00Z"}],"coop":null}`),
	}
}

// TestSeedCorpus keeps the seeds of FuzzDecode in step with the format.
func TestSeedCorpus(t *testing.T) {
	seeds := map[string][]byte{}
	for name, b := range corpus() {
		seeds[name] = fuzzseed.File(b)
	}
	fuzzseed.Check(t, filepath.Join("testdata", "fuzz", "FuzzDecode"), seeds, *updateCorpus)
}

// FuzzDecode: any bytes either fail to decode or decode to tables that
// hold at most Max entries each, best first, and re-encode to a file that
// decodes to the same tables.
func FuzzDecode(f *testing.F) {
	for _, b := range corpus() {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := Decode(data)
		if err != nil {
			return
		}
		for _, list := range [][]Entry{tab.Practice, tab.Coop} {
			if len(list) > Max {
				t.Fatalf("%d entries", len(list))
			}
			for i, e := range list {
				if e.Score == 0 || e.Wave == 0 || e.Name == "" || (i > 0 && list[i-1].Score < e.Score) {
					t.Fatalf("entry %d %+v in %+v", i, e, list)
				}
			}
		}
		enc := tab.Encode()
		again, err := Decode(enc)
		if err != nil {
			t.Fatalf("re-encoded tables do not decode: %v\n%s", err, enc)
		}
		if !bytes.Equal(again.Encode(), enc) {
			t.Fatalf("re-encoding differs:\n%s\n%s", again.Encode(), enc)
		}
		tab.Add(Practice, entry("x", 1))
	})
}
