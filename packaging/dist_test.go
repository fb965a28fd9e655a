package packaging

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/binary"
	"fmt"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// distDir is the folder `make dist` filled, from ROCKSTEP_DIST; the artifact
// tests skip without it (`make dist-check` sets it).
func distDir(t *testing.T) string {
	t.Helper()
	d := os.Getenv("ROCKSTEP_DIST")
	if d == "" {
		t.Skip("ROCKSTEP_DIST not set: run make dist-check")
	}
	return d
}

// artifact finds the one file in dir named prefix + VERSION + suffix and
// returns its path and VERSION.
func artifact(t *testing.T, dir, suffix string) (path, version string) {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "rockstep-*-"+suffix))
	if err != nil || len(m) != 1 {
		t.Fatalf("dist: want exactly one rockstep-VERSION-%s, found %q (%v)", suffix, m, err)
	}
	name := filepath.Base(m[0])
	return m[0], strings.TrimSuffix(strings.TrimPrefix(name, "rockstep-"), "-"+suffix)
}

// glibcOnly are the libraries a CGO_ENABLED=0 Linux build may need: Ebiten
// loads the rest (X11, GL) itself at run time, and only in the GUI.
var glibcOnly = map[string]bool{"libc.so.6": true, "libdl.so.2": true, "libpthread.so.0": true}

func checkELF(t *testing.T, name string, b []byte, want elf.Machine) {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: not ELF: %v", name, err)
	}
	if f.Machine != want || f.Class != elf.ELFCLASS64 {
		t.Errorf("%s: %v %v, want %v ELFCLASS64", name, f.Machine, f.Class, want)
	}
	libs, err := f.ImportedLibraries()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, l := range libs {
		if !glibcOnly[l] {
			t.Errorf("%s needs %s: only glibc may be linked (the server image has nothing else)", name, l)
		}
	}
}

func TestDistLinuxTarballs(t *testing.T) {
	dir := distDir(t)
	for _, tc := range []struct {
		arch    string
		machine elf.Machine
	}{{"amd64", elf.EM_X86_64}, {"arm64", elf.EM_AARCH64}} {
		path, v := artifact(t, dir, "linux-"+tc.arch+".tar.gz")
		files := readTarball(t, path)
		root := "rockstep-" + v + "-linux-" + tc.arch + "/"
		for _, name := range []string{"rockstep", "rockstep.desktop", "rockstep.png", "README.txt", "rockstep-server.service"} {
			if _, ok := files[root+name]; !ok {
				t.Errorf("%s: no %s", filepath.Base(path), root+name)
			}
		}
		bin := files[root+"rockstep"]
		if bin.mode&0o111 != 0o111 {
			t.Errorf("%s: rockstep mode %v, want executable", filepath.Base(path), bin.mode)
		}
		checkELF(t, root+"rockstep", bin.data, tc.machine)
		img, err := png.Decode(bytes.NewReader(files[root+"rockstep.png"].data))
		if err != nil || img.Bounds().Dx() != 256 || img.Bounds().Dy() != 256 {
			t.Errorf("%s: rockstep.png: want a 256×256 PNG (err %v)", filepath.Base(path), err)
		}
	}
}

// IMAGE_SUBSYSTEM_WINDOWS_GUI: started without a console window.
const subsystemWindowsGUI = 2

func TestDistWindowsExe(t *testing.T) {
	path, v := artifact(t, distDir(t), "windows-amd64.exe")
	f, err := pe.Open(path)
	if err != nil {
		t.Fatalf("%s: not PE: %v", path, err)
	}
	defer f.Close()
	if f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 {
		t.Errorf("machine %#x, want AMD64", f.Machine)
	}
	oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
	if !ok {
		t.Fatalf("optional header %T, want PE32+", f.OptionalHeader)
	}
	if oh.Subsystem != subsystemWindowsGUI {
		t.Errorf("subsystem %d, want %d (GUI: no console window on double-click)", oh.Subsystem, subsystemWindowsGUI)
	}
	rsrc := f.Section(".rsrc")
	if rsrc == nil {
		t.Fatal("no .rsrc section: icon and version info missing")
	}
	data, err := rsrc.Data()
	if err != nil {
		t.Fatal(err)
	}
	types := resourceTypes(t, data)
	for id, what := range map[uint32]string{3: "RT_ICON", 14: "RT_GROUP_ICON", 16: "RT_VERSION", 24: "RT_MANIFEST"} {
		if !types[id] {
			t.Errorf("resources %v: no %s", types, what)
		}
	}
	if !bytes.Contains(data, utf16("Rockstep")) {
		t.Error("version info does not name Rockstep")
	}
	if !bytes.Contains(mustRead(t, path), []byte(v)) {
		t.Errorf("the version %q is not stamped into the executable", v)
	}
}

