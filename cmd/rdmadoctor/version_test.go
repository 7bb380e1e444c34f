package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestReadBuildInfo: the -ldflags values win over the build information; the Go version is the
// toolchain's. (A test binary has no VCS settings: its commit and date come only from ldflags.)
func TestReadBuildInfo(t *testing.T) {
	bi := readBuildInfo("1.2.0", "3f2ef67c463b21a11c2832aa90d04656296fe93e", "2026-12-02T03:34:26Z")
	want := buildInfo{Version: "1.2.0", Commit: "3f2ef67c463b21a11c2832aa90d04656296fe93e", Date: "2026-12-02T03:34:26Z",
		GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi != want {
		t.Errorf("readBuildInfo with ldflags = %+v, want %+v", bi, want)
	}
	var out bytes.Buffer
	writeVersion(&out, bi)
	wantOut := "rdmadoctor 1.2.0\ncommit: 3f2ef67c463b21a11c2832aa90d04656296fe93e\ndate: 2026-12-02T03:34:26Z\ngo: " +
		runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	if out.String() != wantOut {
		t.Errorf("writeVersion:\n%s\nwant:\n%s", out.String(), wantOut)
	}
	out.Reset()
	writeVersion(&out, buildInfo{Version: "v0.0.0-20261202033257-3f2ef67c463b+dirty", Commit: "3f2ef67c463b21a11c2832aa90d04656296fe93e",
		Modified: true, Date: "2026-12-02T03:32:57Z", CommitTime: true, GoVersion: "go1.26.8", Platform: "linux/amd64"})
	if want := "commit: 3f2ef67c463b21a11c2832aa90d04656296fe93e (modified)\ndate: 2026-12-02T03:32:57Z (commit time)\n"; !strings.Contains(out.String(), want) {
		t.Errorf("writeVersion of a go build:\n%s\nwant it to contain:\n%s", out.String(), want)
	}
}

// TestGoInstall: `go install ./cmd/rdmadoctor` (what `go install ...@latest` does, from this
// checkout) makes a binary whose `version` agrees with what the go command stamped into it
// (`go version -m`): in a git checkout the commit and its time, else devel and unknown.
func TestGoInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	gobin := t.TempDir()
	install := exec.Command("go", "install", "./cmd/rdmadoctor")
	install.Dir = "../.."
	// The go command's own default (this machine's go env may set -buildvcs=false).
	install.Env = append(os.Environ(), "GOBIN="+gobin, "GOFLAGS=-buildvcs=auto")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install ./cmd/rdmadoctor: %v\n%s", err, out)
	}
	bin := filepath.Join(gobin, "rdmadoctor")
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
