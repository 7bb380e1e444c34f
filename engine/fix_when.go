package engine

import (
	"slices"
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// FixStep is one entry of a rule's custom.fix: the command and note (templates), and When, the
// conditions under which the step applies.
type FixStep struct {
	report.Fix
	// When maps a port field (link_layer, state, physical_state) or vendor to the values for
	// which the step applies, e.g. {"physical_state": ["Disabled"]}, {"vendor": ["Mellanox"]}.
	// A finding about a port the snapshot has gets the step only when every port field's value
	// is listed; a finding whose port is not in the snapshot, or whose field is unknown, gets
	// it (absence is not evidence). vendor is the vendor of the subject's adapter, known only
	// from positive evidence (subjectVendor): a step for Mellanox adapters (mlxlink, mstconfig)
	// is left out on a board the snapshot shows is Intel's, and kept when it shows nothing.
	When map[string][]string `json:"when,omitempty"`
}

// whenFields are the port fields a fix step's when may test, with their values as the
// snapshot spells them (facts.Port).
var whenFields = map[string]func(facts.Port) string{
	"link_layer":     func(p facts.Port) string { return p.LinkLayer },
	"state":          func(p facts.Port) string { return p.State },
	"physical_state": func(p facts.Port) string { return p.PhysicalState },
}

// whenVendor is the when key for the subject's adapter vendor (one of vendors).
const whenVendor = "vendor"

// when reads a fix step's `when: {field: value or [values]}`.
func (v *validator) when(x any) map[string][]string {
	if x == nil {
		return nil
	}
	o, ok := x.(map[string]any)
	if !ok {
		v.errorf("fix", "fix when must be a map of port field or vendor to values, not %v", x)
		return nil
	}
	out := map[string][]string{}
	for k, val := range o {
		if whenFields[k] == nil && k != whenVendor {
			v.errorf("fix", "fix when: unknown field %q (want link_layer, state, physical_state, vendor)", k)
			continue
		}
		switch val := val.(type) {
		case string:
			out[k] = []string{val}
		case []any:
			out[k] = v.strs(map[string]any{k: val}, k)
		default:
			v.errorf("fix", "fix when: %s must be a value or a list of values, not %v", k, val)
		}
		sort.Strings(out[k])
		if k == whenVendor {
			for _, name := range out[k] {
				if !slices.Contains(vendors, name) {
					v.errorf("fix", "fix when: vendor %q is not one of %s", name, strings.Join(vendors, ", "))
				}
			}
		}
	}
	return out
}

// fixContext is what a step's when is tested against: the subject's port (nil: the subject
// names none, or the snapshot does not have it) and its adapter's vendor ("" when unknown).
type fixContext struct {
	port   *facts.Port
	vendor string
}

// applies reports whether step applies in c.
func (step FixStep) applies(c fixContext) bool {
	for field, values := range step.When {
		var got string
		switch {
		case field == whenVendor:
			got = c.vendor
		case c.port != nil:
			got = whenFields[field](*c.port)
		}
		if got != "" && !containsFold(values, got) {
			return false
		}
	}
	return true
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// applicable returns the steps of fixes that apply in c, and the vendors of the steps left out
// because the adapter is another vendor's.
func applicable(fixes []FixStep, c fixContext) (steps []report.Fix, otherVendors []string) {
	steps = make([]report.Fix, 0, len(fixes))
	for _, f := range fixes {
		if f.applies(c) {
			steps = append(steps, f.Fix)
			continue
		}
		// Left out for the vendor alone: it would apply were the vendor unknown.
		if f.applies(fixContext{port: c.port}) {
			for _, v := range f.When[whenVendor] {
				if !slices.Contains(otherVendors, v) {
					otherVendors = append(otherVendors, v)
				}
			}
		}
	}
	return steps, otherVendors
}

// fixSteps returns the filled fix steps of a rule for a finding about sub in s: the steps whose
// when holds, their placeholders filled (fill), and, when steps were left out because the
// snapshot shows the adapter is another vendor's, a last step saying so (vendorNote).
func fixSteps(rule []FixStep, s *facts.Snapshot, sub report.Subject, vars map[string]any) []report.Fix {
	vendor, because := subjectVendor(s, sub)
	steps, other := applicable(rule, fixContext{port: subjectPort(s, sub), vendor: vendor})
	out := fill(steps, sub, vars)
	if len(other) > 0 {
		out = append(out, vendorNote(vendor, because, other))
	}
	return out
}

// subjectPort returns the snapshot's port the subject names by device and port number; nil
// when the subject names no port, the snapshot has no such port, or two captures have a
// device of that name (the subject does not say which).
func subjectPort(s *facts.Snapshot, sub report.Subject) *facts.Port {
	if sub.Port == nil || sub.Device == "" {
		return nil
	}
	var found *facts.Port
	for i := range s.Devices {
		d := &s.Devices[i]
		if d.Name != sub.Device {
			continue
		}
		if found != nil {
			return nil
		}
		for j := range d.Ports {
			if d.Ports[j].Number == *sub.Port {
				found = &d.Ports[j]
			}
		}
	}
	return found
}

// Condition says when the step applies, for people: "only when physical_state is Disabled and
// link_layer is Ethernet"; empty when always.
func (step FixStep) Condition() string {
	if len(step.When) == 0 {
		return ""
	}
	fields := make([]string, 0, len(step.When))
	for f := range step.When {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = f + " is " + strings.Join(step.When[f], " or ")
	}
	return "only when " + strings.Join(parts, " and ")
}
