package build

import (
	"slices"
	"strings"
	"sync"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// HowToGet says how to get fact group g, from the specs that feed it (facts.FactGroups, in
// priority order): the first live command among them with its packages, the node files they
// copy, and, when no live command feeds g, the MissingHint of the others. E.g. for "nvconfig": "run `mstconfig -d
// <pci> -e q` (mstflint) or `mlxconfig -d <pci> -e q` (NVIDIA MFT)". "" for an unknown group.
func HowToGet(g string) string { return howToGet(g, true) }

// HowToRun is HowToGet without the files to copy, for a live run, which reads the node's
// files itself: the commands that feed g, or the hints of the inputs only captures provide;
// "" when only copied files feed g.
func HowToRun(g string) string { return howToGet(g, false) }

// specsByName indexes the registered specs by name, for howToGet: the engine asks it for every
// fact group when it is initialised.
var specsByName = sync.OnceValue(func() map[string]*Spec {
	specs := sorted()
	m := make(map[string]*Spec, len(specs))
	for i := range specs {
		m[specs[i].Name] = &specs[i]
	}
	return m
})

func howToGet(g string, copying bool) string {
	byName := specsByName()
	var run string
	var copies, hints []string
	for _, name := range facts.FactGroups[g] {
		sp := byName[name]
		if sp == nil {
			sp = &Spec{}
		}
		switch {
		case len(sp.Live) > 0:
			if run == "" {
				run = "run " + sp.runHint(sp.Live[0])
			}
		case sp.copied() != "":
		case sp.MissingHint != "" && !slices.Contains(hints, sp.MissingHint):
			hints = append(hints, sp.MissingHint)
		}
		if c := sp.copied(); c != "" {
			copies = append(copies, "/"+c)
		}
	}
	var parts []string
	if run != "" {
		parts = append(parts, run)
	}
	if copying && len(copies) > 0 {
		parts = append(parts, "copy "+strings.Join(copies, " or "))
	}
	if run == "" {
		// Only captures provide these: worth saying when the live gather cannot help.
		parts = append(parts, hints...)
	}
	return strings.Join(parts, ", or ")
}

// runHint renders a live command's alternatives with the packages of their tools:
// "`flint -d <pci> q` (NVIDIA MFT) or `mstflint -d <pci> q` (mstflint)".
func (sp Spec) runHint(lc LiveCommand) string {
	alts := make([]string, len(lc.Alts))
	for i, a := range lc.Alts {
		alts[i] = "`" + Template(a) + "`"
		if lc.AsRoot {
			alts[i] += " as root"
		}
		if p := sp.packageOf(a[0]); p != "" {
			alts[i] += " (" + p + ")"
		}
	}
	s := strings.Join(alts, " or ")
	if lc.Per == PerActiveIBPort {
		s += " on a node with an ACTIVE InfiniBand port"
	}
	return s
}

// packageOf is the package of the spec's tool name.
func (sp Spec) packageOf(name string) string {
	for _, t := range sp.Tools {
		if t.Name == name {
			return t.Package
		}
	}
	return ""
}

// copied is the node path the spec reads as a copied file or tree ("proc/interrupts"), "" when
// it reads command output only (or the second read of --sample, which is no node path).
func (sp Spec) copied() string {
	switch {
	case sp.Root != "" && sp.Root != SampleRoot:
		return sp.Root
	case len(sp.Paths) > 0:
		return sp.Paths[0]
	}
	return ""
}
