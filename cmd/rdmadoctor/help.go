package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
)

// commandExamples are the examples each command's --help ends with, by the command's full name
// ("rules show"): a command without them (here or in its own Description, as completion has)
// fails TestEveryCommandHasExamples.
var commandExamples = map[string][]string{
	"": {
		"rdmadoctor diagnose                              # this node, live and read-only",
		"rdmadoctor diagnose --snapshot sosreport.tar.xz  # a sosreport, a gather output, a folder",
		"rdmadoctor gather -o node01.tar.gz --redact      # a snapshot to send to someone else",
		"rdmadoctor rules show ib-port-no-subnet-manager",
	},
	"diagnose": {
		"rdmadoctor diagnose                                   # gather this node (read-only) and diagnose",
		"rdmadoctor diagnose --snapshot sosreport-node01.tar.xz",
		"rdmadoctor diagnose --input ibstat.txt --input lspci.txt",
		"ibstat | rdmadoctor diagnose --input -",
		"rdmadoctor diagnose --format json --fail-on warning   # for scripts and health checks",
		"rdmadoctor diagnose --min-severity error -v           # errors only; list what was not checked",
		"COLUMNS=100 rdmadoctor diagnose --snapshot node01/ | less -R",
	},
	"gather": {
		"rdmadoctor gather -o node01.tar.gz",
		"rdmadoctor gather -o node01/ --sample 10s      # also counter rates over 10 seconds",
		"rdmadoctor gather -o node01.tar.gz --redact    # host names, addresses, GUIDs, serials replaced",
	},
	"facts": {
		"rdmadoctor facts --snapshot sosreport-node01.tar.xz",
		"rdmadoctor facts --input ibstat.txt --format yaml",
		"rdmadoctor facts | jq '.devices[].ports[] | {state, physical_state}'",
	},
	"fleet": {
		"rdmadoctor fleet sosreports/                        # one snapshot per node in the folder",
		"rdmadoctor fleet node01.tar.gz node02.tar.gz node03/",
		"rdmadoctor fleet --format markdown -o fleet.md sosreports/",
		"rdmadoctor fleet --format json --fail-on warning sosreports/ > fleet.json",
	},
	"version": {
		"rdmadoctor version",
		"rdmadoctor --version",
	},
	"rules": {
		"rdmadoctor rules list --severity critical",
		"rdmadoctor rules show link-type-mismatch-with-fabric",
		"rdmadoctor rules test site-rules/",
	},
	"rules list": {
		"rdmadoctor rules list",
		"rdmadoctor rules list --area link --severity error",
		"rdmadoctor rules list --format json | jq -r '.[].id'",
	},
	"rules show": {
		"rdmadoctor rules show ib-port-no-subnet-manager",
		"rdmadoctor rules show --rules site-rules/ site-ipoib-mtu-4092 --format json",
	},
	"rules test": {
		"rdmadoctor rules test site-rules/",
		"rdmadoctor rules test docs/examples/site-rules",
	},
	"rules docs": {
		"rdmadoctor rules docs -o docs/rules",
	},
}

// polish adds to the app what every command should have: examples in --help, a suggestion for a
// mistyped command (an action on the app and on each command with subcommands), and a
// description with examples for the app itself.
func polish(app *cli.App) {
	app.Suggest = true
	if app.Action == nil {
		app.Action = unknownCommand
	}
	app.Description = withExamples(app.Description, commandExamples[""])
	var walk func([]*cli.Command)
	walk = func(cmds []*cli.Command) {
		for _, c := range cmds {
			if len(c.Subcommands) > 0 && c.Action == nil {
				c.Action = unknownCommand
			}
			walk(c.Subcommands)
		}
	}
	walk(app.Commands)
	addExamples("", app.Commands)
}

// addExamples appends each command's examples (commandExamples) to its description, which
// --help prints, for cmds and their subcommands; parent is the full name of their parent.
func addExamples(parent string, cmds []*cli.Command) {
	for _, c := range cmds {
		name := strings.TrimSpace(parent + " " + c.Name)
		c.Description = withExamples(c.Description, commandExamples[name])
		addExamples(name, c.Subcommands)
	}
}

// withExamples is desc followed by an "Examples:" block of the lines, indented.
func withExamples(desc string, lines []string) string {
	if len(lines) == 0 {
		return desc
	}
	var b strings.Builder
	if desc != "" {
		b.WriteString(strings.TrimRight(desc, "\n") + "\n\n")
	}
	b.WriteString("Examples:")
	for _, l := range lines {
		b.WriteString("\n  " + l)
	}
	return b.String()
}

