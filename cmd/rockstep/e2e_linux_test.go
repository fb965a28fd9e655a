package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"rockstep/internal/netns"
)

// envE2ENetns marks the test binary re-run inside a private network
// namespace by TestTwoWindowsFindEachOtherAndAgree.
const envE2ENetns = "ROCKSTEP_E2E_NETNS"

// e2eTick is the engine tick both games log their confirmed hash at: 20 s.
const e2eTick = 1200

var hashLine = regexp.MustCompile(`autopilot: hash tick=(\d+) turn=(\d+) hash=([0-9a-f]{16})`)

// TestTwoWindowsFindEachOtherAndAgree plays a real game between two
// windows, end to end, in a private network namespace: `rockstep -host`,
// and a `rockstep` that finds that game in its LAN list (mDNS over the
// namespace's loopback) and joins it through the join screen, both driven
// by -autopilot through the same intents the buttons emit; both ready, the
// host starts, both play 20 s of scripted keys, and both must log the same
// confirmed state hash at tick 1200.
//
//	xvfb-run -a -s "-screen 0 1280x720x24" go test -run TwoWindows ./cmd/rockstep/
func TestTwoWindowsFindEachOtherAndAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("a 30-second end-to-end game; not in -short")
	}
	if os.Getenv("DISPLAY") == "" {
		t.Skip("needs a display (DISPLAY is empty): run under xvfb-run -a -s \"-screen 0 1280x720x24\"")
	}
	if !netns.Isolate(t, envE2ENetns, 4*time.Minute) {
		return
	}
	if err := netns.SetupLoopback("192.0.2.61"); err != nil {
		t.Skipf("private network namespace has no multicast: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	type player struct {
		name   string
		cmd    *exec.Cmd
		stderr bytes.Buffer
	}
	start := func(name string, args ...string) *player {
		p := &player{name: name}
		p.cmd = exec.CommandContext(ctx, os.Args[0], args...)
		p.cmd.Env = append(os.Environ(), envRunMain+"=1", "ROCKSTEP_CONFIG_DIR="+filepath.Join(t.TempDir(), name))
		p.cmd.Stdout, p.cmd.Stderr = &p.stderr, &p.stderr
		if err := p.cmd.Start(); err != nil {
			t.Fatalf("start %s: %v", name, err)
		}
		return p
	}
	began := time.Now()
	host := start("host", "-host", "-name", "Hostess", "-seed", "42",
		"-autopilot", fmt.Sprintf("ready; start 2; fly %d; linger 4; quit", e2eTick))
	guest := start("guest", "-name", "Guest",
		"-autopilot", fmt.Sprintf("join-lan; ready; fly %d; linger 1; quit", e2eTick))
	var hashes []string
	for _, p := range []*player{host, guest} {
		err := p.cmd.Wait()
		out := p.stderr.String()
		if err != nil {
			t.Errorf("%s: %v\n%s", p.name, err, out)
			continue
		}
		m := hashLine.FindStringSubmatch(out)
		if m == nil {
			t.Errorf("%s logged no hash:\n%s", p.name, out)
			continue
		}
		if !strings.Contains(out, "autopilot: ready done") {
			t.Errorf("%s never pressed Ready:\n%s", p.name, out)
		}
		t.Logf("%s: %s", p.name, m[0])
		hashes = append(hashes, m[1]+"/"+m[3])
	}
	if !strings.Contains(guest.stderr.String(), "autopilot: joining Hostess") {
		t.Errorf("the guest did not join the host's game from its LAN list:\n%s", guest.stderr.String())
	}
	if len(hashes) == 2 && hashes[0] != hashes[1] {
		t.Errorf("the two games ended on different states: host %s, guest %s (tick/hash)", hashes[0], hashes[1])
	}
	t.Logf("whole run: %v", time.Since(began).Round(time.Second))
}
