// Package scripts holds the project's helper scripts: dist (make dist),
// testreport (make test's report), test-tools.sh (make check-tools) and
// loadtest.sh. Its test checks make check-tools on a machine made to lack
// tools.
package scripts

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// hidden are the commands a fake machine lacks (or fakes): what make test
// may install, and the commands the install logic asks.
var hidden = []string{"xvfb-run", "Xvfb", "xauth", "xdotool", "qemu-aarch64-static", "ip", "pulseaudio", "parec", "nft", "miniupnpd", "upnpc", "natpmpc", "node", "chromium", "apt-get", "dpkg-query", "id"}

// fakeMachine is a PATH of one folder: links to every command on the real
// PATH except the hidden ones, and fakes of id (root or not), dpkg-query and
// apt-get. The fake apt-get records its arguments in aptLog and, on
// install, installs fakes of the packages' commands into the folder.
type fakeMachine struct {
	bin      string
	aptLog   string
	policyRC string // where make check-tools is told the policy-rc.d is
}

// Fakes of the system's commands. The packages' commands print their
// name; dpkg-query knows a package by a marker file.
const (
	fakeID = `#!/bin/sh
[ "$1" = -u ] && { echo @UID@; exit 0; }
exec /usr/bin/env -i id "$@"
`
	fakeDpkgQuery = `#!/bin/sh
for p; do :; done # the last argument: the package
if [ -e "@BIN@/.installed-$p" ]; then printf installed; else exit 1; fi
`
	fakeAptGet = `#!/bin/sh
echo "$*" >>"@LOG@"
[ "$1" = install ] || exit 0
[ -n "@FAIL@" ] && { echo "E: Unable to locate package" >&2; exit 100; }
for p; do
	case $p in
	xvfb) tools=xvfb-run ;;
	xauth) tools=xauth ;;
	xdotool) tools=xdotool ;;
	qemu-user-static) tools=qemu-aarch64-static ;;
	iproute2) tools=ip ;;
	pulseaudio) tools="pulseaudio parec" ;;
	nftables) tools=nft ;;
	miniupnpd-nftables) tools=miniupnpd ;;
	miniupnpc) tools=upnpc ;;
	natpmpc) tools=natpmpc ;;
	nodejs) tools=node ;;
	chromium) tools=chromium ;;
	*) tools= ;;
	esac
	for t in $tools; do printf '#!/bin/sh\necho %s\n' "$t" >"@BIN@/$t"; chmod +x "@BIN@/$t"; done
	: >"@BIN@/.installed-$p"
done
`
)

func newFakeMachine(t *testing.T, uid string, aptFails bool, alsoHide ...string) *fakeMachine {
	t.Helper()
	dir := t.TempDir()
	m := &fakeMachine{bin: filepath.Join(dir, "bin"), aptLog: filepath.Join(dir, "apt.log"), policyRC: filepath.Join(dir, "policy-rc.d")}
	if err := os.Mkdir(m.bin, 0o755); err != nil {
		t.Fatal(err)
	}
	skip := append(slices.Clone(hidden), alsoHide...)
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := e.Name()
			if slices.Contains(skip, name) || strings.HasPrefix(name, ".") {
				continue
			}
			link := filepath.Join(m.bin, name)
			if _, err := os.Lstat(link); err == nil {
				continue // the first on PATH wins
			}
			if err := os.Symlink(filepath.Join(d, name), link); err != nil {
				t.Fatal(err)
			}
		}
	}
	fail := ""
	if aptFails {
		fail = "yes"
	}
	r := strings.NewReplacer("@UID@", uid, "@BIN@", m.bin, "@LOG@", m.aptLog, "@FAIL@", fail)
	for name, script := range map[string]string{"id": fakeID, "dpkg-query": fakeDpkgQuery, "apt-get": fakeAptGet} {
		if err := os.WriteFile(filepath.Join(m.bin, name), []byte(r.Replace(script)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// install marks packages as installed already (their commands too).
func (m *fakeMachine) install(t *testing.T, pkgs ...string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(m.bin, "apt-get"), append([]string{"install"}, pkgs...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fake apt-get install %v: %v\n%s", pkgs, err, out)
	}
	if err := os.Remove(m.aptLog); err != nil {
		t.Fatal(err)
	}
}

// checkTools runs `make check-tools` in the repository on the machine.
func (m *fakeMachine) checkTools(t *testing.T) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(m.bin, "make"), "--no-print-directory", "-C", "..", "check-tools")
	// This machine's environment, but its PATH, and nothing from a make
	// this test may run under (make test's flags and jobserver).
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MAKE") && !strings.HasPrefix(kv, "MFLAGS=") && !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "GO=") && !strings.HasPrefix(kv, "POLICY_RC_D=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "PATH="+m.bin, "POLICY_RC_D="+m.policyRC)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("make check-tools: %v", err)
	}
	return code, o.String(), e.String()
}

