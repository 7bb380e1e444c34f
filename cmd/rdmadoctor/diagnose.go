package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/live"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/internal/diagnosis"
	"github.com/rdmadoctor/rdmadoctor/internal/visible"
	"github.com/rdmadoctor/rdmadoctor/report"
	"github.com/rdmadoctor/rdmadoctor/report/render"
)

func diagnoseCommand() *cli.Command {
	minSeverity, rules, config, noColor := reportFlags()
	flags := append(inputFlags(),
		&cli.StringFlag{Name: "format", Value: "table", Usage: "output `FORMAT`: " + strings.Join(render.Formats, ", ") + " (prometheus: node_exporter's textfile format; lines: one tab-separated diagnosis a line, for scripts; docs/integrations.md)"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the report to `FILE` instead of stdout, atomically (a temporary file in FILE's folder, renamed over it): a reader never sees half a file; with exit 3, json, yaml and prometheus are still written"},
		&cli.StringFlag{Name: "fail-on", Value: "error", Usage: "exit 1 when a diagnosis at or above `SEVERITY` exists (critical, error, warning, info, none)"},
		&cli.BoolFlag{Name: "fail-on-incomplete", Usage: "also exit 1 when an input was partial or unreadable, diagnoses or not (off by default; health checks should set it)"},
		minSeverity, rules,
		&cli.StringFlag{Name: "profile", Usage: "site intent `FILE` (YAML: fabric, expected_rate_gbps, ...; docs/profiles.md)"},
		config, noColor,
		&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "table: list every rule that was not checked, by reason; live: print each command as it finishes"},
		&cli.DurationFlag{Name: "timeout", Value: live.DefaultTimeout, Usage: "stop gathering (live; unfinished commands are recorded as timed out), and evaluating the rules, after `DURATION` each; a rule still running is skipped as timed out"},
		commandTimeoutFlag(),
	)
	return &cli.Command{
		Name:  "diagnose",
		Usage: "find what is wrong with RDMA on a node, ranked, with evidence and fix commands",
		Description: "Exit codes: 0 no diagnosis at or above --fail-on, 1 at least one (or, with\n" +
			"--fail-on-incomplete, an input not (fully) read), 2 usage error or unreadable input,\n" +
			"3 nothing about RDMA could be evaluated.\n\n" +
			"--format prometheus -o /var/lib/prometheus/node-exporter/rdmadoctor.prom writes the\n" +
			"node_exporter textfile metrics (docs/integrations.md); the exit code does not depend on\n" +
			"the format, and with exit 3 the file says rdmadoctor_rdma_facts 0.",
		Flags:  flags,
		Action: diagnose,
	}
}

func diagnose(c *cli.Context) error {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		collectFromFloor() // gc.go
	}
	run, err := setUpFlags(c, render.Formats)
	if err != nil {
		return err
	}
	var ahead *rulesAhead
	if readsFiles(c) && len(c.StringSlice("rules")) == 0 {
		// The built-in rules are loaded, and those the snapshot will likely run compiled,
		// while it is read (rules_ahead.go).
		ahead = newRulesAhead(run.ctx, c.Duration("timeout"))
		defer ahead.stop()
	} else if err := run.loadRules(c); err != nil {
		return err
	}
	ctx, format := run.ctx, run.format
	w := c.App.Writer
	var out *outputFile
	if path := c.String("output"); path != "" {
		// Opened before gathering: a folder that cannot be written to is a usage error found
		// before the node is touched, not after.
		if out, err = createOutput(path); err != nil {
			return withCode(exitUsage, err)
		}
		defer out.discard()
		w = out.Writer()
	}
	var s *facts.Snapshot
	var e *engine.Engine
	var evaluated *engine.Evaluation // ahead of the report (speculate.go)
	if ahead != nil {
		spec := newSpeculation(ctx, ahead, run.profile)
		defer spec.stop()
		s, err = loadSnapshotWith(c, source.Options{Seen: ahead.seen, Started: ahead.started, Settled: spec.settled})
		// A mistake in the rules or the site config is reported before one in the input, as
		// when they are loaded first.
		if rerr := run.useRules(ahead.wait()); rerr != nil {
			return rerr
		}
		if err != nil {
			return err
		}
		s.Profile = run.profile
		evaluated = spec.evaluation()
		var early *engine.Evaluation
		if e, early, err = ahead.engine(ctx, s, evaluated == nil); err != nil {
			return withCode(exitUsage, err)
		}
		e.Tool.Version = version
		if evaluated == nil {
			evaluated = early
		}
	} else {
		s, err = run.rules.whileWarming(func() (*facts.Snapshot, error) { return loadSnapshot(c) })
		if err != nil {
			return err
		}
		s.Profile = run.profile
		if e, err = run.rules.engine(ctx, s); err != nil {
			return withCode(exitUsage, err)
		}
		e.Timeout = c.Duration("timeout")
	}
	r, err := diagnosis.Diagnose(ctx, e, s, diagnosis.Options{Ignore: run.cfg.ignores(), MinSeverity: run.minSev, Evaluated: evaluated}, version)
	if err != nil {
		return fmt.Errorf("diagnose: %w", err)
	}
	for _, sk := range r.Skipped {
		if sk.Failed {
			fmt.Fprintf(c.App.ErrWriter, "rdmadoctor: warning: rule %s could not be evaluated: %s\n", sk.ID, visible.Escape(facts.Clip(sk.Reason, facts.MaxMessageBytes)))
		}
	}

	if none, n := diagnosis.Unevaluable(s, r); none {
		timedOut := timedOutCommands(s)
		if n > 0 && (s.Source.Kind != "live" || len(timedOut) == 0) {
			// The input was there but could not be parsed (named on stderr above): bad input, not "no RDMA".
			return withCode(exitUsage, fmt.Errorf("nothing about RDMA could be evaluated: %d input file(s) could not be read or parsed", n))
		}
		// A live gather whose commands timed out is not bad input: the report is written
		// (complete false, the timed-out inputs listed) and the exit is 3 whatever the timing;
		// the message names them, unless a tool listing RDMA devices said there is none.
		why := noRDMAWhy(s)
		if len(timedOut) > 0 && !strings.HasPrefix(why, "has no RDMA device") {
			detail, advice := timeoutAdvice(s, strings.Join(timedOut, ", "), c.Duration("timeout"))
			fmt.Fprintf(c.App.ErrWriter, "rdmadoctor: nothing about RDMA could be evaluated: %s timed out on %s (%s): %s\n",
				plural(len(timedOut), "command", "commands"), where(s.Source.Path), detail, advice)
		} else {
			fmt.Fprintf(c.App.ErrWriter, "rdmadoctor: nothing about RDMA could be evaluated: %s %s (%s)\n",
				where(s.Source.Path), why, inputsSeen(r))
		}
		if format == "json" || format == "yaml" || format == "prometheus" {
			// A program reads these: the empty report (and rdmadoctor_rdma_facts 0) is its answer.
			if err := write(w, out, format, r, render.Options{Time: time.Now(), NoRDMAFacts: true}); err != nil {
				return err
			}
		}
		return silentExit(exitNoFacts)
	}
	opts := render.Options{Color: render.UseColor(w, c.Bool("no-color")), Time: time.Now(), Width: render.Width(w), Verbose: c.Bool("verbose")}
	if err := write(w, out, format, r, opts); err != nil {
		return err
	}
	if run.failOn != "none" && r.AtLeast(run.failOn) {
		return silentExit(exitFindings)
	}
	if c.Bool("fail-on-incomplete") && !r.Complete {
		// The headline named them: "N inputs not (fully) read: results may be incomplete".
		return silentExit(exitFindings)
	}
	return nil
}

