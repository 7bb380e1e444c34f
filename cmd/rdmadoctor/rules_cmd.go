package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"
	"github.com/urfave/cli/v2"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/report"
	"github.com/rdmadoctor/rdmadoctor/report/render"
)

func rulesCommand() *cli.Command {
	rulesFlag := &cli.StringSliceFlag{Name: "rules", Usage: "also load the rules in `DIR`; repeatable"}
	formatFlag := &cli.StringFlag{Name: "format", Value: "table", Usage: "output `FORMAT`: table or json"}
	return &cli.Command{
		Name:  "rules",
		Usage: "the knowledge base: what rdmadoctor checks, from the rules' metadata",
		Subcommands: []*cli.Command{
			{
				Name:  "list",
				Usage: "list the rules (--format json prints the catalog for scripts)",
				Flags: []cli.Flag{rulesFlag, formatFlag,
					&cli.StringFlag{Name: "severity", Usage: "only rules of `SEVERITY` (" + strings.Join(report.Severities, ", ") + ")"},
					&cli.StringFlag{Name: "area", Usage: "only rules of `AREA` (" + strings.Join(engine.Areas, ", ") + ")"},
				},
				Action: rulesList,
			},
			{
				Name:      "show",
				Usage:     "show one rule: what it detects, what it needs, how to fix it",
				ArgsUsage: "[--format json] ID",
				Flags:     []cli.Flag{rulesFlag, formatFlag},
				Action:    rulesShow,
			},
			{
				Name:      "test",
				Usage:     "validate a rule folder like the built-in rules and run its *_test.rego",
				ArgsUsage: "DIR",
				Description: "DIR has the layout of rules/ (<area>/<id>.rego with <id>_test.rego beside it); the\n" +
					"built-in rules/lib helpers can be imported. Exit codes: 0 all tests pass, 1 a test\n" +
					"fails or there is none, 2 a rule or test file is malformed (the message names file:line).",
				Action: rulesTest,
			},
			{
				Name:      "docs",
				Usage:     "write the rule reference (docs/rules) from the rules' metadata",
				Hidden:    true,
				Flags:     []cli.Flag{&cli.StringFlag{Name: "o", Value: "docs/rules", Usage: "output `DIR`"}},
				ArgsUsage: "-o DIR",
				Action:    rulesDocs,
			},
		},
	}
}

func loadRules(c *cli.Context) (*engine.Set, error) {
	sources, err := ruleSources(c.StringSlice("rules"))
	if err != nil {
		return nil, withCode(exitUsage, err)
	}
	set, err := engine.Load(sources...)
	if err != nil {
		return nil, withCode(exitUsage, err)
	}
	return set, nil
}

func checkFormat(c *cli.Context) error {
	if f := c.String("format"); f != "table" && f != "json" {
		return withCode(exitUsage, fmt.Errorf("--format %q: want table or json", f))
	}
	return nil
}

// catalogEntry is one rule as `rules list --format json` and `rules show --format json` print
// it: the metadata, lists never null.
type catalogEntry struct {
	ID          string               `json:"id"`
	Title       string               `json:"title"`
	Severity    string               `json:"severity"`
	Confidence  string               `json:"confidence"`
	Area        string               `json:"area"`
	Requires    []engine.Alternative `json:"requires"`
	Explains    []string             `json:"explains"`
	Fix         []engine.FixStep     `json:"fix"`
	References  []string             `json:"references"`
	NeedsReboot bool                 `json:"needs_reboot"`
	Description string               `json:"description"`
	File        string               `json:"file"`
}

func catalog(r *engine.Rule) catalogEntry {
	orEmpty := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	fix := r.Fix
	if fix == nil {
		fix = []engine.FixStep{}
	}
	return catalogEntry{ID: r.ID, Title: r.Title, Severity: r.Severity, Confidence: r.Confidence, Area: r.Area,
		Requires: r.Requires, Explains: orEmpty(r.Explains), Fix: fix, References: orEmpty(r.References),
		NeedsReboot: r.NeedsReboot, Description: r.Description, File: r.File}
}

