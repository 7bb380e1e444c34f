package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
)

// Exit codes (README.md, docs/report.md).
const (
	exitOK       = 0
	exitFindings = 1
	exitUsage    = 2
	exitNoFacts  = 3
)

// exitError carries an exit code; main prints the message and exits with the code.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// withCode wraps err with an exit code.
func withCode(code int, err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: code, err: err}
}

// silentExit is returned when the command already printed everything and only the code matters.
type silentExit int

func (s silentExit) Error() string { return "" }

func exitCode(err error) int {
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	var s silentExit
	if errors.As(err, &s) {
		return int(s)
	}
	// urfave/cli usage errors (unknown flag, missing argument) and anything unclassified.
	return exitUsage
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:      "rdmadoctor",
		Usage:     "find out why RDMA (InfiniBand or RoCE) is broken or slow, and how to fix it",
		Version:   version,
		Reader:    stdin,
		Writer:    stdout,
		ErrWriter: stderr,
		// urfave/cli calls os.Exit for errors with exit codes unless the app handles them; main owns the code.
		ExitErrHandler:  func(*cli.Context, error) {},
		HideHelpCommand: true,
		// The hidden --generate-bash-completion the completion scripts call (completion.go).
		EnableBashCompletion: true,
		Commands: []*cli.Command{
			diagnoseCommand(),
			rulesCommand(),
			factsCommand(),
			gatherCommand(),
			fleetCommand(),
			versionCommand(),
			completionCommand(),
		},
		OnUsageError: usageError,
	}
	app.Commands = append(app.Commands, docsCommands...)
	setUsageError(app.Commands)
	return app
}

// usageError reports a flag mistake in one line on stderr, with where to read more, instead of
// urfave/cli's whole help on stdout, which would also corrupt a --format json report.
func usageError(c *cli.Context, err error, _ bool) error {
	words := []string{"--help"}
	if c != nil {
		for _, ctx := range c.Lineage() {
			if ctx.Command != nil && ctx.Command.Name != "" && ctx.Command.Name != c.App.Name &&
				(len(words) == 1 || words[0] != ctx.Command.Name) {
				words = append([]string{ctx.Command.Name}, words...)
			}
		}
	}
	return fmt.Errorf("%w (see `rdmadoctor %s`)", err, strings.Join(words, " "))
}

func setUsageError(cmds []*cli.Command) {
	for _, c := range cmds {
		c.OnUsageError = usageError
		setUsageError(c.Subcommands)
	}
}
