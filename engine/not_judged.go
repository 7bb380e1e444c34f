package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// maxNotJudgedNamed bounds the subjects one reason of a skipped entry names (the others are
// counted); maxNotJudged bounds its not_judged list.
const (
	maxNotJudgedNamed = 8
	maxNotJudged      = 64
)

// notJudged splits the findings that say their rule could not judge their subject (`unknown`
// set: a fact the rule needs is unknown for it, e.g. an empty fw_ver) from the diagnoses. Each
// rule with such findings is listed in skipped, its reason naming each subject with what is
// unknown and where that was read ("mlx5_0: its running firmware version is unknown (ibstat:4)"),
// its not_judged the subjects: that the rule found nothing there proves nothing.
func notJudged(set *Set, fs []rawFinding) (judged []rawFinding, skipped []report.Skipped) {
	var us []unjudged
	for _, f := range fs {
		if f.Unknown == "" {
			judged = append(judged, f)
			continue
		}
		us = append(us, unjudged{pkg: f.pkg, subject: f.Subject.String(), why: f.Unknown, where: where(f.Evidence)})
	}
	return judged, unjudgedSkipped(set, us)
}

// unjudged is a finding that says its rule could not judge its subject: the rule's package, the
// subject named for people, why (the finding's unknown), and where its first evidence line was
// read (" (ibstat:4)", "" without one).
type unjudged struct {
	pkg, subject, why, where string
}

// unjudgedSkipped lists each rule of us in skipped, its reason naming each subject with what is
// unknown and where, its not_judged the subjects, by rule in no set order (the callers sort).
func unjudgedSkipped(set *Set, us []unjudged) (skipped []report.Skipped) {
	by := map[string][]unjudged{}
	for _, u := range us {
		by[u.pkg] = append(by[u.pkg], u)
	}
	for pkg, us := range by {
		// One clause per reason, naming its subjects with where each was read:
		// "mlx5_0 (ibstat:4), mlx5_1 (ibstat:21): its running firmware version is unknown ...".
		whys := map[string][]string{}
		seen := map[string]bool{}
		var subjects []string
		for _, f := range us {
			subj := f.subject
			named := subj + f.where
			if key := f.why + "\x00" + named; !seen[key] {
				seen[key] = true
				whys[f.why] = append(whys[f.why], named)
			}
			if !seen[subj] && len(subjects) < maxNotJudged {
				seen[subj] = true
				subjects = append(subjects, subj)
			}
		}
		sort.Strings(subjects)
		var clauses []string
		for _, why := range sortedKeys(whys) {
			names := whys[why]
			sort.Strings(names)
			if n := len(names) - maxNotJudgedNamed; n > 0 {
				names = append(names[:maxNotJudgedNamed:maxNotJudgedNamed], fmt.Sprintf("%d more", n))
			}
			clauses = append(clauses, strings.Join(names, ", ")+": "+why)
		}
		reason := "ran, but could not judge " + strings.Join(clauses, "; ")
		skipped = append(skipped, report.Skipped{ID: set.byPkg[pkg].ID, Reason: reason, NotJudged: subjects})
	}
	return skipped
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// where names the first of evidence, " (ibstat:4)", or a whole file's path; "" without one.
func where(evidence []facts.Evidence) string {
	if len(evidence) == 0 || evidence[0].Path == "" {
		return ""
	}
	ev := evidence[0]
	if ev.Line > 0 {
		return " (" + ev.Path + ":" + strconv.Itoa(ev.Line) + ")"
	}
	return " (" + ev.Path + ")"
}
