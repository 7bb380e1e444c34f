package rules_test

import (
	"context"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/tester"

	"github.com/rdmadoctor/rdmadoctor/rules"
)

var packageLine = regexp.MustCompile(`(?m)^package (\S+)`)

// TestRego runs every *_test.rego under rules/ with OPA's tester, as `opa test rules/` does.
func TestRego(t *testing.T) {
	results := runRego(t)
	for _, r := range results {
		name := r.Package + "." + r.Name
		switch {
		case r.Error != nil:
			t.Errorf("%s: %v", name, r.Error)
		case r.Fail:
			t.Errorf("%s: FAIL (%s:%d)", name, r.Location.File, r.Location.Row)
		}
	}
}

// TestEveryPackageIsTested enforces the convention in rules/README.md: every rule package has a
// <file>_test.rego beside it with at least one passing test_fires_* case (the rule reports a
// finding) and one passing test_no_* case (a near miss it must not report); every lib package
// has a _test.rego with at least one passing test.
func TestEveryPackageIsTested(t *testing.T) {
	passed := map[string][]string{} // test package -> passing test names
	for _, r := range runRego(t) {
		if r.Pass() {
			pkg := strings.TrimPrefix(r.Package, "data.")
			passed[pkg] = append(passed[pkg], r.Name)
		}
	}
	for _, file := range regoFiles(t) {
		if strings.HasSuffix(file, "_test.rego") {
			continue
		}
		pkg := packageOf(t, file)
		testFile := strings.TrimSuffix(file, ".rego") + "_test.rego"
		if _, err := fs.Stat(rules.FS, testFile); err != nil {
			t.Errorf("%s: no %s beside it", file, path.Base(testFile))
			continue
		}
		if got := packageOf(t, testFile); got != pkg+"_test" {
			t.Errorf("%s: package %s, want %s_test", testFile, got, pkg)
		}
		names := passed[pkg+"_test"]
		if strings.HasPrefix(pkg, "rdmadoctor.lib.") {
			if len(names) == 0 {
				t.Errorf("%s: no passing test", testFile)
			}
			continue
		}
		if !hasPrefix(names, "test_fires_") {
			t.Errorf("%s: no passing test_fires_* case (one where the rule reports a finding)", testFile)
		}
		if !hasPrefix(names, "test_no_") {
			t.Errorf("%s: no passing test_no_* case (a near miss the rule must not report)", testFile)
		}
	}
}

var (
	regoOnce    sync.Once
	regoResults []*tester.Result
	regoErr     error
)

// runRego runs the Rego tests once per process; the files on disk are the ones rules.FS embeds.
func runRego(t *testing.T) []*tester.Result {
	t.Helper()
	regoOnce.Do(func() { regoResults, regoErr = tester.Run(context.Background(), ".") })
	if regoErr != nil {
		t.Fatal(regoErr)
	}
	if len(regoResults) == 0 {
		t.Fatal("no Rego tests found")
	}
	return regoResults
}

func regoFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := fs.WalkDir(rules.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".rego") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

func packageOf(t *testing.T, file string) string {
	t.Helper()
	b, err := fs.ReadFile(rules.FS, file)
	if err != nil {
		t.Fatal(err)
	}
	m := packageLine.FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s: no package line", file)
	}
	return string(m[1])
}

func hasPrefix(names []string, prefix string) bool {
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			return true
		}
	}
	return false
}
