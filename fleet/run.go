// Package fleet diagnoses many nodes' snapshots in one run (`rdmadoctor fleet`, docs/fleet.md):
// each node with the same prepared rules, in parallel and streaming (a node's facts are dropped
// once its report, its summary and its part of the fabric are taken), then the same diagnosis
// on many nodes grouped into one line with a Slurm host list, and the fleet rules evaluated on
// the nodes' summaries and the merged fabric.
package fleet

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/fabricview"
	"github.com/rdmadoctor/rdmadoctor/internal/diagnosis"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// Options tune Run.
type Options struct {
	// Engine evaluates every node: prepared once, shared by all workers.
	Engine *engine.Engine
	// Diagnosis is applied to each node's report and to the fleet diagnoses.
	Diagnosis diagnosis.Options
	// Profile is the site intent (--profile), given to every node and to the fleet rules.
	Profile *facts.Profile
	// Version is written into the reports.
	Version string
	// Workers is how many nodes are read and diagnosed at once; 0 means GOMAXPROCS.
	Workers int
	// Progress, when set, is called after each node with how many are done of how many; the
	// calls are serialised.
	Progress func(done, total int)
	// Summarize takes a node's summary for the fleet rules; nil leaves Summary out.
	Summarize func(s *facts.Snapshot, host string) facts.NodeSummary
	// FleetRules, when set, evaluates the fleet rules on the fleet document.
	FleetRules func(ctx context.Context, doc *facts.Fleet) ([]report.FleetDiagnosis, []report.Skipped, error)
}

// Result is a fleet report and what the exit code is decided from.
type Result struct {
	Fleet *report.Fleet
	// Worst is the most serious severity of any node or fleet diagnosis, those hidden below
	// --min-severity included (ignored ones excluded), "" when there is none.
	Worst string
	// Unreadable and NoRDMA count the nodes of those statuses.
	Unreadable, NoRDMA int
}

// Run reads and diagnoses the snapshot at each path (see Expand for folders of snapshots). It
// fails only when the evaluation itself fails (ctx cancelled, a rule set that cannot run); a
// snapshot that cannot be read is a node with status unreadable.
func Run(ctx context.Context, paths []string, opts Options) (*Result, error) {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	fabric := fabricview.New()
	res := make([]nodeResult, len(paths))
	labels := newLabeler(len(paths))
	shared := newInterner()
	var (
		mu   sync.Mutex
		done int
		werr error
	)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, max(len(paths), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				r, err := diagnoseNode(ctx, paths[i], i, labels, fabric, opts)
				shared.node(&r.node) // nothing of the snapshot stays reachable
				mu.Lock()
				res[i] = r
				if err != nil && werr == nil {
					werr = err
				}
				done++
				if opts.Progress != nil {
					opts.Progress(done, len(paths))
				}
				mu.Unlock()
			}
		}()
	}
	for i := range paths {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if werr != nil {
		return nil, werr
	}
	opts.Engine = nil // the node rules, compiled, are not needed by the fleet rules
	return assemble(ctx, res, fabric, opts)
}

// nodeResult is one node as kept after its snapshot was dropped.
type nodeResult struct {
	node  report.FleetNode
	worst string // with the diagnoses hidden below --min-severity
}

// diagnoseNode reads, labels and diagnoses the snapshot at path, the i-th of the run. Only
// an evaluation error is returned; a snapshot that cannot be read is an unreadable node.
func diagnoseNode(ctx context.Context, path string, i int, labels *labeler, fabric *fabricview.View, opts Options) (nodeResult, error) {
	s, err := diagnosis.Open(path)
	if err != nil {
		host := labels.label(i, "", snapshotName(path))
		return nodeResult{node: unreadable(host, "", path, err.Error())}, nil
	}
	host := labels.label(i, s.Host.Hostname, snapshotName(path))
	s.Profile = opts.Profile
	r, err := diagnosis.Diagnose(ctx, opts.Engine, s, opts.Diagnosis, opts.Version)
	if err != nil {
		return nodeResult{}, fmt.Errorf("diagnose %s: %w", path, err)
	}
	n := report.FleetNode{
		Host:       host,
		Hostname:   s.Host.Hostname,
		Snapshot:   path,
		Status:     report.NodeOK,
		Diagnoses:  r.Diagnoses,
		Skipped:    r.Skipped,
		Incomplete: r.Incomplete,
	}
	if none, bad := diagnosis.Unevaluable(s, r); none && bad > 0 {
		// As diagnose exits 2: the input was there but could not be parsed.
		u := unreadable(host, s.Host.Hostname, path, fmt.Sprintf("nothing about RDMA could be evaluated: %d input file(s) could not be read or parsed: %s", bad, notRead(s)))
		u.Incomplete = r.Incomplete
		return nodeResult{node: u}, nil
	} else if none {
		n.Status = report.NodeNoRDMA
	} else if !r.Complete {
		n.Status = report.NodePartial
	}
	if len(n.Incomplete) == 0 {
		n.Incomplete = nil
	}
	if len(n.Diagnoses) > 0 {
		n.Worst = n.Diagnoses[0].Severity
		for _, d := range n.Diagnoses {
			if report.SeverityRank(d.Severity) < report.SeverityRank(n.Worst) {
				n.Worst = d.Severity
			}
		}
	}
	if opts.Summarize != nil {
		sum := opts.Summarize(s, host)
		n.Summary = &sum
	}
	fabric.Add(host, s)
	return nodeResult{node: n, worst: worstOf(r)}, nil
}

