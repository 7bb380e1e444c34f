package fleet

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestHostList(t *testing.T) {
	for _, tc := range []struct {
		hosts []string
		want  string
	}{
		{nil, ""},
		{[]string{"gpu07"}, "gpu07"},
		{[]string{"node003", "node001", "node002", "gpu07", "node002"}, "gpu07,node[001-003]"},
		{[]string{"node001", "node002", "node004", "node005", "node007"}, "node[001-002,004-005,007]"},
		{[]string{"node9", "node10", "node11"}, "node[9-11]"},
		{[]string{"node099", "node100", "node101"}, "node[099-101]"},
		// Padding is kept: node01 and node1 are different hosts.
		{[]string{"node1", "node01", "node2"}, "node[1-2,01]"},
		{[]string{"login", "node01", "node01#2", "node02"}, "login,node[01-02],node01#2"},
		{[]string{"a1b2", "a1b3", "a2b2"}, "a1b[2-3],a2b2"},
	} {
		if got := HostList(tc.hosts); got != tc.want {
			t.Errorf("HostList(%q) = %q, want %q", tc.hosts, got, tc.want)
		}
	}
}

// TestHostListQuotesSpecialNames: a hostname read from a snapshot that holds a host list's own
// syntax ("node[1-3]", "a,b") is one quoted host, never a range or two hosts; the others are
// still compressed, and splitting the list back (commas outside quotes and brackets) gives one
// entry per host.
func TestHostListQuotesSpecialNames(t *testing.T) {
	hosts := []string{"node02", "node[1-3]", "a,b", "node01", "x y", "q\"uote", "node[1-3]"}
	got := HostList(hosts)
	want := `"a,b",node[01-02],"node[1-3]","q\"uote","x y"`
	if got != want {
		t.Errorf("HostList(%q) = %s, want %s", hosts, got, want)
	}
	var entries []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(got); i++ {
		switch c := got[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && c == '[':
			depth++
		case !quoted && c == ']':
			depth--
		case !quoted && depth == 0 && c == ',':
			entries = append(entries, got[start:i])
			start = i + 1
		}
	}
	entries = append(entries, got[start:])
	if len(entries) != 5 {
		t.Errorf("%s splits into %d entries %q, want 5 (one per distinct host but node01, node02 together)", got, len(entries), entries)
	}
	// A name with a control character is quoted with it escaped.
	if got := HostList([]string{"evil\x1b]0;t\a"}); got != `"evil\x1b]0;t\a"` {
		t.Errorf("control characters: %s", got)
	}
}

// TestHostListMatchesScontrol compares HostList with Slurm's `scontrol show hostlistsorted`
// (Debian's slurm-wlm) on lists of one padding each, the shape of real node names. Skipped
// without scontrol unless RDMADOCTOR_REQUIRE_TOOLS=1.
func TestHostListMatchesScontrol(t *testing.T) {
	if _, err := exec.LookPath("scontrol"); err != nil {
		if os.Getenv("RDMADOCTOR_REQUIRE_TOOLS") == "1" {
			t.Fatal("RDMADOCTOR_REQUIRE_TOOLS=1 but scontrol is not installed (slurm-wlm)")
		}
		t.Skip("scontrol is not installed (slurm-wlm)")
	}
	// scontrol reads a slurm.conf before anything else, even to format a host list.
	conf := filepath.Join(t.TempDir(), "slurm.conf")
	if err := os.WriteFile(conf, []byte("ClusterName=t\nSlurmctldHost=localhost\nNodeName=n1\nPartitionName=p Nodes=n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, hosts := range [][]string{
		{"node003", "node001", "node002", "gpu07", "node010"},
		{"node9", "node10", "node11", "node13", "login"},
		{"node099", "node100", "node101", "node103"},
		{"cn-1-01", "cn-1-02", "cn-2-01", "cn-1-04"},
		{"node01", "node01#2", "node02"},
	} {
		cmd := exec.Command("scontrol", "show", "hostlistsorted", strings.Join(hosts, ","))
		cmd.Env = append(os.Environ(), "SLURM_CONF="+conf)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("scontrol show hostlistsorted %s: %v\n%s", strings.Join(hosts, ","), err, out)
		}
		if got, want := HostList(hosts), strings.TrimSpace(string(out)); got != want {
			t.Errorf("HostList(%q) = %q, scontrol says %q", hosts, got, want)
		}
	}
}

func TestHostLess(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		less bool
	}{
		{"node9", "node10", true},
		{"node10", "node9", false},
		{"node01", "node01#2", true},
		{"gpu07", "node001", true},
	} {
		if got := hostLess(tc.a, tc.b); got != tc.less {
			t.Errorf("hostLess(%q, %q) = %v", tc.a, tc.b, got)
		}
	}
}
