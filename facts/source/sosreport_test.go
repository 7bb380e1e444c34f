package source_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

// A real sosreport of this machine, made once per test binary by `sos report`.
var sos struct {
	once    sync.Once
	dir     string // temporary folder holding the report; removed by TestMain
	archive string // the .tar.xz sos wrote
	skip    string // why there is none
	err     error
}

func removeSosreport() {
	if sos.dir != "" {
		os.RemoveAll(sos.dir)
	}
}

// realSosreport returns the path of a sosreport made on this machine. Without sos, or without
// root, the test is skipped, unless RDMADOCTOR_REQUIRE_TOOLS=1 (set by CI) makes that a failure.
func realSosreport(t *testing.T) string {
	t.Helper()
	sos.once.Do(func() {
		if _, err := exec.LookPath("sos"); err != nil {
			sos.skip = "sos is not installed"
			return
		}
		if os.Geteuid() != 0 {
			sos.skip = "sos report needs root"
			return
		}
		if sos.dir, sos.err = os.MkdirTemp("", "rdmadoctor-sos-"); sos.err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 110*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, "sos", "report", "--batch", "--tmp-dir", sos.dir,
			"-o", "infiniband,networking,pci,kernel,processor", "--label", "test")
		out, err := cmd.CombinedOutput()
		if err != nil {
			sos.err = fmt.Errorf("sos report: %v\n%s", err, out)
			return
		}
		found, _ := filepath.Glob(filepath.Join(sos.dir, "sosreport-*.tar.*"))
		for _, f := range found {
			if !strings.HasSuffix(f, ".md5") && !strings.HasSuffix(f, ".sha256") {
				sos.archive = f
			}
		}
		if sos.archive == "" {
			sos.err = fmt.Errorf("sos report wrote no archive in %s:\n%s", sos.dir, out)
		}
	})
	if sos.skip != "" {
		if os.Getenv("RDMADOCTOR_REQUIRE_TOOLS") == "1" {
			t.Fatalf("RDMADOCTOR_REQUIRE_TOOLS=1 but %s", sos.skip)
		}
		t.Skip(sos.skip)
	}
	if sos.err != nil {
		t.Fatal(sos.err)
	}
	return sos.archive
}

func TestRealSosreport(t *testing.T) {
	archive := realSosreport(t)
	fsys, info, err := source.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	if want := (facts.SourceInfo{Kind: "sosreport", Path: archive}); info != want {
		t.Errorf("info = %+v, want %+v", info, want)
	}
	for _, plugin := range []string{"networking", "pci", "kernel"} {
		es, err := fs.ReadDir(fsys, "sos_commands/"+plugin)
		if err != nil || len(es) == 0 {
			t.Errorf("sos_commands/%s: %d entries, %v", plugin, len(es), err)
		}
	}
	// Nothing reads sos's own logs or the processor plugin's commands (lscpu, cpupower):
	// skipped by their paths as the archive streams by.
	for _, name := range []string{"sos_logs", "sos_commands/processor"} {
		if _, err := fs.Stat(fsys, name); err == nil {
			t.Errorf("%s was kept; build.Select skips it", name)
		}
	}

	// sos's manifest is kept: it alone says which commands sos cut at their timeout.
	if _, err := fs.Stat(fsys, build.SosManifest); err != nil {
		t.Errorf("%s was not kept: %v", build.SosManifest, err)
	}

	s, err := build.Snapshot(fsys, info)
	if err != nil {
		t.Fatal(err)
	}
	// The real manifest is read: not named as a source that could not be (no command of this
	// run times out).
	for _, src := range s.Sources {
		if src.Origin == build.SosManifest {
			t.Errorf("the manifest is a source: %+v", src)
		}
	}
	if s.Source != info {
		t.Errorf("snapshot source = %+v, want %+v", s.Source, info)
	}
	if len(s.Devices) != 0 {
		t.Errorf("devices = %+v, want none on a machine without RDMA hardware", s.Devices)
	}
	if len(s.Sources) == 0 {
		t.Fatal("no sources listed")
	}
	var fromSos int
	for _, src := range s.Sources {
		if strings.HasPrefix(src.Origin, "sos_commands/") {
			fromSos++
		}
	}
	if fromSos == 0 {
		t.Errorf("no source names a sos_commands/ file: %+v", s.Sources)
	}
	t.Logf("%d sources, %d from sos_commands/", len(s.Sources), fromSos)

	// The archive gives the snapshot the extracted report gives, the count of the files
	// nothing reads included: the archive skips them as it streams, the walk of the folder
	// does not open them.
	dir := filepath.Join(sos.dir, "extracted")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("tar", "-xf", archive, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	dfs, dinfo, err := source.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := build.Snapshot(dfs, dinfo)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sourceLines(ds), sourceLines(s)); diff != "" {
		t.Errorf("sources, extracted folder vs archive (-dir +archive):\n%s", diff)
	}
}

// sourceLines lists the sources, one line each.
func sourceLines(s *facts.Snapshot) []string {
	var out []string
	for _, src := range s.Sources {
		out = append(out, fmt.Sprintf("%s %s %s %s", src.Name, src.Origin, src.Status, src.Error))
	}
	sort.Strings(out)
	return out
}