func (m *fakeMachine) aptCalls() []string {
	b, err := os.ReadFile(m.aptLog)
	if err != nil {
		return nil
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// TestCheckTools: make check-tools on a machine without xvfb, Mesa, qemu
// or iproute2. As root it installs them with apt-get, saying so in one line;
// otherwise it names the command and fails; and a machine with everything
// is left alone.
func TestCheckTools(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("make check-tools installs Debian packages: Linux only")
	}
	for _, tool := range []string{"make", "sh", "gcc", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s on PATH to build the fake machine: %v", tool, err)
		}
	}
	const missing = "xvfb xauth xdotool qemu-user-static iproute2 pulseaudio nftables miniupnpd-nftables miniupnpc natpmpc nodejs chromium libgl1-mesa-dri"

	t.Run("as root, it installs what is missing", func(t *testing.T) {
		m := newFakeMachine(t, "0", false)
		code, stdout, stderr := m.checkTools(t)
		if code != 0 {
			t.Fatalf("exit %d, want 0\nstdout: %s\nstderr: %s", code, stdout, stderr)
		}
		want := "make test: installing " + missing + " (apt-get install -y " + missing + ")\n"
		if stdout != want || stderr != "" {
			t.Errorf("said %q (stderr %q), want one line %q", stdout, stderr, want)
		}
		calls := m.aptCalls()
		if want := []string{"update -qq", "install -y -qq " + missing}; !slices.Equal(calls, want) {
			t.Errorf("apt-get called with %q, want %q", calls, want)
		}
		// No service may start on the machine: a policy-rc.d that
		// refuses every start (exit 101) was put there first.
		if err := exec.Command(m.policyRC).Run(); err == nil || err.(*exec.ExitError).ExitCode() != 101 {
			t.Errorf("policy-rc.d: %v, want one that exits 101", err)
		}
		// Installed: a second run has nothing to do.
		if err := os.Remove(m.aptLog); err != nil {
			t.Fatal(err)
		}
		if code, stdout, stderr := m.checkTools(t); code != 0 || stdout != "" || stderr != "" || m.aptCalls() != nil {
			t.Errorf("after the install: exit %d, said %q %q, apt-get %q; want nothing", code, stdout, stderr, m.aptCalls())
		}
	})

	t.Run("as root, only what is missing", func(t *testing.T) {
		m := newFakeMachine(t, "0", false)
		m.install(t, "xvfb", "xauth", "libgl1-mesa-dri")
		code, stdout, stderr := m.checkTools(t)
		if code != 0 || stdout != "make test: installing xdotool qemu-user-static iproute2 pulseaudio nftables miniupnpd-nftables miniupnpc natpmpc nodejs chromium (apt-get install -y xdotool qemu-user-static iproute2 pulseaudio nftables miniupnpd-nftables miniupnpc natpmpc nodejs chromium)\n" {
			t.Errorf("exit %d, said %q (stderr %q)", code, stdout, stderr)
		}
	})

	t.Run("not root, it names the command and fails", func(t *testing.T) {
		m := newFakeMachine(t, "1000", false)
		code, stdout, stderr := m.checkTools(t)
		if code == 0 {
			t.Fatalf("exit 0, want a failure\nstdout: %s\nstderr: %s", stdout, stderr)
		}
		for _, want := range []string{"xvfb-run", "qemu-aarch64-static", "ip ", "libgl1-mesa-dri", "run: sudo apt-get install -y " + missing} {
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr does not say %q:\n%s", want, stderr)
			}
		}
		if calls := m.aptCalls(); calls != nil {
			t.Errorf("apt-get called as a user: %q", calls)
		}
	})

	t.Run("a policy-rc.d already there is left alone", func(t *testing.T) {
		m := newFakeMachine(t, "0", false)
		const own = "#!/bin/sh\nexit 0\n"
		if err := os.WriteFile(m.policyRC, []byte(own), 0o755); err != nil {
			t.Fatal(err)
		}
		if code, stdout, stderr := m.checkTools(t); code != 0 {
			t.Fatalf("exit %d: %s %s", code, stdout, stderr)
		}
		if b, err := os.ReadFile(m.policyRC); err != nil || string(b) != own {
			t.Errorf("policy-rc.d now %q (%v), want it left as it was", b, err)
		}
	})

	t.Run("a failed install fails, with apt-get's words", func(t *testing.T) {
		m := newFakeMachine(t, "0", true)
		code, _, stderr := m.checkTools(t)
		if code == 0 || !strings.Contains(stderr, "Unable to locate package") || !strings.Contains(stderr, "failed") {
			t.Errorf("exit %d, stderr %q: want a failure that shows apt-get's error", code, stderr)
		}
	})

	t.Run("everything there, nothing to do", func(t *testing.T) {
		m := newFakeMachine(t, "0", false)
		m.install(t, strings.Fields(missing)...)
		if code, stdout, stderr := m.checkTools(t); code != 0 || stdout != "" || stderr != "" || m.aptCalls() != nil {
			t.Errorf("exit %d, said %q %q, apt-get %q; want nothing", code, stdout, stderr, m.aptCalls())
		}
	})

	t.Run("without go, it says where Go comes from", func(t *testing.T) {
		m := newFakeMachine(t, "0", false, "go")
		code, _, stderr := m.checkTools(t)
		if code == 0 || !strings.Contains(stderr, "https://go.dev/dl/") || m.aptCalls() != nil {
			t.Errorf("exit %d, stderr %q, apt-get %q: want a failure naming go.dev and no install", code, stderr, m.aptCalls())
		}
	})
}
