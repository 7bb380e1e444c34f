package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// FleetEngine is the prepared fleet rules (area fleet) of a Set: the same loading, METADATA
// validation and OPA evaluator as the node rules, over the fleet document (facts.Fleet)
// instead of a snapshot. Safe for concurrent use.
type FleetEngine struct {
	set   *Set
	rules *compiled
	// Timeout bounds each Diagnose's evaluation, as Engine.Timeout does.
	Timeout time.Duration
}

// PrepareFleet compiles the set's fleet rules, the fleet libraries (rdmadoctor.lib.fleet and
// below) and the library modules they import, type-checked against the fleet document's
// schema (docs/fleet.schema.json), and prepares the query that collects their findings.
func (s *Set) PrepareFleet(ctx context.Context) (*FleetEngine, error) {
	c, err := s.compile(ctx, Options{}, true)
	if err != nil {
		return nil, err
	}
	return &FleetEngine{set: s, rules: c}, nil
}

// FleetRules returns the fleet rules of the set, sorted by id.
func (s *Set) FleetRules() []*Rule {
	var out []*Rule
	for _, r := range s.Rules {
		if r.Fleet() {
			out = append(out, r)
		}
	}
	return out
}

// rawFleetFinding is one element of a fleet rule's `findings` set (docs/rules-contract.md,
// "Fleet rules").
type rawFleetFinding struct {
	pkg string
	// Nodes are the host labels the finding is about, the odd ones out: where the fix runs.
	Nodes      []string               `json:"nodes"`
	Subject    report.Subject         `json:"subject"`
	Message    string                 `json:"message"`
	Evidence   []report.FleetEvidence `json:"evidence"`
	Severity   string                 `json:"severity"`
	Confidence string                 `json:"confidence"`
	Vars       map[string]any         `json:"vars"`
	// Unknown, as a node rule's (finding.not_judged): the rule could not judge the subject on
	// these nodes, and says why; it is listed in skipped, not as a diagnosis (fleetNotJudged).
	Unknown string `json:"unknown"`
}

// Diagnose evaluates the fleet rules whose fleet groups doc holds (facts.FleetAvailable) once
// against doc and returns their diagnoses, ranked by severity, confidence, catalog order, id,
// nodes and message (rank from 1), and the rules that were not evaluated, by id. HostList is
// left empty: the fleet report fills it (it compresses host lists the same way for groups).
func (e *FleetEngine) Diagnose(ctx context.Context, doc *facts.Fleet) ([]report.FleetDiagnosis, []report.Skipped, error) {
	groups, counts := facts.FleetAvailable(doc)
	available := map[string]bool{}
	for _, g := range groups {
		available[g] = true
	}
	skipped := []report.Skipped{}
	run := map[string]bool{}
	for _, rule := range e.set.FleetRules() {
		if !runs(rule, available) {
			sets, missing := missingSets(rule, available)
			skipped = append(skipped, report.Skipped{ID: rule.ID, Reason: fleetSkipReason(sets, counts, len(doc.Nodes)), Missing: missing})
			continue
		}
		run[rule.pkg] = true
	}
	if e.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, e.Timeout)
		defer cancel()
	}
	input, err := fleetInputValue(doc)
	if err != nil {
		return nil, nil, err
	}
	// One evaluation per rule: OPA keeps every rule's complete values (its per-node sets) to the
	// end of an evaluation, and on 10,000 nodes those of all fleet rules at once were a fifth
	// of the run's peak memory; alone, each rule's are dropped before the next runs.
	results, failed := evalEach(ctx, e.rules, input, run, e.Timeout)
	for pkg, reason := range failed {
		skipped = append(skipped, report.Skipped{ID: e.set.byPkg[pkg].ID, Reason: reason, Failed: true})
	}

	ds := []report.FleetDiagnosis{}
	var unknown []unjudged
	for _, r := range results {
		var fs []rawFleetFinding
		if err := decodeFindings(e.set, r, &fs); err != nil {
			return nil, nil, err
		}
		for _, f := range fs {
			f.pkg = r.pkg
			if f.Unknown != "" {
				unknown = append(unknown, fleetUnjudged(f))
				continue
			}
			d, err := e.diagnosis(f, available, doc)
			if err != nil {
				return nil, nil, err
			}
			ds = append(ds, d)
		}
	}
	skipped = append(skipped, unjudgedSkipped(e.set, unknown)...)
	sort.Slice(skipped, func(i, j int) bool { return skipped[i].ID < skipped[j].ID })
	ds = dedupFleet(ds)
	sort.SliceStable(ds, func(i, j int) bool { return e.less(&ds[i], &ds[j]) })
	for i := range ds {
		ds[i].Rank = i + 1
	}
	return ds, skipped, nil
}

