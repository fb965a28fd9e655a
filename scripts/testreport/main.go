// Command testreport reads `go test -json` on stdin and prints what a
// plain `go test` prints (each package's result line, the output of every
// failed test, build errors, a binary's panic or timeout), plus one line for
// every skipped test with the reason it gave, so that a test that cannot run
// here (no display, no network namespace) says so in `make test`; and, last,
// the slowest tests. It exits 1 if anything failed. `make test-race` pipes
// the suite through it.
//
//	go test -json ./... | go run ./scripts/testreport [-save FILE]
//
// -save FILE also keeps the raw JSON stream (every test's timing) in FILE.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
)

// event is one line of `go test -json` (see `go doc test2json`).
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64 // seconds
	Output  string
}

// maxSkipLines bounds the reason shown for a skip.
const maxSkipLines = 6

// slowest is how many of the slowest tests the last line names.
const slowest = 5

type key struct{ pkg, test string }

type report struct {
	out     io.Writer
	failed  bool
	logs    map[key][]string  // output of tests still running
	shuffle map[string]string // each package's -test.shuffle line, shown if it fails
	times   []timing
}

type timing struct {
	key
	elapsed float64
}

func main() {
	save := flag.String("save", "", "also write the raw JSON stream to this file")
	flag.Parse()
	in := io.Reader(os.Stdin)
	if *save != "" {
		f, err := os.Create(*save)
		if err != nil {
			fmt.Fprintf(os.Stderr, "testreport: %v\n", err)
			os.Exit(2)
		}
		defer f.Close()
		in = io.TeeReader(os.Stdin, f)
	}
	r := &report{out: os.Stdout, logs: map[key][]string{}, shuffle: map[string]string{}}
	if err := r.read(in); err != nil {
		fmt.Fprintf(os.Stderr, "testreport: %v\n", err)
		os.Exit(2)
	}
	r.summary()
	if r.failed {
		os.Exit(1)
	}
}

func (r *report) read(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(r.out, "%s\n", line) // not go test's: pass it on
			continue
		}
		r.event(e)
	}
	return sc.Err()
}

func (r *report) event(e event) {
	k := key{e.Package, e.Test}
	switch e.Action {
	case "build-output":
		fmt.Fprint(r.out, e.Output)
	case "build-fail":
		r.failed = true
	case "output":
		if e.Test == "" {
			switch s := strings.TrimSpace(e.Output); {
			case strings.HasPrefix(s, "-test.shuffle "):
				r.shuffle[e.Package] = e.Output // the order, to repeat a failure
			case s != "PASS" && !strings.HasPrefix(s, "=== "):
				fmt.Fprint(r.out, e.Output) // the package's line, or a panic or timeout
			}
			return
		}
		r.logs[k] = append(r.logs[k], e.Output)
	case "pass":
		r.done(k, e.Elapsed)
	case "fail":
		r.failed = true
		if e.Test == "" {
			fmt.Fprint(r.out, r.shuffle[e.Package])
			r.unfinished(e.Package)
		}
		r.printLog(r.logs[k])
		r.done(k, e.Elapsed)
	case "skip":
		if e.Test != "" {
			fmt.Fprintf(r.out, "skip\t%s\t%s: %s\n", e.Package, e.Test, skipReason(r.logs[k]))
		}
		r.done(k, e.Elapsed)
	}
}

// printLog prints a test's output but go test's "=== " lines.
func (r *report) printLog(lines []string) {
	for _, l := range lines {
		if !strings.HasPrefix(strings.TrimSpace(l), "=== ") {
			fmt.Fprint(r.out, l)
		}
	}
}

// unfinished prints the output of pkg's tests that never ended: a panic
// on another goroutine, or a timeout, kills the test binary mid-test, and
// go test -json files the panic's trace under the tests then running
// without a "fail" for them.
func (r *report) unfinished(pkg string) {
	var running []key
	for k := range r.logs {
		if k.pkg == pkg && k.test != "" {
			running = append(running, k)
		}
	}
	sort.Slice(running, func(i, j int) bool { return running[i].test < running[j].test })
	for _, k := range running {
		fmt.Fprintf(r.out, "--- %s did not finish:\n", k.test)
		r.printLog(r.logs[k])
		delete(r.logs, k)
	}
}

// done forgets a finished test's output and keeps its time.
func (r *report) done(k key, elapsed float64) {
	delete(r.logs, k)
	if k.test != "" && !strings.Contains(k.test, "/") {
		r.times = append(r.times, timing{k, elapsed})
	}
}

// skipReason is what a skipped test said, without go test's own lines.
func skipReason(lines []string) string {
	var why []string
	for _, l := range lines {
		s := strings.TrimSpace(l)
		if s == "" || strings.HasPrefix(s, "=== ") || strings.HasPrefix(s, "--- SKIP") {
			continue
		}
		why = append(why, s)
	}
	if len(why) == 0 {
		return "(no reason given)"
	}
	if len(why) > maxSkipLines {
		why = append(why[:maxSkipLines], "…")
	}
	return strings.Join(why, " / ")
}

func (r *report) summary() {
	sort.Slice(r.times, func(i, j int) bool { return r.times[i].elapsed > r.times[j].elapsed })
	var parts []string
	for _, t := range r.times[:min(slowest, len(r.times))] {
		d := time.Duration(t.elapsed * float64(time.Second)).Round(100 * time.Millisecond)
		parts = append(parts, fmt.Sprintf("%s %v (%s)", t.test, d, strings.TrimPrefix(t.pkg, "rockstep/")))
	}
	if len(parts) > 0 {
		fmt.Fprintf(r.out, "slowest: %s\n", strings.Join(parts, ", "))
	}
}
