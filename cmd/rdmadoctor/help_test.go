package main

import (
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestEveryCommandHasExamples: the --help of the app and of every command, subcommands
// included, ends with examples that name the command itself (add them to commandExamples in
// help.go).
func TestEveryCommandHasExamples(t *testing.T) {
	app := newApp(nil, nil, nil)
	n := 0
	var walk func(parent []string, cmds []*cli.Command)
	walk = func(parent []string, cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Hidden || c.Name == "help" {
				continue
			}
			path := append(append([]string{}, parent...), c.Name)
			code, stdout, stderr := runCLI(t, append(path, "--help")...)
			if code != 0 {
				t.Errorf("%s --help: exit %d: %s", strings.Join(path, " "), code, stderr)
			}
			i := strings.Index(stdout, "Examples:\n")
			if i < 0 || !strings.Contains(stdout[i:], "rdmadoctor "+strings.Join(path, " ")) {
				t.Errorf("rdmadoctor %s --help has no examples of itself (commandExamples in help.go):\n%s", strings.Join(path, " "), stdout)
			}
			n++
			walk(path, c.Subcommands)
		}
	}
	walk(nil, app.Commands)
	if n < 7 {
		t.Errorf("checked %d commands, want diagnose, gather, facts, rules and its subcommands", n)
	}
	if _, stdout, _ := runCLI(t, "--help"); !strings.Contains(stdout, "Examples:\n     rdmadoctor diagnose ") {
		t.Errorf("rdmadoctor --help has no examples:\n%s", stdout)
	}
}

// TestClosestCommand: a typo a few edits away is suggested, a word far from every command is not.
func TestClosestCommand(t *testing.T) {
	cmds := newApp(nil, nil, nil).Commands
	for word, want := range map[string]string{"diagnos": "diagnose", "daignose": "diagnose", "gahter": "gather", "fact": "facts", "rule": "rules", "frobnicate": "", "x": ""} {
		if got := closestCommand(cmds, word); got != want {
			t.Errorf("closestCommand(%q) = %q, want %q", word, got, want)
		}
	}
}
