package fabricview_test

import (
	"testing"
	"testing/fstest"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// corpus301 is the NDR fabric's ibdiagnet2 folder (fixtures/corpus/301-...).
const corpus301 = "corpus/301-ndr-cx7-quantum2-fabric-ibdiagnet2-full-run-switch-fw-mismatch-dup-nodedesc/"

// snapshot builds the snapshot of fixtures laid out at snapshot paths (path -> fixture name).
func snapshot(t testing.TB, files map[string]string) *facts.Snapshot {
	t.Helper()
	s, err := build.Snapshot(fixtures.Files(t, files), facts.SourceInfo{Kind: "captures"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fabric301 are two hosts of the NDR fabric of corpus 301: node01 with ibdiagnet2's default
// run (net_dump, pm, db_csv) and node02 with the net_dump of the run two weeks earlier, each
// with an ibstat of its own CX-7 ports (ibstat/PROVENANCE.md: real H100 ibstat blocks with the
// fabric's GUIDs and LIDs).
func fabric301(t testing.TB) map[string]*facts.Snapshot {
	return map[string]*facts.Snapshot{
		"node01": snapshot(t, map[string]string{
			"ibdiagnet2.net_dump": corpus301 + "ibdiagnet2.net_dump",
			"ibdiagnet2.pm":       corpus301 + "ibdiagnet2.pm",
			"ibdiagnet2.db_csv":   corpus301 + "ibdiagnet2.db_csv",
			"ibstat":              "ibstat/ndr-node01-fabric-301-guids.txt",
		}),
		"node02": snapshot(t, map[string]string{
			"ibdiagnet2.net_dump": corpus301 + "run2-2025-03-15-skip-checks/ibdiagnet2.net_dump",
			"ibstat":              "ibstat/ndr-node02-fabric-301-guids.txt",
		}),
	}
}

// snapshotOf builds a snapshot of one capture given as text, at snapshot path name.
func snapshotOf(t testing.TB, name, text string) *facts.Snapshot {
	t.Helper()
	s, err := build.Snapshot(fstest.MapFS{name: {Data: []byte(text)}}, facts.SourceInfo{Kind: "captures"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
