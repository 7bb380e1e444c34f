package engine

import (
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// FixStep is one entry of a rule's custom.fix: the command and note (templates), and When, the
// port conditions under which the step applies.
type FixStep struct {
	report.Fix
	// When maps a port field (whenFields: link_layer, state, physical_state) to the values for
	// which the step applies, e.g. {"physical_state": ["Disabled"]}. A finding about a port
	// the snapshot has gets the step only when every field's value is listed; a finding whose
	// port is not in the snapshot, or whose field is unknown, gets it (absence is not evidence).
	When map[string][]string `json:"when,omitempty"`
}

// whenFields are the port fields a fix step's when may test, with their values as the
// snapshot spells them (facts.Port).
var whenFields = map[string]func(facts.Port) string{
	"link_layer":     func(p facts.Port) string { return p.LinkLayer },
	"state":          func(p facts.Port) string { return p.State },
	"physical_state": func(p facts.Port) string { return p.PhysicalState },
}

// when reads a fix step's `when: {field: value or [values]}`.
func (v *validator) when(x any) map[string][]string {
	if x == nil {
		return nil
	}
	o, ok := x.(map[string]any)
	if !ok {
		v.errorf("fix", "fix when must be a map of port field to values, not %v", x)
		return nil
	}
	out := map[string][]string{}
	for k, val := range o {
		if whenFields[k] == nil {
			v.errorf("fix", "fix when: unknown port field %q (want link_layer, state, physical_state)", k)
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
	}
	return out
}

// applies reports whether step applies to port p (nil: the port is not in the snapshot).
func (step FixStep) applies(p *facts.Port) bool {
	if p == nil {
		return true
	}
	for field, values := range step.When {
		got := whenFields[field](*p)
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

// applicable returns the steps of fixes that apply to p.
func applicable(fixes []FixStep, p *facts.Port) []report.Fix {
	out := make([]report.Fix, 0, len(fixes))
	for _, f := range fixes {
		if f.applies(p) {
			out = append(out, f.Fix)
		}
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
