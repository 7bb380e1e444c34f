package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/loader"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/tester"
	"github.com/urfave/cli/v2"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/rules"
)

// rulesTest is `rdmadoctor rules test DIR`: the folder's rules are validated exactly as
// `diagnose --rules DIR` validates them (metadata, ids, type check against the snapshot schema),
// then every test_* rule of its *_test.rego runs with OPA's tester, with the built-in rules/lib
// helpers and rules/data tables loaded beside them.
func rulesTest(c *cli.Context) error {
	if c.NArg() != 1 {
		return withCode(exitUsage, errors.New("rules test: give one rule folder, e.g. rdmadoctor rules test ./site-rules"))
	}
	dir := c.Args().First()
	ctx := c.Context
	if ctx == nil {
		ctx = context.Background()
	}
	src, err := engine.Dir(dir)
	if err != nil {
		return withCode(exitUsage, err)
	}
	set, err := engine.Load(engine.Builtin(), src)
	if err != nil && strings.Count(err.Error(), ": loaded twice")+strings.Count(err.Error(), ": duplicate rule id") >= 5 {
		// Its files clash with the built-in ones: this is (a copy of) the built-in folder.
		return withCode(exitUsage, fmt.Errorf("rules test %s: the folder holds the built-in rules, which `rules test` loads already; it is for site rules (the built-in ones are tested by `go test ./rules`)", dir))
	}
	if err != nil {
		return withCode(exitUsage, err)
	}
	if _, err := set.Prepare(ctx, engine.Options{}); err != nil {
		return withCode(exitUsage, err)
	}
	if _, err := set.PrepareFleet(ctx); err != nil { // fleet rules (area fleet), against the fleet schema
		return withCode(exitUsage, err)
	}
	builtin, err := engine.Load(engine.Builtin())
	if err != nil {
		return withCode(exitUsage, err)
	}

	modules, docs, err := testModules(dir)
	if err != nil {
		return withCode(exitUsage, err)
	}
	ch, err := tester.NewRunner().
		SetStore(inmem.NewFromObject(docs)).
		SetModules(modules).
		CapturePrintOutput(true).
		RunTests(ctx, nil)
	if err != nil {
		return withCode(exitUsage, testError(err))
	}
	var results []*tester.Result
	for r := range ch {
		results = append(results, r)
	}
	sort.Slice(results, func(i, j int) bool {
		a, b := results[i].Location, results[j].Location
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Row < b.Row
	})

	w := c.App.Writer
	passed := map[string][]string{} // test package -> passing test names
	failed := 0
	for _, r := range results {
		where := fmt.Sprintf("%s:%d", r.Location.File, r.Location.Row)
		switch {
		case r.Skip:
			fmt.Fprintf(w, "SKIP  %s  %s\n", r.Name, where)
		case r.Error != nil:
			failed++
			fmt.Fprintf(w, "ERROR %s  %s\n      %v\n", r.Name, where, r.Error)
		case r.Fail:
			failed++
			fmt.Fprintf(w, "FAIL  %s  %s\n", r.Name, where)
			if len(r.Output) > 0 {
				fmt.Fprintf(w, "%s\n", indent(strings.TrimRight(string(r.Output), "\n"), "      "))
			}
		default:
			pkg := strings.TrimPrefix(r.Package, "data.")
			passed[pkg] = append(passed[pkg], r.Name)
			fmt.Fprintf(w, "PASS  %s  %s\n", r.Name, where)
		}
	}
	// The built-in convention (rules/README.md): a test that fires and a near miss per rule.
	var notes []string
	for _, r := range set.Rules {
		if builtin.Rule(r.ID) != nil {
			continue
		}
		names := passed["rdmadoctor.rules."+strings.ReplaceAll(r.ID, "-", "_")+"_test"]
		if !hasPrefix(names, "test_fires_") || !hasPrefix(names, "test_no_") {
			notes = append(notes, fmt.Sprintf("note: %s (%s) lacks a passing test_fires_* or test_no_* case", r.ID, r.File))
		}
	}
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	fmt.Fprintf(w, "%s: %d passed, %d failed\n", plural(len(results), "test", "tests"), len(results)-failed, failed)
	if failed > 0 || len(results) == 0 {
		if len(results) == 0 {
			fmt.Fprintf(c.App.ErrWriter, "rdmadoctor: no test_* rules in %s/**/*_test.rego\n", path.Clean(dir))
		}
		return silentExit(exitFindings)
	}
	return nil
}

// testModules loads the built-in lib/ modules and data/ tables (not the built-in rules and
// tests) and every .rego, .yaml and .json of dir, the way `opa test` loads folders: data files
// are placed by their directory. Built-in module names get a "rules/" prefix.
func testModules(dir string) (map[string]*ast.Module, map[string]any, error) {
	onlyLib := func(abspath string, info fs.FileInfo, depth int) bool {
		p := strings.TrimPrefix(abspath, "./")
		if info.IsDir() {
			return depth > 0 && !(p == "lib" || p == "data" || strings.HasPrefix(p, "lib/") || strings.HasPrefix(p, "data/"))
		}
		return strings.HasSuffix(p, "_test.rego") || !(strings.HasPrefix(p, "lib/") || strings.HasPrefix(p, "data/"))
	}
	base, err := loader.NewFileLoader().WithFS(rules.FS).WithProcessAnnotation(true).Filtered([]string{"."}, onlyLib)
	if err != nil {
		return nil, nil, fmt.Errorf("built-in rules: %w", err)
	}
	user, err := loader.NewFileLoader().WithProcessAnnotation(true).All([]string{dir})
	if err != nil {
		return nil, nil, testError(err)
	}
	modules := map[string]*ast.Module{}
	for _, m := range base.Modules {
		modules["rules/"+m.Name] = m.Parsed
	}
	for _, m := range user.Modules {
		modules[m.Name] = m.Parsed
	}
	docs := base.Documents
	if err := mergeDocs(docs, user.Documents, ""); err != nil {
		return nil, nil, err
	}
	return modules, docs, nil
}

// mergeDocs adds src's keys to dst; a key both define (other than nested objects) is an error.
func mergeDocs(dst, src map[string]any, at string) error {
	for k, v := range src {
		old, ok := dst[k]
		if !ok {
			dst[k] = v
			continue
		}
		om, ok1 := old.(map[string]any)
		nm, ok2 := v.(map[string]any)
		if !ok1 || !ok2 {
			return fmt.Errorf("data.%s%s is defined by a built-in table and by the rule folder", at, k)
		}
		if err := mergeDocs(om, nm, at+k+"."); err != nil {
			return err
		}
	}
	return nil
}

// testError turns OPA's parse and compile errors into one "file:row: code: message" line each.
func testError(err error) error {
	var le loader.Errors
	if errors.As(err, &le) {
		msgs := make([]string, len(le))
		for i, e := range le {
			msgs[i] = testError(e).Error()
		}
		return errors.New(strings.Join(msgs, "\n"))
	}
	var errs ast.Errors
	if errors.As(err, &errs) {
		msgs := make([]string, len(errs))
		for i, e := range errs {
			loc := ""
			if e.Location != nil {
				loc = fmt.Sprintf("%s:%d: ", e.Location.File, e.Location.Row)
			}
			msgs[i] = fmt.Sprintf("%s%s: %s", loc, e.Code, e.Message)
		}
		return errors.New(strings.Join(msgs, "\n"))
	}
	return err
}

func hasPrefix(names []string, prefix string) bool {
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			return true
		}
	}
	return false
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
