package render

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mattn/go-runewidth"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// TestTableWidth: at every width from 100 up (and at 80, where no word is too long) no line
// of the table is wider than the terminal, in display columns; commands are whole on lines of
// their own, and the message column is wider on a wider terminal (at 100 the subject goes under
// the id, which leaves the message more than five columns at 120 do).
func TestTableWidth(t *testing.T) {
	msgCol := map[int]int{}
	for _, width := range []int{80, 100, 101, 120, 132, 200} {
		for _, verbose := range []bool{false, true} {
			var b bytes.Buffer
			if err := Table(&b, testReport(), Options{Width: width, Verbose: verbose, Color: true}); err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(b.String(), "\n") {
				if w := cols(line); w > width {
					t.Errorf("width %d: line is %d wide: %q", width, w, line)
				}
			}
			if !verbose {
				msgCol[width] = layoutFor(testReport().Diagnoses, width).msg
			}
			for _, cmd := range []string{"$ sminfo -C ibp4s0 -P 1", "$ systemctl enable --now opensm", "$ lspci -s 0000:04:00.0 -vv"} {
				if !regexp.MustCompile(`(?m)^ +\x1b\[1m` + regexp.QuoteMeta(cmd) + `\x1b\[0m$`).MatchString(b.String()) {
					t.Errorf("width %d: %q is not alone on its line:\n%s", width, cmd, b.String())
				}
			}
		}
	}
	if msgCol[132] <= msgCol[120] || msgCol[200] <= msgCol[132] {
		t.Errorf("message column widths %v do not grow with the terminal", msgCol)
	}
}

// TestTableWidthRunes: the width is counted in display columns: a consequence's "└ " is one
// column per rune, not three bytes, and a wide (CJK) rune in a message counts two.
func TestTableWidthRunes(t *testing.T) {
	r := testReport()
	r.Diagnoses[0].Message = strings.Repeat("端口状态 ", 30)
	var b bytes.Buffer
	if err := Table(&b, r, Options{Width: 100}); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if w := runewidth.StringWidth(line); w > 100 {
			t.Errorf("line is %d columns wide: %q", w, line)
		}
	}
	if !strings.Contains(b.String(), "└ ipoib-interface-down") {
		t.Errorf("no consequence marker:\n%s", b.String())
	}
}

// TestWrapCommand: a command longer than the line is folded at blanks outside quotes, each
// line but the last ending in " \", so the lines pasted into a shell are the same command (in a
// comment, each line a comment); a word longer than the line is never broken.
func TestWrapCommand(t *testing.T) {
	cmd := `ulimit -l unlimited && echo '* - memlock unlimited' >> /etc/security/limits.conf`
	got := wrapCommand(cmd, 36, "$ ", "    ")
	want := []string{
		`$ ulimit -l unlimited && echo \`,
		`    '* - memlock unlimited' >> \`,
		`    /etc/security/limits.conf`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	joined := strings.TrimPrefix(strings.Join(got, "\n"), "$ ")
	if back := regexp.MustCompile(` \\\n {4}`).ReplaceAllString(joined, " "); back != cmd {
		t.Errorf("lines joined back = %q, want %q", back, cmd)
	}
	long := "mlxlink -d /dev/mst/mt4123_pciconf0_and_a_very_long_device_name_indeed -m"
	for _, l := range wrapCommand(long, 20, "$ ", "    ") {
		if strings.Contains(l, "pciconf0") && !strings.Contains(l, "/dev/mst/mt4123_pciconf0_and_a_very_long_device_name_indeed") {
			t.Errorf("a word was broken: %q", l)
		}
	}
	if got := wrapCommand("ibstat mlx5_0 1", 80, "$ ", "    "); !cmp.Equal(got, []string{"$ ibstat mlx5_0 1"}) {
		t.Errorf("short command = %q", got)
	}
	// A comment goes on as a comment: a backslash would not join its lines, and the second
	// would run when pasted.
	got = wrapCommand("ibstat mlx5_0 # then update through the vendor's tools (HPE SPP, Dell DSU)", 36, "$ ", "    ")
	want = []string{
		`$ ibstat mlx5_0 # then update`,
		`    # through the vendor's tools`,
		`    # (HPE SPP, Dell DSU)`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("comment (-want +got):\n%s", diff)
	}
}

