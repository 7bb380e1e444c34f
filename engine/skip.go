package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/report"
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
func skipReason(sets [][]string, s *facts.Snapshot, cache map[string]report.Need) string {
	if len(sets) == 1 {
		return groupsReason(sets[0], s, cache)
	}
	parts := make([]string, len(sets))
	for i, miss := range sets {
		parts[i] = fmt.Sprintf("(%c) %s", 'a'+i, groupsReason(miss, s, cache))
	}
	return "needs any one of: " + strings.Join(parts, "; ")
}

// groupsReason explains, per missing group, what is missing and how to get it; when an input
// of the group was present but unreadable, it says so and quotes the error instead. cache
// holds the needs of groups already explained for this snapshot (rules share groups): they
// are the report's Needs.
func groupsReason(missing []string, s *facts.Snapshot, cache map[string]report.Need) string {
	parts := make([]string, 0, len(missing))
	for _, g := range missing {
		n, ok := cache[g]
		if !ok {
			n = groupNeed(g, s)
			if cache != nil {
				cache[g] = n
			}
		}
		parts = append(parts, needReason(n))
	}
	return strings.Join(parts, "; ")
}

// needReason is a need in the words of the skipped list: "port states not in snapshot: run
// `ibstat` (infiniband-diags)", "lspci output unreadable: line 7: ...".
func needReason(n report.Need) string {
	if n.Unreadable {
		return n.What + " unreadable: " + n.How
	}
	msg := n.What + " not in snapshot"
	if n.How != "" {
		msg += ": " + n.How
	}
	return msg
}

// groupNeed says why fact group g is missing: its specs failed (quoting their errors) or were
// not in the snapshot (with how to get them). In a live run, how to get it is what the live
// gather found when it tried (liveHow), not a file to copy: the live gather reads the node's
// files itself.
func groupNeed(g string, s *facts.Snapshot) report.Need {
	h, ok := groupHints[g]
	if !ok {
		h = groupHint{what: g + " (" + strings.Join(facts.FactGroups[g], ", ") + ")"}
	}
	if errs := sourceErrors(facts.FactGroups[g], s.Sources); errs != "" {
		return report.Need{What: h.what, How: errs, Unreadable: true}
	}
	how := h.how
	if s.Source.Kind == "live" {
		how = liveHow(g, s.Sources)
	}
	return report.Need{What: h.what, How: how}
}

// liveNotCollected starts the note of a source the live gather does not collect (facts/live).
const liveNotCollected = "not collected by rdmadoctor gather: "

// liveHow says how to get group g after a live gather that lacked it: what the gather noted for
// each of the group's inputs ("mst not installed (package: NVIDIA MFT)", "not present on this
// node: /sys/devices/system/cpu", "not collected by rdmadoctor gather: run `ulimit -a` ..."),
// without the "not collected" preamble, or the commands to run (build.HowToRun) when it noted
// nothing.
func liveHow(g string, sources []facts.Source) string {
	want := map[string]bool{}
	for _, name := range facts.FactGroups[g] {
		want[name] = true
	}
	var notes []string
	for _, s := range sources {
		if want[s.Name] && s.Status == facts.StatusMissing && s.Error != "" {
			note := strings.TrimPrefix(s.Error, liveNotCollected)
			if !slices.Contains(notes, note) {
				notes = append(notes, note)
			}
		}
	}
	if len(notes) == 0 {
		return build.HowToRun(g)
	}
	return strings.Join(notes, "; ")
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
