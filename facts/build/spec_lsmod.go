package build

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

func init() {
	register(Spec{
		Name:        "lsmod",
		Plugin:      "kernel",
		Commands:    []string{"lsmod"},
		Sniff:       func(head []byte) bool { return hasLinePrefix(head, "Module                  Size  Used by") },
		Apply:       applyLsmod,
		MissingHint: "run lsmod",
		Groups:      []string{"lsmod"},
		Live:        []LiveCommand{{Alts: [][]string{{"lsmod"}}}},
		Tools:       []Tool{{Name: "lsmod", Package: "kmod", Allow: []Grammar{{}}}},
	})
}

// applyLsmod sets Host.Modules. A filtered capture ("lsmod | grep mlx", saved as lsmod_grep_mlx)
// sets ModulesFilter so that rules know a module absent from the list may still be loaded; a
// full lsmod replaces filtered ones, and filtered ones are combined.
func applyLsmod(s *facts.Snapshot, in Input) error {
	if r := parse.LsmodRefusal(in.Data); r != "" {
		return Refused(r) // the module list is unknown, not empty
	}
	mods, err := parse.Lsmod(in.Data)
	if err != nil {
		return err
	}
	filter := ""
	if _, pat, ok := strings.Cut(in.Args, "grep_"); ok {
		filter = strings.TrimPrefix(strings.ReplaceAll(pat, "_-e_", "|"), "-e_")
	}
	var note error
	if len(mods) == 0 {
		if filter == "" {
			// lsmod prints its header even with no module loaded: this is not its output.
			return parse.Problems{{Why: "no module line and no \"Module Size Used by\" header: not lsmod output"}}
		}
		// `lsmod | grep nvidia_peermem` printing nothing is an answer: no loaded module's
		// line has the pattern (the evidence is the capture as a whole).
		mods = []facts.KernelModule{}
		s.Host.Evidence.Set("modules", facts.Evidence{Source: in.Spec, Path: in.Path})
		note = Noted("no module line has %q: no loaded module matches the capture's filter", filter)
	}
	stamp(&mods, in.Spec, in.Path)
	h := &s.Host
	switch {
	case h.Modules == nil:
		h.Modules, h.ModulesFilter = mods, filter
	case filter == "" && h.ModulesFilter != "":
		h.Modules, h.ModulesFilter = mods, ""
	case filter != "" && h.ModulesFilter != "":
		for _, m := range mods {
			if !hasModule(h.Modules, m.Name) {
				h.Modules = append(h.Modules, m)
			}
		}
		h.ModulesFilter += "|" + filter
	}
	return note
}

func hasModule(mods []facts.KernelModule, name string) bool {
	for _, m := range mods {
		if m.Name == name {
			return true
		}
	}
	return false
}
