package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

// TestReportsMatchSchema: the JSON report of every corpus case and scenario is valid under
// docs/report.schema.json, checked by OPA's json.match_schema (draft 2020-12 as OPA reads it).
func TestReportsMatchSchema(t *testing.T) {
	schema, err := os.ReadFile("../../docs/report.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	sv, err := ast.ValueFromReader(bytes.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	pq, err := rego.New(rego.Query("[ok, errs] := json.match_schema(input.report, input.schema)")).PrepareForEval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	cases, _ := filepath.Glob(filepath.Join(fixtures.CorpusDir(t), "[0-9]*"))
	scenarios, _ := filepath.Glob(fixtures.Path("scenarios/*"))
	n := 0
	for _, dir := range append(cases, scenarios...) {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		code, stdout, stderr := runCLI(t, "diagnose", "--snapshot", dir, "--format", "json", "--fail-on", "none")
		if code != 0 && code != exitNoFacts {
			t.Errorf("%s: exit %d: %s", filepath.Base(dir), code, stderr)
			continue
		}
		doc, err := ast.ValueFromReader(strings.NewReader(stdout))
		if err != nil {
			t.Errorf("%s: not JSON: %v", filepath.Base(dir), err)
			continue
		}
		rs, err := pq.Eval(context.Background(), rego.EvalParsedInput(ast.NewObject(
			[2]*ast.Term{ast.StringTerm("report"), ast.NewTerm(doc)}, [2]*ast.Term{ast.StringTerm("schema"), ast.NewTerm(sv)})))
		if err != nil || len(rs) != 1 {
			t.Fatalf("%s: json.match_schema: %v %v", filepath.Base(dir), rs, err)
		}
		if ok, _ := rs[0].Bindings["ok"].(bool); !ok {
			t.Errorf("%s: report does not match docs/report.schema.json: %v", filepath.Base(dir), rs[0].Bindings["errs"])
		}
		n++
	}
	if n < 60 {
		t.Errorf("checked %d reports, want every corpus case and scenario (60+)", n)
	}
}
