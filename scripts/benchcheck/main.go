// Command benchcheck reads `go test -bench` output on stdin, passes it
// through, and then checks every budget in a budget file against it: a
// figure over its budget, or a budgeted benchmark that did not run, fails
// the check (exit 1). `make bench` pipes the project's benchmarks through it.
//
//	go test -run '^$' -bench . -benchmem ./game/ | go run ./scripts/benchcheck -budgets BUDGETS
//
// A budget file has one budget a line: the package, the benchmark's name
// as `go test` prints it without the -N processor suffix, the unit (ns/op,
// allocs/op, B/op or a custom metric like predict-ns/frame) and the
// largest figure allowed. '#' starts a comment.
//
//	rockstep/game  BenchmarkStep/standard  ns/op  3000
//
// With -markdown it reads no benchmarks and prints the budgets as the
// Markdown table that docs/ARCHITECTURE.md §6 holds between its
// "budgets.txt" markers; TestArchitectureBudgets fails when the two differ.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// budget is one line of the budget file.
type budget struct {
	pkg, bench, unit string
	max              float64
}

// key names a figure: package, benchmark and unit.
type key struct{ pkg, bench, unit string }

func main() {
	path := flag.String("budgets", "scripts/benchcheck/budgets.txt", "the budget `file`")
	markdown := flag.Bool("markdown", false, "print the budgets as docs/ARCHITECTURE.md's table and exit")
	flag.Parse()
	budgets, err := parseBudgetsFile(*path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchcheck: %v\n", err)
		os.Exit(2)
	}
	if *markdown {
		fmt.Print(markdownTable(budgets))
		return
	}
	figures, err := readBench(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchcheck: %v\n", err)
		os.Exit(2)
	}
	if !check(budgets, figures, os.Stdout) {
		os.Exit(1)
	}
}

// parseBudgetsFile reads the budget file at path.
func parseBudgetsFile(path string) ([]budget, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := parseBudgets(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// parseBudgets reads a budget file.
func parseBudgets(r io.Reader) ([]budget, error) {
	var out []budget
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 4 {
			return nil, fmt.Errorf("line %d: want package, benchmark, unit and budget, got %q", n, line)
		}
		max, err := strconv.ParseFloat(f[3], 64)
		if err != nil || max < 0 {
			return nil, fmt.Errorf("line %d: budget %q is not a number", n, f[3])
		}
		out = append(out, budget{pkg: f[0], bench: f[1], unit: f[2], max: max})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("no budgets")
	}
	return out, nil
}

// benchLine is a result line: name, iterations, then value-unit pairs.
var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

// readBench copies r to w and collects every benchmark's figures. When a
// benchmark ran more than once (-count), its worst figure counts.
func readBench(r io.Reader, w io.Writer) (map[key]float64, error) {
	figures := map[key]float64{}
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(w, line)
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = strings.TrimSpace(p)
			continue
		}
		m := benchLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		f := strings.Fields(m[2])
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				break
			}
			k := key{pkg, m[1], f[i+1]}
			if old, ok := figures[k]; !ok || v > old {
				figures[k] = v
			}
		}
	}
	return figures, sc.Err()
}

// check prints one line per budget and reports whether all were held.
func check(budgets []budget, figures map[key]float64, w io.Writer) bool {
	ok := true
	fmt.Fprintln(w, "\nbudgets (scripts/benchcheck/budgets.txt):")
	for _, b := range budgets {
		v, ran := figures[key{b.pkg, b.bench, b.unit}]
		switch {
		case !ran:
			ok = false
			fmt.Fprintf(w, "  MISSING %s %s %s: budget %g, but it did not run\n", b.pkg, b.bench, b.unit, b.max)
		case v > b.max:
			ok = false
			fmt.Fprintf(w, "  OVER    %s %s: %g %s, budget %g\n", b.pkg, b.bench, v, b.unit, b.max)
		default:
			fmt.Fprintf(w, "  ok      %s %s: %g %s, budget %g\n", b.pkg, b.bench, v, b.unit, b.max)
		}
	}
	return ok
}

// markdownTable renders the budgets as a Markdown table, one row per
// benchmark and its figures (a time and its allocations share a row), in
// the file's order.
func markdownTable(budgets []budget) string {
	type row struct {
		pkg, bench string
		limits     []string
	}
	var rows []*row
	at := map[key]*row{}
	for _, b := range budgets {
		k := key{pkg: b.pkg, bench: b.bench}
		r := at[k]
		if r == nil {
			r = &row{pkg: b.pkg, bench: b.bench}
			at[k] = r
			rows = append(rows, r)
		}
		r.limits = append(r.limits, fmt.Sprintf("≤ %g %s", b.max, b.unit))
	}
	var sb strings.Builder
	sb.WriteString("| package | benchmark | budget |\n|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&sb, "| `%s` | `%s` | %s |\n", strings.TrimPrefix(r.pkg, "rockstep/"), r.bench, strings.Join(r.limits, ", "))
	}
	return sb.String()
}
