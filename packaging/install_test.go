package packaging

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

var (
	installOnce sync.Once
	installed   string // the rdmadoctor `go install ./cmd/rdmadoctor` wrote
	installErr  error
	gobin       string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if gobin != "" {
		os.RemoveAll(gobin)
	}
	os.Exit(code)
}

// goInstalled runs `go install ./cmd/rdmadoctor` into a temporary GOBIN once, for every test
// of this package, and returns the binary.
func goInstalled(t *testing.T) string {
	t.Helper()
	installOnce.Do(func() {
		dir, err := os.MkdirTemp("", "rdmadoctor-gobin-")
		if err != nil {
			installErr = err
			return
		}
		gobin = dir
		install := exec.Command("go", "install", "./cmd/rdmadoctor")
		install.Dir = ".."
		// The go command's own default (a machine's go env may set -buildvcs=false).
		install.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=-buildvcs=auto")
		if out, err := install.CombinedOutput(); err != nil {
			installErr = &exec.Error{Name: "go install ./cmd/rdmadoctor: " + string(out), Err: err}
			return
		}
		installed = filepath.Join(dir, "rdmadoctor")
	})
	if installErr != nil {
		t.Fatal(installErr)
	}
	return installed
}

// TestGoInstall: `go install ./cmd/rdmadoctor` (what `go install ...@latest` does, from this
// checkout) makes a binary whose `version` agrees with what the go command stamped into it
// (`go version -m`): in a git checkout the commit and its time, else devel and unknown.
func TestGoInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := goInstalled(t)
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatalf("rdmadoctor version: %v", err)
	}
	meta, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatalf("go version -m: %v", err)
	}
	setting := func(key string) string {
		m := regexp.MustCompile(`(?m)^\s*build\s+` + regexp.QuoteMeta(key) + `=(\S+)$`).FindSubmatch(meta)
		if m == nil {
			return ""
		}
		return string(m[1])
	}
	modVersion := "devel"
	if m := regexp.MustCompile(`(?m)^\s*mod\s+github.com/rdmadoctor/rdmadoctor\s+(\S+)`).FindSubmatch(meta); m != nil && string(m[1]) != "(devel)" {
		modVersion = string(m[1])
	}
	want := "rdmadoctor " + modVersion + "\n"
	if rev := setting("vcs.revision"); rev != "" {
		want += "commit: " + rev
		if setting("vcs.modified") == "true" {
			want += " (modified)"
		}
		want += "\ndate: " + setting("vcs.time") + " (commit time)\n"
	} else {
		want += "commit: unknown\ndate: unknown\n"
	}
	if !strings.HasPrefix(string(out), want) {
		t.Errorf("rdmadoctor version of a go install:\n%s\nwant it to begin:\n%s\n(go version -m:\n%s)", out, want, meta)
	}
	t.Logf("go install ./cmd/rdmadoctor; rdmadoctor version:\n%s", out)
}
