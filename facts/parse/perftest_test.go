package parse_test

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func ptBool(v bool) *bool { return &v }

// onePerftestRun parses fixture, which must hold one run and parse cleanly; ok is false (and the
// test marked failed) otherwise.
func onePerftestRun(t *testing.T, fixture string) (facts.PerftestRun, bool) {
	t.Helper()
	got, err := parse.Perftest(fixtures.Read(t, fixture))
	if err != nil {
		t.Errorf("%s: %v", fixture, err)
		return facts.PerftestRun{}, false
	}
	if len(got.Runs) != 1 {
		t.Errorf("%s: %d runs, want 1", fixture, len(got.Runs))
		return facts.PerftestRun{}, false
	}
	return got.Runs[0], true
}

// ib_read_lat over RoCE (spiderpool docs): the whole run, header, addresses, the latency row and
// the two CPU frequency warnings perftest printed inside the table.
func TestPerftestReadLatRoCE(t *testing.T) {
	got, err := parse.Perftest(fixtures.Read(t, "perftest/ib_read_lat_roce_cpufreq_warnings.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := parse.PerftestOutput{Runs: []facts.PerftestRun{{
		Title: "RDMA_Read Latency Test", Kind: "latency", Bidirectional: ptBool(false),
		Device: "mlx5_0", LinkType: "Ethernet", Transport: "IB", ConnectionType: "RC",
		MTUBytes: ibInt(1024), QPs: ibInt(1), TXDepth: ibInt(1), UsingSRQ: ptBool(false), RDMACM: ptBool(false), GIDIndex: ibInt(12),
		Local: &facts.PerftestAddress{LID: ibInt(0), QPN: "0x0107", PSN: "0x79dd10", GID: "00:00:00:00:00:00:00:00:00:00:255:255:172:81:00:119",
			Evidence: ibEv(14, " local address: LID 0000 QPN 0x0107 PSN 0x79dd10 OUT 0x10 RKey 0x1fddbc VAddr 0x000000023bd000")},
		Remote: &facts.PerftestAddress{LID: ibInt(0), QPN: "0x0107", PSN: "0x40001a", GID: "00:00:00:00:00:00:00:00:00:00:255:255:172:81:00:120",
			Evidence: ibEv(16, " remote address: LID 0000 QPN 0x0107 PSN 0x40001a OUT 0x10 RKey 0x1fddbc VAddr 0x00000000bf9000")},
		Unit: "usec",
		Latency: []facts.PerftestLatency{{Bytes: 2, Iterations: 1000, MinUsec: fp(6.88), MaxUsec: fp(16.81), TypicalUsec: fp(7.04),
			AvgUsec: fp(7.06), StdevUsec: fp(0.31), P99Usec: fp(7.38), P999Usec: fp(16.81),
			Evidence: ibEv(22, " 2       1000          6.88           16.81        7.04              7.06         0.31      7.38        16.81")}},
		CPUFrequencyWarnings: []facts.Evidence{
			ibEv(20, "Conflicting CPU frequency values detected: 2200.000000 != 1040.353000. CPU Frequency is not max."),
			ibEv(21, "Conflicting CPU frequency values detected: 2200.000000 != 1849.351000. CPU Frequency is not max."),
		},
		Evidence: facts.EvidenceMap{
			"title":           ibEv(2, "                    RDMA_Read Latency Test"),
			"device":          ibEv(3, " Dual-port       : OFF    Device         : mlx5_0"),
			"qps":             ibEv(4, " Number of qps   : 1    Transport type : IB"),
			"transport":       ibEv(4, " Number of qps   : 1    Transport type : IB"),
			"connection_type": ibEv(5, " Connection type : RC   Using SRQ      : OFF"),
			"using_srq":       ibEv(5, " Connection type : RC   Using SRQ      : OFF"),
			"tx_depth":        ibEv(6, " TX depth        : 1"),
			"mtu_bytes":       ibEv(7, " Mtu             : 1024[B]"),
			"link_type":       ibEv(8, " Link type       : Ethernet"),
			"gid_index":       ibEv(9, " GID index       : 12"),
			"rdma_cm":         ibEv(11, " rdma_cm QPs   : OFF"),
			"unit":            ibEv(19, " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]"),
		},
	}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// The bandwidth forms: Gb/s as printed, MB/sec converted (2^20 bytes/s), every row of -a kept,
// the largest size last; a Post List test; perftest's rdma_cm (-R) header.
func TestPerftestBandwidth(t *testing.T) {
	for _, tc := range []struct {
		fixture                   string
		title, device, link, unit string
		rows                      int
		lastBytes                 int64
		lastAvgGbps               float64
		bidir, rdmaCM             bool
		localLID, remoteLID, mtu  int
		peakNil                   bool
	}{
		{"perftest/ib_write_bw_bidir_gbits_all_sizes_roce.txt", "RDMA_Write Bidirectional BW Test", "<RDMA-NIC-2>", "Ethernet", "Gb/sec", 23, 8388608, 204.59, true, false, 0, 0, 4096, false},
		{"perftest/ib_write_bw_post_list_8_bytes_gbits.txt", "RDMA_Write Post List BW Test", "ib0", "Ethernet", "Gb/sec", 1, 8, 0.48, false, false, -1, -1, 4096, false},
		{"perftest/ib_send_bw_rdma_cm_mb_line_rate.txt", "Send BW Test", "mlx5_2", "Ethernet", "MB/sec", 1, 65536, 11714.10 * 1048576 * 8 / 1e9, false, true, 0, 0, 4096, false},
		{"perftest/ib_write_bw_ib_gbits_small_sizes_excerpt.txt", "RDMA_Write BW Test", "mlx5_0", "IB", "Gb/sec", 4, 16, 0.34, false, false, 2, 1, 4096, false},
	} {
		r, ok := onePerftestRun(t, tc.fixture)
		if !ok {
			continue
		}
		if r.Title != tc.title || r.Device != tc.device || r.LinkType != tc.link || r.Unit != tc.unit || r.Kind != "bandwidth" ||
			*r.Bidirectional != tc.bidir || *r.RDMACM != tc.rdmaCM || *r.MTUBytes != tc.mtu {
			t.Errorf("%s: got title %q device %q link %q unit %q kind %q bidir %v rdma_cm %v mtu %d", tc.fixture, r.Title, r.Device, r.LinkType,
				r.Unit, r.Kind, *r.Bidirectional, *r.RDMACM, *r.MTUBytes)
		}
		if len(r.Bandwidth) != tc.rows {
			t.Errorf("%s: %d rows, want %d", tc.fixture, len(r.Bandwidth), tc.rows)
			continue
		}
		last := r.Bandwidth[len(r.Bandwidth)-1]
		if last.Bytes != tc.lastBytes || math.Abs(last.AverageGbps-tc.lastAvgGbps) > 1e-9 {
			t.Errorf("%s: last row %d bytes %.4f Gb/s, want %d bytes %.4f", tc.fixture, last.Bytes, last.AverageGbps, tc.lastBytes, tc.lastAvgGbps)
		}
		if tc.localLID >= 0 && (r.Local == nil || r.Remote == nil || *r.Local.LID != tc.localLID || *r.Remote.LID != tc.remoteLID) {
			t.Errorf("%s: local/remote %+v %+v, want LIDs %d %d", tc.fixture, r.Local, r.Remote, tc.localLID, tc.remoteLID)
		}
		if tc.localLID < 0 && (r.Local != nil || r.Remote != nil) {
			t.Errorf("%s: addresses %+v %+v where the output has none", tc.fixture, r.Local, r.Remote)
		}
	}
}

// A server's output pasted into an issue stops after the first two values of the row: the
// row is a problem naming the line, the header facts are kept, no bandwidth is invented.
func TestPerftestRowCutShort(t *testing.T) {
	got, err := parse.Perftest(fixtures.Read(t, "perftest/ib_write_bw_mb_server_row_cut.txt"))
	ps, ok := parse.AsProblems(err)
	if !ok || len(ps) != 1 || ps[0].Line != 26 || !strings.Contains(ps[0].Why, "2 values where the header has 5 columns") {
		t.Fatalf("problems %v, want line 26 with 2 of 5 values", err)
	}
	if len(got.Runs) != 1 || got.Runs[0].Device != "mlx5_0" || got.Runs[0].Unit != "MB/sec" || len(got.Runs[0].Bandwidth) != 0 {
		t.Errorf("got %+v", got.Runs)
	}
}

// perftest's error lines: a completion error with its status line (and the line after it that
// says the run stopped), a completion error pasted on one line, a failed socket connection.
func TestPerftestErrors(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		want    []facts.PerftestError
	}{
		{"perftest/ib_write_bw_completion_error_status_4.txt", []facts.PerftestError{
			{Kind: "completion_error", Side: "client", Status: ibInt(4), Syndrome: "0x51",
				Text: "Completion with error at client / Failed status 4: wr_id 0 syndrom 0x51", Evidence: ibEv(2, "  Failed status 4: wr_id 0 syndrom 0x51")},
			{Kind: "failed", Text: "Failed to complete run_iter_bw function successfully", Evidence: ibEv(4, "  Failed to complete run_iter_bw function successfully")},
		}},
		{"perftest/ib_send_bw_retry_exceeded_one_line.txt", []facts.PerftestError{
			{Kind: "completion_error", Side: "client", Status: ibInt(12), Syndrome: "0x81",
				Text:     "Completion with error at client Failed status 12: wr_id 0 syndrom 0x81 scnt=128, ccnt=0",
				Evidence: ibEv(1, " Completion with error at client Failed status 12: wr_id 0 syndrom 0x81 scnt=128, ccnt=0")},
		}},
		{"perftest/ib_write_bw_port_down_in_pod.txt", []facts.PerftestError{
			{Kind: "port_not_active", Port: ibInt(1), PortState: "Down", Text: "Port number 1 state is Down", Evidence: ibEv(1, " Port number 1 state is Down")},
			{Kind: "failed", Text: "Couldn't set the link layer", Evidence: ibEv(2, " Couldn't set the link layer")},
			{Kind: "failed", Text: "Couldn't get context for the device", Evidence: ibEv(3, " Couldn't get context for the device")},
		}},
		{"perftest/ib_write_bw_connect_failed.txt", []facts.PerftestError{
			{Kind: "connect_failed", Text: "Couldn't connect to 192.168.125.211:18515", Evidence: ibEv(2, "Couldn't connect to 192.168.125.211:18515")},
			{Kind: "connect_failed", Text: "Unable to open file descriptor for socket connection Unable to init the socket connection",
				Evidence: ibEv(3, "Unable to open file descriptor for socket connection Unable to init the socket connection")},
		}},
	} {
		r, ok := onePerftestRun(t, tc.fixture)
		if !ok {
			continue
		}
		if diff := cmp.Diff(tc.want, r.Errors, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}

// ib_read_lat on an mlx4 InfiniBand port: the LIDs of both ends and a typical latency of 1.79 us.
func TestPerftestReadLatIB(t *testing.T) {
	got, err := parse.Perftest(fixtures.Read(t, "perftest/ib_read_lat_ib_mlx4.txt"))
	if err != nil {
		t.Fatal(err)
	}
	r := got.Runs[0]
	if r.Device != "mlx4_0" || r.LinkType != "IB" || *r.MTUBytes != 2048 || *r.Local.LID != 1 || *r.Remote.LID != 4 ||
		len(r.Latency) != 1 || *r.Latency[0].TypicalUsec != 1.79 || len(r.CPUFrequencyWarnings) != 1 {
		t.Errorf("got %+v", r)
	}
}

// The two lines of a results table quoted without the header block (a benchmark report):
// the row is read, nothing else is claimed.
func TestPerftestTableOnly(t *testing.T) {
	got, err := parse.Perftest(fixtures.Read(t, "perftest/ib_write_bw_pcie_x8_1m_row.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Runs) != 1 || len(got.Runs[0].Bandwidth) != 1 || got.Runs[0].Bandwidth[0].AverageGbps != 55.86 || got.Runs[0].Device != "" ||
		got.Runs[0].Bidirectional != nil {
		t.Errorf("got %+v", got.Runs)
	}
}

// Damaged captures of real runs are problems, never runs that merely said nothing: the header
// block of the mlx4 ib_read_lat run without its table, and the port line of corpus 013 with its
// number spelt out.
func TestPerftestDamage(t *testing.T) {
	lat := string(fixtures.Read(t, "perftest/ib_read_lat_ib_mlx4.txt"))
	header := strings.Join(strings.Split(lat, "\n")[:14], "\n") + "\n"
	port := strings.Replace(string(fixtures.Read(t, "perftest/ib_write_bw_port_down_in_pod.txt")), "number 1", "number one", 1)
	for _, tc := range []struct{ name, data, why string }{
		{"header only", header, "header without results"},
		{"port spelt out", port, "not a perftest port line"},
	} {
		_, err := parse.Perftest([]byte(tc.data))
		ps, ok := parse.AsProblems(err)
		if !ok || !strings.Contains(ps.Error(), tc.why) {
			t.Errorf("%s: %v, want a problem %q", tc.name, err, tc.why)
		}
	}
}
