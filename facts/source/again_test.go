package source_test

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
)

// TestMemberAgain: a member that comes twice (`tar -r` appends it again) is read as tar -x
// leaves it, the last copy, and the archive is partial naming it: its first copy is not read. A
// folder that comes again (each member's parent, written twice) is nothing to say.
func TestMemberAgain(t *testing.T) {
	b := gzipBytes(t, tarBytes(t,
		dir("node/"),
		reg("node/ibstat", "first copy\n"),
		dir("node/"),
		reg("node/notes.txt", "x\n"),
		reg("node/ibstat", "second copy\n"),
	))
	path := writeFile(t, t.TempDir(), "again.tar.gz", b)
	fsys, info, err := source.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	got := fsys.(interface{ MembersAgain() source.Again }).MembersAgain()
	if got.Members != 1 || len(got.Names) != 1 || !strings.HasSuffix(got.Names[0], "ibstat") {
		t.Errorf("MembersAgain = %+v, want ibstat once", got)
	}
	body, err := fs.ReadFile(fsys, "ibstat") // below the report's top folder, node/
	if err != nil || string(body) != "second copy\n" {
		t.Errorf("ibstat reads %q, %v; want the last copy", body, err)
	}
	s, err := build.Snapshot(fsys, info)
	if err != nil {
		t.Fatal(err)
	}
	var partial []facts.Source
	for _, src := range s.Sources {
		if src.Name == "archive" {
			partial = append(partial, src)
		}
	}
	if len(partial) != 1 || partial[0].Status != facts.StatusPartial || !strings.Contains(partial[0].Error, `1 member(s) come more than once in the archive ("node/ibstat")`) {
		t.Errorf("archive sources %+v, want one partial naming node/ibstat", partial)
	}

	once := gzipBytes(t, tarBytes(t, dir("node/"), reg("node/ibstat", "only copy\n"), dir("node/")))
	fsys, _, err = source.Open(writeFile(t, t.TempDir(), "once.tar.gz", once))
	if err != nil {
		t.Fatal(err)
	}
	if got := fsys.(interface{ MembersAgain() source.Again }).MembersAgain(); got.Members != 0 {
		t.Errorf("a folder written twice: MembersAgain = %+v, want none", got)
	}
}
