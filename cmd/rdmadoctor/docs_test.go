package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestWritingRulesDoc runs every command shown in docs/writing-rules.md (```text blocks whose
// first line is "$ rdmadoctor ...") from the repository root and checks that each line shown
// below it appears, in order, in the real output ("..." marks a cut). The example rule folder,
// docs/examples/site-rules, must pass its own tests.
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
	for _, b := range blocks {
		args := strings.Fields(strings.TrimPrefix(b[0], "$ "))
		var out, errOut bytes.Buffer
		code := run(args, nil, &out, &errOut)
		if args[1] == "rules" && code != 0 {
			t.Errorf("%s: exit %d: %s", b[0], code, errOut.String())
		}
		got := strings.Split(out.String(), "\n")
		for i := range got {
			got[i] = strings.TrimRight(got[i], " ")
		}
		next := 0
		for _, want := range b[1:] {
			if want == "..." {
				continue
			}
			found := false
			for next < len(got) {
				next++
				if got[next-1] == strings.TrimRight(want, " ") {
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
