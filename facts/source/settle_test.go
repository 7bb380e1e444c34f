package source_test

import (
	"fmt"
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

// unrelated returns n members of a sosreport that nothing reads (etc/ files).
func unrelated(top string, from, n int) []member {
	var ms []member
	for i := from; i < from+n; i++ {
		ms = append(ms, reg(fmt.Sprintf("%s/etc/unrelated-%d.conf", top, i), "x=1\n"))
	}
	return ms
}

// TestSettledView: once the stream has gone on past the captures for a while, Settled is
// offered a view that is what OpenWith returns had the archive ended there, a copy that the
// reading, which goes on, does not change; it is offered again only after what is kept changed.
func TestSettledView(t *testing.T) {
	top := "sosreport-node01-2024-05-01-abcdef"
	ms := []member{
		dir(top), dir(top + "/sos_commands"), dir(top + "/sos_commands/infiniband"),
		reg(top+"/sos_commands/infiniband/ibstat", "CA 'mlx5_0'\n"),
	}
	ms = append(ms, unrelated(top, 0, 40)...)
	ms = append(ms, dir(top+"/sos_commands/kernel"), reg(top+"/sos_commands/kernel/lsmod", "Module Size Used by\n"))
	ms = append(ms, unrelated(top, 40, 40)...)
	raw := tarBytes(t, ms...)
	for _, name := range []string{"report.tar", "report.tar.xz"} {
		t.Run(name, func(t *testing.T) {
			data := raw
			if name == "report.tar.xz" {
				data = xzBytes(t, raw)
			}
			p := writeFile(t, t.TempDir(), name, data)
			type view struct {
				fsys fs.FS
				info facts.SourceInfo
			}
			var views []view
			offers := 0
			settled := func(v func() (fs.FS, facts.SourceInfo, bool)) {
				offers++
				if offers%3 != 0 {
					return // not taken: offered again with the next member
				}
				fsys, info, ok := v()
				if !ok {
					t.Fatal("view: false")
				}
				views = append(views, view{fsys, info})
			}
			fsys, info, err := source.OpenWith(p, source.Options{Settled: settled})
			if err != nil {
				t.Fatal(err)
			}
			if len(views) != 2 {
				t.Fatalf("%d views taken, want 2 (one after each capture); %d offers", len(views), offers)
			}
			// The first view: what was kept before lsmod; the reading went on without it.
			want := []string{"d .", "d sos_commands", "d sos_commands/infiniband", "f sos_commands/infiniband/ibstat"}
			if diff := cmp.Diff(want, walk(t, views[0].fsys)); diff != "" {
				t.Errorf("first view (-want +got):\n%s", diff)
			}
			if want := (facts.SourceInfo{Kind: "sosreport", Path: p}); views[0].info != want || info != want {
				t.Errorf("info: view %+v, OpenWith %+v; want %+v", views[0].info, info, want)
			}
			// The last view is the whole snapshot: nothing was kept after it.
			if diff := cmp.Diff(walk(t, fsys), walk(t, views[1].fsys)); diff != "" {
				t.Errorf("last view against the archive read whole (-whole +view):\n%s", diff)
			}
			b, err := fs.ReadFile(views[1].fsys, "sos_commands/kernel/lsmod")
			if err != nil || string(b) != "Module Size Used by\n" {
				t.Errorf("view's lsmod = %q, %v", b, err)
			}
			// The files not kept are counted as far as the view saw them: it was taken at the
			// third offer, the 34th unrelated member after each capture.
			for i, want := range []int{34, 74} {
				if got := views[i].fsys.(interface{ SkippedFiles() int }).SkippedFiles(); got != want {
					t.Errorf("view %d: %d files skipped, want %d", i, got, want)
				}
			}
		})
	}
}

// TestSettledWaits: Settled is not offered while members are still kept, nor for an archive
// that never goes settleAfter members past its last change.
func TestSettledWaits(t *testing.T) {
	top := "sosreport-node01-2024-05-01-abcdef"
	ms := []member{dir(top), dir(top + "/sos_commands"), dir(top + "/sos_commands/infiniband")}
	for i := range 100 {
		ms = append(ms, reg(fmt.Sprintf("%s/sos_commands/infiniband/ibstat_%d", top, i), "CA 'mlx5_0'\n"))
	}
	ms = append(ms, unrelated(top, 0, 10)...)
	p := writeFile(t, t.TempDir(), "report.tar", tarBytes(t, ms...))
	offers := 0
	if _, _, err := source.OpenWith(p, source.Options{Settled: func(func() (fs.FS, facts.SourceInfo, bool)) { offers++ }}); err != nil {
		t.Fatal(err)
	}
	if offers != 0 {
		t.Errorf("Settled offered %d times, want none", offers)
	}
}

// TestSettledNoViewOfAFolderOfCaptures: a top folder named like a sosreport without
// sos_commands/ is read again whole at the end (every file a capture): no view says what that
// reading will keep.
func TestSettledNoViewOfAFolderOfCaptures(t *testing.T) {
	top := "sosreport-node01-2024-05-01-abcdef"
	ms := []member{dir(top), dir(top + "/etc")}
	ms = append(ms, unrelated(top, 0, 40)...)
	p := writeFile(t, t.TempDir(), "report.tar", tarBytes(t, ms...))
	taken, ok := 0, true
	settled := func(v func() (fs.FS, facts.SourceInfo, bool)) {
		taken++
		_, _, ok = v()
	}
	if _, _, err := source.OpenWith(p, source.Options{Settled: settled}); err != nil {
		t.Fatal(err)
	}
	if taken == 0 || ok {
		t.Errorf("views taken %d, last ok %v; want at least one, false", taken, ok)
	}
}