// write renders r to w and, with -o, renames the file into place.
func write(w io.Writer, out *outputFile, format string, r *report.Report, opts render.Options) error {
	if err := render.Write(w, format, r, opts); err != nil {
		return err
	}
	if out != nil {
		return out.commit()
	}
	return nil
}

// runSetup is what diagnose and fleet read from their common flags before any input.
type runSetup struct {
	ctx                    context.Context
	format, failOn, minSev string
	profile                *facts.Profile
	cfg                    *siteConfig
	rules                  *loadedRules
}

// setUp checks --format (one of formats), --fail-on, --min-severity and --timeout, and reads
// --profile, the site config and the rules (--rules). Every mistake is a usage error (exit 2)
// reported before any input is read.
func setUp(c *cli.Context, formats []string) (*runSetup, error) {
	r, err := setUpFlags(c, formats)
	if err != nil {
		return nil, err
	}
	if err := r.loadRules(c); err != nil {
		return nil, err
	}
	return r, nil
}

// setUpFlags is setUp but for the rules.
func setUpFlags(c *cli.Context, formats []string) (*runSetup, error) {
	r := &runSetup{ctx: c.Context, format: c.String("format"), failOn: c.String("fail-on"), minSev: c.String("min-severity")}
	if !contains(formats, r.format) {
		return nil, withCode(exitUsage, fmt.Errorf("--format %q: want one of %s", r.format, strings.Join(formats, ", ")))
	}
	if r.failOn != "none" && !report.ValidSeverity(r.failOn) {
		return nil, withCode(exitUsage, fmt.Errorf("--fail-on %q: want one of %s, none", r.failOn, strings.Join(report.Severities, ", ")))
	}
	if !report.ValidSeverity(r.minSev) {
		return nil, withCode(exitUsage, fmt.Errorf("--min-severity %q: want one of %s", r.minSev, strings.Join(report.Severities, ", ")))
	}
	if err := checkDurations(c); err != nil { // durations.go
		return nil, err
	}
	if r.ctx == nil {
		r.ctx = context.Background()
	}
	if path := c.String("profile"); path != "" {
		p, err := readProfile(path)
		if err != nil {
			return nil, withCode(exitUsage, err)
		}
		r.profile = p
	}
	if path, err := findConfig(c.String("config")); err != nil {
		return nil, withCode(exitUsage, err)
	} else if path != "" {
		if r.cfg, err = readConfig(path); err != nil {
			return nil, withCode(exitUsage, err)
		}
	}
	return r, nil
}

