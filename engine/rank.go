package engine

import (
	"fmt"
	"sort"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// scopes in rank order: a whole-node problem first, a port nobody uses last (rule-catalog §2.1).
var scopes = []string{"node", "device", "port", "unused_port"}

func scopeRank(s string) int      { return index(scopes, s) }
func confidenceRank(c string) int { return index(report.Confidences, c) }

func index(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return len(list)
}

// defaultScope derives the scope from what the subject names.
func defaultScope(s report.Subject) string {
	switch {
	case s.Port != nil || s.Netdev != "":
		return "port"
	case s.Device != "" || s.PCI != "" || s.NodeGUID != "" || s.NodeDescription != "":
		return "device"
	}
	return "node"
}

// rank orders the diagnoses (docs/architecture.md "Ranking and causes", docs/knowledge/rule-catalog.md §2.1 and §2.3): severity,
// whether the subject is in use (activity: a node, a device or an Active port before a port
// that is not Active, before a port not in use), confidence, scope, catalog order, a fix without
// reboot first, then id, subject and message so the order is total. A diagnosis that another one explains (the cause's rule lists its id under
// explains, on the same or an enclosing subject) is placed directly below its cause, and ranks
// are numbered in that order from 1.
func (e *Engine) rank(ds []report.Diagnosis, s *facts.Snapshot) []report.Diagnosis {
	act := make(map[*report.Diagnosis]int, len(ds))
	order := make([]*report.Diagnosis, len(ds))
	for i := range ds {
		order[i] = &ds[i]
		act[order[i]] = activity(s, order[i])
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if sa, sb := report.SeverityRank(a.Severity), report.SeverityRank(b.Severity); sa != sb {
			return sa < sb
		}
		if act[a] != act[b] {
			return act[a] < act[b]
		}
		return e.less(a, b)
	})
	sorted := make([]report.Diagnosis, len(ds))
	for i, d := range order {
		sorted[i] = *d
	}
	ds = sorted

	// parent[i] is the index of the cause of ds[i], -1 for none. Diagnoses are visited from the
	// lowest ranked up, so that in a cycle (A explains B explains A) the higher-ranked stays the cause.
	parent := make([]int, len(ds))
	for i := range parent {
		parent[i] = -1
	}
	for i := len(ds) - 1; i >= 0; i-- {
		for p := range ds { // best-ranked cause first
			if p == i || !e.explains(&ds[p], &ds[i]) || reaches(parent, p, i) {
				continue
			}
			parent[i] = p
			break
		}
	}
	children := make([][]int, len(ds))
	var roots []int
	for i, p := range parent {
		if p < 0 {
			roots = append(roots, i)
		} else {
			children[p] = append(children[p], i)
		}
	}
	out := make([]report.Diagnosis, 0, len(ds))
	rankOf := make([]int, len(ds))
	var visit func(i int)
	visit = func(i int) {
		rankOf[i] = len(out) + 1
		d := ds[i]
		d.Rank = rankOf[i]
		if p := parent[i]; p >= 0 {
			id := ds[p].ID
			d.ExplainedBy = &id
			d.ExplainedByRank = rankOf[p]
		}
		d.Explains = []string{}
		for _, c := range children[i] {
			if !contains(d.Explains, ds[c].ID) {
				d.Explains = append(d.Explains, ds[c].ID)
			}
		}
		sort.Strings(d.Explains)
		out = append(out, d)
		for _, c := range children[i] {
			visit(c)
		}
	}
	for _, r := range roots {
		visit(r)
	}
	return out
}

// reaches reports whether following causes from p arrives at i (so making p the cause of i
// would close a cycle).
func reaches(parent []int, p, i int) bool {
	for n := 0; p >= 0 && n <= len(parent); n++ {
		if p == i {
			return true
		}
		p = parent[p]
	}
	return false
}

