package packaging

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rdmadoctor/rdmadoctor/internal/golden"
)

// requireTools fails instead of skipping under RDMADOCTOR_REQUIRE_TOOLS=1 (CI).
func requireTools(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("RDMADOCTOR_REQUIRE_TOOLS") == "1" {
		t.Fatalf("%s and RDMADOCTOR_REQUIRE_TOOLS=1", why)
	}
	t.Skip(why)
}

// TestDeb builds the package with `make deb`, installs it with dpkg into this system, runs the
// installed rdmadoctor version and man -w rdmadoctor, checks the completions and contrib/ files
// are where the shells and docs say, and removes the package. It needs root and dpkg (CI runs as
// root on Debian); it does not touch an rdmadoctor package that was installed before it.
func TestDeb(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and installs the package")
	}
	for _, tool := range []string{"dpkg", "dpkg-deb", "make", "man"} {
		if _, err := exec.LookPath(tool); err != nil {
			requireTools(t, tool+" not installed")
		}
	}
	if os.Geteuid() != 0 {
		requireTools(t, "not root: dpkg -i needs it")
	}
	// One install at a time on this machine (several checkouts may test at once).
	lock, err := os.OpenFile(filepath.Join(os.TempDir(), "rdmadoctor-deb-test.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if out, err := exec.Command("dpkg-query", "-W", "-f", "${Status}", "rdmadoctor").Output(); err == nil && strings.Contains(string(out), "installed") {
		t.Skipf("an rdmadoctor package is already installed (%s): not replacing it", out)
	}

	dir := t.TempDir()
	const date = "2026-12-02T03:34:26Z"
	start := time.Now()
	mk := exec.Command("make", "-C", "..", "deb", "DEBDIR="+dir, "DEB_VERSION=0.1.0~test", "DEB_COMMIT=3f2ef67c463b21a11c2832aa90d04656296fe93e", "DEB_DATE="+date)
	if out, err := mk.CombinedOutput(); err != nil {
		t.Fatalf("make deb: %v\n%s", err, out)
	}
	t.Logf("make deb: %v", time.Since(start).Round(time.Second))
	debs, _ := filepath.Glob(filepath.Join(dir, "*.deb"))
	if len(debs) != 1 {
		t.Fatalf("make deb wrote %v, want one .deb", debs)
	}
	deb := debs[0]
	if want := "rdmadoctor_0.1.0~test_"; !strings.HasPrefix(filepath.Base(deb), want) {
		t.Errorf("package file %s, want %s<arch>.deb", filepath.Base(deb), want)
	}

	listing := run(t, "dpkg-deb", "--contents", deb)
	for _, path := range []string{
		"./usr/bin/rdmadoctor",
		"./usr/share/man/man1/rdmadoctor.1.gz",
		"./usr/share/bash-completion/completions/rdmadoctor",
		"./usr/share/zsh/vendor-completions/_rdmadoctor",
		"./usr/share/fish/vendor_completions.d/rdmadoctor.fish",
		"./usr/share/rdmadoctor/contrib/npd/rdmadoctor-npd-plugin",
		"./usr/share/rdmadoctor/contrib/npd/rdmadoctor-plugin-monitor.json",
	} {
		if !regexp.MustCompile(`(?m) ` + regexp.QuoteMeta(path) + `$`).MatchString(listing) {
			t.Errorf("the package has no %s:\n%s", path, listing)
		}
	}
	// Every file under contrib/ is in the package, an executable one as executable.
	err = filepath.WalkDir("../contrib", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel("../contrib", path)
		info, err := d.Info()
		if err != nil {
			return err
		}
		mode := `-rw-r--r--`
		if info.Mode()&0o111 != 0 {
			mode = `-rwxr-xr-x`
		}
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(mode) + ` .* \./usr/share/rdmadoctor/contrib/` + regexp.QuoteMeta(rel) + `$`).MatchString(listing) {
			t.Errorf("the package has no %s /usr/share/rdmadoctor/contrib/%s:\n%s", mode, rel, listing)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	info := run(t, "dpkg-deb", "--field", deb, "Package", "Version", "Architecture")
	if !strings.Contains(info, "Package: rdmadoctor\n") || !strings.Contains(info, "Version: 0.1.0~test\n") {
		t.Errorf("dpkg-deb --field:\n%s", info)
	}

	install(t, "-i", deb)
	t.Cleanup(func() { install(t, "-r", "rdmadoctor") })

	version := run(t, "/usr/bin/rdmadoctor", "version")
	want := "rdmadoctor 0.1.0~test\ncommit: 3f2ef67c463b21a11c2832aa90d04656296fe93e\ndate: " + date + "\n"
	if !strings.HasPrefix(version, want) {
		t.Errorf("installed rdmadoctor version:\n%s\nwant it to begin:\n%s", version, want)
	}
	if page := strings.TrimSpace(run(t, "man", "-w", "rdmadoctor")); page != "/usr/share/man/man1/rdmadoctor.1.gz" {
		t.Errorf("man -w rdmadoctor = %q, want /usr/share/man/man1/rdmadoctor.1.gz", page)
	}
	// The installed bash completion, loaded the way bash-completion loads it, completes commands.
	got := run(t, "bash", "-c", `source /usr/share/bash-completion/completions/rdmadoctor; COMP_WORDS=(rdmadoctor comp); COMP_CWORD=1; _rdmadoctor; printf "%s\n" "${COMPREPLY[@]}"`)
	if got != "completion\n" {
		t.Errorf("installed bash completion of 'rdmadoctor comp' = %q, want completion", got)
	}
	t.Logf("installed: %s\n%s", strings.TrimSpace(info), version)
	// What docs/integrations.md quotes; the go release and platform of the build normalized.
	golden.Check(t, "deb.txt", goRelease.ReplaceAllString("$ rdmadoctor version\n"+version+"$ man -w rdmadoctor\n"+
		run(t, "man", "-w", "rdmadoctor"), "go: GO_VERSION OS/ARCH"))
}

// goRelease is the last line of `rdmadoctor version`, e.g. "go: go1.26.8 linux/amd64".
var goRelease = regexp.MustCompile(`(?m)^go: go\S+ \S+/\S+$`)

// run runs a command and returns its stdout; it fails the test with stderr on an error.
func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// install runs dpkg with args, waiting up to a minute while another dpkg or apt holds its lock.
func install(t *testing.T, args ...string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		out, err := exec.Command("dpkg", args...).CombinedOutput()
		if err == nil {
			return
		}
		if !bytes.Contains(out, []byte("lock")) || time.Now().After(deadline) {
			t.Fatalf("dpkg %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		time.Sleep(2 * time.Second)
	}
}