// fleetUnjudged is the fleet finding f that could not judge its subject: named by its nodes
// and subject ("node03 mlx5_0"), where by the first evidence line with its host
// (" (node03 ibstat:4)").
func fleetUnjudged(f rawFleetFinding) unjudged {
	name := strings.Join(f.Nodes, ",")
	if s := f.Subject.String(); s != "" && s != "node" {
		name = strings.TrimSpace(name + " " + s)
	}
	u := unjudged{pkg: f.pkg, subject: name, why: f.Unknown}
	if len(f.Evidence) > 0 {
		if w := where([]facts.Evidence{f.Evidence[0].Evidence}); w != "" {
			u.where = " (" + f.Evidence[0].Host + " " + strings.TrimPrefix(w, " (")
		}
	}
	return u
}

// diagnosis joins a fleet finding with its rule's metadata and fills the fix; steps for another
// vendor's adapters than doc's summaries show the subject's is (fleetSubjectVendor) are left out.
func (e *FleetEngine) diagnosis(f rawFleetFinding, available map[string]bool, doc *facts.Fleet) (report.FleetDiagnosis, error) {
	rule := e.set.byPkg[f.pkg]
	d := report.FleetDiagnosis{
		ID: rule.ID, Title: rule.Title, Severity: rule.Severity, Message: f.Message,
		Confidence: bestConfidence(rule, available), Nodes: []string{}, Subject: f.Subject,
		Evidence: []report.FleetEvidence{}, References: append([]string{}, rule.References...),
	}
	vendor, because := fleetSubjectVendor(doc, f.Nodes, f.Subject, f.Vars)
	steps, other := applicable(rule.Fix, fixContext{vendor: vendor})
	vars := map[string]any{}
	for k, v := range f.Vars {
		vars[k] = v
	}
	if _, set := vars["nodes"]; !set {
		nodes := make([]any, len(f.Nodes))
		for i, n := range f.Nodes {
			nodes[i] = n
		}
		vars["nodes"] = nodes
	}
	d.Fix = fill(steps, f.Subject, vars)
	if len(other) > 0 {
		d.Fix = append(d.Fix, vendorNote(vendor, because, other))
	}
	if err := override(rule, f.Severity, f.Confidence, &d.Severity, &d.Confidence); err != nil {
		return d, err
	}
	if d.Message == "" {
		return d, fmt.Errorf("%s: finding without a message", rule.File)
	}
	seen := map[string]bool{}
	for _, n := range f.Nodes {
		if n != "" && !seen[n] {
			seen[n] = true
			d.Nodes = append(d.Nodes, n)
		}
	}
	if len(d.Nodes) == 0 {
		return d, fmt.Errorf("%s: fleet finding %q names no nodes", rule.File, f.Message)
	}
	evSeen := map[report.FleetEvidence]bool{}
	for _, ev := range f.Evidence {
		if ev.Evidence == (facts.Evidence{}) || evSeen[ev] {
			continue
		}
		evSeen[ev] = true
		d.Evidence = append(d.Evidence, ev)
	}
	return d, nil
}

