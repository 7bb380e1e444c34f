package main

import (
	"errors"
	"io/fs"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/gather"
	"github.com/rdmadoctor/rdmadoctor/facts/live"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/urfave/cli/v2"
)

// inputFlags are shared by facts and diagnose.
func inputFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "snapshot", Usage: "read a sosreport, gather output or folder of captures (`PATH`: dir, .tar, .tar.gz, .tar.xz)"},
		&cli.StringSliceFlag{Name: "input", Usage: "read one captured output (`FILE`, or - for stdin); repeatable"},
		// Live mode (neither --snapshot nor --input); diagnose defines --timeout itself.
		&cli.StringFlag{Name: "root", Value: "/", Usage: "live: read sys/, proc/, etc/ and var/ below `DIR` (containers, chroots, tests)"},
		&cli.DurationFlag{Name: "sample", Usage: "live: read port counters and ethtool -S twice, `DURATION` apart, to get rates"},
	}
}

// errNoInput is returned while live gathering does not exist yet.
var errNoInput = errors.New("give --snapshot PATH or --input FILE (live gathering: see `rdmadoctor diagnose` without flags)")

// loadSnapshot builds the snapshot from --snapshot or --input. Unreadable input is exit code 2,
// with a message naming the file.
func loadSnapshot(c *cli.Context) (*facts.Snapshot, error) {
	if c.String("snapshot") == "" && len(c.StringSlice("input")) == 0 {
		return gatherLive(c) // neither: gather this node (gather_cmd.go)
	}
	fsys, info, err := openInput(c)
	if err != nil {
		return nil, withCode(exitUsage, err)
	}
	s, err := gather.Build(fsys, info)
	if err != nil {
		return nil, withCode(exitUsage, err)
	}
	live.AnnotateFS(s, fsys) // a gather output explains what it could not collect
	return s, nil
}

// openInput opens what the flags name as one sos-shaped fs.
func openInput(c *cli.Context) (fs.FS, facts.SourceInfo, error) {
	snapshot, inputs := c.String("snapshot"), c.StringSlice("input")
	switch {
	case snapshot != "" && len(inputs) > 0:
		return nil, facts.SourceInfo{}, errors.New("give --snapshot or --input, not both")
	case snapshot != "":
		return source.Open(snapshot)
	case len(inputs) > 0:
		return source.Captures(inputs, c.App.Reader)
	}
	return nil, facts.SourceInfo{}, errNoInput
}
