package build_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
)

// corpusFile reads one file of a corpus case, for tests that lay real captures out differently.
func corpusFile(t *testing.T, num, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpusDir(t, num), name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSeveralHostsRefused: real captures of two hosts laid out in one folder per host are refused
// with the folders named, never merged into one node.
func TestSeveralHostsRefused(t *testing.T) {
	ibstat1, ibstat2 := corpusFile(t, "018", "ibstat_node01"), corpusFile(t, "018", "ibstat_node02")
	ibstatus2 := corpusFile(t, "119", "ibstatus__node02")
	for _, tc := range []struct {
		name string
		fsys fstest.MapFS
		want build.SeveralHostsError
	}{
		{"018 ibstat of node01 and node02 in their folders", fstest.MapFS{
			"node01/ibstat": {Data: ibstat1}, "node02/ibstat": {Data: ibstat2},
		}, build.SeveralHostsError{Folders: []string{"node01", "node02"}, Why: "ibstat in each", Path: "snap"}},
		{"one host at the top, another in a folder", fstest.MapFS{
			"ibstat": {Data: ibstat1}, "node02/sos_commands/infiniband/ibstat": {Data: ibstat2},
		}, build.SeveralHostsError{Folders: []string{".", "node02"}, Why: "ibstat in each", Path: "snap"}},
		// The hostname files are one word each (the format parse.Uname reads from /etc/hostname),
		// named as corpus 119 names the nodes; the tools differ, so only the names tell the hosts apart.
		{"different hostname files", fstest.MapFS{
			"a/ibstat": {Data: ibstat1}, "a/etc/hostname": {Data: []byte("node01\n")},
			"b/ibstatus": {Data: ibstatus2}, "b/etc/hostname": {Data: []byte("node02\n")},
		}, build.SeveralHostsError{Folders: []string{"a", "b"}, Why: "hostname node01, node02", Path: "snap"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := build.Snapshot(tc.fsys, facts.SourceInfo{Kind: "captures", Path: "snap"})
			var got *build.SeveralHostsError
			if !errors.As(err, &got) {
				t.Fatalf("err = %v, want a SeveralHostsError", err)
			}
			if diff := cmp.Diff(tc.want, *got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestSeveralHostsMessage(t *testing.T) {
	err := &build.SeveralHostsError{Folders: []string{"node01", "node02"}, Why: "ibstat in each", Path: "cases/x"}
	want := "node01/ and node02/ look like two hosts' captures (ibstat in each); diagnose one host at a time: --snapshot cases/x/node01, or all of them with `rdmadoctor fleet cases/x`"
	if err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
}

// TestOneHostCapturesKeptApart: captures of one host at two times, or of two hosts told apart
// by "__label"s in one folder (the corpus convention), are separate device records, each with
// the facts of its own file only.
func TestOneHostCapturesKeptApart(t *testing.T) {
	type rec struct {
		Capture string
		States  []string // port states, by port number
		Paths   []string // files the port states were read from
	}
	before := corpusFile(t, "018", "ibstat_node01") // Active
	after := corpusFile(t, "017", "ibstat")         // Initializing
	hostname := []byte("node01\n")                  // one word, as /etc/hostname
	for _, tc := range []struct {
		name string
		fsys fstest.MapFS
		dev  string
		want []rec
	}{
		{"119 ibstatus of two nodes by label", dirFS(t, corpusDir(t, "119"), "ibstatus"), "mlx4_0", []rec{
			{"", []string{"Active", "Initializing"}, []string{"ibstatus__node01", "ibstatus__node01"}},
			{"node02", []string{"Down", "Active"}, []string{"ibstatus__node02", "ibstatus__node02"}},
		}},
		{"018 ibstat of two nodes by name", dirFS(t, corpusDir(t, "018"), "ibstat"), "ibp4s0", []rec{
			{"", []string{"Active"}, []string{"ibstat_node01"}},
			{"node02", []string{"Active"}, []string{"ibstat_node02"}},
		}},
		{"before/ and after/ folders of one host", fstest.MapFS{"before/ibstat": {Data: before}, "after/ibstat": {Data: after}}, "ibp4s0", []rec{
			{"", []string{"Initializing"}, []string{"after/ibstat"}},
			{"before", []string{"Active"}, []string{"before/ibstat"}},
		}},
		{"folders whose hostname files agree", fstest.MapFS{
			"x/ibstat": {Data: before}, "x/hostname": {Data: hostname},
			"y/ibstat": {Data: after}, "y/hostname": {Data: hostname},
		}, "ibp4s0", []rec{
			{"", []string{"Active"}, []string{"x/ibstat"}},
			{"y", []string{"Initializing"}, []string{"y/ibstat"}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := snapshotOf(t, tc.fsys)
			var got []rec
			for _, d := range s.Devices {
				if d.Name != tc.dev {
					continue
				}
				r := rec{Capture: d.Capture}
				for _, p := range d.Ports {
					r.States = append(r.States, p.State)
					r.Paths = append(r.Paths, p.Evidence["state"].Path)
				}
				got = append(got, r)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s records (-want +got):\n%s", tc.dev, diff)
			}
		})
	}
}
