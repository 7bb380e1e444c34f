package build_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// copiedSysfs copies corpus case 005's /sys/class/infiniband (nine HCAs of an H100 node, a real tree)
// into a temporary folder and applies edit to each of its files; it returns the snapshot built
// from the copy.
func copiedSysfs(t *testing.T, edit func(rel string, b []byte) []byte) *facts.Snapshot {
	t.Helper()
	src := filepath.Join(fixtures.CorpusDir(t), "005-h100-ib-ndr-sysfs-tree-link-downed-255")
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "CASE.md"))
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		return os.WriteFile(p, edit(filepath.ToSlash(rel), b), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := build.Snapshot(os.DirFS(dir), facts.SourceInfo{Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// portStates counts the ports of s whose state was read, by device.
func portStates(s *facts.Snapshot) map[string]int {
	n := map[string]int{}
	for _, d := range s.Devices {
		for _, p := range d.Ports {
			if p.State != "" {
				n[d.Name]++
			}
		}
	}
	return n
}

// TestCopiedSysfsKeepsTheRest: in a copy of /sys/class/infiniband, one attribute that cannot be
// read (the empty file `cp -r` leaves for a read that failed, here VL15_dropped of every port)
// takes that value only: each device's source is partial naming the file, the port states and the
// other counters are read, and the groups they feed stay available to the rules. NUL bytes that
// tar pads a shrunk file with (every file padded to 4096 bytes) are no part of a value.
func TestCopiedSysfsKeepsTheRest(t *testing.T) {
	whole := copiedSysfs(t, func(_ string, b []byte) []byte { return b })
	if len(portStates(whole)) != 9 {
		t.Fatalf("the tree as it is: port states of %d devices, want 9", len(portStates(whole)))
	}

	empty := copiedSysfs(t, func(rel string, b []byte) []byte {
		if strings.HasSuffix(rel, "/counters/VL15_dropped") {
			return nil
		}
		return b
	})
	if got, want := portStates(empty), portStates(whole); len(got) != len(want) {
		t.Errorf("with VL15_dropped empty: port states of %d devices, want %d", len(got), len(want))
	}
	partial := 0
	for _, src := range empty.Sources {
		if src.Name != "sysfs_infiniband" {
			continue
		}
		if src.Status != facts.StatusPartial || !strings.Contains(src.Error, "VL15_dropped") {
			t.Errorf("source %s: %s %q, want partial naming VL15_dropped", src.Origin, src.Status, src.Error)
		}
		partial++
	}
	if partial != 9 {
		t.Errorf("%d partial sysfs_infiniband sources, want 9", partial)
	}
	if got, want := strings.Join(empty.Available, ","), strings.Join(whole.Available, ","); got != want {
		t.Errorf("fact groups available with VL15_dropped empty: %s, want %s", got, want)
	}

	padded := copiedSysfs(t, func(_ string, b []byte) []byte {
		return append(b, make([]byte, max(0, 4096-len(b)))...)
	})
	for _, src := range padded.Sources {
		if src.Name == "sysfs_infiniband" && src.Status != facts.StatusOK {
			t.Errorf("padded with NULs: source %s is %s: %s", src.Origin, src.Status, facts.Clip(src.Error, 200))
		}
	}
	if got, want := portStates(padded), portStates(whole); len(got) != len(want) {
		t.Errorf("padded with NULs: port states of %d devices, want %d", len(got), len(want))
	}
}
