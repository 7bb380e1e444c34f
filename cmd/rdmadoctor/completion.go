package main

import (
	_ "embed"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"
)

// The bash and zsh scripts ask the program for its words (urfave/cli's hidden
// --generate-bash-completion, on with App.EnableBashCompletion), after the scripts urfave/cli
// ships in autocomplete/, made installable under the program's own name.
var (
	//go:embed completion/rdmadoctor.bash
	bashCompletion string
	//go:embed completion/rdmadoctor.zsh
	zshCompletion string
)

// completionShells are the shells `rdmadoctor completion` writes a script for.
var completionShells = []string{"bash", "zsh", "fish"}

func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print the shell completion script for bash, zsh or fish",
		UsageText: "rdmadoctor completion bash|zsh|fish",
		Description: "Examples:\n" +
			"  source <(rdmadoctor completion bash)      # this shell; or install it as\n" +
			"                                            # /usr/share/bash-completion/completions/rdmadoctor\n" +
			"  rdmadoctor completion zsh > \"${fpath[1]}/_rdmadoctor\"\n" +
			"  rdmadoctor completion fish > ~/.config/fish/completions/rdmadoctor.fish\n" +
			"The package installs all three.",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return withCode(exitUsage, fmt.Errorf("completion: name one shell: bash, zsh or fish"))
			}
			return writeCompletion(c.App, c.Args().First(), c.App.Writer)
		},
		BashComplete: func(c *cli.Context) {
			for _, s := range completionShells {
				fmt.Fprintln(c.App.Writer, s)
			}
		},
	}
}

// writeCompletion writes the completion script of shell for app.
func writeCompletion(app *cli.App, shell string, w io.Writer) error {
	var script string
	switch shell {
	case "bash":
		script = bashCompletion
	case "zsh":
		script = zshCompletion
	case "fish":
		// Generated from the commands and flags (it does not call the program back).
		s, err := app.ToFishCompletion()
		if err != nil {
			return fmt.Errorf("fish completion: %w", err)
		}
		script = s
	default:
		return withCode(exitUsage, fmt.Errorf("completion %q: want bash, zsh or fish", shell))
	}
	_, err := io.WriteString(w, script)
	return err
}