// resourceTypes lists the type ids at the root of a resource directory.
func resourceTypes(t *testing.T, rsrc []byte) map[uint32]bool {
	t.Helper()
	if len(rsrc) < 16 {
		t.Fatal(".rsrc: truncated")
	}
	named := int(binary.LittleEndian.Uint16(rsrc[12:]))
	ids := int(binary.LittleEndian.Uint16(rsrc[14:]))
	out := map[uint32]bool{}
	for i := named; i < named+ids; i++ {
		off := 16 + 8*i
		if off+8 > len(rsrc) {
			t.Fatal(".rsrc: truncated directory")
		}
		out[binary.LittleEndian.Uint32(rsrc[off:])] = true
	}
	return out
}

func TestDistMacApps(t *testing.T) {
	dir := distDir(t)
	for _, tc := range []struct {
		arch string
		cpu  macho.Cpu
	}{{"arm64", macho.CpuArm64}, {"amd64", macho.CpuAmd64}} {
		path, v := artifact(t, dir, "macos-"+tc.arch+".zip")
		zr, err := zip.OpenReader(path)
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]*zip.File{}
		for _, f := range zr.File {
			files[f.Name] = f
		}
		read := func(name string) []byte {
			f := files[name]
			if f == nil {
				t.Fatalf("%s: no %s", filepath.Base(path), name)
			}
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			b, err := io.ReadAll(rc)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		const exe = "Rockstep.app/Contents/MacOS/rockstep"
		bin := read(exe)
		if m := files[exe].Mode(); m&0o111 != 0o111 {
			t.Errorf("%s: %s mode %v, want executable", filepath.Base(path), exe, m)
		}
		mf, err := macho.NewFile(bytes.NewReader(bin))
		if err != nil {
			t.Fatalf("%s: not Mach-O: %v", exe, err)
		}
		if mf.Cpu != tc.cpu || mf.Type != macho.TypeExec {
			t.Errorf("%s (%s): cpu %v type %v, want %v executable", exe, tc.arch, mf.Cpu, mf.Type, tc.cpu)
		}
		// Apple silicon runs only signed code; Go's linker signs ad hoc.
		if tc.arch == "arm64" && !hasLoadCommand(mf, 0x1d) { // LC_CODE_SIGNATURE
			t.Errorf("%s (arm64): no code signature; macOS would refuse to run it", exe)
		}
		plist := plistStrings(t, read("Rockstep.app/Contents/Info.plist"))
		if plist["CFBundleVersion"] != v || plist["CFBundleExecutable"] != "rockstep" {
			t.Errorf("Info.plist: CFBundleVersion %q CFBundleExecutable %q, want %q and rockstep",
				plist["CFBundleVersion"], plist["CFBundleExecutable"], v)
		}
		checkICNS(t, read("Rockstep.app/Contents/Resources/rockstep.icns"))
		zr.Close()
	}
}

func hasLoadCommand(f *macho.File, cmd uint32) bool {
	for _, l := range f.Loads {
		if raw := l.Raw(); len(raw) >= 4 && f.ByteOrder.Uint32(raw) == cmd {
			return true
		}
	}
	return false
}

// checkICNS checks an .icns: its length, and that every entry is a PNG of
// the size its type says.
func checkICNS(t *testing.T, b []byte) {
	t.Helper()
	sizes := map[string]int{"icp4": 16, "icp5": 32, "ic11": 32, "ic12": 64, "ic07": 128, "ic13": 256, "ic08": 256, "ic14": 512, "ic09": 512}
	if len(b) < 8 || string(b[:4]) != "icns" || int(binary.BigEndian.Uint32(b[4:])) != len(b) {
		t.Fatalf("rockstep.icns: bad header")
	}
	seen := map[string]bool{}
	for off := 8; off < len(b); {
		if off+8 > len(b) {
			t.Fatalf("rockstep.icns: truncated at %d", off)
		}
		typ, n := string(b[off:off+4]), int(binary.BigEndian.Uint32(b[off+4:]))
		if n < 8 || off+n > len(b) {
			t.Fatalf("rockstep.icns: entry %s at %d: bad length %d", typ, off, n)
		}
		img, err := png.Decode(bytes.NewReader(b[off+8 : off+n]))
		if err != nil || img.Bounds().Dx() != sizes[typ] {
			t.Errorf("rockstep.icns: %s: want a %d px PNG (err %v)", typ, sizes[typ], err)
		}
		seen[typ] = true
		off += n
	}
	for _, typ := range []string{"ic07", "ic08", "ic09"} {
		if !seen[typ] {
			t.Errorf("rockstep.icns: no %s", typ)
		}
	}
}

