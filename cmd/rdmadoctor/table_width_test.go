package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"

	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// TestTableFitsTerminal: the table of every corpus case (and scenario), at COLUMNS=100 and 120,
// has no line wider than the terminal, counted in display columns (└ is one, a CJK rune two),
// not bytes; verbose, with every skipped rule listed, too.
func TestTableFitsTerminal(t *testing.T) {
	cases, _ := filepath.Glob(filepath.Join(fixtures.CorpusDir(t), "[0-9]*"))
	scenarios, _ := filepath.Glob(fixtures.Path("scenarios/*"))
	n := 0
	for _, dir := range append(cases, scenarios...) {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		args := []string{"diagnose", "--snapshot", dir, "--fail-on", "none", "--verbose"}
		if _, err := os.Stat(filepath.Join(dir, "profile.yaml")); err == nil {
			args = append(args, "--profile", filepath.Join(dir, "profile.yaml"))
		}
		for _, width := range []int{100, 120} {
			t.Setenv("COLUMNS", strconv.Itoa(width))
			code, stdout, stderr := runCLI(t, args...)
			if code != 0 && code != exitNoFacts {
				t.Errorf("%s: exit %d: %s", filepath.Base(dir), code, stderr)
				continue
			}
			for i, line := range strings.Split(stdout, "\n") {
				if w := runewidth.StringWidth(line); w > width {
					t.Errorf("%s at %d columns: line %d is %d wide:\n%s", filepath.Base(dir), width, i+1, w, line)
				}
			}
			if code == 0 {
				n++
			}
		}
	}
	if n < 100 {
		t.Errorf("checked %d tables, want every corpus case and scenario at two widths (100+)", n)
	}
}
