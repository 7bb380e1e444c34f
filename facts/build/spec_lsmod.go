package build

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

func init() {
	register(Spec{
		Name:        "lsmod",
		Plugin:      "kernel",
		Commands:    []string{"lsmod"},
		Sniff:       func(head []byte) bool { return lsmodHeader(head) || lsmodExcerpt(head) },
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
	} else if len(mods) > 0 && !lsmodHeader(in.Data) {
		// lsmod always prints its header: without it this is an excerpt (a `lsmod | grep`
		// pasted under another name), by a filter nobody recorded.
		filter = facts.ModulesFilterUnknown
	}
	var note error
	if filter == facts.ModulesFilterUnknown {
		note = Noted("no lsmod header: an excerpt (lsmod | grep ...) by a filter not recorded, so a module it does not list may still be loaded; save it as lsmod_grep_<pattern>, or capture the whole lsmod")
	}
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

// lsmodHeader reports whether b has lsmod's header line ("Module                  Size  Used by").
func lsmodHeader(b []byte) bool {
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 4 && f[0] == "Module" && f[1] == "Size" && f[2] == "Used" && f[3] == "by" {
			return true
		}
	}
	return false
}

// lsmodExcerpt recognises a `lsmod | grep ...` paste by its content: every complete line is a
// module line (name, size in bytes, use count, optional users) and one of them is an RDMA
// module (mlx*, ib_*, rdma*, iw_*, rxe, siw, nvidia_peermem), so that other tables of a name
// and two numbers are not taken for it.
func lsmodExcerpt(head []byte) bool {
	lines := strings.Split(string(head), "\n")
	if len(lines) > 1 {
		lines = lines[:len(lines)-1] // the last may be cut by the head's size, or empty
	}
	rdma, n := false, 0
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if !lsmodLine.MatchString(l) {
			return false
		}
		n++
		rdma = rdma || rdmaModule.MatchString(f[0])
	}
	return n > 0 && rdma
}

var (
	lsmodLine  = lazyregexp.New(`^[A-Za-z0-9_]+\s+[0-9]+\s+[0-9]+(\s+\S+)?\s*$`)
	rdmaModule = lazyregexp.New(`^(mlx[0-9a-z_]*|ib_[a-z_]+|rdma_[a-z_]+|iw_[a-z_]+|rdma_rxe|rxe|siw|nvidia_peermem|bnxt_re|irdma|qedr|hfi1|efa|mana_ib)$`)
)