func TestDistChecksums(t *testing.T) {
	dir := distDir(t)
	f, err := os.Open(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("SHA256SUMS: bad line %q", sc.Text())
		}
		if got := fmt.Sprintf("%x", sha256.Sum256(mustRead(t, filepath.Join(dir, name)))); got != sum {
			t.Errorf("SHA256SUMS: %s: %s, file has %s", name, sum, got)
		}
		n++
	}
	if n != 5 {
		t.Errorf("SHA256SUMS lists %d artifacts, want 5", n)
	}
}

// waitLimit bounds the waits for a server started from the tarball: to
// listen, and to exit on SIGTERM. Generous, since a loaded machine may be
// slow; not a budget (BENCHMARKS.md has the server's exit time).
const waitLimit = 30 * time.Second

// TestDistLinuxRunsFromTarball extracts this machine's tarball into a clean
// folder and runs what a user or an operator would: -version, then -server
// with no display until SIGTERM.
func TestDistLinuxRunsFromTarball(t *testing.T) {
	dir := distDir(t)
	if runtime.GOOS != "linux" || (runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64") {
		t.Skipf("cannot run a Linux release build on %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	path, v := artifact(t, dir, "linux-"+runtime.GOARCH+".tar.gz")
	tmp := t.TempDir()
	files := readTarball(t, path)
	for name, f := range files {
		p := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.data, f.mode); err != nil {
			t.Fatal(err)
		}
	}
	exe := filepath.Join(tmp, "rockstep-"+v+"-linux-"+runtime.GOARCH, "rockstep")
	home := t.TempDir()
	env := cleanEnv(home)

	cmd := exec.Command(exe, "-version")
	cmd.Env, cmd.Dir = env, tmp
	out, err := cmd.CombinedOutput()
	want := "rockstep " + v + " linux/" + runtime.GOARCH + " "
	if err != nil || !strings.HasPrefix(string(out), want) {
		t.Fatalf("rockstep -version: %v, %q; want exit 0 and %q…", err, out, want)
	}

	srv := exec.Command(exe, "-server", "-listen", "127.0.0.1:0", "-lan=false")
	srv.Env, srv.Dir = env, tmp
	stderr, err := srv.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Process.Kill()
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var log []string
	deadline := time.After(waitLimit)
wait:
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("server exited before listening:\n%s", strings.Join(log, "\n"))
			}
			log = append(log, l)
			if strings.Contains(l, "msg=listening") {
				break wait
			}
		case <-deadline:
			t.Fatalf("no \"listening\" within %v:\n%s", waitLimit, strings.Join(log, "\n"))
		}
	}
	if err := srv.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for l := range lines {
		log = append(log, l)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("server after SIGTERM: %v, want exit 0\n%s", err, strings.Join(log, "\n"))
		}
	case <-time.After(waitLimit):
		t.Fatalf("server still running %v after SIGTERM:\n%s", waitLimit, strings.Join(log, "\n"))
	}
}

// TestDistDockerfileBinary builds what packaging/Dockerfile's build stage
// builds, with its own command line, and checks that it runs in the final
// image: a fully static Linux executable (distroless/static has no libc),
// stamped with the build argument VERSION.
func TestDistDockerfileBinary(t *testing.T) {
	distDir(t)
	build := dockerBuildCommand(t, parseDockerfile(t, "Dockerfile"))
	out := t.TempDir()
	script := strings.ReplaceAll(build, "/out/", out+"/")
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "VERSION=9.8.7-docker", "GOOS=", "GOARCH=")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, b)
	}
	exe := filepath.Join(out, "rockstep")
	machine := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[runtime.GOARCH]
	if machine == 0 {
		t.Skipf("no ELF machine known for %s", runtime.GOARCH)
	}
	checkELF(t, "Dockerfile's rockstep", mustRead(t, exe), machine)
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	libs, _ := f.ImportedLibraries()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("the server image's binary has a dynamic loader (and needs %v): distroless/static cannot run it", libs)
		}
	}
	v := exec.Command(exe, "-version")
	v.Env = cleanEnv(t.TempDir())
	if b, err := v.CombinedOutput(); err != nil || !strings.HasPrefix(string(b), "rockstep 9.8.7-docker ") {
		t.Errorf("rockstep -version: %v %q, want the Dockerfile's VERSION", err, b)
	}
}

// cleanEnv is an environment with no display and a fresh home, as on a
// server (settings and replays go under home).
func cleanEnv(home string) []string {
	return []string{"PATH=/usr/bin:/bin", "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}
}

type tarFile struct {
	mode os.FileMode
	data []byte
}

func readTarball(t *testing.T, path string) map[string]tarFile {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	tr := tar.NewReader(gz)
	out := map[string]tarFile{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatalf("%s: %s: %v", path, h.Name, err)
		}
		out[h.Name] = tarFile{os.FileMode(h.Mode).Perm(), b}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func utf16(s string) []byte {
	var b []byte
	for _, r := range s {
		b = append(b, byte(r), byte(r>>8))
	}
	return b
}
