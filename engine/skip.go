package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
)

// groupHint says, per fact group (facts.FactGroups), what is missing and how to get it.
type groupHint struct{ what, how string }

// groupHints are derived, never written here: what a group is from facts.GroupTitles, how to
// get it from the specs that feed it (build.HowToGet).
var groupHints = func() map[string]groupHint {
	m := map[string]groupHint{}
	for g := range facts.FactGroups {
		m[g] = groupHint{what: facts.GroupTitles[g], how: build.HowToGet(g)}
	}
	return m
}()

// availableGroups is the set of the fact groups snapshot s has (facts.Available).
func availableGroups(s *facts.Snapshot) map[string]bool {
	available := make(map[string]bool, len(s.Available))
	for _, g := range s.Available {
		available[g] = true
	}
	return available
}

// skipReason explains why no alternative of a rule can run: for one alternative, per missing
// group what is missing and how to get it (groupsReason); for several, "any one of: (a) ...;
// (b) ...".
func skipReason(sets [][]string, sources []facts.Source, cache map[string]string) string {
	if len(sets) == 1 {
		return groupsReason(sets[0], sources, cache)
	}
	parts := make([]string, len(sets))
	for i, miss := range sets {
		parts[i] = fmt.Sprintf("(%c) %s", 'a'+i, groupsReason(miss, sources, cache))
	}
	return "needs any one of: " + strings.Join(parts, "; ")
}

// groupsReason explains, per missing group, what is missing and how to get it; when an input
// of the group was present but unreadable, it says so and quotes the error instead. cache
// holds the reasons of groups already explained for this snapshot (rules share groups).
func groupsReason(missing []string, sources []facts.Source, cache map[string]string) string {
	parts := make([]string, 0, len(missing))
	for _, g := range missing {
		part, ok := cache[g]
		if !ok {
			part = groupReason(g, sources)
			if cache != nil {
				cache[g] = part
			}
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, "; ")
}

// groupReason says why fact group g is missing: its specs failed (quoting their errors) or were
// not in the snapshot (with how to get them).
func groupReason(g string, sources []facts.Source) string {
	h, ok := groupHints[g]
	if !ok {
		h = groupHint{what: g + " (" + strings.Join(facts.FactGroups[g], ", ") + ")"}
	}
	if errs := sourceErrors(facts.FactGroups[g], sources); errs != "" {
		return h.what + " unreadable: " + errs
	}
	msg := h.what + " not in snapshot"
	if h.how != "" {
		msg += ": " + h.how
	}
	return msg
}

// sourceErrors quotes the errors of the group's specs that were present but failed.
func sourceErrors(specs []string, sources []facts.Source) string {
	want := map[string]bool{}
	for _, s := range specs {
		want[s] = true
	}
	var errs []string
	for _, s := range sources {
		if want[s.Name] && (s.Status == facts.StatusError || s.Status == facts.StatusTimeout) {
			errs = append(errs, strings.TrimPrefix(s.Error, "unreadable: ")) // the reason says "unreadable" already
		}
	}
	sort.Strings(errs)
	return strings.Join(errs, "; ")
}

// GroupHint describes a fact group (facts.FactGroups) or a fleet group (facts.FleetGroups):
// what it is ("port states", "firmware versions on at least 2 nodes") and how to get it ("run
// `ibstat` ..."), the words of the skipped list; both empty for an unknown group.
func GroupHint(group string) (what, how string) {
	if fg, ok := facts.FleetGroups[group]; ok {
		if fg.Doc != nil {
			return fg.Title, fg.How
		}
		return fmt.Sprintf("%s on at least %d nodes", fg.Title, facts.FleetMinNodes), fleetHow(fg)
	}
	h := groupHints[group]
	return h.what, h.how
}

// GroupInputs names what feeds a group: the specs of a fact group (facts.FactGroups), the node
// fact groups of a fleet group.
func GroupInputs(group string) []string {
	if fg, ok := facts.FleetGroups[group]; ok {
		return append([]string(nil), fg.NodeGroups...)
	}
	return append([]string(nil), facts.FactGroups[group]...)
}
