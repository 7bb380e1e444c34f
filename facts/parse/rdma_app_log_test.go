package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestRDMAAppLog(t *testing.T) {
	const (
		ucxLine  = "[1736959004.001121] [node00:29714:0]        ib_iface.c:1060 UCX  ERROR ibv_create_cq(cqe=4096) failed: Cannot allocate memory : Please set max locked memory (ulimit -l) to 'unlimited' (current: 64 kbytes)"
		memlock  = "libibverbs: Warning: RLIMIT_MEMLOCK is 32768 bytes."
		noDriver = "libibverbs: Warning: no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs0"
		uverbs   = "libibverbs: Fatal: couldn't read uverbs ABI version."
		cmaABI   = "librdmacm: couldn't read ABI version."
		cmaAssum = "librdmacm: assuming: 4"
		cmaOpen  = "CMA: unable to open /dev/infiniband/rdma_cm"
	)
	msg := func(tool, m string, n int, text string) facts.ToolRefusal {
		return facts.ToolRefusal{Tool: tool, Message: m, Evidence: ev(n, text)}
	}
	kib := func(v int64) *int64 { return &v }
	repeat := func(tool, m, text string, lines ...int) []facts.ToolRefusal {
		var out []facts.ToolRefusal
		for _, n := range lines {
			out = append(out, msg(tool, m, n, text))
		}
		return out
	}
	for _, tc := range []struct {
		fixture string
		want    parse.RDMAAppLogOutput
	}{
		{"rdma_app_log/ucx-memlock-64k.txt", parse.RDMAAppLogOutput{
			Memlock:  &facts.MemlockLimit{SoftKiB: kib(64), Evidence: ev(6, ucxLine)},
			Messages: []facts.ToolRefusal{msg("ucx", "ERROR ibv_create_cq(cqe=4096) failed: Cannot allocate memory : Please set max locked memory (ulimit -l) to 'unlimited' (current: 64 kbytes)", 6, ucxLine)},
		}},
		// UCX's own RC completion errors carry no "UCX ERROR" tag: nothing to report.
		{"rdma_app_log/ucx-rc-retry-exceeded.txt", parse.RDMAAppLogOutput{}},
		{"rdma_app_log/ompi-libibverbs-rlimit-memlock-32k.txt", parse.RDMAAppLogOutput{
			Memlock:  &facts.MemlockLimit{SoftKiB: kib(32), Evidence: ev(5, memlock)},
			Messages: repeat("libibverbs", "Warning: RLIMIT_MEMLOCK is 32768 bytes.", memlock, 5, 7, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33),
		}},
		{"rdma_app_log/dlperf-no-userspace-driver.txt", parse.RDMAAppLogOutput{
			Messages: repeat("libibverbs", "Warning: no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs0", noDriver, 2, 3, 4, 5, 6, 7, 8, 9),
		}},
		{"rdma_app_log/ompi-librdmacm-no-abi.txt", parse.RDMAAppLogOutput{
			Messages: []facts.ToolRefusal{
				msg("libibverbs", "Fatal: couldn't read uverbs ABI version.", 3, uverbs),
				msg("libibverbs", "Fatal: couldn't read uverbs ABI version.", 14, uverbs),
				msg("librdmacm", "couldn't read ABI version.", 15, cmaABI),
				msg("librdmacm", "assuming: 4", 16, cmaAssum),
				msg("libibverbs", "Fatal: couldn't read uverbs ABI version.", 17, uverbs),
				msg("librdmacm", cmaOpen, 18, cmaOpen),
				msg("librdmacm", "couldn't read ABI version.", 26, cmaABI),
				msg("librdmacm", "assuming: 4", 27, cmaAssum),
				msg("libibverbs", "Fatal: couldn't read uverbs ABI version.", 28, uverbs),
				msg("librdmacm", cmaOpen, 29, cmaOpen),
			},
		}},
	} {
		got, err := parse.RDMAAppLog(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}

func TestRDMAAppLogNCCL(t *testing.T) {
	type row struct {
		Host, Use, Netdev, Address, Family string
		LinkLocal                          *bool
		Line                               int
	}
	for _, tc := range []struct {
		fixture string
		want    []row
	}{
		// One rank bootstraps over ib0's IPv6 link-local address, the other over bond0 (masked IPv4).
		{"rdma_app_log/nccl-bootstrap-ib0-ipv6-link-local.txt", []row{
			{"node01", "bootstrap", "ib0", "fe80::a288:c203:d2:aaf2%ib0", "ipv6", bp(true), 8},
			{"node02", "bootstrap", "bond0", "X.X.X.X", "", nil, 10}}},
		// The reporter's "<cluster_name>" is no host name NCCL prints: the host stays empty.
		{"rdma_app_log/nccl-bootstrap-ipoib-ipv4.txt", func() []row {
			var rows []row
			for n := 9; n <= 16; n++ {
				rows = append(rows, row{"", "bootstrap", "ibp12s0", "10.149.0.32", "ipv4", bp(false), n})
			}
			return rows
		}()},
		{"rdma_app_log/rccl-oob-ib0-ipv4.txt", []row{
			{"node01", "bootstrap", "ib0", "11.5.5.50", "ipv4", bp(false), 1},
			{"node01", "bootstrap", "ib0", "11.5.5.50", "ipv4", bp(false), 3},
			{"node01", "bootstrap", "ib0", "11.5.5.50", "ipv4", bp(false), 4},
			{"node01", "oob", "ib0", "11.5.5.50", "ipv4", bp(false), 7}}},
		// The older "[0]eth0:..." form, and the NET/Socket transport.
		{"rdma_app_log/nccl-socket-eth0-docker.txt", []row{
			{"26a46eb2b1d3", "bootstrap", "eth0", "172.17.0.2", "ipv4", bp(false), 1},
			{"26a46eb2b1d3", "socket", "eth0", "172.17.0.2", "ipv4", bp(false), 5}}},
	} {
		got, err := parse.RDMAAppLog(fixtures.Read(t, tc.fixture))
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		var rows []row
		for _, n := range got.NCCLNetdevs {
			rows = append(rows, row{n.Host, n.Use, n.Netdev, n.Address, n.Family, n.LinkLocal, n.Evidence.Line})
		}
		if diff := cmp.Diff(tc.want, rows); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fixture, diff)
		}
	}
}

func FuzzRDMAAppLog(f *testing.F) {
	seed(f, "rdma_app_log")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = parse.RDMAAppLog(b) })
}
