package main

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/ulikunitz/xz"

	"github.com/rdmadoctor/rdmadoctor/facts/live"
	"github.com/rdmadoctor/rdmadoctor/facts/live/livetest"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// sosTarXz writes a sosreport-shaped .tar.xz at path: the files (sos path -> fixture path)
// below sosreport-<host>-2024/, with sos_commands/host/hostname naming host.
func sosTarXz(t *testing.T, path, host string, files map[string]string) {
	t.Helper()
	var b bytes.Buffer
	xw, err := xz.NewWriter(&b)
	if err != nil {
		t.Fatal(err)
	}
	tw := tar.NewWriter(xw)
	add := func(name string, body []byte) {
		if err := tw.WriteHeader(&tar.Header{Name: "sosreport-" + host + "-2024/" + name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(body); err != nil {
			t.Fatal(err)
		}
	}
	add("sos_commands/host/hostname", []byte(host+"\n"))
	for name, fixture := range files {
		add(name, fixtures.Read(t, fixture))
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := xw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fleetReport runs fleet with --format json and decodes the report.
func fleetReport(t *testing.T, wantCode int, args ...string) *report.Fleet {
	t.Helper()
	code, stdout, stderr := runCLI(t, append([]string{"fleet", "--format", "json"}, args...)...)
	if code != wantCode {
		t.Fatalf("fleet %q: exit %d, want %d\n%s", args, code, wantCode, stderr)
	}
	var f report.Fleet
	if err := json.Unmarshal([]byte(stdout), &f); err != nil {
		t.Fatalf("fleet report: %v\n%s", err, stdout)
	}
	return &f
}

// TestFleetGatherOutputsAndSosreports: one folder holding 3 gather outputs (rdmadoctor gather
// of the fake H100 root, livetest) and 2 sosreport .tar.xz archives (corpus captures laid out as
// sos writes them) is one fleet of 5 nodes: the gather outputs are one host (the build VM's
// hostname, which the stubs print) labelled vm, vm#2, vm#3; the archives are named by their
// hostname files; each node has the diagnoses diagnose gives it alone.
func TestFleetGatherOutputsAndSosreports(t *testing.T) {
	e := livetest.New(t, "root-h100.txtar", livetest.Stubs())
	t.Setenv(live.ToolPathEnv, e.Bin)
	dir := filepath.Join(t.TempDir(), "fleet")
	gathered := filepath.Join(dir, "gather-a")
	if code, _, stderr := runCLI(t, "gather", "-q", "--root", e.Root, "-o", gathered); code != 0 {
		t.Fatalf("gather: exit %d\n%s", code, stderr)
	}
	for _, copyTo := range []string{"gather-b", "gather-c"} {
		if err := os.CopyFS(filepath.Join(dir, copyTo), os.DirFS(gathered)); err != nil {
			t.Fatal(err)
		}
	}
	sosTarXz(t, filepath.Join(dir, "sosreport-node04-2024.tar.xz"), "node04", map[string]string{
		"sos_commands/infiniband/ibstat": "corpus/017-cx4-back-to-back-linkup-initializing-no-sm-fdr-cable/ibstat",
	})
	sosTarXz(t, filepath.Join(dir, "sosreport-node05-2024.tar.xz"), "node05", map[string]string{
		"sos_commands/infiniband/ibstat": "corpus/018-cx4-back-to-back-active-after-opensm-fdr-rate/ibstat_node01",
	})

	f := fleetReport(t, exitFindings, dir)
	hostname := strings.TrimSpace(string(fixtures.Read(t, "live/hostname-build-vm.txt")))
	var hosts, statuses []string
	for _, n := range f.Nodes {
		hosts = append(hosts, n.Host)
		statuses = append(statuses, n.Status)
	}
	if diff := cmp.Diff([]string{"node04", "node05", hostname, hostname + "#2", hostname + "#3"}, hosts); diff != "" {
		t.Errorf("hosts (-want +got):\n%s", diff)
	}
	for i, st := range statuses {
		if st == report.NodeUnreadable || st == report.NodeNoRDMA {
			t.Errorf("%s: status %s (%s)", hosts[i], st, f.Nodes[i].Error)
		}
	}
	groups := map[string]report.Group{}
	for _, g := range f.Groups {
		groups[g.ID] = g
	}
	if g := groups["ib-port-no-subnet-manager"]; g.HostList != "node04" {
		t.Errorf("ib-port-no-subnet-manager on %q, want node04", g.HostList)
	}
	if g := groups["link-speed-degraded"]; !strings.Contains(g.HostList, "node05") {
		t.Errorf("link-speed-degraded on %q, want node05 among them", g.HostList)
	}
	// The gather outputs' own diagnoses, grouped on all three copies.
	_, alone, _ := runCLI(t, "diagnose", "--snapshot", gathered, "--format", "json", "--fail-on", "none")
	ds := diagnoses(t, alone)
	if len(ds) == 0 {
		t.Fatal("the gather output has no diagnosis")
	}
	for _, d := range ds {
		id := d.(map[string]any)["id"].(string)
		g := groups[id]
		gathers := 0
		for _, h := range g.Nodes {
			if strings.HasPrefix(h, hostname) {
				gathers++
			}
		}
		if gathers != 3 || !strings.Contains(g.HostList, hostname+","+hostname+"#[2-3]") {
			t.Errorf("group %s on %q, want the three gather outputs among them", id, g.HostList)
		}
	}
	for _, n := range f.Nodes[2:] {
		if len(n.Diagnoses) != len(ds) {
			t.Errorf("%s: %d diagnoses, diagnose gives %d", n.Host, len(n.Diagnoses), len(ds))
		}
	}
}

// TestFleetReportMatchesSchema: the fleet report of the whole corpus and every scenario, in one
// run, is valid under docs/fleet-report.schema.json (OPA's json.match_schema).
func TestFleetReportMatchesSchema(t *testing.T) {
	schema, err := os.ReadFile("../../docs/fleet-report.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	sv, err := ast.ValueFromReader(bytes.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "fleet", "--format", "json", "--fail-on", "none", fixtures.CorpusDir(t), fixtures.Path("scenarios"))
	if code != 0 {
		t.Fatalf("fleet: exit %d\n%s", code, stderr)
	}
	doc, err := ast.ValueFromReader(strings.NewReader(stdout))
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := doc.(ast.Object).Get(ast.StringTerm("nodes")).Value.(*ast.Array); n == nil || n.Len() < 60 {
		t.Fatalf("fleet of the corpus and scenarios: %v nodes, want 60+", n)
	}
	pq, err := rego.New(rego.Query("[ok, errs] := json.match_schema(input.report, input.schema)")).PrepareForEval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rs, err := pq.Eval(context.Background(), rego.EvalParsedInput(ast.NewObject(
		[2]*ast.Term{ast.StringTerm("report"), ast.NewTerm(doc)}, [2]*ast.Term{ast.StringTerm("schema"), ast.NewTerm(sv)})))
	if err != nil || len(rs) != 1 {
		t.Fatalf("json.match_schema: %v %v", rs, err)
	}
	if ok, _ := rs[0].Bindings["ok"].(bool); !ok {
		t.Errorf("fleet report does not match docs/fleet-report.schema.json: %v", rs[0].Bindings["errs"])
	}
}

// TestFolderOfFolders: racks/rack1/node001/... of real corpus captures (002 ibstat, 005 a
// copied sys tree, 003 captures) is three nodes for fleet (rack2 holds only node003: it is that node), never one node without RDMA; a
// stray ibstat note at its top is named as not read; diagnose refuses the racks as a folder of
// several snapshots and points to fleet (exit 2) rather than reporting no RDMA.
func TestFolderOfFolders(t *testing.T) {
	root := filepath.Join(t.TempDir(), "racks")
	for c, dst := range map[string]string{"002": "rack1/node001", "005": "rack1/node002", "003": "rack2/node003"} {
		if err := os.CopyFS(filepath.Join(root, dst), os.DirFS(corpusCase(t, c))); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "ibstat"), []byte("ibstat of the head node: see the ticket\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "fleet", "--format", "json", root)
	var f report.Fleet
	if err := json.Unmarshal([]byte(stdout), &f); err != nil {
		t.Fatalf("exit %d: %v\n%s", code, err, stderr)
	}
	var hosts []string
	for _, n := range f.Nodes {
		hosts = append(hosts, n.Host+" "+string(n.Status))
		if n.Status == report.NodeNoRDMA || n.Status == report.NodeUnreadable {
			t.Errorf("node %s: %s", n.Host, n.Status)
		}
	}
	if len(hosts) != 3 {
		t.Errorf("nodes %q, want node001, node002, node003", hosts)
	}
	if !strings.Contains(stderr, filepath.Join(root, "ibstat")+": a capture beside snapshot folders, of none of them: not read") {
		t.Errorf("stderr does not name the stray ibstat:\n%s", stderr)
	}

	code, _, stderr = runCLI(t, "diagnose", "--snapshot", root)
	if code != exitUsage || !strings.Contains(stderr, "is a folder of 3 snapshots, not one node's: rack1/node001 (ibstat), rack1/node002 (sys/), rack2 (node003/ (ibstat))") ||
		!strings.Contains(stderr, "run `rdmadoctor fleet "+root+"`") {
		t.Errorf("diagnose --snapshot racks: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestFleetFabricInJSON: the merged fabric the fleet rules judge is in the fleet document
// (JSON and YAML): corpus 301's NDR fabric as two nodes saw it (node01 ibdiagnet2's default
// run and its ibstat, node02 the second run's net_dump and its ibstat), with the links and
// both their ends, node01's own HCA ports mapped to their switch ports, and the SMs.
func TestFleetFabricInJSON(t *testing.T) {
	const c301 = "corpus/301-ndr-cx7-quantum2-fabric-ibdiagnet2-full-run-switch-fw-mismatch-dup-nodedesc/"
	dir := t.TempDir()
	for name, fixture := range map[string]string{
		"node01/ibdiagnet2.net_dump": c301 + "ibdiagnet2.net_dump",
		"node01/ibdiagnet2.pm":       c301 + "ibdiagnet2.pm",
		"node01/ibdiagnet2.db_csv":   c301 + "ibdiagnet2.db_csv",
		"node01/ibdiagnet2.sm":       c301 + "ibdiagnet2.sm",
		"node01/ibstat":              "ibstat/ndr-node01-fabric-301-guids.txt",
		"node02/ibdiagnet2.net_dump": c301 + "run2-2025-03-15-skip-checks/ibdiagnet2.net_dump",
		"node02/ibstat":              "ibstat/ndr-node02-fabric-301-guids.txt",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, fixtures.Read(t, fixture), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := fleetReport(t, 0, "--fail-on", "none", dir)
	fab := f.Fabric
	if fab == nil {
		t.Fatal("no fabric in the fleet document")
	}
	if len(fab.Links) < 100 || len(fab.Ports) < 200 || len(fab.Nodes) == 0 {
		t.Errorf("fabric: %d links, %d ports, %d nodes", len(fab.Links), len(fab.Ports), len(fab.Nodes))
	}
	ports := map[string]bool{}
	for _, p := range fab.Ports {
		ports[p.ID] = true
	}
	for _, l := range fab.Links {
		if l.A == "" || l.B == "" || !ports[l.A] || !ports[l.B] || len(l.Evidence) == 0 {
			t.Errorf("link without both ends as ports of the view, or without evidence: %+v", l)
			break
		}
	}
	mapped := 0
	for _, h := range fab.Hosts {
		for _, p := range h.Ports {
			if h.Host == "node01" && p.Peer != "" && ports[p.Peer] {
				mapped++
			}
		}
	}
	if mapped == 0 {
		t.Errorf("no port of node01 mapped to its switch port: %+v", fab.Hosts)
	}
	code, stdout, _ := runCLI(t, "fleet", "--format", "yaml", "--fail-on", "none", dir)
	if code != 0 || !strings.Contains(stdout, "\nfabric:\n") || !strings.Contains(stdout, "sm_views:") {
		t.Errorf("YAML (exit %d) has no fabric", code)
	}
}

// TestFleetFabricInTableAndMarkdown: the table and Markdown reports show the fabric the JSON
// carries: the subnet managers with who saw them, the links with receive errors with both ends
// and the host whose capture counted them, and the hosts' ports not mapped to the fabric, each
// list cut and saying how many more. The nodes are corpus cases with fabric captures: 112
// (sminfo and ibdiagnet2.sm name the master SM) and 301 (ibdiagnet2's run of an NDR fabric
// with its port counters), and 017 (ibstat only).
func TestFleetFabricInTableAndMarkdown(t *testing.T) {
	dir := t.TempDir()
	for host, c := range map[string]string{
		"gpu020": "112-cx6-ib-sriov-pf-initializing-switch-sm-master-local-opensm-bind-fails",
		"gpu038": "301-ndr-cx7-quantum2-fabric-ibdiagnet2-full-run-switch-fw-mismatch-dup-nodedesc",
		"gpu003": "017-cx4-back-to-back-linkup-initializing-no-sm-fdr-cable",
	} {
		if err := os.CopyFS(filepath.Join(dir, host), os.DirFS(filepath.Join(fixtures.CorpusDir(t), c))); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("COLUMNS", "120")
	code, table, stderr := runCLI(t, "fleet", dir)
	if code != exitFindings {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, re := range []string{
		`(?m)^Fabric \(the fabric captures of all nodes merged\):\n  \d+ nodes \(\d+ switches\), \d+ ports, \d+ links; 0 of \d+ InfiniBand ports of the hosts mapped`,
		`(?m)^0x08c0eb0300f6fc26  4    15        MASTER  gpu020 \(ibdiagnet2, sminfo\)$`,
		`(?m)^0xb0cf0e0300d33fc0  180  12        MASTER  gpu038 \(ibdiagnet2\)$`,
		`(?m)^Links with receive errors over rdma-core's thresholds at either end \(14, rising during`,
		`(?m)^  switch 0xfc6a1c03008a5c00 "Quantum-2 Mellanox Technologies" port 27 \(1/14/1\)\n        gpu038: link_downed 102, port_xmit_discards 32750\n  <-> CA 0x5c25730300f3df50 "node27 mlx5_11" port 1\n        gpu038: link_downed 55, port_rcv_errors 65535, port_xmit_discards 65535, symbol_error 65535$`,
		`(?m)^  4 more links with errors \(in the JSON report's fabric\)$`,
		`(?m)^Host ports not mapped to the fabric \(\d+: no capture shows their cable\):\n  gpu003 ibp4s0/1, gpu020 mlx5_0/1`,
	} {
		if !regexp.MustCompile(re).MatchString(table) {
			t.Errorf("table lacks %s:\n%s", re, table)
		}
	}
	for _, l := range strings.Split(table, "\n") {
		if len([]rune(l)) > 120 {
			t.Errorf("line wider than COLUMNS: %q", l)
		}
	}
	code, md, _ := runCLI(t, "fleet", "--format", "markdown", dir)
	if code != exitFindings {
		t.Fatalf("markdown: exit %d", code)
	}
	for _, want := range []string{
		"### Fabric\n",
		"| `0x08c0eb0300f6fc26` | 4 | 15 | MASTER | gpu020 (ibdiagnet2, sminfo) |",
		`| switch 0xfc6a1c03008a5c00 "Quantum-2 Mellanox Technologies" port 27 (1/14/1) | gpu038: link\_downed 102, port\_xmit\_discards 32750 | CA 0x5c25730300f3df50 "node27 mlx5\_11" port 1 | gpu038: link\_downed 55,`,
		"4 more links with errors (in the JSON report's fabric)",
		"Host ports not mapped to the fabric (",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
}
