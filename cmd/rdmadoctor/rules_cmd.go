package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/urfave/cli/v2"

	"github.com/rdmadoctor/rdmadoctor/engine"
	"github.com/rdmadoctor/rdmadoctor/facts"
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
				Usage: "list the rules",
				Flags: []cli.Flag{rulesFlag, formatFlag,
					&cli.StringFlag{Name: "severity", Usage: "only rules of `SEVERITY`"},
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

func rulesList(c *cli.Context) error {
	if err := checkFormat(c); err != nil {
		return err
	}
	sev, area := c.String("severity"), c.String("area")
	if sev != "" && !engine.ValidSeverity(sev) {
		return withCode(exitUsage, fmt.Errorf("--severity %q: want one of %s", sev, strings.Join(engine.Severities, ", ")))
	}
	if area != "" && !contains(engine.Areas, area) {
		return withCode(exitUsage, fmt.Errorf("--area %q: want one of %s", area, strings.Join(engine.Areas, ", ")))
	}
	set, err := loadRules(c)
	if err != nil {
		return err
	}
	rules := []*engine.Rule{}
	for _, r := range set.Rules {
		if (sev == "" || r.Severity == sev) && (area == "" || r.Area == area) {
			rules = append(rules, r)
		}
	}
	if c.String("format") == "json" {
		return writeJSON(c.App.Writer, rules)
	}
	t := table.NewWriter()
	t.SetStyle(table.StyleLight)
	t.Style().Options = table.Options{SeparateHeader: true}
	t.SuppressTrailingSpaces()
	t.AppendHeader(table.Row{"id", "severity", "confidence", "area", "requires", "title"})
	for _, r := range rules {
		t.AppendRow(table.Row{r.ID, r.Severity, r.Confidence, r.Area, strings.Join(r.Requires, ", "), r.Title})
	}
	_, err = fmt.Fprintf(c.App.Writer, "%s\n%d rules\n", t.Render(), len(rules))
	return err
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
		return writeJSON(c.App.Writer, r)
	}
	w := c.App.Writer
	fmt.Fprintf(w, "%s: %s\n\n", r.ID, r.Title)
	fmt.Fprintf(w, "  severity      %s (confidence %s)\n", r.Severity, r.Confidence)
	fmt.Fprintf(w, "  area          %s\n", r.Area)
	fmt.Fprintf(w, "  requires      %s\n", requiresText(r.Requires))
	if len(r.Explains) > 0 {
		fmt.Fprintf(w, "  explains      %s\n", strings.Join(r.Explains, ", "))
	}
	fmt.Fprintf(w, "  needs reboot  %s\n", yesNo(r.NeedsReboot))
	fmt.Fprintf(w, "  file          %s\n\n", r.File)
	fmt.Fprintf(w, "%s\n\nFix:\n", wrap(r.Description, 96))
	for _, f := range r.Fix {
		fmt.Fprintf(w, "  $ %s\n", f.Command)
		if f.Note != "" {
			fmt.Fprintf(w, "      %s\n", f.Note)
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

// requiresText names each fact group with the inputs that provide it.
func requiresText(groups []string) string {
	if len(groups) == 0 {
		return "nothing (always evaluated)"
	}
	parts := make([]string, len(groups))
	for i, g := range groups {
		parts[i] = g + " (" + strings.Join(facts.FactGroups[g], ", ") + ")"
	}
	return strings.Join(parts, "; ")
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

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
