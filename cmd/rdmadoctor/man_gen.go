//go:build !urfave_cli_no_docs

package main

// docs/man/rdmadoctor.1, the man page, from the commands, their flags and help texts;
// TestManPage fails while it is stale. The Makefile's binary is built with urfave_cli_no_docs
// and has no `man` command; go run builds without the tag.

//go:generate go run . man -o ../../docs/man/rdmadoctor.1

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"
)

func init() {
	docsCommands = append(docsCommands, &cli.Command{
		Name:   "man",
		Usage:  "write the man page (roff, section 1) generated from the commands",
		Hidden: true,
		Flags:  []cli.Flag{&cli.StringFlag{Name: "o", Usage: "write to `FILE` instead of stdout"}},
		Action: func(c *cli.Context) error {
			page, err := manPage(newApp(nil, io.Discard, io.Discard))
			if err != nil {
				return err
			}
			if path := c.String("o"); path != "" {
				return os.WriteFile(path, []byte(page), 0o644)
			}
			_, err = fmt.Fprint(c.App.Writer, page)
			return err
		},
	})
}

// manDescription is the page's DESCRIPTION: what --help says in several places, in one.
const manDescription = `rdmadoctor reads what a node says about its RDMA hardware and stack (sysfs,
/proc, ibstat, ibv_devinfo, ethtool, lspci, mlxlink, dmesg, ...), live or from a sosreport or
a gathered snapshot, and runs its rules on it: each diagnosis names the evidence (file and
line) and the commands that fix it. Inputs it could not read are reported, never taken as
healthy.

Exit status of diagnose: 0 no diagnosis at or above --fail-on, 1 at least one (or, with
--fail-on-incomplete, an input not fully read), 2 usage error or unreadable input, 3 nothing
about RDMA could be evaluated.

Documentation: README.md and docs/ of the source (module github.com/rdmadoctor/rdmadoctor).`

// manPage renders app as a section 1 man page (urfave/cli's ToMan, through go-md2man). ToMan
// leaves out a command's Description (its examples and exit codes); it is appended to the
// command's UsageText, which the page shows as a block.
func manPage(app *cli.App) (string, error) {
	app.Setup() // adds --help and --version, as a run does
	app.Description = manDescription
	withDescriptions(app.Commands)
	page, err := app.ToManWithSection(1)
	if err != nil {
		return "", fmt.Errorf("man page: %w", err)
	}
	return page, nil
}

func withDescriptions(cmds []*cli.Command) {
	for _, c := range cmds {
		if c.Description != "" {
			c.UsageText = strings.TrimSpace(c.UsageText + "\n\n" + c.Description)
		}
		withDescriptions(c.Subcommands)
	}
}
