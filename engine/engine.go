// Package engine loads the Rego rules with their METADATA, validates them, compiles them against
// the snapshot's JSON Schema and prepares one query for all of them; Diagnose evaluates it once
// per snapshot, joins the findings with the rules' metadata, fills the fix commands and ranks the
// result (docs/rules-contract.md, docs/report.md).
package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// Engine is a prepared rule set. It is safe for concurrent use: OPA prepared queries may be
// shared across goroutines.
type Engine struct {
	set  *Set
	opts Options
	// units hold the set's modules compiled and the query that collects the findings: one
	// compile (Prepare), or those Join put together. A rule package is evaluated in the first
	// unit that holds it.
	units []*compiled
	// Tool is written into every report.
	Tool report.Tool
	// Timeout bounds the evaluation of each Diagnose (zero: only ctx bounds it). A rule still
	// running when it is spent is skipped, "evaluation timed out after <Timeout>"; the other
	// rules' findings are kept (see evalEach).
	Timeout time.Duration
}

// compileError keeps OPA's "file:row: rego_type_error: ..." lines and drops the wrapping.
func compileError(err error) error {
	if probs := astErrors(err); probs != nil {
		return &LoadError{Problems: probs}
	}
	return fmt.Errorf("compile rules: %w", err)
}

// astErrors splits OPA's ast.Errors into one "file:row: code: message" error each; nil when err
// is not an ast.Errors.
func astErrors(err error) []error {
	var errs ast.Errors
	if !errors.As(err, &errs) {
		return nil
	}
	var probs []error
	for _, e := range errs {
		loc := ""
		if e.Location != nil {
			loc = fmt.Sprintf("%s:%d: ", e.Location.File, e.Location.Row)
		}
		probs = append(probs, fmt.Errorf("%s%s: %s", loc, e.Code, e.Message))
	}
	return probs
}

// Rules returns the rule metadata, sorted by id.
func (e *Engine) Rules() []*Rule { return e.set.Rules }

// Set returns the loaded rule set.
func (e *Engine) Set() *Set { return e.set }

// Diagnose evaluates every node rule (not the fleet rules) once against s and returns the
// ranked report.
func (e *Engine) Diagnose(ctx context.Context, s *facts.Snapshot) (*report.Report, error) {
	return e.DiagnoseWith(ctx, s, nil)
}

// DiagnoseWith is Diagnose taking the evaluation ahead, when it was made by e on a snapshot the
// rules see as s (Evaluation.takes): the report is the one Diagnose makes, without evaluating
// the rules again. Another evaluation ahead is cancelled, and s evaluated.
func (e *Engine) DiagnoseWith(ctx context.Context, s *facts.Snapshot, ahead *Evaluation) (*report.Report, error) {
	available := availableGroups(s)
	r := &report.Report{
		SchemaVersion: report.SchemaVersion,
		Tool:          e.Tool,
		Host:          report.Host{Hostname: s.Host.Hostname, Kernel: s.Host.Kernel},
		Source:        s.Source,
		Diagnoses:     []report.Diagnosis{},
		Skipped:       []report.Skipped{},
		Sources:       append([]facts.Source{}, s.Sources...),
	}
	needs := map[string]report.Need{}
	for _, rule := range e.set.Rules {
		if rule.Fleet() {
			continue // a FleetEngine's
		}
		if !runs(rule, available) {
			sets, missing := missingSets(rule, available)
			r.Skipped = append(r.Skipped, report.Skipped{ID: rule.ID, Reason: skipReason(sets, s, needs), Missing: missing})
			continue
		}
		if e.unitOf(rule.pkg) == nil {
			return nil, fmt.Errorf("rule %s can run on this snapshot but was not compiled (Options.Rules)", rule.ID)
		}
		r.Evaluated++
	}

	var findings []rawFinding
	var failed map[string]string
	var err error
	if ahead.takes(e, s) {
		findings, failed = ahead.findings, ahead.failed
	} else {
		ahead.Cancel()
		findings, failed, err = e.evaluate(ctx, NewInput(s), e.runnable(available))
	}
	if err != nil {
		return nil, err
	}
	findings, unjudged := notJudged(e.set, findings)
	r.Skipped = append(r.Skipped, unjudged...)
	for pkg, reason := range failed {
		rule := e.set.byPkg[pkg]
		r.Skipped = append(r.Skipped, report.Skipped{ID: rule.ID, Reason: reason, Failed: true})
		r.Evaluated--
	}
	sort.Slice(r.Skipped, func(i, j int) bool { return r.Skipped[i].ID < r.Skipped[j].ID })
	r.Needs = needs
	r.SetCompleteness()

	var ds []report.Diagnosis
	for _, f := range findings {
		d, err := e.diagnosis(f, available, s)
		if err != nil {
			return nil, err
		}
		ds = append(ds, d)
	}
	r.Diagnoses = e.rank(groupUnused(merge(ds)), s)
	return r, nil
}

