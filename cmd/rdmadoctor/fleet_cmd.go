package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/live"
	nodesummary "github.com/rdmadoctor/rdmadoctor/facts/summary"
	"github.com/rdmadoctor/rdmadoctor/fleet"
	"github.com/rdmadoctor/rdmadoctor/internal/diagnosis"
	"github.com/rdmadoctor/rdmadoctor/internal/visible"
	"github.com/rdmadoctor/rdmadoctor/report"
	"github.com/rdmadoctor/rdmadoctor/report/render"
)

func fleetCommand() *cli.Command {
	minSeverity, rules, config, noColor := reportFlags()
	return &cli.Command{
		Name:      "fleet",
		Usage:     "diagnose many nodes' snapshots at once: the same diagnosis on many nodes grouped, and what only a comparison of nodes shows",
		ArgsUsage: "PATH...",
		Description: "Each PATH is one node's snapshot (folder, sosreport, gather output, .tar, .tar.gz,\n" +
			".tar.xz) or a folder whose entries are such snapshots (docs/fleet.md says how it tells).\n" +
			"Exit codes: 0 no diagnosis at or above --fail-on on any node or the fleet, 1 at least one,\n" +
			"2 usage error or a snapshot that could not be read (the report is still written, with the\n" +
			"node listed as unreadable), 3 nothing about RDMA could be evaluated on any node.\n" +
			"Flags go before the PATHs: rdmadoctor fleet --format html -o fleet.html /srv/sos/",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "table", Usage: "output `FORMAT`: " + strings.Join(fleetFormats(), ", ")},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the report to `FILE` instead of stdout"},
			&cli.StringFlag{Name: "fail-on", Value: "error", Usage: "exit 1 when a node or fleet diagnosis at or above `SEVERITY` exists (critical, error, warning, info, none)"},
			&cli.BoolFlag{Name: "fail-on-incomplete", Usage: "also exit 1 when a node was partly read or had nothing about RDMA to evaluate (health checks should set it)"},
			minSeverity, rules,
			&cli.StringFlag{Name: "profile", Usage: "site intent `FILE` (YAML; docs/profiles.md), applied to every node"},
			config, noColor,
			&cli.DurationFlag{Name: "timeout", Value: live.DefaultTimeout, Usage: "stop evaluating the rules on one node after `DURATION`; a rule still running is skipped as timed out"},
			&cli.IntFlag{Name: "jobs", Usage: "diagnose `N` nodes at once (default: the number of CPUs Go uses, GOMAXPROCS)"},
		},
		Action: fleetAction,
	}
}

// fleetFormats are the --format values of fleet.
func fleetFormats() []string {
	return append(append([]string{}, render.FleetFormats...), fleetExtraFormats...)
}

// fleetExtraFormats are formats written by packages of their own (html).
var fleetExtraFormats []string

// fleetWriters render the fleetExtraFormats.
var fleetWriters = map[string]func(io.Writer, *report.Fleet) error{}

