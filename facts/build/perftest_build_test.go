package build

import (
	"bytes"
	"testing"
	"testing/fstest"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// perftest outputs saved the ways tickets name them: by the command line (device and port taken
// from it, the server address after -d cut off), with a .txt suffix, and under a name that says
// nothing (recognised by content); a cut row makes the source partial.
func TestPerftestInputs(t *testing.T) {
	s, err := Snapshot(fixtures.Files(t, map[string]string{
		"ib_write_bw_--size_1048576_--iters_5000_--report_gbits_-d_rocep5s0_10.0.0.1": "perftest/ib_write_bw_pcie_x8_1m_row.txt",
		"ib_read_lat.txt":            "perftest/ib_read_lat_ib_mlx4.txt",
		"client-output.log":          "perftest/ib_read_lat_roce_cpufreq_warnings.txt",
		"ib_write_bw_-d_mlx5_0_-i_2": "perftest/ib_write_bw_mb_server_row_cut.txt",
		"perftest_failure_paste.txt": "perftest/ib_write_bw_completion_error_status_4.txt",
		"ib_write_bw_in_pod":         "perftest/ib_write_bw_port_down_in_pod.txt",
	}), facts.SourceInfo{})
	if err != nil {
		t.Fatal(err)
	}
	runs := map[string]facts.PerftestRun{}
	for _, r := range s.Perftest {
		for _, ev := range r.Evidence {
			runs[ev.Path] = r
		}
		for _, e := range r.Errors {
			runs[e.Evidence.Path] = r
		}
	}
	if len(s.Perftest) != 6 {
		t.Fatalf("%d runs, want 6: %+v", len(s.Perftest), s.Perftest)
	}
	// "in_pod" is a label, not a command line: no port is assumed
	if r := runs["ib_write_bw_in_pod"]; r.Port != nil || len(r.Errors) != 3 || r.Errors[0].Kind != "port_not_active" {
		t.Errorf("labelled capture: port %v errors %+v", r.Port, r.Errors)
	}
	r := runs["ib_write_bw_--size_1048576_--iters_5000_--report_gbits_-d_rocep5s0_10.0.0.1"]
	if r.Program != "ib_write_bw" || r.Device != "rocep5s0" || r.Port == nil || *r.Port != 1 || r.Kind != "bandwidth" || len(r.Bandwidth) != 1 {
		t.Errorf("named by its command line: %+v", r)
	}
	if r := runs["ib_read_lat.txt"]; r.Program != "ib_read_lat" || r.Device != "mlx4_0" || r.Port != nil {
		t.Errorf("named without arguments: program %q device %q port %v", r.Program, r.Device, r.Port)
	}
	if r := runs["client-output.log"]; r.Program != "" || r.Device != "mlx5_0" || r.Kind != "latency" {
		t.Errorf("by content: program %q device %q kind %q", r.Program, r.Device, r.Kind)
	}
	if r := runs["ib_write_bw_-d_mlx5_0_-i_2"]; r.Device != "mlx5_0" || r.Port == nil || *r.Port != 2 {
		t.Errorf("-i 2: device %q port %v", r.Device, r.Port)
	}
	if src := sourceOf(t, s, "ib_write_bw_-d_mlx5_0_-i_2"); src.Status != facts.StatusPartial || len(src.Problems) != 1 {
		t.Errorf("cut row: source %+v", src)
	}
	if r := runs["perftest_failure_paste.txt"]; len(r.Errors) != 2 || r.Errors[0].Evidence.Path != "perftest_failure_paste.txt" {
		t.Errorf("errors by content: %+v", r.Errors)
	}
	for _, name := range []string{"client-output.log", "perftest_failure_paste.txt", "ib_read_lat.txt"} {
		if src := sourceOf(t, s, name); src.Name != "perftest" || src.Status != facts.StatusOK {
			t.Errorf("%s: source %+v", name, src)
		}
	}
}

// TestPerftestConnectFailedByContent: a client that could not reach its server
// (fixtures/perftest/ib_write_bw_connect_failed.txt, linux-rdma/perftest#228) is perftest's
// output by its content, whatever the file is called; the "Couldn't connect to" line alone,
// which rdma-core's ibv_rc_pingpong prints too, is not.
func TestPerftestConnectFailedByContent(t *testing.T) {
	failed := fixtures.Read(t, "perftest/ib_write_bw_connect_failed.txt")
	first := failed[:bytes.Index(failed, []byte("18515\n"))+len("18515\n")] // the command and the connect line
	s, err := Snapshot(fstest.MapFS{
		"client.txt":          {Data: failed},
		"pingpong-client.txt": {Data: first[bytes.IndexByte(first, '\n')+1:]},
	}, facts.SourceInfo{Kind: "captures"})
	if err != nil {
		t.Fatal(err)
	}
	if src := sourceOf(t, s, "client.txt"); src.Name != "perftest" || src.Status != facts.StatusOK {
		t.Errorf("client.txt: source %+v", src)
	}
	if len(s.Perftest) != 1 || len(s.Perftest[0].Errors) == 0 || s.Perftest[0].Errors[0].Kind != "connect_failed" {
		t.Errorf("runs %+v, want one with connect_failed", s.Perftest)
	}
	if src := sourceOf(t, s, "pingpong-client.txt"); src.Name == "perftest" {
		t.Errorf("a lone connect line read as perftest: %+v", src)
	}
}