// runnable returns the rule packages of e's node rules that can run with the available groups
// and were compiled (Diagnose fails on one that can run but was not).
func (e *Engine) runnable(available map[string]bool) map[string]bool {
	run := map[string]bool{}
	for _, rule := range e.set.Rules {
		if !rule.Fleet() && runs(rule, available) && e.unitOf(rule.pkg) != nil {
			run[rule.pkg] = true
		}
	}
	return run
}

// evaluate evaluates the rule packages in run on in's snapshot, within Timeout.
func (e *Engine) evaluate(ctx context.Context, in *Input, run map[string]bool) ([]rawFinding, map[string]string, error) {
	if e.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, e.Timeout)
		defer cancel()
	}
	return e.findings(ctx, in, run)
}

// findings evaluates the rule packages in run on in's snapshot with OPA's evaluator.
func (e *Engine) findings(ctx context.Context, in *Input, run map[string]bool) ([]rawFinding, map[string]string, error) {
	input, err := in.Value()
	if err != nil {
		return nil, nil, err
	}
	results, failed := e.evalUnits(ctx, input, run)
	var out []rawFinding
	for _, r := range results {
		var fs []rawFinding
		if err := decodeFindings(e.set, r, &fs); err != nil {
			return nil, nil, err
		}
		for i := range fs {
			fs[i].pkg = r.pkg
		}
		out = append(out, fs...)
	}
	return out, failed, nil
}

// unitOf returns the unit that evaluates rule package pkg: the first that holds it; nil when
// none was compiled with it.
func (e *Engine) unitOf(pkg string) *compiled {
	for _, u := range e.units {
		if u.pkgs[pkg] {
			return u
		}
	}
	return nil
}

// evalUnits evaluates the rule packages of run, each in its unit (unitOf), and returns their
// findings by package, in package order as one unit's query gives them, and the packages that
// failed.
func (e *Engine) evalUnits(ctx context.Context, input ast.Value, run map[string]bool) ([]pkgFindings, map[string]string) {
	byUnit := map[*compiled]map[string]bool{}
	for pkg := range run {
		if u := e.unitOf(pkg); u != nil {
			if byUnit[u] == nil {
				byUnit[u] = map[string]bool{}
			}
			byUnit[u][pkg] = true
		}
	}
	var results []pkgFindings
	var failed map[string]string
	for _, u := range e.units {
		pkgs := byUnit[u]
		if len(pkgs) == 0 {
			continue
		}
		res, f := evalRules(withRunnable(ctx, pkgs), u, input, pkgs, e.Timeout)
		results = append(results, res...)
		for pkg, why := range f {
			if failed == nil {
				failed = map[string]string{}
			}
			failed[pkg] = why
		}
	}
	sort.SliceStable(results, func(i, j int) bool { return results[i].pkg < results[j].pkg })
	return results, failed
}

// rawFinding is one element of a rule's `findings` set (docs/rules-contract.md).
type rawFinding struct {
	pkg        string
	Subject    report.Subject   `json:"subject"`
	Message    string           `json:"message"`
	Evidence   []facts.Evidence `json:"evidence"`
	Severity   string           `json:"severity"`
	Confidence string           `json:"confidence"`
	Scope      string           `json:"scope"`
	Vars       map[string]any   `json:"vars"`
	// Unknown, when set, says the rule could not judge the subject and why (a fact it needs is
	// unknown: finding.not_judged): the rule is listed in skipped, never the finding as a
	// diagnosis (notJudged).
	Unknown string `json:"unknown"`
}

// pkgFindings is the `findings` value of one rule package, as the query returned it.
type pkgFindings struct {
	pkg   string
	value any
}

// evalRules runs the prepared query; the findings of rules not in run are discarded. When the
// combined query fails (a rule raised a conflict error, or ran out of time), every rule runs
// alone so that one broken or slow rule is reported in failed (rule package -> skip reason)
// instead of taking the report down. With a deadline on ctx the combined query gets half of
// the time left, and the rules run alone share the rest (evalEach); past the deadline, a rule
// is reported as timed out without being run. timeout is the engine's (zero: none), for the
// skip reason.
func evalRules(ctx context.Context, c *compiled, input ast.Value, run map[string]bool, timeout time.Duration) ([]pkgFindings, map[string]string) {
	if ctx.Err() != nil {
		return evalEach(ctx, c, input, run, timeout) // each rule reported as timed out
	}
	whole, cancel := firstShare(ctx)
	defer cancel()
	rs, err := c.query.Eval(whole, rego.EvalParsedInput(input))
	if err != nil {
		return evalEach(ctx, c, input, run, timeout)
	}
	var out []pkgFindings
	for _, res := range rs {
		pkg, _ := res.Bindings["pkg"].(string)
		if run[pkg] {
			out = append(out, pkgFindings{pkg, res.Bindings["findings"]})
		}
	}
	return out, nil
}

