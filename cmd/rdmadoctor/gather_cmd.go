package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/live"
)

// liveFlags control live gathering; gather, diagnose and facts share them.
func liveFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "root", Value: "/", Usage: "read sys/, proc/, etc/ and var/ below `DIR` (containers, chroots, tests)"},
		&cli.DurationFlag{Name: "timeout", Value: live.DefaultTimeout, Usage: "stop gathering after `DURATION`; unfinished commands are recorded as timed out"},
		&cli.DurationFlag{Name: "sample", Usage: "read port counters and ethtool -S twice, `DURATION` apart (at most 1h), to get rates; the wait is on top of --timeout, which bounds the gathering"},
	}
}

// commandTimeoutFlag is --command-timeout, of gather and of diagnose's live gathering.
func commandTimeoutFlag() cli.Flag {
	return &cli.DurationFlag{Name: "command-timeout", Value: live.DefaultCommandTimeout, Usage: "live: kill a command (and every process it started) after `DURATION`"}
}

func gatherCommand() *cli.Command {
	return &cli.Command{
		Name:      "gather",
		Usage:     "collect a snapshot of this node (sos layout) to analyse elsewhere",
		UsageText: "rdmadoctor gather -o DIR|FILE.tar.gz [--redact] [--sample 10s] [--root DIR]",
		Flags: append(liveFlags(),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Required: true, Usage: "write the snapshot to `PATH`: a new directory, or FILE.tar.gz"},
			&cli.BoolFlag{Name: "redact", Usage: "replace host names, IP and MAC addresses, GUIDs and serial numbers with stable placeholders"},
			commandTimeoutFlag(),
			&cli.IntFlag{Name: "jobs", Value: live.DefaultJobs, Usage: "run at most `N` commands at once"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing but errors"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "print each command as it finishes"},
		),
		Action: runGather,
	}
}

func runGather(c *cli.Context) error {
	if c.NArg() > 0 {
		return withCode(exitUsage, fmt.Errorf("gather takes no arguments, got %q", c.Args().First()))
	}
	opts, err := liveOptions(c)
	if err != nil {
		return err
	}
	if err := live.CheckDest(c.String("output")); err != nil {
		return withCode(exitUsage, err) // before gathering, not after
	}
	opts.Jobs = c.Int("jobs")
	res := live.Gather(c.Context, opts)
	var top func(string) string // the archive's top folder: the file's name
	if c.Bool("redact") {
		top = live.Redact(res, localHostname(opts.Root)...).Name // node01.tar.gz holds host-1/
	}
	out := c.String("output")
	if err := live.WriteTop(res.FS, out, top); err != nil {
		return withCode(exitUsage, err)
	}
	if !c.Bool("quiet") {
		fmt.Fprintf(c.App.ErrWriter, "rdmadoctor: wrote %s: %s\n", out, summary(res.Meta))
	}
	if len(res.Inventory.Devices) == 0 {
		return withCode(exitNoFacts, fmt.Errorf("no RDMA devices in %s (snapshot written to %s)",
			filepath.Join(opts.Root, "sys/class/infiniband"), out))
	}
	return nil
}

// liveOptions reads the shared live flags; a --root that is not a directory or a duration out
// of its bounds (checkDurations) is a usage error.
func liveOptions(c *cli.Context) (live.Options, error) {
	if st, err := os.Stat(c.String("root")); err != nil || !st.IsDir() {
		return live.Options{}, withCode(exitUsage, fmt.Errorf("--root %s: not a directory", c.String("root")))
	}
	if err := checkDurations(c); err != nil { // durations.go
		return live.Options{}, err
	}
	return live.Options{
		Root:           c.String("root"),
		Timeout:        c.Duration("timeout"),
		CommandTimeout: c.Duration("command-timeout"), // zero (the default) where it is not a flag
		Sample:         c.Duration("sample"),
		Observer:       observer(c),
		Version:        version,
		Argv:           commandLine(c),
	}, nil
}

// argvKey is the app metadata key of the command line run was given.
const argvKey = "argv"

// commandLine is the command line rdmadoctor was run with: the one run was given, else os.Args.
func commandLine(c *cli.Context) []string {
	if args, ok := c.App.Metadata[argvKey].([]string); ok {
		return append([]string(nil), args...)
	}
	return os.Args
}

// observer draws progress on a terminal, logs commands with -v, and is silent otherwise.
func observer(c *cli.Context) live.Observer {
	switch {
	case c.Bool("quiet"):
		return nil
	case c.Bool("verbose"):
		return live.NewLog(c.App.ErrWriter)
	}
	if f, ok := c.App.ErrWriter.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return live.NewProgress(f)
	}
	return nil
}

// gatherLive is the live branch of diagnose and facts: gather this node in memory and build
// its snapshot. Finding no RDMA device is exit code 3, with every missing source explained.
func gatherLive(c *cli.Context) (*facts.Snapshot, error) {
	opts, err := liveOptions(c)
	if err != nil {
		return nil, err
	}
	s, _, err := live.Snapshot(c.Context, opts)
	if err != nil {
		return nil, withCode(exitUsage, err)
	}
	return s, nil
}

// localHostname adds this machine's name to the redaction list when gathering the real root.
func localHostname(root string) []string {
	if root != "/" {
		return nil
	}
	if h, err := os.Hostname(); err == nil {
		return []string{h}
	}
	return nil
}

func summary(m *live.Meta) string {
	n := map[string]int{}
	truncated := 0
	for _, r := range m.Commands {
		n[r.Status]++
		if r.Truncated {
			truncated++
		}
	}
	s := fmt.Sprintf("%d commands (%d ok", len(m.Commands), n[live.RanOK])
	for _, st := range []string{live.RanMissing, live.RanTimeout, live.RanNotRun, live.RanError, live.RanDenied} {
		if n[st] > 0 {
			s += fmt.Sprintf(", %d %s", n[st], st)
		}
	}
	s += ")"
	if truncated > 0 {
		s += fmt.Sprintf(", %d outputs truncated", truncated)
	}
	s += fmt.Sprintf(", %d unreadable files, %.1fs", len(m.Unreadable), m.DurationSeconds)
	if m.Sample != nil {
		s += fmt.Sprintf(", counters sampled %.1fs apart", m.Sample.IntervalSeconds)
	}
	return s
}
