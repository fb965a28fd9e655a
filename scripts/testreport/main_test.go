package main

import (
	"bytes"
	"strings"
	"testing"
)

// A go test -json stream: a package that passes with a skip, one that
// fails, one whose binary panics mid-test, one that does not build.
const stream = `{"Action":"start","Package":"p/ok"}
{"Action":"output","Package":"p/ok","Output":"-test.shuffle 42\n"}
{"Action":"run","Package":"p/ok","Test":"TestA"}
{"Action":"output","Package":"p/ok","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"output","Package":"p/ok","Test":"TestA","Output":"    a_test.go:3: a log line of a passing test\n"}
{"Action":"output","Package":"p/ok","Test":"TestA","Output":"--- PASS: TestA (1.50s)\n"}
{"Action":"pass","Package":"p/ok","Test":"TestA","Elapsed":1.5}
{"Action":"run","Package":"p/ok","Test":"TestNetns"}
{"Action":"output","Package":"p/ok","Test":"TestNetns","Output":"=== RUN   TestNetns\n"}
{"Action":"output","Package":"p/ok","Test":"TestNetns","Output":"    netns.go:9: needs the ip command (Debian: apt-get install -y iproute2)\n"}
{"Action":"output","Package":"p/ok","Test":"TestNetns","Output":"--- SKIP: TestNetns (0.00s)\n"}
{"Action":"skip","Package":"p/ok","Test":"TestNetns","Elapsed":0}
{"Action":"output","Package":"p/ok","Output":"PASS\n"}
{"Action":"output","Package":"p/ok","Output":"ok  \tp/ok\t1.6s\n"}
{"Action":"pass","Package":"p/ok","Elapsed":1.6}
{"Action":"output","Package":"p/bad","Output":"-test.shuffle 7\n"}
{"Action":"run","Package":"p/bad","Test":"TestB"}
{"Action":"output","Package":"p/bad","Test":"TestB","Output":"=== RUN   TestB\n"}
{"Action":"output","Package":"p/bad","Test":"TestB","Output":"    b_test.go:5: got 1, want 2\n"}
{"Action":"output","Package":"p/bad","Test":"TestB","Output":"--- FAIL: TestB (3.00s)\n"}
{"Action":"fail","Package":"p/bad","Test":"TestB","Elapsed":3}
{"Action":"output","Package":"p/bad","Output":"FAIL\n"}
{"Action":"output","Package":"p/bad","Output":"FAIL\tp/bad\t3.1s\n"}
{"Action":"fail","Package":"p/bad","Elapsed":3.1}
{"Action":"run","Package":"p/panic","Test":"TestP"}
{"Action":"output","Package":"p/panic","Test":"TestP","Output":"=== RUN   TestP\n"}
{"Action":"output","Package":"p/panic","Test":"TestP","Output":"panic: runtime error: invalid memory address or nil pointer dereference\n"}
{"Action":"output","Package":"p/panic","Test":"TestP","Output":"\tp/panic/p_test.go:3 +0x2\n"}
{"Action":"output","Package":"p/panic","Output":"FAIL\tp/panic\t0.005s\n"}
{"Action":"fail","Package":"p/panic","Elapsed":0.006}
{"ImportPath":"p/broken","Action":"build-output","Output":"p/broken/x.go:1:1: syntax error\n"}
{"ImportPath":"p/broken","Action":"build-fail"}
xvfb-run: a line that is not go test's
`

func TestReport(t *testing.T) {
	var out bytes.Buffer
	r := &report{out: &out, logs: map[key][]string{}, shuffle: map[string]string{}}
	if err := r.read(strings.NewReader(stream)); err != nil {
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