func (e *Engine) less(a, b *report.Diagnosis) bool {
	for _, c := range [...][2]int{
		{report.SeverityRank(a.Severity), report.SeverityRank(b.Severity)},
		{confidenceRank(a.Confidence), confidenceRank(b.Confidence)},
		{scopeRank(a.Scope), scopeRank(b.Scope)},
		{e.set.catalogIndex(a.ID), e.set.catalogIndex(b.ID)},
		{boolRank(a.NeedsReboot), boolRank(b.NeedsReboot)},
	} {
		if c[0] != c[1] {
			return c[0] < c[1]
		}
	}
	if a.ID != b.ID {
		return a.ID < b.ID
	}
	if sa, sb := subjectKey(a.Subject), subjectKey(b.Subject); sa != sb {
		return sa < sb
	}
	return a.Message < b.Message
}

// activity ranks a diagnosis' subject by use: 0 for a node, a device, an Active port or a port
// whose state the snapshot does not have; 1 for a port that is not Active; 2 for a port not in
// use (scope unused_port). A finding on a port that carries traffic outranks one of the same
// severity on a port that carries none.
func activity(s *facts.Snapshot, d *report.Diagnosis) int {
	if d.Scope == "unused_port" {
		return 2
	}
	if p := subjectPort(s, d.Subject); p != nil && p.State != "" && p.State != "Active" {
		return 1
	}
	return 0
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// subjectKey sorts subjects by device, fabric node, port (numerically), PCI address and netdev.
func subjectKey(s report.Subject) string {
	port := ""
	if s.Port != nil {
		port = fmt.Sprintf("%06d", *s.Port)
	}
	return s.Device + "\x00" + s.NodeGUID + "\x00" + s.NodeDescription + "\x00" + port + "\x00" + s.PCI + "\x00" + s.Netdev
}

// explains reports whether cause's rule lists effect's id, cause's subject encloses effect's,
// and the cause is at least as severe and as certain as the effect. A speculative cause (an
// inferred link-type mismatch, a since-boot counter) must not demote a proven, or worse,
// finding below it: both then rank on their own. A port that is not in use is the exception:
// whatever follows from its being down is as moot as the port itself.
func (e *Engine) explains(cause, effect *report.Diagnosis) bool {
	rule := e.set.byID[cause.ID]
	if rule == nil || !contains(rule.Explains, effect.ID) || !encloses(cause.Subject, effect.Subject) {
		return false
	}
	return cause.Scope == "unused_port" ||
		report.SeverityRank(cause.Severity) <= report.SeverityRank(effect.Severity) &&
			confidenceRank(cause.Confidence) <= confidenceRank(effect.Confidence)
}

// encloses reports whether outer is the same subject as inner or contains it (node ⊃ device ⊃
// port; node ⊃ fabric node ⊃ its port). Device name, PCI address and netdev are alternative
// names: they must not contradict each other, and inner must share one with outer at outer's
// level.
func encloses(outer, inner report.Subject) bool {
	differ := func(a, b string) bool { return a != "" && b != "" && a != b }
	if differ(outer.Device, inner.Device) || differ(outer.PCI, inner.PCI) || differ(outer.Netdev, inner.Netdev) ||
		differ(outer.NodeGUID, inner.NodeGUID) {
		return false
	}
	if fabric := outer.NodeGUID != ""; fabric != (inner.NodeGUID != "") && outer != (report.Subject{}) {
		return false // a fabric node's port is none of this host's devices, and the reverse
	}
	same := func(a, b string) bool { return a != "" && a == b }
	switch {
	case outer.Port != nil || (outer.Netdev != "" && outer.Device == ""):
		samePort := outer.Port != nil && inner.Port != nil && *outer.Port == *inner.Port &&
			(same(outer.Device, inner.Device) || same(outer.PCI, inner.PCI) || same(outer.NodeGUID, inner.NodeGUID))
		return samePort || same(outer.Netdev, inner.Netdev)
	case outer.Device != "" || outer.PCI != "" || outer.NodeGUID != "":
		return same(outer.Device, inner.Device) || same(outer.PCI, inner.PCI) || same(outer.NodeGUID, inner.NodeGUID)
	}
	return true
}

func contains(list []string, s string) bool { return index(list, s) < len(list) }