func rulesList(c *cli.Context) error {
	if err := checkFormat(c); err != nil {
		return err
	}
	sev, area := c.String("severity"), c.String("area")
	if sev != "" && !report.ValidSeverity(sev) {
		return withCode(exitUsage, fmt.Errorf("--severity %q: want one of %s", sev, strings.Join(report.Severities, ", ")))
	}
	if area != "" && !contains(engine.Areas, area) {
		return withCode(exitUsage, fmt.Errorf("--area %q: want one of %s", area, strings.Join(engine.Areas, ", ")))
	}
	set, err := loadRules(c)
	if err != nil {
		return err
	}
	rules := []catalogEntry{}
	for _, r := range set.Rules {
		if (sev == "" || r.Severity == sev) && (area == "" || r.Area == area) {
			rules = append(rules, catalog(r))
		}
	}
	if c.String("format") == "json" {
		return writeJSON(c.App.Writer, rules)
	}
	_, err = fmt.Fprintf(c.App.Writer, "%s\n%d rules\n", rulesTable(rules, render.Width(c.App.Writer)), len(rules))
	return err
}

// keepIndent is a go-pretty width enforcer for cells folded before: a line that fits is kept
// as it is, leading blanks too (text.WrapText drops them), a longer one is broken at the width.
func keepIndent(s string, width int) string {
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		if text.StringWidthWithoutEscSequences(l) > width {
			ls[i] = text.WrapHard(l, width)
		}
	}
	return strings.Join(ls, "\n")
}

// minRuleTitle is the narrowest title column of `rules list`: narrower, and the title and
// requirements go under the id.
const minRuleTitle = 30

// rulesTable lays the rules out in width columns: id, severity, confidence, area, and the title
// with the fact groups the rule requires under it; on a terminal that leaves the title less
// than minRuleTitle columns, the title and requirements go under the id, in the first column.
// Every cell is folded to its column at blanks (a word longer than it is broken), never cut.
func rulesTable(rules []catalogEntry, width int) string {
	idw, sevw, confw, areaw := len("id"), len("severity"), len("confidence"), len("area")
	for _, r := range rules {
		idw, sevw = max(idw, len(r.ID)), max(sevw, len(r.Severity))
		confw, areaw = max(confw, len(r.Confidence)), max(areaw, len(r.Area))
	}
	const pad = 2 // StyleLight's blank either side of a cell
	fixed := sevw + confw + areaw + 3*pad
	title := width - fixed - idw - 2*pad
	stacked := title < minRuleTitle
	if stacked {
		idw, title = max(len("id"), width-fixed-pad), 0
	}
	t := table.NewWriter()
	t.SetStyle(table.StyleLight)
	t.Style().Options = table.Options{SeparateHeader: true}
	t.Style().Size.WidthMax = width
	t.SuppressTrailingSpaces()
	column := func(n, w int) table.ColumnConfig {
		return table.ColumnConfig{Number: n, WidthMax: w, WidthMaxEnforcer: keepIndent}
	}
	about := func(r catalogEntry, w int) string { // the title, then the requirements hanging under it
		req := requiresText(r.Requires)
		if req == "" {
			return wrap(r.Title, w)
		}
		return wrap(r.Title, w) + "\n" + strings.ReplaceAll(wrap("requires: "+req, w-2), "\n", "\n  ")
	}
	if stacked {
		t.SetColumnConfigs([]table.ColumnConfig{column(1, idw)})
		t.AppendHeader(table.Row{"id / title, requires", "severity", "confidence", "area"})
		for i, r := range rules {
			if i > 0 {
				t.AppendRow(table.Row{"", "", "", ""})
			}
			t.AppendRow(table.Row{r.ID + "\n" + indent(about(r, idw-2), "  "), r.Severity, r.Confidence, r.Area})
		}
		return t.Render()
	}
	t.SetColumnConfigs([]table.ColumnConfig{column(1, idw), column(5, title)})
	t.AppendHeader(table.Row{"id", "severity", "confidence", "area", "title, requires"})
	for _, r := range rules {
		t.AppendRow(table.Row{r.ID, r.Severity, r.Confidence, r.Area, about(r, title)})
	}
	return t.Render()
}

