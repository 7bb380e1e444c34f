package main

import (
	"bytes"
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
