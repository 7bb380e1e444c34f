package main

import "github.com/urfave/cli/v2"

// docsCommands are hidden commands that exist only in a build with urfave/cli's documentation
// code (without the urfave_cli_no_docs tag the Makefile builds the binary with): `rdmadoctor
// man` (man_gen.go), which go generate runs to write docs/man/rdmadoctor.1.
var docsCommands []*cli.Command
