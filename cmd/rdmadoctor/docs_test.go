package main

import (
	"bytes"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/engine"
)

// TestWritingRulesDoc runs every command shown in docs/writing-rules.md (```text blocks whose
// first line is "$ rdmadoctor ...") from the repository root and checks that each line shown
// below it appears, in order, in the real output ("..." marks a cut). The example rule folder,
// docs/examples/site-rules, must pass its own tests.
//
// The rule counts of a diagnose summary ("21 rules run, 38 skipped", "Not checked (38 rules):")
// change with every new built-in rule, so the doc's figures are not compared; instead the real
// output must account for every loaded rule: run + skipped = the built-in rules plus those of
// the command's --rules folders, and the "Not checked" count is the skipped one.
func TestWritingRulesDoc(t *testing.T) {
	doc, err := os.ReadFile("../../docs/writing-rules.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := commandBlocks(string(doc))
	if len(blocks) < 3 {
		t.Fatalf("found %d command blocks in docs/writing-rules.md, want the rules test, rules show and diagnose ones", len(blocks))
	}
	t.Chdir("../..")
	t.Setenv("COLUMNS", "100") // the doc shows a 100-column table
	for _, b := range blocks {
		args := strings.Fields(strings.TrimPrefix(b[0], "$ "))
		var out, errOut bytes.Buffer
		code := run(args, nil, &out, &errOut)
		if args[1] == "rules" && code != 0 {
			t.Errorf("%s: exit %d: %s", b[0], code, errOut.String())
		}
		if args[1] == "diagnose" {
			checkRuleCounts(t, b[0], args, out.String())
		}
		got := strings.Split(out.String(), "\n")
		for i := range got {
			got[i] = withoutRuleCounts(strings.TrimRight(got[i], " "))
		}
		next := 0
		for _, want := range b[1:] {
			if want == "..." {
				continue
			}
			want = withoutRuleCounts(strings.TrimRight(want, " "))
			found := false
			for next < len(got) {
				next++
				if got[next-1] == want {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s: the doc shows %q, which is not in the output (in order):\n%s", b[0], want, out.String())
				break
			}
		}
	}
}

var (
	// summaryCounts is the end of a table summary line: "; 21 rules run, 38 skipped".
	summaryCounts = regexp.MustCompile(`; ([0-9]+) rules? run, ([0-9]+) skipped$`)
	// notChecked heads the table's list of skipped rules: "Not checked: 38 rules lack an input".
	notChecked = regexp.MustCompile(`^Not checked: ([0-9]+) rules? lack an input`)
)

// withoutRuleCounts replaces the rule counts of a summary or "Not checked" line with N and M.
func withoutRuleCounts(line string) string {
	line = summaryCounts.ReplaceAllString(line, "; N rules run, M skipped")
	return notChecked.ReplaceAllString(line, "Not checked: M rules lack an input")
}

// checkRuleCounts checks that the table output of a diagnose command accounts for every rule it
// loaded (the built-in ones and those of its --rules folders, read from the repository root):
// run + skipped is their number, and the "Not checked" heading repeats the skipped count.
func checkRuleCounts(t *testing.T, cmd string, args []string, out string) {
	t.Helper()
	sources := []engine.Source{engine.Builtin()}
	for i, a := range args {
		if a == "--rules" && i+1 < len(args) {
			src, err := engine.Dir(args[i+1])
			if err != nil {
				t.Fatalf("%s: %v", cmd, err)
			}
			sources = append(sources, src)
		}
	}
	set, err := engine.Load(sources...)
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	var run, skipped, listed = -1, -1, -1
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimRight(line, " ")
		if m := summaryCounts.FindStringSubmatch(line); m != nil && run < 0 {
			run, _ = strconv.Atoi(m[1])
			skipped, _ = strconv.Atoi(m[2])
		}
		if m := notChecked.FindStringSubmatch(line); m != nil {
			listed, _ = strconv.Atoi(m[1])
		}
	}
	if run < 0 {
		t.Errorf("%s: no summary line with rule counts in the output:\n%s", cmd, out)
		return
	}
	if n := len(set.Rules) - len(set.FleetRules()); run+skipped != n {
		t.Errorf("%s: %d rules run + %d skipped = %d, want the %d node rules loaded (diagnose never evaluates fleet rules)", cmd, run, skipped, run+skipped, n)
	}
	if skipped > 0 && listed != skipped {
		t.Errorf("%s: \"Not checked\" lists %d rules, the summary says %d skipped", cmd, listed, skipped)
	}
}

// commandBlocks returns the lines of each ```text block that starts with "$ rdmadoctor ".
func commandBlocks(doc string) [][]string {
	var out [][]string
	var cur []string
	in := false
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case !in && line == "```text":
			in, cur = true, nil
		case in && line == "```":
			in = false
			if len(cur) > 0 && strings.HasPrefix(cur[0], "$ rdmadoctor ") {
				out = append(out, cur)
			}
		case in:
			cur = append(cur, line)
		}
	}
	return out
}
