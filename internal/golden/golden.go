// Package golden keeps what the integration tests observed of the real components (slurmctld's
// `sinfo -R`, the NHC harness, node_exporter's /metrics, node-problem-detector's log and
// metrics, the installed package) in docs/integrations/*.txt, the files docs/integrations.md
// quotes, so that the page shows what an operator sees and cannot drift from it:
//
//   - Check, called by an integration test with what it observed, fails the test when the file
//     differs; with RDMADOCTOR_UPDATE_GOLDEN=1 in the environment it writes the file instead
//     (`make golden`, on a machine that has the components, as root for Slurm and the package).
//   - TestDocQuotesGoldenFiles fails when a block of docs/integrations.md marked
//     `<!-- output: integrations/NAME.txt -->` differs from its file, or a file is quoted nowhere;
//     with RDMADOCTOR_UPDATE_GOLDEN=1 it rewrites those blocks from the files (make golden).
//
// What changes from run to run is normalized before the comparison, in the same words
// everywhere (Normalizer): times and dates, temporary folders, free ports, the repository's
// path, the build's version and commit, and the rule counts that change whenever a rule is
// added. Each test says what it replaces beside its call of Check.
package golden

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// UpdateEnv is the environment variable that makes Check write the files.
const UpdateEnv = "RDMADOCTOR_UPDATE_GOLDEN"

// Dir is the absolute path of docs/integrations, the folder of the golden files.
func Dir() string { return filepath.Join(Root(), "docs", "integrations") }

// Root is the absolute path of the repository's top folder (two levels above this file), which
// the tests' outputs name in corpus paths: Replace(Root()+"/", "") makes them repository paths.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(filepath.Dir(file)))
}

// Check compares got (normalized by the caller) with docs/integrations/name, or writes it
// there when RDMADOCTOR_UPDATE_GOLDEN=1. A missing file is a failure that says how to make it.
func Check(t testing.TB, name, got string) {
	t.Helper()
	if !strings.HasSuffix(got, "\n") {
		got += "\n"
	}
	path := filepath.Join(Dir(), name)
	if os.Getenv(UpdateEnv) == "1" {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", path)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with %s=1 to write it, then check docs/integrations.md quotes it)", err, UpdateEnv)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("observed output differs from docs/integrations/%s, which docs/integrations.md quotes "+
			"(if the change is right: %s=1 go test ..., then update the page's block) (-file +observed):\n%s", name, UpdateEnv, diff)
	}
}

// Normalizer rewrites the values of a test's output that differ between runs: Replace the
// literal ones (a temporary folder as $TMP, the repository's path as nothing), then the
// patterns of Volatile.
type Normalizer struct {
	pairs []string
}

// Replace adds literal replacements: old, new, old, new, ... (longest first is the caller's
// business when one old contains another).
func (n *Normalizer) Replace(oldnew ...string) *Normalizer {
	for i := 0; i+1 < len(oldnew); i += 2 {
		if oldnew[i] != "" {
			n.pairs = append(n.pairs, oldnew[i], oldnew[i+1])
		}
	}
	return n
}

// Volatile are the patterns every golden file has normalized, in this order, with what stands
// in their place:
//
//	2026-12-02T04:18:05(Z)          YYYY-MM-DDThh:mm:ss(Z)     (same width: sinfo's columns stay)
//	1.796182778e+09, 1796182778     UNIX_TIME                  (unix seconds of this decade)
//	127.0.0.1:34567                 127.0.0.1:PORT
var Volatile = []struct {
	Re   *regexp.Regexp
	With string
}{
	{regexp.MustCompile(`\b20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d`), "YYYY-MM-DDThh:mm:ss"},
	// %g drops trailing zeros: 1796216970 is 1.79621697e+09.
	{regexp.MustCompile(`\b1\.[78]\d{0,8}e\+09\b|\b1[78]\d{8}(\.\d+)?\b`), "UNIX_TIME"},
	{regexp.MustCompile(`127\.0\.0\.1:\d+`), "127.0.0.1:PORT"},
}

// Apply returns s with the replacements, then the Volatile patterns, applied.
func (n *Normalizer) Apply(s string) string {
	if len(n.pairs) > 0 {
		s = strings.NewReplacer(n.pairs...).Replace(s)
	}
	for _, v := range Volatile {
		s = v.Re.ReplaceAllString(s, v.With)
	}
	return s
}