func rulesShow(c *cli.Context) error {
	if err := checkFormat(c); err != nil {
		return err
	}
	if c.NArg() > 1 && strings.HasPrefix(c.Args().Get(1), "-") {
		return withCode(exitUsage, fmt.Errorf("rules show: flags go before the ID: rdmadoctor rules show %s %s",
			strings.Join(c.Args().Tail(), " "), c.Args().First()))
	}
	if c.NArg() != 1 {
		return withCode(exitUsage, fmt.Errorf("rules show: give one rule ID (see rdmadoctor rules list)"))
	}
	set, err := loadRules(c)
	if err != nil {
		return err
	}
	id := c.Args().First()
	r := set.Rule(id)
	if r == nil {
		return withCode(exitUsage, fmt.Errorf("rules show: no rule %q (see rdmadoctor rules list)", id))
	}
	if c.String("format") == "json" {
		return writeJSON(c.App.Writer, catalog(r))
	}
	w := c.App.Writer
	fmt.Fprintf(w, "%s: %s\n\n", r.ID, r.Title)
	fmt.Fprintf(w, "  severity      %s (confidence %s)\n", r.Severity, r.Confidence)
	fmt.Fprintf(w, "  area          %s\n", r.Area)
	if len(r.Explains) > 0 {
		fmt.Fprintf(w, "  explains      %s\n", strings.Join(r.Explains, ", "))
	}
	fmt.Fprintf(w, "  needs reboot  %s\n", yesNo(r.NeedsReboot))
	fmt.Fprintf(w, "  file          %s\n\n", r.File)
	fmt.Fprintf(w, "What it checks:\n%s\n", indent(wrap(r.Description, 94), "  "))
	fmt.Fprintf(w, "\nFacts it needs:\n")
	if len(r.Requires) > 1 {
		fmt.Fprintf(w, "  any one of these sets (each with the confidence it supports):\n")
	}
	for i, alt := range r.Requires {
		if len(r.Requires) > 1 {
			fmt.Fprintf(w, "  (%c) %s, confidence %s\n", 'a'+i, alt, alt.Confidence)
		}
		if len(alt.Facts) == 0 {
			fmt.Fprintf(w, "  nothing (always evaluated)\n")
		}
		for _, g := range alt.Facts {
			what, how := engine.GroupHint(g)
			fmt.Fprintf(w, "  %-14s %s, from %s\n", g, what, strings.Join(engine.GroupInputs(g), ", "))
			fmt.Fprintf(w, "  %-14s if missing: %s\n", "", how)
		}
	}
	fmt.Fprintf(w, "\nFix:\n")
	for _, f := range r.Fix {
		fmt.Fprintf(w, "  $ %s\n", f.Command)
		if note := joinNonEmpty("; ", f.Note, f.Condition()); note != "" {
			fmt.Fprintf(w, "%s\n", indent(wrap(note, 88), "      "))
		}
	}
	if len(r.References) > 0 {
		fmt.Fprintf(w, "\nReferences:\n")
		for _, ref := range r.References {
			fmt.Fprintf(w, "  %s\n", ref)
		}
	}
	return nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// wrap folds text at width columns on spaces.
func wrap(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(s) {
		if i > 0 && n+1+len(w) > width {
			b.WriteString("\n")
			n = 0
		} else if i > 0 {
			b.WriteString(" ")
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}

// indent prefixes every line of s.
func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// requiresText is the requires column of `rules list`: the groups, or the alternatives with
// their confidence ("a | b (medium)").
func requiresText(alts []engine.Alternative) string {
	if len(alts) == 1 {
		return strings.Join(alts[0].Facts, ", ")
	}
	parts := make([]string, len(alts))
	for i, alt := range alts {
		parts[i] = fmt.Sprintf("%s (%s)", alt, alt.Confidence)
	}
	return strings.Join(parts, " | ")
}

// joinNonEmpty joins the parts that are not empty with sep.
func joinNonEmpty(sep string, parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, sep)
}