// bestConfidence is the confidence of the best available evidence alternative of rule.
func bestConfidence(rule *Rule, available map[string]bool) string {
	if alts := availableAlternatives(rule, available); len(alts) > 0 {
		return alts[0].Confidence
	}
	return rule.Confidence
}

// dedupFleet keeps the first of the diagnoses of one rule with the same nodes, subject and
// message.
func dedupFleet(ds []report.FleetDiagnosis) []report.FleetDiagnosis {
	seen := map[string]bool{}
	out := ds[:0]
	for _, d := range ds {
		k := d.ID + "\x00" + strings.Join(d.Nodes, ",") + "\x00" + subjectKey(d.Subject) + "\x00" + d.Message
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}

// less orders fleet diagnoses: severity, confidence, catalog order, id, the nodes, the subject,
// the message.
func (e *FleetEngine) less(a, b *report.FleetDiagnosis) bool {
	for _, c := range [...][2]int{
		{report.SeverityRank(a.Severity), report.SeverityRank(b.Severity)},
		{confidenceRank(a.Confidence), confidenceRank(b.Confidence)},
		{e.set.catalogIndex(a.ID), e.set.catalogIndex(b.ID)},
	} {
		if c[0] != c[1] {
			return c[0] < c[1]
		}
	}
	if a.ID != b.ID {
		return a.ID < b.ID
	}
	if na, nb := strings.Join(a.Nodes, ","), strings.Join(b.Nodes, ","); na != nb {
		return na < nb
	}
	if sa, sb := subjectKey(a.Subject), subjectKey(b.Subject); sa != sb {
		return sa < sb
	}
	return a.Message < b.Message
}

// fleetSkipReason says, per missing fleet group of each alternative, how many nodes hold it
// and how to get it on the others.
func fleetSkipReason(sets [][]string, counts map[string]int, nodes int) string {
	reason := func(miss []string) string {
		parts := make([]string, len(miss))
		for i, g := range miss {
			parts[i] = fleetGroupReason(g, counts, nodes)
		}
		return strings.Join(parts, "; ")
	}
	if len(sets) == 1 {
		return reason(sets[0])
	}
	parts := make([]string, len(sets))
	for i, miss := range sets {
		parts[i] = fmt.Sprintf("(%c) %s", 'a'+i, reason(miss))
	}
	return "needs any one of: " + strings.Join(parts, "; ")
}

// fleetGroupReason explains one missing fleet group, counts holding the number of nodes with
// each group: "firmware versions on 1 of 3 nodes (a comparison needs 2): run `ibstat` ...";
// for nodes that hold the group it is read from but lack it (FleetGroup.Given), why: "port
// rates on 0 of 3 nodes (a comparison needs 2): on 3 with port states, no port is Active".
func fleetGroupReason(g string, counts map[string]int, nodes int) string {
	fg := facts.FleetGroups[g]
	if fg.Doc != nil {
		return fg.Title + " not in the fleet document"
	}
	have := counts[g]
	msg := fmt.Sprintf("%s on %d of %d node%s (a comparison needs %d)", fg.Title, have, nodes, plural(nodes), facts.FleetMinNodes)
	how := fleetHow(fg)
	if given := counts[fg.Given]; fg.Given != "" && given > have {
		msg += fmt.Sprintf(": on %d with %s, %s", given-have, facts.FleetGroups[fg.Given].Title, fg.Unless)
		if given == nodes {
			return msg // all of them: running the tools again would say the same
		}
		msg += "; on the others"
	} else if how != "" {
		msg += ":"
	}
	if how != "" {
		msg += " " + how
	}
	return msg
}

// fleetHow says how to get a fleet group of nodes on more nodes: its own How, else how to get
// each node group that feeds it.
func fleetHow(fg facts.FleetGroup) string {
	if fg.How != "" {
		return fg.How
	}
	var hows []string
	for _, ng := range fg.NodeGroups {
		if h := groupHints[ng].how; h != "" {
			hows = append(hows, h)
		}
	}
	return strings.Join(hows, "; or ")
}