func fleetAction(c *cli.Context) error {
	run, err := setUp(c, fleetFormats())
	if err != nil {
		return err
	}
	if c.Int("jobs") < 0 {
		return withCode(exitUsage, fmt.Errorf("--jobs %d: must be positive", c.Int("jobs")))
	}
	if c.Args().Len() == 0 {
		return withCode(exitUsage, errors.New("give the snapshots to diagnose: rdmadoctor fleet PATH... (a snapshot each, or a folder of them)"))
	}
	for _, a := range c.Args().Slice() {
		// urfave/cli stops reading flags at the first PATH: a flag after it would be taken for a
		// snapshot and reported as an unreadable node.
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			return withCode(exitUsage, fmt.Errorf("%s after the PATHs: flags go before them (rdmadoctor fleet --format html -o fleet.html PATH...)", visible.Escape(a)))
		}
	}
	e, err := run.rules.all(run.ctx)
	if err != nil {
		return withCode(exitUsage, err)
	}
	e.Timeout = c.Duration("timeout")
	fe, err := run.rules.set.PrepareFleet(run.ctx)
	if err != nil {
		return withCode(exitUsage, err)
	}

	if os.Getenv("GOGC") == "" {
		// main's GOGC=200 suits one short diagnose; a fleet's heap holds every node's report
		// for the whole run, and twice the headroom of the default GC would be most of its
		// peak RSS (docs/performance.md).
		debug.SetGCPercent(100)
	}
	in := fleet.Expand(c.Args().Slice())
	for _, msg := range append(in.NotRead, in.Notes...) {
		fmt.Fprintf(c.App.ErrWriter, "rdmadoctor: warning: %s\n", visible.Escape(msg))
	}
	paths := in.Nodes
	unpace := paceFleetMemory() // fleet_memory.go
	defer unpace()
	update, stop := fleetProgress(c.App.ErrWriter, len(paths))
	res, err := fleet.Run(run.ctx, paths, fleet.Options{
		Engine:    e,
		Diagnosis: diagnosis.Options{Ignore: run.cfg.ignores(), MinSeverity: run.minSev},
		Profile:   run.profile,
		Version:   version,
		Workers:   c.Int("jobs"),
		Progress:  update,
		Summarize: nodesummary.Summarize,
		FleetRules: func(ctx context.Context, doc *facts.Fleet) (ds []report.FleetDiagnosis, skipped []report.Skipped, err error) {
			withinHeld(func() { ds, skipped, err = fe.Diagnose(ctx, doc) })
			return ds, skipped, err
		},
	})
	stop()
	if err != nil {
		return fmt.Errorf("fleet: %w", err)
	}
	collectWorkingSet()
	if err := writeFleet(c, run.format, res.Fleet); err != nil {
		return err
	}
	for _, n := range res.Fleet.Nodes {
		if n.Status == report.NodeUnreadable {
			msg := n.Error // the archive reader's errors already start with the path
			if !strings.HasPrefix(msg, n.Snapshot+":") {
				msg = n.Snapshot + ": " + msg
			}
			fmt.Fprintf(c.App.ErrWriter, "rdmadoctor: %s\n", visible.Escape(facts.Clip(msg, facts.MaxMessageBytes)))
		}
	}
	switch {
	case res.Unreadable > 0:
		return silentExit(exitUsage)
	case run.failOn != "none" && res.Worst != "" && report.SeverityRank(res.Worst) <= report.SeverityRank(run.failOn):
		return silentExit(exitFindings)
	case res.NoRDMA == len(res.Fleet.Nodes):
		where := fmt.Sprintf("any of the %d nodes", len(res.Fleet.Nodes))
		if len(res.Fleet.Nodes) == 1 {
			where = "the one node"
		}
		fmt.Fprintf(c.App.ErrWriter, "rdmadoctor: nothing about RDMA could be evaluated on %s\n", where)
		return silentExit(exitNoFacts)
	case c.Bool("fail-on-incomplete") && incompleteNodes(res.Fleet) > 0:
		// The table named them: "Partly read" and "Nothing about RDMA could be evaluated on".
		return silentExit(exitFindings)
	}
	return nil
}

// writeFleet writes the report to -o FILE or stdout.
func writeFleet(c *cli.Context, format string, f *report.Fleet) error {
	w := c.App.Writer
	var file *os.File
	if path := c.String("output"); path != "" {
		var err error
		if file, err = os.Create(path); err != nil {
			return withCode(exitUsage, err)
		}
		w = file
	}
	var err error
	if write, ok := fleetWriters[format]; ok {
		err = write(w, f)
	} else {
		err = render.WriteFleet(w, format, f, render.Options{Color: render.UseColor(w, c.Bool("no-color")), Width: render.Width(w)})
	}
	if file != nil {
		if cerr := file.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// all is the engine that evaluates every node of a fleet: the one prepared with --rules, or all
// built-in rules compiled once (without the type check their tests run, as for one snapshot),
// shared by the workers; compiling per node, as diagnose does for one, would cost more than
// the evaluation.
func (l *loadedRules) all(ctx context.Context) (*engine.Engine, error) {
	e := l.prepared
	if e == nil {
		var err error
		if e, err = l.set.Prepare(ctx, engine.Options{SkipTypeCheck: true}); err != nil {
			return nil, err
		}
	}
	e.Tool.Version = version
	return e, nil
}

// incompleteNodes counts the nodes whose check is not whole: partly read, or nothing about RDMA
// evaluated.
func incompleteNodes(f *report.Fleet) int {
	n := 0
	for _, node := range f.Nodes {
		if node.Status == report.NodePartial || node.Status == report.NodeNoRDMA {
			n++
		}
	}
	return n
}
