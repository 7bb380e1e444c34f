package main

import (
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/gather"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
	"github.com/urfave/cli/v2"
)

// inputFlags are shared by facts and diagnose.
func inputFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "snapshot", Usage: "read a sosreport, gather output or folder of captures (`PATH`: dir, .tar, .tar.gz, .tar.xz)"},
		&cli.StringSliceFlag{Name: "input", Usage: "read one captured output (`FILE`, or - for stdin); repeatable"},
	}
}

// loadSnapshot builds the snapshot from --snapshot or --input. Unreadable input is exit code 2.
func loadSnapshot(c *cli.Context) (*facts.Snapshot, error) {
	fsys, info, err := source.Open(c.String("snapshot"))
	if err != nil {
		return nil, withCode(exitUsage, err)
	}
	s, err := gather.Build(fsys, info)
	if err != nil {
		return nil, withCode(exitUsage, err)
	}
	return s, nil
}
