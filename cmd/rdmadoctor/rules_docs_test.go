package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdmadoctor/rdmadoctor/engine"
)

const ruleDocsDir = "../../docs/rules"

// TestRuleDocs fails when docs/rules is not what the rules' metadata generates; `go generate
// ./...` rewrites it (rules/generate.go runs `rdmadoctor rules docs`).
func TestRuleDocs(t *testing.T) {
	set, err := engine.Load(engine.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	want := ruleDocs(set.Rules)
	files, err := filepath.Glob(filepath.Join(ruleDocsDir, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got[filepath.Base(f)] = string(b)
	}
	wantS := map[string]string{}
	for name, b := range want {
		wantS[name] = string(b)
	}
	if diff := cmp.Diff(wantS, got); diff != "" {
		t.Errorf("docs/rules is stale; run go generate ./... (-generated +committed):\n%s", diff)
	}
}

// TestCatalog is the bar for the built-in knowledge base: at least 50 rules, each with a
// fix and at least one reference (related_resources). That each has a test that fires and one
// that does not is checked by rules/rules_test.go (TestEveryPackageIsTested).
func TestCatalog(t *testing.T) {
	set, err := engine.Load(engine.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(set.Rules); n < 50 {
		t.Errorf("%d built-in rules, want at least 50", n)
	}
	for _, r := range set.Rules {
		if len(r.Fix) == 0 {
			t.Errorf("%s: %s has no fix", r.File, r.ID)
		}
		if len(r.References) == 0 {
			t.Errorf("%s: %s has no reference (METADATA related_resources)", r.File, r.ID)
		}
		for _, ref := range r.References {
			if !strings.HasPrefix(ref, "https://") && !strings.HasPrefix(ref, "http://") {
				t.Errorf("%s: reference %q is not a URL", r.File, ref)
			}
		}
	}
}

// TestRuleDocsLinks: every page the index links to exists, and every rule has an anchor.
func TestRuleDocsLinks(t *testing.T) {
	set, err := engine.Load(engine.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	pages := ruleDocs(set.Rules)
	var names []string
	for name := range pages {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, r := range set.Rules {
		page, ok := pages[r.Area+".md"]
		if !ok {
			t.Errorf("%s: no page %s.md (pages: %v)", r.ID, r.Area, names)
			continue
		}
		if !strings.Contains(string(page), "\n## "+r.ID+"\n") {
			t.Errorf("%s.md has no section for %s", r.Area, r.ID)
		}
		if !strings.Contains(string(pages["README.md"]), "("+r.Area+".md#"+r.ID+")") {
			t.Errorf("README.md does not link %s", r.ID)
		}
	}
}
