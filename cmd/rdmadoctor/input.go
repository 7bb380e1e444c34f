package main

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/rdmadoctor/rdmadoctor/internal/diagnosis"
	"github.com/rdmadoctor/rdmadoctor/internal/visible"
)

// inputFlags are shared by facts and diagnose.
func inputFlags() []cli.Flag {
	return []cli.Flag{
		&cli.GenericFlag{Name: "snapshot", Value: &onceValue{err: errSeveralSnapshots},
			Usage: "read a sosreport, gather output or folder of captures (`PATH`: dir, .tar, .tar.gz, .tar.xz)"},
		&cli.StringSliceFlag{Name: "input", Usage: "read one captured output (`FILE`, or - for stdin); repeatable"},
		// Live mode (neither --snapshot nor --input); diagnose defines --timeout and
		// --command-timeout itself.
		&cli.StringFlag{Name: "root", Value: "/", Usage: "live: read sys/, proc/, etc/ and var/ below `DIR` (containers, chroots, tests)"},
		&cli.DurationFlag{Name: "sample", Usage: "live: read port counters and ethtool -S twice, `DURATION` apart (at most 1h), to get rates; the wait is on top of --timeout, which bounds the gathering"},
	}
}

// liveOnlyFlags only mean something when this node is gathered (diagnose's --timeout bounds the
// evaluation too).
var liveOnlyFlags = []string{"root", "sample", "command-timeout"}

// errNoInput is returned while live gathering does not exist yet.
var errNoInput = errors.New("give --snapshot PATH or --input FILE (live gathering: see `rdmadoctor diagnose` without flags)")

// errStdinSnapshot refuses `--snapshot -`: a snapshot is a folder or an archive at a path (an
// archive whose top folder is not a sosreport is read twice), while standard input is one
// capture, read with --input -.
var errStdinSnapshot = errors.New("--snapshot reads a folder or archive at a PATH, not standard input: for one capture on standard input (`ssh node ibstat | rdmadoctor diagnose --input -`) use --input -; save an archive to a file and give --snapshot FILE")

// strayArgument is the usage error of an argument arg given beside the flags: the flag it was
// likely meant for ("--input -" for standard input, "--snapshot arg" for anything else: a
// folder, an archive or a capture file) or, when --snapshot or --input was given already,
// what reads more than one: one snapshot per node, as `rdmadoctor fleet` reads them, or
// --input repeated for the captures of one node. Both quote arg.
func strayArgument(c *cli.Context, arg string) error {
	switch {
	case c.IsSet("snapshot"):
		return fmt.Errorf("unexpected argument %q: --snapshot reads one node's snapshot; for several nodes' use `rdmadoctor fleet PATH...`", arg)
	case c.IsSet("input"):
		return fmt.Errorf("unexpected argument %q: give each capture of the node with its own --input (--input FILE --input %s)", arg, visible.ShellQuote(arg))
	case arg == "-":
		return fmt.Errorf("unexpected argument %q: did you mean --input -?", arg)
	}
	return fmt.Errorf("unexpected argument %q: did you mean --snapshot %s?", arg, visible.ShellQuote(arg))
}

// loadSnapshot builds the snapshot from --snapshot or --input. Unreadable input is exit code 2,
// with a message naming the file.
func loadSnapshot(c *cli.Context) (*facts.Snapshot, error) {
	return loadSnapshotWith(c, source.Options{})
}

// loadSnapshotWith is loadSnapshot reading a --snapshot archive with opt (its Seen: diagnose's
// compile ahead).
func loadSnapshotWith(c *cli.Context, opt source.Options) (*facts.Snapshot, error) {
	if c.Args().Len() > 0 {
		// `diagnose sosreport.tar.xz` must not quietly diagnose this node instead.
		return nil, withCode(exitUsage, strayArgument(c, c.Args().First()))
	}
	if c.IsSet("snapshot") && c.String("snapshot") == "" {
		return nil, withCode(exitUsage, errors.New("--snapshot needs a PATH (without --snapshot and --input, this node is diagnosed)"))
	}
	if c.String("snapshot") == "-" {
		return nil, withCode(exitUsage, errStdinSnapshot)
	}
	if c.String("snapshot") == "" && len(c.StringSlice("input")) == 0 {
		return gatherLive(c) // neither: gather this node (gather_cmd.go)
	}
	for _, f := range liveOnlyFlags {
		if c.IsSet(f) {
			return nil, withCode(exitUsage, fmt.Errorf("--%s applies to gathering this node, not to --snapshot or --input", f))
		}
	}
	fsys, info, err := openInput(c, opt)
	if err != nil {
		return nil, withCode(exitUsage, err)
	}
	s, err := diagnosis.Build(fsys, info)
	if err != nil {
		return nil, withCode(exitUsage, err)
	}
	if err := inputErrors(c, s); err != nil {
		return nil, withCode(exitUsage, err)
	}
	return s, nil
}

// inputErrors handles files that were recognised but could not be read or parsed. A file the
// user named with --input is bad input: exit 2 naming the file and line. In a snapshot (a
// sosreport holds hundreds of files) the rest is still diagnosed, and each bad file is named
// on stderr so it is not lost in the report's footer.
func inputErrors(c *cli.Context, s *facts.Snapshot) error {
	given := map[string]string{} // --input files sit at the fs root under their base name
	for _, f := range c.StringSlice("input") {
		given[filepath.Base(f)] = f
	}
	var bad []string
	for _, src := range s.Sources {
		name := src.Origin
		if g, ok := given[name]; ok {
			name = g
		}
		switch src.Status {
		case facts.StatusError:
			bad = append(bad, fmt.Sprintf("%s: %s (read as %s)", name, src.Error, src.Name))
		case facts.StatusPartial:
			// Read as far as it goes, with --input as in a snapshot: the rest is diagnosed and
			// the report says it may be incomplete.
			fmt.Fprintf(c.App.ErrWriter, "rdmadoctor: warning: %s\n", visible.Escape(facts.Clip(fmt.Sprintf("%s: partly read: %s (read as %s)", name, src.Error, src.Name), facts.MaxMessageBytes)))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	if len(c.StringSlice("input")) > 0 {
		return errors.New(strings.Join(bad, "\n"))
	}
	for _, b := range bad {
		fmt.Fprintf(c.App.ErrWriter, "rdmadoctor: warning: %s\n", visible.Escape(facts.Clip(b, facts.MaxMessageBytes)))
	}
	return nil
}

// openInput opens what the flags name as one sos-shaped fs, an archive with opt.
func openInput(c *cli.Context, opt source.Options) (fs.FS, facts.SourceInfo, error) {
	snapshot, inputs := c.String("snapshot"), c.StringSlice("input")
	switch {
	case snapshot != "" && len(inputs) > 0:
		return nil, facts.SourceInfo{}, errors.New("give --snapshot or --input, not both")
	case snapshot != "":
		return diagnosis.OpenSourceWith(snapshot, opt)
	case len(inputs) > 0:
		if opt.Started != nil {
			opt.Started() // the rules load while the captures are read
		}
		return source.Captures(inputs, c.App.Reader)
	}
	return nil, facts.SourceInfo{}, errNoInput
}
