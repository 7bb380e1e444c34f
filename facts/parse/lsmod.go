package parse

import (
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// Lsmod parses `lsmod` (kmod tools/lsmod.c, from /proc/modules):
//
//	Module                  Size  Used by
//	mlx_compat             20480  6 ib_ipoib,mlxdevm,ib_umad,ib_core,ib_uverbs,ib_cm
//	mlxfw                  36864  0
//
// and grep excerpts of it (no header). Holders are split at commas; "[permanent]" and "-" are
// dropped. A line whose size is not a number is an error naming the line.
func Lsmod(b []byte) ([]facts.KernelModule, error) {
	var out []facts.KernelModule
	for _, l := range Lines(b) {
		f := strings.Fields(l.Text)
		if len(f) == 0 || (f[0] == "Module" && len(f) >= 2 && f[1] == "Size") {
			continue
		}
		if len(f) < 2 {
			return out, l.Errorf("want module name, size and use count")
		}
		size, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			return out, l.Errorf("size %q is not a number", f[1])
		}
		m := facts.KernelModule{Name: f[0], SizeB: size, Evidence: l.Evidence()}
		if len(f) >= 4 {
			for _, h := range strings.Split(f[3], ",") {
				if h != "" && h != "-" && h != "[permanent]" {
					m.UsedBy = append(m.UsedBy, h)
				}
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// LsmodRefusal returns lsmod's own error when it could not read /proc/modules (containers, a
// kernel without module support): the "Error: could not get list of modules: ..." line, else a
// "libkmod: ERROR ..." line; "" for a module list. Callers check it before Lsmod.
func LsmodRefusal(b []byte) string {
	libkmod := ""
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		switch {
		case strings.HasPrefix(t, "Error: "):
			return t
		case libkmod == "" && strings.HasPrefix(t, "libkmod: ERROR"):
			libkmod = t
		}
	}
	return libkmod
}