// evalEach evaluates each rule package of run alone. With a deadline on ctx, each rule gets a
// fair share of the time left (timeout.go): a rule that runs past it is reported as timed out,
// and what the fast rules leave goes to those after them.
func evalEach(ctx context.Context, c *compiled, input ast.Value, run map[string]bool, timeout time.Duration) ([]pkgFindings, map[string]string) {
	var out []pkgFindings
	failed := map[string]string{}
	pkgs := make([]string, 0, len(run))
	for pkg := range run {
		pkgs = append(pkgs, pkg)
	}
	sort.Strings(pkgs)
	for i, pkg := range pkgs {
		q := fmt.Sprintf("findings := data.rdmadoctor.rules.%s.findings", pkg)
		one, cancel := fairShare(ctx, len(pkgs)-i)
		if err := one.Err(); err != nil {
			// Its time was spent before it started: OPA, which notices the deadline from
			// another goroutine, could otherwise finish a short rule past it.
			failed[pkg] = failure(err, errors.Is(err, context.DeadlineExceeded), timeout)
			cancel()
			continue
		}
		// The compiler has the modules already: rego compiles only the query.
		rs, err := rego.New(rego.Store(c.store), rego.Query(q), rego.Compiler(c.compiler), rego.ParsedInput(input)).Eval(one)
		timedOut := errors.Is(one.Err(), context.DeadlineExceeded)
		cancel()
		if err != nil {
			failed[pkg] = failure(err, timedOut, timeout)
			continue
		}
		for _, res := range rs {
			out = append(out, pkgFindings{pkg, res.Bindings["findings"]})
		}
	}
	return out, failed
}

// decodeFindings reads the findings set of one rule package into out (a pointer to a slice of
// the finding type) as encoding/json reads its JSON text (directly, findingsFrom, for a node
// rule's findings that follow the contract); an error names the rule's file.
func decodeFindings(set *Set, r pkgFindings, out any) error {
	if fs, ok := out.(*[]rawFinding); ok {
		if direct, ok := findingsFrom(r.value); ok {
			*fs = direct
			return nil
		}
	}
	b, err := json.Marshal(r.value)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("%s: findings do not follow the contract: each finding is an object {subject, message, evidence, ...} (docs/rules-contract.md), not %s",
			set.byPkg[r.pkg].File, findingShape(err))
	}
	return nil
}

// diagnosis joins a finding with its rule's metadata.
// A finding that sets no confidence gets that of the evidence alternative its evidence came
// from (findingConfidence).
// Fix steps whose `when` does not hold for the subject's port or adapter vendor in s are left
// out (fixSteps).
func (e *Engine) diagnosis(f rawFinding, available map[string]bool, s *facts.Snapshot) (report.Diagnosis, error) {
	rule := e.set.byPkg[f.pkg]
	d := report.Diagnosis{
		ID: rule.ID, Title: rule.Title, Severity: rule.Severity,
		Confidence: findingConfidence(rule, availableAlternatives(rule, available), f.Evidence),
		Subject:    f.Subject, Message: f.Message, NeedsReboot: rule.NeedsReboot,
		Scope: f.Scope, Evidence: []facts.Evidence{}, Explains: []string{},
		References: append([]string{}, rule.References...),
		Fix:        fixSteps(rule.Fix, s, f.Subject, f.Vars),
	}
	if err := override(rule, f.Severity, f.Confidence, &d.Severity, &d.Confidence); err != nil {
		return d, err
	}
	if d.Scope == "" {
		d.Scope = defaultScope(f.Subject)
	} else if scopeRank(d.Scope) == len(scopes) {
		return d, fmt.Errorf("%s: finding has unknown scope %q (want node, device, port, unused_port)", rule.File, f.Scope)
	}
	if d.Message == "" {
		return d, fmt.Errorf("%s: finding without a message", rule.File)
	}
	seen := map[facts.Evidence]bool{}
	for _, ev := range f.Evidence {
		if ev == (facts.Evidence{}) || seen[ev] {
			continue
		}
		seen[ev] = true
		d.Evidence = append(d.Evidence, ev)
	}
	return d, nil
}

// override sets *severity and *confidence to a finding's own, when it sets them; an unknown
// value is an error naming the rule's file.
func override(rule *Rule, sev, conf string, severity, confidence *string) error {
	if sev != "" {
		if !report.ValidSeverity(sev) {
			return fmt.Errorf("%s: finding has unknown severity %q", rule.File, sev)
		}
		*severity = sev
	}
	if conf != "" {
		if confidenceRank(conf) == len(report.Confidences) {
			return fmt.Errorf("%s: finding has unknown confidence %q", rule.File, conf)
		}
		*confidence = conf
	}
	return nil
}

// findingShape says in Rego's words what a finding that does not decode was ("a string"), from
// encoding/json's error; "a value of another shape" when the error says nothing usable.
func findingShape(err error) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return "a value of another shape"
	}
	switch te.Value {
	case "string", "number", "bool", "array":
		if te.Field == "" {
			return "a " + te.Value
		}
		return fmt.Sprintf("an object whose %s is a %s", te.Field, te.Value)
	case "object":
		return fmt.Sprintf("an object with %s of another shape", te.Field)
	}
	return "a value of another shape"
}