// loadRules reads the built-in rules and --rules (prepareRules) and checks the site config's
// rule ids against them.
func (r *runSetup) loadRules(c *cli.Context) error {
	rules, err := prepareRules(r.ctx, c.StringSlice("rules"), c.App.ErrWriter)
	if err != nil {
		return withCode(exitUsage, err)
	}
	r.rules = rules
	return r.useRules(rules.set, nil)
}

// useRules checks the site config's rule ids against set, loaded with err (a usage error), and
// keeps it.
func (r *runSetup) useRules(set *engine.Set, err error) error {
	if err != nil {
		return withCode(exitUsage, err)
	}
	if r.cfg != nil {
		if err := r.cfg.checkIDs(set); err != nil {
			return withCode(exitUsage, err)
		}
	}
	if r.rules == nil || r.rules.set != set {
		r.rules = &loadedRules{set: set}
	}
	return nil
}

// loadedRules are the built-in rules and the --rules folders, loaded and validated; with
// --rules also compiled, so that a mistake in a site rule is reported before any gathering.
type loadedRules struct {
	set      *engine.Set
	prepared *engine.Engine
}

// prepareRules loads the built-in rules and the rules of dirs; a folder without a rule is worth a
// warning on warn (a mistyped path looks like "my rules found nothing"). User rules are always type-checked
// against the snapshot schema and compiled, all of them, with the built-in ones.
func prepareRules(ctx context.Context, dirs []string, warn io.Writer) (*loadedRules, error) {
	sources, err := ruleSources(dirs)
	if err != nil {
		return nil, err
	}
	set, err := engine.Load(sources...)
	if err != nil {
		return nil, err
	}
	for _, src := range sources[1:] {
		if n := len(set.RulesFrom(src)); n == 0 {
			fmt.Fprintf(warn, "rdmadoctor: warning: --rules %s holds no rule (rules are <area>/<id>.rego with a METADATA block; docs/writing-rules.md)\n", visible.Escape(src.Name))
		}
	}
	l := &loadedRules{set: set}
	if len(dirs) > 0 {
		if l.prepared, err = set.Prepare(ctx, engine.Options{}); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// readsFiles reports whether the flags name files to read (--snapshot, --input), not this node
// to gather.
func readsFiles(c *cli.Context) bool {
	return c.String("snapshot") != "" || len(c.StringSlice("input")) > 0
}

// whileWarming runs read (the reading of the snapshot) while the rules that were loaded only by
// their headers are parsed beside it, so that compiling the ones that can run on the snapshot
// is all that is left after it: on a small sosreport the parse is a third of what follows the
// reading. With --rules everything was compiled already and read runs alone.
func (l *loadedRules) whileWarming(read func() (*facts.Snapshot, error)) (*facts.Snapshot, error) {
	if l.prepared != nil {
		return read()
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		l.set.Warm(stop)
	}()
	s, err := read()
	close(stop)
	<-done
	return s, err
}

// engine is the engine that diagnoses s: the one prepared with --rules, or the built-in rules
// that can run on s, compiled without the type check their tests run (engine TestBuiltinRules,
// `opa check`): compiling is most of a diagnose, and the rules that cannot run need none.
func (l *loadedRules) engine(ctx context.Context, s *facts.Snapshot) (*engine.Engine, error) {
	e := l.prepared
	if e == nil {
		var err error
		if e, err = l.set.Prepare(ctx, engine.Options{SkipTypeCheck: true, Rules: l.set.Runnable(s)}); err != nil {
			return nil, err
		}
	}
	e.Tool.Version = version
	return e, nil
}

func ruleSources(dirs []string) ([]engine.Source, error) {
	sources := []engine.Source{engine.Builtin()}
	for _, d := range dirs {
		src, err := engine.Dir(d)
		if err != nil {
			return nil, err
		}
		sources = append(sources, src)
	}
	return sources, nil
}

func where(path string) string {
	if path == "" {
		return "this node"
	}
	return path
}

// noRDMAWhy says why a snapshot without RDMA facts has nothing about RDMA: "has no RDMA
// device" only on positive evidence (a tool listing RDMA devices that said so, "No IB devices
// found", or an lspci that was read and lists no RDMA function), and never while an input
// that would list them timed out; otherwise only that nothing RDMA was read, which says
// nothing about the node's devices (absence is not evidence).
func noRDMAWhy(s *facts.Snapshot) string {
	var late []string
	for _, src := range s.Sources {
		if src.Status == facts.StatusTimeout && diagnosis.ListsDevices(src.Name) && !slices.Contains(late, src.Name) {
			late = append(late, src.Name)
		}
	}
	if len(late) > 0 {
		return "cannot tell whether it has an RDMA device: " + strings.Join(late, ", ") + " timed out"
	}
	for _, src := range s.Sources {
		if src.Status == facts.StatusOK && src.Name == "lspci" && len(s.PCI) > 0 {
			return "has no RDMA device: lspci lists none"
		}
	}
	for _, src := range s.Sources {
		if src.Status == facts.StatusUnsupported && slices.Contains(diagnosis.DeviceListers, src.Name) {
			return "has no RDMA device: " + src.Name + " says so"
		}
	}
	return "holds no RDMA device or RDMA tool output this version reads"
}

// timeoutAdvice words the timed-out commands of s, named by which (escaped here), and what to
// do about them: a live run's are rdmadoctor's own (--timeout, given as timeout); a sosreport's
// were killed by sos at its timeout (build.SosTimedOut), which only a new sos run with a longer
// one, or the command run by hand, can help; a gather output's, by the gather that wrote it.
func timeoutAdvice(s *facts.Snapshot, which string, timeout time.Duration) (detail, advice string) {
	which = visible.Escape(facts.Clip(which, facts.MaxMessageBytes))
	switch {
	case s.Source.Kind == "live":
		return fmt.Sprintf("%s; --timeout %s", which, timeout), "give the gather more time with --timeout"
	case slices.ContainsFunc(s.Sources, build.SosTimedOut):
		return which + ", at sos's timeout", "run sos again with longer timeouts (sos report --plugin-timeout SECONDS; newer sos also takes --cmd-timeout SECONDS), or run the command by hand and give its output with --input"
	}
	return which + ", at the gather that wrote this snapshot", "gather again with a longer --timeout or --command-timeout"
}

// timedOutCommands names, in source order and once each, the commands of s that timed out or
// were not started before the deadline (of a live gather, the gather that wrote s, or sos): a
// source of status timeout, named by its command line or file (Origin).
func timedOutCommands(s *facts.Snapshot) []string {
	var out []string
	for _, src := range s.Sources {
		if src.Status == facts.StatusTimeout && !slices.Contains(out, src.Origin) {
			out = append(out, src.Origin)
		}
	}
	return out
}

// inputsSeen says in a few words what was found instead.
func inputsSeen(r *report.Report) string {
	read, unrecognised, empty := 0, 0, 0
	for _, s := range r.Sources {
		switch s.Status {
		case facts.StatusOK:
			read++
		case facts.StatusUnrecognized:
			unrecognised++
		case facts.StatusEmpty:
			empty++
		}
	}
	seen := plural(read, "input", "inputs") + " read, " + plural(unrecognised, "file", "files") + " not recognised"
	if empty > 0 {
		seen += fmt.Sprintf(", %d empty", empty)
	}
	return seen + "; give ibstat, ibv_devinfo -v, lspci -nnvv or a sosreport"
}
