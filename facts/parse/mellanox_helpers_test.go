package parse_test

import (
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// fixtureEv returns line n of a fixture as evidence, so tests assert which line a fact came from
// without retyping padded lines.
func fixtureEv(t *testing.T, fixture string, n int) facts.Evidence {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(string(fixtures.Read(t, fixture)), "\n"), "\n")
	if n < 1 || n > len(lines) {
		t.Fatalf("%s has no line %d", fixture, n)
	}
	return facts.Evidence{Line: n, Text: strings.TrimSuffix(lines[n-1], "\r")}
}

func i64p(v int64) *int64 { return &v }
