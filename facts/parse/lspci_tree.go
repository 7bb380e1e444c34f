package parse

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// LSPCITree parses `lspci -tv` (pciutils ls-tree.c): a drawing where `[0000:20]` starts a
// domain and root bus, `+-01.1-[21]--` is a bridge whose secondary bus 21 follows, and
// `+-00.0  Mellanox ...` or `\-00.1  ...` is a function on the bus of the branch column it hangs
// from:
//
//	+-[0000:20]-+-00.0  Advanced Micro Devices, Inc. [AMD] Device 14a4
//	|           +-01.1-[21]--+-00.0  Mellanox Technologies MT2910 Family [ConnectX-7]
//	|           |            \-00.1  Mellanox Technologies MT2910 Family [ConnectX-7]
//
// Every function gets its full address and name; Parent is the bridge above it (empty on a
// root bus). Bridges are returned too.
func LSPCITree(b []byte) ([]facts.PCIFunction, error) {
	type bus struct{ id, parent string } // id "0000:21"
	branch := map[int]bus{}              // column of a "+" or "\" -> the bus it lists
	var out []facts.PCIFunction
	index := map[string]int{}
	domain := "0000"
	add := func(f facts.PCIFunction) {
		if i, ok := index[f.Address]; ok {
			if out[i].Name == "" {
				out[i].Name = f.Name
			}
			return
		}
		index[f.Address] = len(out)
		out = append(out, f)
	}
	for _, l := range Lines(b) {
		s := l.Text
		var pending *bus // a bus just opened whose single child follows with "--" instead of a branch
		for i := 0; i < len(s); {
			if m := treeRootRe.FindStringSubmatchIndex(s[i:]); m != nil && m[0] == 0 {
				domain = s[i+m[2] : i+m[3]]
				pending = &bus{id: domain + ":" + strings.ToLower(s[i+m[4]:i+m[5]])}
				i += m[1]
				continue
			}
			c := s[i]
			if (c == '+' || c == '\\') && pending != nil {
				branch[i] = *pending
				pending = nil
				i++
				continue
			}
			if m := treeFuncRe.FindStringSubmatchIndex(s[i:]); m != nil && m[0] == 0 && i > 0 && s[i-1] == '-' {
				on, ok := treeBus(branch, pending, s, i)
				if !ok {
					i++
					continue
				}
				pending = nil
				f := facts.PCIFunction{Address: on.id + ":" + strings.ToLower(s[i+m[2]:i+m[3]]), Parent: on.parent}
				f.Evidence.Set("parent", l.Evidence())
				i += m[1]
				if sec := treeBridgeRe.FindStringSubmatchIndex(s[i:]); sec != nil && sec[0] == 0 {
					pending = &bus{id: domain + ":" + strings.ToLower(s[i+sec[2]:i+sec[3]]), parent: f.Address}
					i += sec[1]
				} else {
					f.Name = strings.TrimSpace(s[i:])
					f.VF = boolPtr(strings.Contains(f.Name, "Virtual Function"))
					i = len(s)
				}
				add(f)
				continue
			}
			i++
		}
	}
	return out, nil
}

var (
	treeRootRe   = lazyregexp.New(`^\[([0-9a-fA-F]{4}):([0-9a-fA-F]{2})\]`)
	treeFuncRe   = lazyregexp.New(`^([0-9a-fA-F]{2}\.[0-7])`)
	treeBridgeRe = lazyregexp.New(`^-\[([0-9a-fA-F]{2})(?:-[0-9a-fA-F]{2})?\]`)
)

// treeBus finds the bus of the function at column i: the branch mark just before it, or the
// bus a bridge or root opened on the same line.
func treeBus[B any](branch map[int]B, pending *B, s string, i int) (B, bool) {
	if i >= 2 && (s[i-2] == '+' || s[i-2] == '\\') {
		if b, ok := branch[i-2]; ok {
			return b, true
		}
	}
	if pending != nil {
		return *pending, true
	}
	var zero B
	return zero, false
}

// isPCITree reports whether the first non-empty line is the root of an `lspci -t` drawing.
func isPCITree(lines []Line) bool {
	for _, l := range lines {
		t := strings.TrimSpace(l.Text)
		if t == "" {
			continue
		}
		return strings.HasPrefix(t, "-[") || strings.HasPrefix(t, "-+-[") || strings.HasPrefix(t, "+-[") || strings.HasPrefix(t, "\\-[")
	}
	return false
}
