package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// Areas are the rule families of the catalog. Rules of area FleetArea are fleet rules: they
// evaluate the fleet document (facts.Fleet) in a FleetEngine, never a node's snapshot.
var Areas = []string{"ib", "link", "pcie", "roce", "firmware", "stack", "ipoib", "host", "sm", "counters", "fabric", "perf", FleetArea}

// FleetArea is the area of the fleet rules (rules/fleet/).
const FleetArea = "fleet"

// Rule is one rule's metadata, read from its package-scoped METADATA block.
type Rule struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Area        string `json:"area"`
	Severity    string `json:"severity"`
	Confidence  string `json:"confidence"`
	// Requires are the evidence alternatives: the rule is evaluated when every fact group of
	// at least one of them is available (custom.requires; docs/rules-contract.md).
	Requires    []Alternative `json:"requires"`
	Explains    []string      `json:"explains"`
	NeedsReboot bool          `json:"needs_reboot"`
	Fix         []FixStep     `json:"fix"`
	References  []string      `json:"references"`
	// File is where the rule was loaded from, e.g. "rules/ib/ib_port_no_subnet_manager.rego".
	File string `json:"file"`
	// pkg is the last element of the rule's package path (the id with underscores).
	pkg string
}

// Fleet reports whether r is a fleet rule (area fleet): its input is facts.Fleet and its
// requires name fleet groups (facts.FleetGroups).
func (r *Rule) Fleet() bool { return r.Area == FleetArea }

// customKeys are the keys a rule's `custom:` block may hold.
var customKeys = map[string]bool{
	"id": true, "area": true, "severity": true, "confidence": true, "requires": true,
	"explains": true, "needs_reboot": true, "fix": true,
}

var (
	idPattern          = lazyregexp.New(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	placeholderPattern = lazyregexp.New(`\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`)
)

// ruleFromModule reads and validates the METADATA of a rule module. src is the module's text,
// used to point errors at the offending line of the comment block. whole says m is the whole
// module, not only its header (parseModule), so that its rules can be checked too.
func ruleFromModule(file string, src []byte, m *ast.Module, whole bool) (*Rule, []error) {
	pkg := m.Package.Path[len(m.Package.Path)-1].Value.(ast.String)
	var a *ast.Annotations
	for _, x := range m.Annotations {
		if x.Scope == "package" {
			a = x
		}
	}
	if a == nil {
		return nil, []error{fmt.Errorf("%s:%d: rule package %s has no package-scoped METADATA block", file, m.Package.Location.Row, m.Package.Path)}
	}
	v := &validator{file: file, lines: strings.Split(string(src), "\n"), row: a.Location.Row}
	r := &Rule{File: file, pkg: string(pkg), Title: a.Title, Description: strings.TrimSpace(a.Description)}
	for _, rr := range a.RelatedResources {
		r.References = append(r.References, rr.Ref.String())
	}
	keys := make([]string, 0, len(a.Custom))
	for k := range a.Custom {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !customKeys[k] {
			v.errorf(k, "unknown custom key %q (want id, area, severity, confidence, requires, explains, needs_reboot, fix)", k)
		}
	}
	r.ID = v.str(a.Custom, "id", true)
	r.Area = v.str(a.Custom, "area", true)
	r.Severity = v.str(a.Custom, "severity", true)
	r.Confidence = v.str(a.Custom, "confidence", true)
	r.Requires = v.alternatives(a.Custom, r.Confidence)
	r.Explains = v.strs(a.Custom, "explains")
	r.Fix = v.fixes(a.Custom)
	if nr, ok := a.Custom["needs_reboot"]; ok {
		b, isBool := nr.(bool)
		if !isBool {
			v.errorf("needs_reboot", "needs_reboot must be true or false, not %v", nr)
		}
		r.NeedsReboot = b
	}

	if r.Title == "" {
		v.errorf("", "missing title")
	}
	if r.Description == "" {
		v.errorf("", "missing description")
	}
	if r.ID != "" {
		if !idPattern.MatchString(r.ID) {
			v.errorf("id", "id %q is not kebab-case", r.ID)
		} else if want := strings.ReplaceAll(r.ID, "-", "_"); want != r.pkg {
			v.errorf("id", "id %q needs package rdmadoctor.rules.%s, not %s", r.ID, want, r.pkg)
		}
	}
	v.oneOf("severity", r.Severity, report.Severities)
	v.oneOf("confidence", r.Confidence, report.Confidences)
	v.oneOf("area", r.Area, Areas)
	if !v.has(a.Custom, "requires") {
		v.errorf("", "missing custom.requires (the fact groups the rule reads; [] for none)")
	}
	for _, alt := range r.Requires {
		for _, g := range alt.Facts {
			if r.Fleet() {
				if _, ok := facts.FleetGroups[g]; !ok {
					v.errorf("requires", "unknown fleet fact group %q in requires of a fleet rule (see facts/fleet_groups.go)", g)
				}
			} else if _, ok := facts.FactGroups[g]; !ok {
				v.errorf("requires", "unknown fact group %q in requires (see facts/groups.go)", g)
			}
		}
		if r.Confidence != "" && alt.Confidence != "" && confidenceRank(alt.Confidence) < confidenceRank(r.Confidence) {
			v.errorf("requires", "alternative %s has confidence %s, above the rule's %s (the rule's confidence is its best)",
				strings.Join(alt.Facts, "+"), alt.Confidence, r.Confidence)
		}
	}
	if r.Fleet() {
		for _, f := range r.Fix {
			for k := range f.When {
				if k != whenVendor {
					v.errorf("fix", "a fleet rule's fix `when` tests the vendor only: the port of its subject is on another node's snapshot than the fleet document holds")
				}
			}
		}
	}
	for _, id := range r.Explains {
		if !idPattern.MatchString(id) {
			v.errorf("explains", "explains: %q is not a rule id", id)
		}
	}
	if whole {
		if err := checkFindings(file, m, r.ID); err != nil {
			v.errors = append(v.errors, err)
		}
	}
	return r, v.errors
}

// checkFindings returns an error naming the file unless the rule module defines `findings`.
func checkFindings(file string, m *ast.Module, id string) error {
	for _, rule := range m.Rules {
		if rule.Head.Ref().Equal(ast.Ref{ast.VarTerm("findings")}) {
			return nil
		}
	}
	return fmt.Errorf("%s:%d: rule %s defines no `findings`", file, m.Package.Location.Row, id)
}

// validator collects metadata errors with the row of the key they are about.
type validator struct {
	file   string
	lines  []string
	row    int // the METADATA line
	errors []error
}

func (v *validator) errorf(key, format string, args ...any) {
	v.errors = append(v.errors, fmt.Errorf("%s:%d: %s", v.file, v.keyRow(key), fmt.Sprintf(format, args...)))
}

// keyRow finds the comment line of the METADATA block that sets key; the block's first line
// when key is empty or not found.
func (v *validator) keyRow(key string) int {
	if key == "" {
		return v.row
	}
	prefix := key + ":"
	for i := v.row; i < len(v.lines); i++ { // v.row is 1-based: lines[v.row] is the line after METADATA
		l := strings.TrimSpace(v.lines[i])
		if !strings.HasPrefix(l, "#") {
			break
		}
		if strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(l, "#")), prefix) {
			return i + 1
		}
	}
	return v.row
}

