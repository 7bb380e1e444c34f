package source_test

import (
	"os"
	"os/exec"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/internal/xzahead"
)

// TestEarlyDecoder: the xz-utils decoder started for an archive before the program initialised
// (internal/xzahead) is what reads that archive, with the same tree as one started on the
// spot; it is left alone, for main to stop, when the pure-Go decoder is asked for or another
// archive is read.
func TestEarlyDecoder(t *testing.T) {
	if _, err := exec.LookPath("xz"); err != nil {
		t.Skip("xz-utils not installed")
	}
	raw := xzBytes(t, tarBytes(t, sosMembers()...))
	dir := t.TempDir()
	p, other := writeFile(t, dir, "report.tar.xz", raw), writeFile(t, dir, "other.tar.xz", raw)
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	defer xzahead.Stop()
	open := func(path string, opt source.Options) []string {
		t.Helper()
		fsys, _, err := source.OpenWith(path, opt)
		if err != nil {
			t.Fatal(err)
		}
		return walk(t, fsys)
	}
	want := open(p, source.Options{})

	xzahead.Start(p)
	if diff := cmp.Diff(want, open(p, source.Options{})); diff != "" {
		t.Errorf("read with the early decoder (-started now +early):\n%s", diff)
	}
	if d := xzahead.Take(st); d != nil {
		d.Finish(true)
		t.Error("the early decoder was not taken")
	}

	for _, tc := range []struct {
		name string
		path string
		opt  source.Options
	}{
		{"pure Go", p, source.Options{PureGoXZ: true}},
		{"another archive", other, source.Options{}},
	} {
		xzahead.Start(p)
		if diff := cmp.Diff(want, open(tc.path, tc.opt)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
		d := xzahead.Take(st)
		if d == nil {
			t.Errorf("%s: the early decoder was taken", tc.name)
			continue
		}
		d.Finish(true)
	}
}
