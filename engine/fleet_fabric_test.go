package engine_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/fabricview"
	factsummary "github.com/rdmadoctor/rdmadoctor/facts/summary"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

const corpus301 = "corpus/301-ndr-cx7-quantum2-fabric-ibdiagnet2-full-run-switch-fw-mismatch-dup-nodedesc/"

// fabricFleet builds the fleet document of nodes (host -> snapshot path -> fixture) with the
// fabric view as the fleet command builds it.
func fabricFleet(t *testing.T, nodes map[string]map[string]string) *facts.Fleet {
	t.Helper()
	doc := &facts.Fleet{SchemaVersion: facts.FleetSchemaVersion}
	v := fabricview.New()
	for _, h := range []string{"node01", "node02", "node03"} {
		files, ok := nodes[h]
		if !ok {
			continue
		}
		s, err := build.Snapshot(fixtures.Files(t, files), facts.SourceInfo{Kind: "captures", Path: h})
		if err != nil {
			t.Fatal(err)
		}
		doc.Nodes = append(doc.Nodes, factsummary.Summarize(s, h))
		v.Add(h, s)
	}
	doc.Fabric = v.Fabric()
	return doc
}

// Corpus 301's NDR fabric seen by two nodes (node01: ibdiagnet2's default run, node02: the
// net_dump of an earlier run; each with the ibstat of its own ports, fixtures/ibstat
// PROVENANCE): ibdiagnet2.pm shows node01 mlx5_3 receiving symbol and receive errors since the
// counters were last cleared, not rising during the sample, while its leaf switch port counts
// none. That is node01's HCA end, as history (info); no cable has errors at both ends.
func TestFleetFabric301(t *testing.T) {
	doc := fabricFleet(t, map[string]map[string]string{
		"node01": {
			"ibdiagnet2.net_dump": corpus301 + "ibdiagnet2.net_dump",
			"ibdiagnet2.pm":       corpus301 + "ibdiagnet2.pm",
			"ibdiagnet2.db_csv":   corpus301 + "ibdiagnet2.db_csv",
			"ibstat":              "ibstat/ndr-node01-fabric-301-guids.txt",
		},
		"node02": {
			"ibdiagnet2.net_dump": corpus301 + "run2-2025-03-15-skip-checks/ibdiagnet2.net_dump",
			"ibstat":              "ibstat/ndr-node02-fabric-301-guids.txt",
		},
	})
	ds, skipped := diagnoseFleet(t, doc)
	for _, s := range skipped {
		if strings.HasPrefix(s.ID, "fleet-link-errors") {
			t.Errorf("%s skipped: %s", s.ID, s.Reason)
		}
	}
	if both := fleetByID(ds, "fleet-link-errors-both-ends"); len(both) != 0 {
		t.Errorf("fleet-link-errors-both-ends on 301: %+v", both)
	}
	var mine []string
	for _, d := range fleetByID(ds, "fleet-link-errors-one-end") {
		if strings.Join(d.Nodes, ",") == "node01" {
			mine = append(mine, d.Message)
			if d.Severity != "info" || d.Confidence != "low" || d.Subject.Device != "mlx5_3" {
				t.Errorf("node01's finding %+v", d)
			}
			if len(d.Evidence) < 3 || d.Evidence[0].Host != "node01" || d.Evidence[0].Path != "ibdiagnet2.pm" || d.Evidence[0].Text != "port_rcv_errors=0x00001872" {
				t.Errorf("evidence %+v", d.Evidence)
			}
			if len(d.Fix) == 0 || !strings.Contains(d.Fix[0].Command, "mlx5_3") {
				t.Errorf("fix %+v", d.Fix)
			}
		}
	}
	want := `CA "node01 mlx5_3" port 1 (0x5c25730300e66b0e) (node01's mlx5_3 port 1) receives errors (port_rcv_errors 6258 since last clear (seen by node01), symbol_error 65535 since last clear (seen by node01)) while switch 0xfc6a1c030091f600 "Quantum-2 Mellanox Technologies" port 1 (1/1/1) at the other end of its cable counts none: the receive path into CA "node01 mlx5_3" port 1 (0x5c25730300e66b0e) - its port or module, or the far end's transmitter`
	if len(mine) != 1 || mine[0] != want {
		t.Errorf("node01's one-end findings:\n%s\nwant\n%s", strings.Join(mine, "\n"), want)
	}
}

// The four nodes of fixtures/sminfo/wrapped-multi-node.txt (each its own section of the cluster
// shell's output) reach master 0x0002c90200259201, and a fifth node's sminfo (corpus 112) reaches
// another master: no capture puts their ports in one subnet, so nothing is compared.
func TestFleetFabricSMWithoutSubnets(t *testing.T) {
	sections := strings.Split(string(fixtures.Read(t, "sminfo/wrapped-multi-node.txt")), "--------- ")
	doc := &facts.Fleet{SchemaVersion: facts.FleetSchemaVersion}
	v := fabricview.New()
	add := func(host, text string) {
		s, err := build.Snapshot(fstest.MapFS{"sminfo": {Data: []byte(text)}}, facts.SourceInfo{Kind: "captures", Path: host})
		if err != nil {
			t.Fatal(err)
		}
		doc.Nodes = append(doc.Nodes, factsummary.Summarize(s, host))
		v.Add(host, s)
	}
	for _, sec := range sections[1:5] {
		host, out, _ := strings.Cut(sec, "---------\n")
		add(host, out)
	}
	add("node05", string(fixtures.Read(t, "sminfo/master.txt")))
	doc.Fabric = v.Fabric()
	if n := len(doc.Fabric.SMViews); n != 5 {
		t.Fatalf("%d sm views, want 5", n)
	}
	ds, skipped := diagnoseFleet(t, doc)
	for _, s := range skipped {
		if s.ID == "fleet-sm-conflict" {
			t.Errorf("fleet-sm-conflict skipped with five sminfo answers: %s", s.Reason)
		}
	}
	if got := fleetByID(ds, "fleet-sm-conflict"); len(got) != 0 {
		t.Errorf("masters of unknown subnets compared: %+v", got)
	}
}