func (v *validator) has(m map[string]any, key string) bool {
	_, ok := m[key]
	return ok
}

func (v *validator) str(m map[string]any, key string, required bool) string {
	x, ok := m[key]
	if !ok {
		if required {
			v.errorf("", "missing custom.%s", key)
		}
		return ""
	}
	s, ok := x.(string)
	if !ok || s == "" {
		v.errorf(key, "%s must be a non-empty string, not %v", key, x)
	}
	return s
}

func (v *validator) strs(m map[string]any, key string) []string {
	x, ok := m[key]
	if !ok || x == nil {
		return nil
	}
	list, ok := x.([]any)
	if !ok {
		v.errorf(key, "%s must be a list, not %v", key, x)
		return nil
	}
	var out []string
	for _, e := range list {
		s, ok := e.(string)
		if !ok || s == "" {
			v.errorf(key, "%s: %v is not a name", key, e)
			continue
		}
		out = append(out, s)
	}
	return out
}

func (v *validator) oneOf(key, val string, allowed []string) {
	if val == "" {
		return
	}
	for _, a := range allowed {
		if val == a {
			return
		}
	}
	v.errorf(key, "unknown %s %q (want %s)", key, val, strings.Join(allowed, ", "))
}

func (v *validator) fixes(m map[string]any) []FixStep {
	x, ok := m["fix"]
	if !ok {
		v.errorf("", "missing custom.fix (at least one command that remedies or verifies the condition)")
		return nil
	}
	list, ok := x.([]any)
	if !ok || len(list) == 0 {
		v.errorf("fix", "fix must be a non-empty list of {command, note}")
		return nil
	}
	var out []FixStep
	for _, e := range list {
		o, ok := e.(map[string]any)
		cmd, _ := o["command"].(string)
		note, _ := o["note"].(string)
		if raw, has := o["command"]; ok && has && cmd == "" && raw != nil {
			v.errorf("fix", "fix command %v is not a string (quote it)", raw)
			continue
		}
		if !ok || strings.TrimSpace(cmd) == "" {
			v.errorf("fix", "fix entry %v has no command", e)
			continue
		}
		for k := range o {
			if k != "command" && k != "note" && k != "when" {
				v.errorf("fix", "fix entry has unknown key %q (want command, note, when)", k)
			}
		}
		if strings.Count(cmd, "{{") != len(placeholderPattern.FindAllString(cmd, -1)) {
			v.errorf("fix", "fix command %q has a malformed placeholder (want {{name}})", cmd)
		}
		out = append(out, FixStep{Fix: report.Fix{Command: strings.TrimSpace(cmd), Note: strings.TrimSpace(note)}, When: v.when(o["when"])})
	}
	return out
}