// unreadable is the node of a snapshot that could not be read.
func unreadable(host, hostname, path, why string) report.FleetNode {
	return report.FleetNode{
		Host: host, Hostname: hostname, Snapshot: path, Status: report.NodeUnreadable, Error: why,
		Diagnoses: []report.Diagnosis{}, Skipped: []report.Skipped{},
	}
}

// worstOf is the most serious severity in r, hidden diagnoses included.
func worstOf(r *report.Report) string {
	for _, sev := range report.Severities {
		if r.AtLeast(sev) {
			return sev
		}
	}
	return ""
}

// assemble puts the nodes in host order, groups their diagnoses and evaluates the fleet rules.
func assemble(ctx context.Context, res []nodeResult, fabric *fabricview.View, opts Options) (*Result, error) {
	sort.SliceStable(res, func(i, j int) bool { return hostLess(res[i].node.Host, res[j].node.Host) })
	f := &report.Fleet{
		SchemaVersion:  report.FleetSchemaVersion,
		Tool:           report.Tool{Name: "rdmadoctor", Version: opts.Version},
		Nodes:          make([]report.FleetNode, len(res)),
		FleetDiagnoses: []report.FleetDiagnosis{},
		Skipped:        []report.Skipped{},
	}
	out := &Result{Fleet: f}
	doc := &facts.Fleet{SchemaVersion: facts.FleetSchemaVersion, Nodes: []facts.NodeSummary{}, Profile: opts.Profile}
	for i, r := range res {
		f.Nodes[i] = r.node
		out.Worst = worse(out.Worst, r.worst)
		switch r.node.Status {
		case report.NodeUnreadable:
			out.Unreadable++
		case report.NodeNoRDMA:
			out.NoRDMA++
		}
		if r.node.Summary != nil {
			doc.Nodes = append(doc.Nodes, *r.node.Summary)
		}
	}
	f.Groups = Groups(f.Nodes)
	doc.Fabric = fabric.Fabric()
	f.Fabric = doc.Fabric // the view the fleet rules judged, for the operator to see
	if opts.FleetRules != nil {
		ds, skipped, err := opts.FleetRules(ctx, doc)
		if err != nil {
			return nil, fmt.Errorf("fleet rules: %w", err)
		}
		ds, worst := filterFleet(ds, opts.Diagnosis)
		out.Worst = worse(out.Worst, worst)
		f.FleetDiagnoses, f.Skipped = ds, skipped
		if f.Skipped == nil {
			f.Skipped = []report.Skipped{}
		}
	}
	return out, nil
}

// filterFleet applies the ignore list and --min-severity to the fleet diagnoses, renumbers them
// and fills their host lists; worst is the most serious of those not ignored, hidden ones
// included.
func filterFleet(ds []report.FleetDiagnosis, opts diagnosis.Options) (kept []report.FleetDiagnosis, worst string) {
	kept = []report.FleetDiagnosis{}
	for _, d := range ds {
		ignored := false
		for _, ig := range opts.Ignore {
			if ig.Matches(report.Diagnosis{ID: d.ID, Subject: d.Subject}) {
				ignored = true
				break
			}
		}
		if ignored {
			continue
		}
		worst = worse(worst, d.Severity)
		if opts.MinSeverity != "" && report.SeverityRank(d.Severity) > report.SeverityRank(opts.MinSeverity) {
			continue
		}
		if d.HostList == "" {
			d.HostList = HostList(d.Nodes)
		}
		d.Rank = len(kept) + 1
		kept = append(kept, d)
	}
	return kept, worst
}

// worse is the more serious of two severities ("" is none).
func worse(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	case report.SeverityRank(b) < report.SeverityRank(a):
		return b
	}
	return a
}

// notRead names each source of s that was not (fully) read with its error, as diagnose does on
// stderr: "archive (t.tar.xz): truncated archive: ...; ibstat: line 3: ...", at most
// facts.MaxMessageBytes.
func notRead(s *facts.Snapshot) string {
	var parts []string
	for _, src := range s.Sources {
		if src.Status != facts.StatusError && src.Status != facts.StatusPartial {
			continue
		}
		name := src.Name
		if src.Origin != "" && src.Origin != src.Name {
			name = fmt.Sprintf("%s (%s)", src.Name, src.Origin)
		}
		parts = append(parts, name+": "+src.Error)
	}
	return facts.Clip(strings.Join(parts, "; "), facts.MaxMessageBytes)
}
