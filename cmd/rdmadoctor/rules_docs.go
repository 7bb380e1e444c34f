package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rdmadoctor/rdmadoctor/engine"
)

// rulesDocs is the hidden `rdmadoctor rules docs -o docs/rules` (run by go generate,
// rules/generate.go): it rewrites the rule reference from the built-in rules' metadata and
// removes pages of areas that no longer have rules.
func rulesDocs(c *cli.Context) error {
	set, err := engine.Load(engine.Builtin())
	if err != nil {
		return withCode(exitUsage, err)
	}
	return writeRuleDocs(c.String("o"), ruleDocs(set.Rules))
}

// writeRuleDocs replaces the Markdown files of dir with pages.
func writeRuleDocs(dir string, pages map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return err
	}
	for _, f := range old {
		if _, keep := pages[filepath.Base(f)]; !keep {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	var errs []error
	for name, b := range pages {
		errs = append(errs, os.WriteFile(filepath.Join(dir, name), b, 0o644))
	}
	return errors.Join(errs...)
}

// docsHeader marks the generated pages.
const docsHeader = "<!-- Generated from the rules' METADATA by `go generate ./...` (rdmadoctor rules docs); do not edit. -->\n\n"

// ruleDocs renders the rule reference: README.md (the index) and one page per area, each rule a
// section whose anchor is its id. Links to the rule sources are relative to docs/rules.
func ruleDocs(rules []*engine.Rule) map[string][]byte {
	byArea := map[string][]*engine.Rule{}
	areaOf := map[string]string{}
	for _, r := range rules {
		byArea[r.Area] = append(byArea[r.Area], r)
		areaOf[r.ID] = r.Area
	}
	pages := map[string][]byte{}
	var idx strings.Builder
	idx.WriteString(docsHeader)
	idx.WriteString("# Rule reference\n\n")
	fmt.Fprintf(&idx, "rdmadoctor has %d built-in rules. Each page below lists an area's rules with what they check, the\n", len(rules))
	idx.WriteString("facts they need, the fix and the references; `rdmadoctor rules show ID` prints the same in a terminal\n")
	idx.WriteString("and `rdmadoctor rules list --format json` the catalog for scripts. To add a site-specific rule, see\n")
	idx.WriteString("[writing-rules.md](../writing-rules.md).\n\n")
	idx.WriteString("| Area | Rules |\n|---|---|\n")
	for _, a := range engine.Areas {
		if len(byArea[a]) > 0 {
			fmt.Fprintf(&idx, "| [%s](%s.md) | %d |\n", a, a, len(byArea[a]))
		}
	}
	idx.WriteString("\n| ID | Severity | Confidence | Area | Title |\n|---|---|---|---|---|\n")
	for _, r := range rules {
		fmt.Fprintf(&idx, "| [`%s`](%s.md#%s) | %s | %s | %s | %s |\n", r.ID, r.Area, r.ID, r.Severity, r.Confidence, r.Area, mdCell(r.Title))
	}
	pages["README.md"] = []byte(idx.String())

	for area, rs := range byArea {
		var b strings.Builder
		b.WriteString(docsHeader)
		fmt.Fprintf(&b, "# %s rules\n\n", area)
		fmt.Fprintf(&b, "[All rules](README.md)\n\n")
		for _, r := range rs {
			fmt.Fprintf(&b, "- [`%s`](#%s): %s\n", r.ID, r.ID, r.Title)
		}
		for _, r := range rs {
			ruleSection(&b, r, areaOf)
		}
		pages[area+".md"] = []byte(b.String())
	}
	return pages
}

func ruleSection(b *strings.Builder, r *engine.Rule, areaOf map[string]string) {
	fmt.Fprintf(b, "\n## %s\n\n", r.ID)
	fmt.Fprintf(b, "**%s**\n\n", r.Title)
	fmt.Fprintf(b, "%s\n\n", r.Description)
	b.WriteString("| | |\n|---|---|\n")
	fmt.Fprintf(b, "| Severity | %s (confidence %s) |\n", r.Severity, r.Confidence)
	fmt.Fprintf(b, "| Facts it needs | %s |\n", requiresCell(r.Requires))
	if len(r.Explains) > 0 {
		links := make([]string, len(r.Explains))
		for i, id := range r.Explains {
			if a, ok := areaOf[id]; ok {
				links[i] = fmt.Sprintf("[`%s`](%s.md#%s)", id, a, id)
			} else {
				links[i] = "`" + id + "`"
			}
		}
		fmt.Fprintf(b, "| Explains | %s |\n", strings.Join(links, ", "))
	}
	fmt.Fprintf(b, "| Needs reboot | %s |\n", yesNo(r.NeedsReboot))
	src := strings.TrimPrefix(r.File, "rules/")
	test := strings.TrimSuffix(src, ".rego") + "_test.rego"
	fmt.Fprintf(b, "| Source | [%s](../../rules/%s), tests in [%s](../../rules/%s) |\n", r.File, src, filepath.Base(test), test)
	b.WriteString("\nFix:\n\n```sh\n")
	for _, f := range r.Fix {
		if note := joinNonEmpty("; ", f.Note, f.Condition()); note != "" {
			fmt.Fprintf(b, "%s\n", indent(wrap(note, 98), "# "))
		}
		fmt.Fprintf(b, "%s\n", f.Command)
	}
	b.WriteString("```\n")
	if len(r.References) > 0 {
		b.WriteString("\nReferences:\n\n")
		for _, ref := range r.References {
			fmt.Fprintf(b, "- <%s>\n", ref)
		}
	}
}

// requiresCell names each fact group with the inputs that provide it.
// requiresCell describes the rule's evidence alternatives: the groups of each with their
// inputs, and, when there are several, the confidence each supports.
func requiresCell(alts []engine.Alternative) string {
	if len(alts) == 1 {
		return mdCell(groupsCell(alts[0].Facts))
	}
	parts := make([]string, len(alts))
	for i, alt := range alts {
		parts[i] = fmt.Sprintf("(%c) %s, confidence %s", 'a'+i, groupsCell(alt.Facts), alt.Confidence)
	}
	return mdCell("any one of: " + strings.Join(parts, "; or "))
}

// groupsCell names fact groups with what they are and the inputs that feed them.
func groupsCell(groups []string) string {
	if len(groups) == 0 {
		return "nothing (always evaluated; the rule checks what is there)"
	}
	parts := make([]string, len(groups))
	for i, g := range groups {
		what, _ := engine.GroupHint(g)
		inputs := engine.GroupInputs(g)
		sort.Strings(inputs)
		parts[i] = fmt.Sprintf("`%s` (%s: %s)", g, what, strings.Join(inputs, ", "))
	}
	return strings.Join(parts, "; ")
}

// mdCell keeps a table cell in one piece.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
