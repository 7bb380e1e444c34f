package build

import (
	"fmt"
	"path"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

func init() {
	register(Spec{
		Name:        "lspci",
		Plugin:      "pci",
		Commands:    []string{"lspci"},
		Sniff:       func(h []byte) bool { return lspciSniffRe.Match(h) },
		Apply:       applyLSPCI,
		MissingHint: "run `lspci -nnvv` as root (sos pci plugin collects it)",
		Groups:      []string{"lspci"},
		Live:        []LiveCommand{{Alts: [][]string{{"lspci", "-nnvv"}}, AsRoot: true}, {Alts: [][]string{{"lspci", "-tv"}}}},
		Tools: []Tool{{Name: "lspci", Package: "pciutils", Allow: []Grammar{{
			Bare:   []string{"-nnvv", "-tv", "-vvv", "-vv", "-v", "-nn", "-n", "-t", "-D"},
			Valued: map[string]func(string) bool{"-s": isBDF, "-d": pciIDRe.MatchString},
		}}}},
	})
}

var (
	lspciSniffRe = mustSniff(`(?m)^(?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-7] [A-Z][^:\n]*: |^\s*Ln[kK](?:Cap|Sta):\s|^-[+-]-?\[[0-9a-f]{4}:[0-9a-f]{2}\]`)
	// lspciSlotArgRe finds "-s <bdf>" in a file name, with sos's "_" or the corpus's "." for ":".
	lspciSlotArgRe = lazyregexp.New(`-s_(?:([0-9a-fA-F]{4})[._:])?([0-9a-fA-F]{2})[._:]([0-9a-fA-F]{2})\.([0-7])`)
	// vendorArgRe finds "-d 15b3:" (sos: "-d_15b3", "-d_15b3_1017") in a file name.
	vendorArgRe = lazyregexp.New(`(?:^|_)-d_15b3(?:[_:.]|$)`)
	// nameBDFRe finds a sos-mangled full address in any file name, e.g. "device_0000_05_00.0_excerpt".
	nameBDFRe = lazyregexp.New(`([0-9a-fA-F]{4})_([0-9a-fA-F]{2})_([0-9a-fA-F]{2})\.([0-7])`)
)

// applyLSPCI merges lspci functions by address. LnkCap/LnkSta lines of a grep excerpt come
// without a header: they belong to the function the file name selects with -s (or names with a
// mangled address such as "..._0000_05_00.0_..."); without one they
// are kept on a placeholder function "unknown" (or "unknown:<label>" for labelled captures,
// "#2", "#3" for further ones; the colon keeps NormalizeBDF from reading the label as a BDF) so that a downgraded link is still reported.
func applyLSPCI(s *facts.Snapshot, in Input) error {
	fns, err := parse.LSPCI(in.Data) // parse.Problems: the functions returned are still good
	if _, ok := parse.AsProblems(err); err != nil && !ok {
		return err
	}
	slot := ""
	if m := lspciSlotArgRe.FindStringSubmatch(in.Args); m != nil {
		dom := m[1]
		if dom == "" {
			dom = "0000"
		}
		slot = fmt.Sprintf("%s:%s:%s.%s", dom, m[2], m[3], m[4])
	} else if m := nameBDFRe.FindStringSubmatch(path.Base(in.Path)); m != nil {
		slot = fmt.Sprintf("%s:%s:%s.%s", m[1], m[2], m[3], m[4])
	}
	filter := lspciFilter(in)
	unnamed := 0
	var orphans []string
	for _, f := range fns {
		if f.Address == "" {
			unnamed++
			f.Address = placeholderPCI(slot, in.Label, unnamed)
			if slot == "" {
				orphans = append(orphans, f.Address)
			}
		}
		f.Filter = filter
		if f.VendorID == "" && vendorArgRe.MatchString(in.Args) {
			f.VendorID = "15b3" // `lspci -d 15b3:` lists Mellanox functions only
		}
		addPCI(s, in, f)
	}
	if err == nil && len(orphans) > 0 {
		// Never guess which function an orphan LnkSta belongs to: keep it on a placeholder.
		return Noted("%d group(s) of link lines without a PCI address (the capture names no function: no header, no -s in the file name), kept as %s", len(orphans), strings.Join(orphans, ", "))
	}
	return err
}

// lspciFilter is the Filter of the functions read from in: the grep pattern its name gives,
// else, for a capture that is filtered (its name says so, or it holds only some kinds of lines,
// as `lspci`, `lspci | grep Mellanox` or a loop of `lspci -s X -vvv | grep LnkSta` do), the kinds
// of lines it holds; "" for whole blocks.
func lspciFilter(in Input) string {
	pattern, filtered := grepFilter(in.Args)
	if pattern != "" {
		return pattern
	}
	kinds, whole := parse.LSPCIKinds(in.Data)
	if filtered || !whole {
		return kinds
	}
	return ""
}

func placeholderPCI(slot, label string, n int) string {
	a := slot
	if a == "" {
		a = "unknown"
		if label != "" {
			a += ":" + label
		}
	}
	if n > 1 {
		a += fmt.Sprintf("#%d", n)
	}
	return a
}
