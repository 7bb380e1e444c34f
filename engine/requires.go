package engine

import (
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// Alternative is one set of fact groups that suffices for a rule, with the confidence its
// evidence supports. custom.requires is either a list of group names (one alternative at the
// rule's confidence) or a list of {facts: [groups], confidence: c} (any one suffices).
type Alternative struct {
	// Facts are fact group names (facts.FactGroups), sorted; all must be available.
	Facts []string `json:"facts"`
	// Confidence is high, medium or low: the rule's when the metadata leaves it out.
	Confidence string `json:"confidence"`
}

// String names the alternative's groups joined by "+", or "nothing" for none.
func (a Alternative) String() string {
	if len(a.Facts) == 0 {
		return "nothing"
	}
	return strings.Join(a.Facts, "+")
}

// alternatives reads custom.requires: nil when absent (the caller reports that); an empty list
// is one alternative with no groups (the rule always runs).
func (v *validator) alternatives(m map[string]any, confidence string) []Alternative {
	x, ok := m["requires"]
	if !ok {
		return nil
	}
	list, ok := x.([]any)
	if x != nil && !ok {
		v.errorf("requires", "requires must be a list, not %v", x)
		return nil
	}
	if len(list) == 0 {
		return []Alternative{{Facts: []string{}, Confidence: confidence}}
	}
	if _, flat := list[0].(string); flat && allStrings(list) {
		groups := v.strs(m, "requires")
		sort.Strings(groups)
		return []Alternative{{Facts: groups, Confidence: confidence}}
	}
	var out []Alternative
	for _, e := range list {
		o, ok := e.(map[string]any)
		if !ok {
			v.errorf("requires", "requires: %v is neither a fact group name nor {facts: [...], confidence: ...} (do not mix the two forms)", e)
			continue
		}
		for k := range o {
			if k != "facts" && k != "confidence" {
				v.errorf("requires", "requires: alternative has unknown key %q (want facts, confidence)", k)
			}
		}
		if _, has := o["facts"]; !has {
			v.errorf("requires", "requires: alternative %v has no facts list", e)
			continue
		}
		alt := Alternative{Facts: v.strs(o, "facts"), Confidence: confidence}
		if c, has := o["confidence"]; has {
			s, isStr := c.(string)
			if !isStr {
				v.errorf("requires", "requires: confidence must be a string, not %v", c)
			}
			v.oneOf("requires", s, report.Confidences)
			alt.Confidence = s
		}
		sort.Strings(alt.Facts)
		out = append(out, alt)
	}
	return out
}

// availableAlternatives returns r's alternatives whose groups are all available, best
// confidence first (ties in metadata order).
func availableAlternatives(r *Rule, available map[string]bool) []Alternative {
	var out []Alternative
	for _, alt := range r.Requires {
		if len(missingOf(alt, available)) == 0 {
			out = append(out, alt)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		return confidenceRank(out[i].Confidence) < confidenceRank(out[j].Confidence)
	})
	return out
}

// missingOf returns the groups of alt that are not available, in alt's order.
func missingOf(alt Alternative, available map[string]bool) []string {
	var out []string
	for _, g := range alt.Facts {
		if !available[g] {
			out = append(out, g)
		}
	}
	return out
}

// runs reports whether r can be evaluated: one of its alternatives is available.
func runs(r *Rule, available map[string]bool) bool {
	return len(availableAlternatives(r, available)) > 0
}

// missingSets returns, for a rule that cannot run, the missing groups of each alternative
// (sorted lists, in metadata order, duplicates dropped) and their union, sorted.
func missingSets(r *Rule, available map[string]bool) (sets [][]string, union []string) {
	seen, inUnion := map[string]bool{}, map[string]bool{}
	for _, alt := range r.Requires {
		miss := missingOf(alt, available)
		key := strings.Join(miss, "+")
		if seen[key] {
			continue
		}
		seen[key] = true
		sets = append(sets, miss)
		for _, g := range miss {
			if !inUnion[g] {
				inUnion[g] = true
				union = append(union, g)
			}
		}
	}
	sort.Strings(union)
	return sets, union
}

// findingConfidence is the confidence of a finding that does not set its own: that of the
// best available alternative whose groups' specs gave one of the finding's evidence lines;
// else that of the best available alternative; else the rule's.
func findingConfidence(r *Rule, alts []Alternative, ev []facts.Evidence) string {
	sources := map[string]bool{}
	for _, e := range ev {
		sources[e.Source] = true
	}
	for _, alt := range alts {
		for _, g := range alt.Facts {
			for _, spec := range facts.FactGroups[g] {
				if sources[spec] {
					return alt.Confidence
				}
			}
		}
	}
	if len(alts) > 0 {
		return alts[0].Confidence
	}
	return r.Confidence
}

func allStrings(list []any) bool {
	for _, e := range list {
		if _, ok := e.(string); !ok {
			return false
		}
	}
	return true
}
