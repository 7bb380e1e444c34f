package parse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// TestOpenSMKindsMatchRegexp: each kind, which looks for its literal text first, answers as its
// plain expression on every line of the opensm captures (and of their lines in upper and lower
// case, for the case-folded kinds).
func TestOpenSMKindsMatchRegexp(t *testing.T) {
	files, _ := filepath.Glob(fixtures.Path("opensm/*.txt"))
	if len(files) < 3 {
		t.Fatalf("opensm captures: %v", files)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			for _, line := range []string{l, strings.ToUpper(l), strings.ToLower(l)} {
				for _, k := range openSMKinds {
					if got, want := k.re.MatchString(line), k.re.Regexp().MatchString(line); got != want {
						t.Errorf("%s: %s on %q: %v, the expression says %v", filepath.Base(f), k.kind, line, got, want)
					}
				}
			}
		}
	}
}
