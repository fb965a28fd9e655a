package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	// A go test -json stream: a package that passes with a skip, one that
	// fails, one whose binary panics mid-test, one that does not build,
	// and a line that another program printed among them.
	stream, err := os.Open(filepath.Join("testdata", "stream.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	var out bytes.Buffer
	r := &report{out: &out, logs: map[key][]string{}, shuffle: map[string]string{}}
	if err = r.read(stream); err != nil {
		t.Fatal(err)
	}
	r.summary()
	got := out.String()
	for _, want := range []string{
		"ok  \tp/ok\t1.6s\n",
		"skip\tp/ok\tTestNetns: netns.go:9: needs the ip command (Debian: apt-get install -y iproute2)\n",
		"    b_test.go:5: got 1, want 2\n--- FAIL: TestB (3.00s)\n",
		"FAIL\tp/bad\t3.1s\n-test.shuffle 7\n",
		"p/broken/x.go:1:1: syntax error\n",
		"--- TestP did not finish:\npanic: runtime error: invalid memory address or nil pointer dereference\n\tp/panic/p_test.go:3 +0x2\n",
		"xvfb-run: a line that is not go test's\n",
		"slowest: TestB 3s (p/bad), TestA 1.5s (p/ok), TestNetns 0s (p/ok)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the report lacks %q:\n%s", want, got)
		}
	}
	for _, unwanted := range []string{"a log line of a passing test", "=== RUN", "-test.shuffle 42", "PASS\n"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("the report shows %q:\n%s", unwanted, got)
		}
	}
	if !r.failed {
		t.Error("a failed test and a failed build, and the report did not fail")
	}
}