// TestHeadlineHidden: when --min-severity hid every diagnosis, neither the headline nor the
// list says "No problem found" (the run still exits 1 on a hidden error, cmd's scripts test
// that): they say what is hidden, by severity.
func TestHeadlineHidden(t *testing.T) {
	r := testReport()
	r.HideBelow("critical") // hides the error, the warning and the info
	r.Diagnoses = r.Diagnoses[:0]
	r.HideBelow("critical")
	var b bytes.Buffer
	if err := Table(&b, r, Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "No problem found") {
		t.Errorf("says no problem found while diagnoses are hidden:\n%s", out)
	}
	if got, want := summary(r), "No problem at or above critical; 1 error, 1 warning, 1 info hidden (--min-severity), 1 ignored; 9 rules run, 3 skipped"; !strings.HasPrefix(got, want) {
		t.Errorf("headline = %q, want it to start with %q", got, want)
	}
	if !strings.Contains(out, "No problem at or above critical found by the 9 rules that could run, apart from the ignored ones below;") {
		t.Errorf("no qualified nothing-found line:\n%s", out)
	}

	r = testReport()
	r.HideBelow("error")
	if got, want := summary(r), "2 diagnoses (1 critical, 1 error), 1 warning, 1 info hidden (--min-severity), 1 ignored"; !strings.HasPrefix(got, want) {
		t.Errorf("summary = %q, want it to start with %q", got, want)
	}
}

// TestNotChecked: the footer has one line per missing input with the number of checks that
// need it, most first; the rule ids only with verbose.
func TestNotChecked(t *testing.T) {
	for _, verbose := range []bool{false, true} {
		var b bytes.Buffer
		if err := Table(&b, testReport(), Options{Verbose: verbose}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, want := range []string{
			"\nNot checked: 3 rules lack an input",
			"\n  mstconfig output (2 checks): install mstflint and run `mstconfig -d <pci> -e query`\n  mlnx_qos output (1 check): run",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("verbose %v: no %q in\n%s", verbose, want, out)
			}
		}
		if got := strings.Contains(out, "nvconfig-change-pending-reset"); got != verbose {
			t.Errorf("verbose %v: rule ids listed = %v:\n%s", verbose, got, out)
		}
	}
}

// TestNeedCounts: a rule that lacks two groups counts for both; an unknown group is named by
// its id.
func TestNeedCounts(t *testing.T) {
	r := &report.Report{
		Skipped: []report.Skipped{
			{ID: "a", Missing: []string{"lspci", "nvconfig"}},
			{ID: "b", Missing: []string{"lspci"}},
			{ID: "c", Failed: true},
		},
		Needs: map[string]report.Need{"lspci": {What: "lspci output", How: "run `lspci -nnvv`"}},
	}
	got := needCounts(r)
	want := []needCount{
		{Need: report.Need{What: "lspci output", How: "run `lspci -nnvv`"}, Group: "lspci", Count: 2},
		{Need: report.Need{What: "nvconfig"}, Group: "nvconfig", Count: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestSosUnrelatedCounted: in a sosreport, the files of one plugin folder that gave nothing (the
// networking folder of Debian's `sos report` on the build VM: bridge, netstat, route, tc, ...)
// are counted in one line with the commands they come from; a folder with one or two such files
// keeps them listed, and so does -v, and a folder of captures lists every file.
func TestSosUnrelatedCounted(t *testing.T) {
	r := testReport()
	r.Source.Kind = "sosreport"
	for _, name := range []string{"bridge_-d_vlan_show", "netstat_-W_-neopa", "route_-n", "tc_-s_qdisc_show", "ip_mroute_show", "ethtool_-c_eth0"} {
		r.Sources = append(r.Sources, facts.Source{Name: "unrecognized", Origin: "sos_commands/networking/" + name,
			Status: facts.StatusUnrecognized, Error: "no parser recognises this file by name or content"})
	}
	r.Sources = append(r.Sources, facts.Source{Name: "ibstatus", Origin: "sos_commands/infiniband/ibstatus",
		Status: facts.StatusUnrecognized, Error: "unrecognized content: not ibstatus output"})
	table := func(kind string, verbose bool) string {
		r.Source.Kind = kind
		var b bytes.Buffer
		if err := Table(&b, r, Options{Width: 100, Verbose: verbose}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	out := table("sosreport", false)
	if want := "  unrecognized 6 files of sos_commands/networking/ gave nothing a check reads: bridge, ethtool, ip,\n               netstat, route, tc (-v lists them)\n"; !strings.Contains(out, want) {
		t.Errorf("no count line %q in\n%s", want, out)
	}
	for _, listed := range []string{"sos_commands/infiniband/ibstatus: unrecognized content", "notes.txt"} {
		if !strings.Contains(out, listed) {
			t.Errorf("%q not listed:\n%s", listed, out)
		}
	}
	if strings.Contains(out, "route_-n") {
		t.Errorf("a networking file is listed:\n%s", out)
	}
	for _, tc := range []struct {
		kind    string
		verbose bool
	}{{"sosreport", true}, {"captures", false}} {
		if out := table(tc.kind, tc.verbose); !strings.Contains(out, "sos_commands/networking/route_-n") || strings.Contains(out, "gave nothing a check reads") {
			t.Errorf("%s verbose %v: the files are not listed one by one:\n%s", tc.kind, tc.verbose, out)
		}
	}
}
