package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// maxAlso is how many other messages of one rule about one subject a merged diagnosis quotes.
const maxAlso = 2

// merge makes one diagnosis of the findings of one rule about one subject (several evidence
// paths found the same cause: counters and the kernel log, say): the most severe and certain
// one leads, the others' distinct messages follow it ("; also: ..."), and the evidence is the
// union, in order. The same finding is never listed twice.
func merge(ds []report.Diagnosis) []report.Diagnosis {
	type key struct{ id, subject string }
	at := map[key]int{}
	var out []report.Diagnosis
	var also [][]string
	for _, d := range ds {
		k := key{d.ID, subjectKey(d.Subject)}
		i, dup := at[k]
		if !dup {
			at[k] = len(out)
			out = append(out, d)
			also = append(also, nil)
			continue
		}
		lead := &out[i]
		if outranks(&d, lead) {
			d.Evidence, lead.Evidence = lead.Evidence, d.Evidence
			d.Message, lead.Message = lead.Message, d.Message
			lead.Severity, lead.Confidence, lead.Scope = d.Severity, d.Confidence, d.Scope
			lead.Fix, lead.NeedsReboot = d.Fix, d.NeedsReboot
		}
		if d.Message != lead.Message && !contains(also[i], d.Message) {
			also[i] = append(also[i], d.Message)
		}
		lead.Evidence = unionEvidence(lead.Evidence, d.Evidence)
	}
	for i := range out {
		if n := len(also[i]); n > 0 {
			quoted := also[i][:min(n, maxAlso)]
			out[i].Message += "; also: " + strings.Join(quoted, "; also: ")
			if n > maxAlso {
				out[i].Message += fmt.Sprintf(" (and %d more)", n-maxAlso)
			}
		}
	}
	return out
}

// outranks reports whether a should lead a merge over b: more severe, then more certain.
func outranks(a, b *report.Diagnosis) bool {
	if sa, sb := report.SeverityRank(a.Severity), report.SeverityRank(b.Severity); sa != sb {
		return sa < sb
	}
	return confidenceRank(a.Confidence) < confidenceRank(b.Confidence)
}

func unionEvidence(a, b []facts.Evidence) []facts.Evidence {
	seen := make(map[facts.Evidence]bool, len(a))
	for _, e := range a {
		seen[e] = true
	}
	for _, e := range b {
		if !seen[e] {
			seen[e] = true
			a = append(a, e)
		}
	}
	return a
}

// groupUnused makes one diagnosis of a rule's findings about ports not in use (scope
// unused_port) of one severity: the first (by subject) leads, the others are listed in Also
// and named at the end of its message, and the evidence is the union. An operator reads one
// line "3 spare ports are Polling", not three.
func groupUnused(ds []report.Diagnosis) []report.Diagnosis {
	type key struct{ id, severity string }
	groups := map[key][]int{}
	for i, d := range ds {
		if d.Scope == "unused_port" {
			k := key{d.ID, d.Severity}
			groups[k] = append(groups[k], i)
		}
	}
	drop := map[int]bool{}
	for _, idx := range groups {
		if len(idx) < 2 {
			continue
		}
		sort.Slice(idx, func(a, b int) bool { return subjectKey(ds[idx[a]].Subject) < subjectKey(ds[idx[b]].Subject) })
		lead := &ds[idx[0]]
		names := make([]string, 0, len(idx)-1)
		for _, i := range idx[1:] {
			lead.Also = append(lead.Also, ds[i].Subject)
			lead.Evidence = unionEvidence(lead.Evidence, ds[i].Evidence)
			names = append(names, ds[i].Subject.String())
			drop[i] = true
		}
		lead.Message += fmt.Sprintf(" (the same on %d more unused port%s: %s)", len(names), plural(len(names)), strings.Join(names, ", "))
	}
	out := ds[:0:0]
	for i, d := range ds {
		if !drop[i] {
			out = append(out, d)
		}
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