// unknownCommand is the action of the app and of commands with subcommands: a word that is no
// command is a usage error (exit 2) naming the closest command (urfave/cli's SuggestCommand,
// Jaro-Winkler), in one line, not the whole help; no word prints the help.
func unknownCommand(c *cli.Context) error {
	sub := c.Command != nil && c.Command.Name != "" && c.Command.Name != c.App.Name && len(c.Command.Subcommands) > 0
	if c.NArg() == 0 {
		if !sub {
			return cli.ShowAppHelp(c)
		}
		return cli.ShowSubcommandHelp(c)
	}
	cmds, where := c.App.Commands, "rdmadoctor"
	if sub {
		cmds, where = c.Command.Subcommands, "rdmadoctor "+c.Command.Name
	}
	word := c.Args().First()
	msg := fmt.Sprintf("unknown command %q", word)
	if best := closestCommand(cmds, word); best != "" {
		msg += fmt.Sprintf(": did you mean `%s %s`?", where, best)
	}
	return withCode(exitUsage, fmt.Errorf("%s (see `%s --help`)", msg, where))
}

// closestCommand is the visible command of cmds nearest to word, as urfave/cli suggests it,
// when it is a plausible typo (a few edits away: "diagnos", "gahter", "lsit"); "" otherwise,
// or when built without suggestions (urfave/cli names its best match however far it is).
func closestCommand(cmds []*cli.Command, word string) string {
	var visible []*cli.Command
	for _, c := range cmds {
		if !c.Hidden && c.Name != "help" {
			visible = append(visible, c)
		}
	}
	if cli.SuggestCommand == nil {
		return ""
	}
	s := cli.SuggestCommand(visible, word) // "Did you mean \"diagnose\"?"
	for _, c := range visible {
		for _, n := range c.Names() {
			if strings.Contains(s, `"`+n+`"`) && edits(n, word) <= max(2, len(n)/3) {
				return n
			}
		}
	}
	return ""
}

// edits is the Levenshtein distance of a and b, in bytes, with a swap of two neighbours
// counted as one edit (optimal string alignment): "gahter" is one edit from "gather".
func edits(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

var (
	// badValue is Go's flag package's message for a value its flag cannot parse; it says
	// "parse error" and drops the parser's reason.
	badValue = regexp.MustCompile(`^invalid value "(.*)" for flag -([^:]+): parse error$`)
	// undefinedFlag is its message for a flag the command does not have.
	undefinedFlag = regexp.MustCompile(`^flag provided but not defined: -+(.+)$`)
)

// explainFlagError rewords the flag package's errors in the words of the flags: a duration
// without a unit says "--sample 10: missing unit, e.g. 10s", an unknown flag names the
// closest one the command has ("did you mean --format?").
func explainFlagError(c *cli.Context, err error) error {
	var flags []cli.Flag
	if c != nil && c.Command != nil {
		flags = c.Command.Flags
	}
	if c != nil && (c.Command == nil || c.Command.Name == "" || c.Command.Name == c.App.Name) {
		flags = c.App.Flags
	}
	if m := badValue.FindStringSubmatch(err.Error()); m != nil {
		value, name := m[1], m[2]
		for _, f := range flags {
			if _, ok := f.(*cli.DurationFlag); ok && slices.Contains(f.Names(), name) {
				if _, perr := time.ParseDuration(value); perr != nil && strings.Contains(perr.Error(), "missing unit") {
					return fmt.Errorf("--%s %s: missing unit, e.g. %ss", name, value, value)
				}
				return fmt.Errorf("--%s %s: not a duration, e.g. 10s, 500ms or 1m30s", name, value)
			}
		}
		return fmt.Errorf("--%s %s: not a valid value", name, value)
	}
	if m := undefinedFlag.FindStringSubmatch(err.Error()); m != nil && cli.SuggestFlag != nil {
		if s := cli.SuggestFlag(flags, m[1], true); s != "" && edits(strings.TrimLeft(s, "-"), m[1]) <= max(2, len(m[1])/3) {
			return fmt.Errorf("unknown flag --%s: did you mean %s?", m[1], s)
		}
		return fmt.Errorf("unknown flag --%s", m[1])
	}
	return err
}
