package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

const sample = `goos: linux
pkg: rockstep/game
BenchmarkStep/standard-2         	   20000	      2145 ns/op	       0 B/op	       0 allocs/op
BenchmarkStep/standard-2         	   20000	      2300 ns/op	       0 B/op	       0 allocs/op
BenchmarkStep/worst-2            	   20000	      9030 ns/op	       0 B/op	       0 allocs/op
PASS
pkg: rockstep/net/lockstep
BenchmarkPredictionFrame/predicted-2 	200	6212 ns/op	3094 predict-ns/frame	45 B/op	0 allocs/op
ok  	rockstep/net/lockstep	1.2s
`

func TestCheck(t *testing.T) {
	budgets, err := parseBudgets(strings.NewReader(`
# comment
rockstep/game BenchmarkStep/standard ns/op 3000  # held, worst of two runs
rockstep/game BenchmarkStep/worst ns/op 8000
rockstep/game BenchmarkHash ns/op 5000
rockstep/net/lockstep BenchmarkPredictionFrame/predicted predict-ns/frame 4500
`))
	if err != nil {
		t.Fatal(err)
	}
	var passed bytes.Buffer
	figures, err := readBench(strings.NewReader(sample), &passed)
	if err != nil {
		t.Fatal(err)
	}
	if passed.String() != sample {
		t.Errorf("the output was not passed through:\n%s", passed.String())
	}
	if got := figures[key{"rockstep/game", "BenchmarkStep/standard", "ns/op"}]; got != 2300 {
		t.Errorf("standard Step: %g, want the worst run's 2300", got)
	}
	var out bytes.Buffer
	if check(budgets, figures, &out) {
		t.Fatalf("a figure over its budget and a missing benchmark passed:\n%s", out.String())
	}
	for _, want := range []string{
		"ok      rockstep/game BenchmarkStep/standard: 2300 ns/op, budget 3000",
		"OVER    rockstep/game BenchmarkStep/worst: 9030 ns/op, budget 8000",
		"MISSING rockstep/game BenchmarkHash ns/op",
		"ok      rockstep/net/lockstep BenchmarkPredictionFrame/predicted: 3094 predict-ns/frame",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	held := budgets[:1]
	if !check(held, figures, &out) {
		t.Error("a budget that holds failed")
	}
}

func TestBadBudgets(t *testing.T) {
	for _, in := range []string{"", "# only a comment", "rockstep/game BenchmarkStep ns/op", "rockstep/game BenchmarkStep ns/op fast"} {
		if _, err := parseBudgets(strings.NewReader(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

// TestBudgetFileParses: the project's own budget file is well formed.
func TestBudgetFileParses(t *testing.T) {
	if _, err := parseBudgetsFile("budgets.txt"); err != nil {
		t.Fatal(err)
	}
}

// TestArchitectureBudgets: the budget table of docs/ARCHITECTURE.md §6 is
// the one `make bench` checks, so the two cannot drift apart. Mend a
// failure by pasting `go run ./scripts/benchcheck -markdown` between the
// markers.
func TestArchitectureBudgets(t *testing.T) {
	const begin, end = "<!-- budgets.txt: begin -->\n", "<!-- budgets.txt: end -->"
	budgets, err := parseBudgetsFile("budgets.txt")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), begin)
	table, _, ok2 := strings.Cut(rest, end)
	if !ok || !ok2 {
		t.Fatalf("docs/ARCHITECTURE.md has no %q … %q block", strings.TrimSpace(begin), end)
	}
	if want := markdownTable(budgets); table != want {
		t.Errorf("docs/ARCHITECTURE.md's budget table differs from budgets.txt:\n%s\nwant (go run ./scripts/benchcheck -markdown):\n%s", table, want)
	}
}

func TestMarkdownTable(t *testing.T) {
	budgets, err := parseBudgets(strings.NewReader(`
rockstep/game BenchmarkStep/standard ns/op 3000
rockstep/game BenchmarkStep/standard allocs/op 0
rockstep/net/wire BenchmarkClientPacket allocs/op 0
`))
	if err != nil {
		t.Fatal(err)
	}
	want := "| package | benchmark | budget |\n|---|---|---|\n" +
		"| `game` | `BenchmarkStep/standard` | ≤ 3000 ns/op, ≤ 0 allocs/op |\n" +
		"| `net/wire` | `BenchmarkClientPacket` | ≤ 0 allocs/op |\n"
	if got := markdownTable(budgets); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
