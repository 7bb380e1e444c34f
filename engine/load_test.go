package engine_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// rule returns a valid rule module; edit replaces old with new in it to break one thing.
func rule(id string, edits ...string) string {
	src := `# METADATA
# title: Test rule
# description: A rule for load tests.
# scope: package
# custom:
#   id: ` + id + `
#   area: ib
#   severity: error
#   confidence: high
#   requires: [ib_ports]
#   fix:
#     - command: ibstat {{device}}
package rdmadoctor.rules.` + strings.ReplaceAll(id, "-", "_") + `

findings contains f if {
	some dev in input.devices
	f := {"subject": {"device": dev.name}, "message": dev.name, "evidence": []}
}
`
	for i := 0; i+1 < len(edits); i += 2 {
		src = strings.Replace(src, edits[i], edits[i+1], 1)
	}
	return src
}

// dataKeys is a data file of eight keys, not in key order.
const dataKeys = "k8: 1\nk3: 1\nk6: 1\nk1: 1\nk7: 1\nk2: 1\nk5: 1\nk4: 1\n"

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"unknown severity", map[string]string{"ib/a.rego": rule("a", "severity: error", "severity: fatal")},
			"u/ib/a.rego:8: unknown severity \"fatal\" (want critical, error, warning, info)"},
		{"unknown confidence", map[string]string{"ib/a.rego": rule("a", "confidence: high", "confidence: sure")},
			"u/ib/a.rego:9: unknown confidence \"sure\" (want high, medium, low)"},
		{"missing id", map[string]string{"ib/a.rego": rule("a", "#   id: a\n", "")},
			"u/ib/a.rego:1: missing custom.id"},
		{"missing fix", map[string]string{"ib/a.rego": rule("a", "#   fix:\n#     - command: ibstat {{device}}\n", "")},
			"u/ib/a.rego:1: missing custom.fix (at least one command that remedies or verifies the condition)"},
		{"duplicate id", map[string]string{"ib/a.rego": rule("a"), "link/a.rego": rule("a")},
			"u/link/a.rego:13: duplicate rule id \"a\" (also in u/ib/a.rego)"},
		{"unknown fact group", map[string]string{"ib/a.rego": rule("a", "[ib_ports]", "[ib_ports, mstconfig]")},
			"u/ib/a.rego:10: unknown fact group \"mstconfig\" in requires (see facts/groups.go)"},
		{"unknown custom key", map[string]string{"ib/a.rego": rule("a", "#   area: ib\n", "#   area: ib\n#   requries: [x]\n")},
			"u/ib/a.rego:8: unknown custom key \"requries\" (want id, area, severity, confidence, requires, explains, needs_reboot, fix)"},
		{"package differs from id", map[string]string{"ib/a.rego": rule("a", "rules.a", "rules.b")},
			"u/ib/a.rego:6: id \"a\" needs package rdmadoctor.rules.a, not b"},
		{"no metadata", map[string]string{"ib/a.rego": "package rdmadoctor.rules.a\n\nfindings := set()\n"},
			"u/ib/a.rego:1: rule package data.rdmadoctor.rules.a has no package-scoped METADATA block"},
		{"malformed placeholder", map[string]string{"ib/a.rego": rule("a", "{{device}}", "{{device}")},
			"u/ib/a.rego:11: fix command \"ibstat {{device}\" has a malformed placeholder (want {{name}})"},
		// Every key of b.yaml is a.yaml's too: the one named is the first in key order, whatever
		// the map's (it was any of the eight, run to run).
		{"duplicate data keys", map[string]string{"ib/a.rego": rule("a"), "tables/a.yaml": dataKeys, "tables/b.yaml": dataKeys},
			"u/tables/b.yaml: key \"k1\" is already defined by another data file"},
		{"syntax error", map[string]string{"ib/a.rego": rule("a", "some dev in", "some dev on")},
			"u/ib/a.rego:16: rego_parse_error: unexpected identifier token: expected \\n or ; or }"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := engine.Load(mapSource(tc.files))
			if err == nil {
				t.Fatal("no error")
			}
			if got := strings.SplitN(err.Error(), "\n", 2)[0]; got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func mapSource(files map[string]string) engine.Source {
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	return engine.Source{Name: "u", FS: fsys}
}

// TestSchemaCheck: a rule that reads a field the snapshot does not have fails at load time,
// naming the file and row.
func TestSchemaCheck(t *testing.T) {
	src := mapSource(map[string]string{"ib/a.rego": rule("a", "dev.name}", "dev.nmae}")})
	_, err := engine.New(context.Background(), engine.Options{}, src)
	if err == nil {
		t.Fatal("no error")
	}
	want := "u/ib/a.rego:17: rego_type_error: undefined ref: dev.nmae"
	if got := strings.SplitN(err.Error(), "\n", 2)[0]; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if _, err := engine.New(context.Background(), engine.Options{SkipTypeCheck: true}, src); err != nil {
		t.Errorf("without type check: %v", err)
	}
}

func TestLoadUserRules(t *testing.T) {
	set, err := engine.Load(testRules(), mapSource(map[string]string{"ib/extra.rego": rule("extra")}))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range set.Rules {
		ids = append(ids, r.ID)
	}
	want := []string{"extra", "ipoib-down", "link-down", "memlock-low", "no-sm", "nv-link-type", "pcie-slow"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	got := set.Rule("no-sm")
	wantRule := &engine.Rule{ID: "no-sm", Title: "IB port has no subnet manager", Description: "The port is not Active and no SM has a LID for it.",
		Area: "ib", Severity: "critical", Confidence: "high", Requires: []engine.Alternative{{Facts: []string{"ib_ports"}, Confidence: "high"}}, Explains: []string{"ipoib-down"},
		Fix:        []engine.FixStep{{Fix: report.Fix{Command: "sminfo -C {{device}} -P {{port}}", Note: "does any SM answer?"}}, {Fix: report.Fix{Command: "systemctl enable --now opensm"}}},
		References: []string{"https://example.org/no-sm"}, File: "testdata/rules/ib/no_sm.rego"}
	if diff := cmp.Diff(wantRule, got, cmpopts.IgnoreUnexported(engine.Rule{})); diff != "" {
		t.Errorf("rule (-want +got):\n%s", diff)
	}
}
