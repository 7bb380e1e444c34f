package build

import (
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// TestGrepFilter reads the filter of the corpus's file names (sos mangles "|" and " " to "_").
func TestGrepFilter(t *testing.T) {
	for _, tc := range []struct {
		args, pattern string
		filtered      bool
	}{
		{"-d_.dev.mst.mt4123_pciconf5_q_grep_SRIOV", "SRIOV", true},      // 013
		{"-d_b1_00.0_q_grep_LINK", "LINK", true},                         // 112
		{"-d_16.00.0_q_FILTERED", "", true},                              // 056
		{"-d_.dev.mst.mt4115_pciconf0_query_EXCERPT", "", true},          // 035
		{"-s_17.00.0_-vvv_grep_-E_Width_PCIeGen", "Width|PCIeGen", true}, // 036: grep -E 'Width|PCIeGen'
		{"-vvv_-d_15b3_grep_LnkSta", "LnkSta", true},                     // 105
		{"grep_-i_mell", "(?i)mell", true},
		{"grep_-v_Subsystem", "", true}, // the lines that do not match: which, unknown
		{"-d_61_00.0_query", "", false}, // 102
		{"-nnvv", "", false},
	} {
		p, f := grepFilter(tc.args)
		if p != tc.pattern || f != tc.filtered {
			t.Errorf("%s: %q %v, want %q %v", tc.args, p, f, tc.pattern, tc.filtered)
		}
	}
}

// TestCorpusFilters: the filtered captures of the corpus are recorded as filtered, the whole ones
// are not, and a filtered capture merged with a whole one of the same function is whole.
func TestCorpusFilters(t *testing.T) {
	nv := func(s *facts.Snapshot) string { return s.NVConfig[0].Filter }
	for _, tc := range []struct {
		prefix, want string
		got          func(*facts.Snapshot) string
	}{
		{"013", "SRIOV", nv},
		{"112", "LINK", nv},
		{"056", "^(KEEP_ETH_LINK_UP_P1|KEEP_ETH_LINK_UP_P2|KEEP_IB_LINK_UP_P1|KEEP_IB_LINK_UP_P2|LINK_TYPE_P1|LINK_TYPE_P2|NUM_OF_VFS|SRIOV_EN)$", nv},
		{"102", "", nv},
		{"101", "", func(s *facts.Snapshot) string { return s.PCI[0].Filter }}, // lspci -v -s 81:00.0 and its grep
		{"007", "Width", func(s *facts.Snapshot) string { return s.PCI[0].Filter }},
		{"126", "Mellanox", func(s *facts.Snapshot) string { return s.PCI[0].Filter }},
	} {
		if got := tc.got(buildCorpus(t, tc.prefix)); got != tc.want {
			t.Errorf("%s: filter %q, want %q", tc.prefix, got, tc.want)
		}
	}
}

// TestLSPCILoopCaptures: a loop's grep output saved under a plain name keeps its four orphan
// link groups on placeholders and says why; the echo loop ties each NUMA line to its address.
func TestLSPCILoopCaptures(t *testing.T) {
	s, err := Snapshot(fixtures.Files(t, map[string]string{
		"lspci_loop_grep_-E_LnkCap_LnkSta": "lspci/cx7-loop-grep-lnkcap-lnksta.txt",
		"lspci_loop_echo_numa":             "lspci/cx7-loop-echo-bdf-numa.txt",
	}), facts.SourceInfo{})
	if err != nil {
		t.Fatal(err)
	}
	var addrs []string
	for _, f := range s.PCI {
		addrs = append(addrs, f.Address+" "+f.Filter)
	}
	want := []string{"0000:03:00.0 NUMA node:", "0000:23:00.0 NUMA node:", "0000:a3:00.0 NUMA node:", "0000:c3:00.0 NUMA node:",
		"unknown LnkCap|LnkSta", "unknown#2 LnkCap|LnkSta", "unknown#3 LnkCap|LnkSta", "unknown#4 LnkCap|LnkSta"}
	if len(addrs) != len(want) {
		t.Fatalf("functions %q, want %q", addrs, want)
	}
	for i := range want {
		if addrs[i] != want[i] {
			t.Errorf("function %d: %q, want %q", i, addrs[i], want[i])
		}
	}
	src := sourceOf(t, s, "lspci_loop_grep_-E_LnkCap_LnkSta")
	if src.Status != facts.StatusOK || src.Note != "4 group(s) of link lines without a PCI address (the capture names no function: no header, no -s in the file name), kept as unknown, unknown#2, unknown#3, unknown#4" {
		t.Errorf("source %+v", src)
	}
}
