package build

import (
	"path"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

var (
	// mstPathArgRe is a sos-mangled /dev/mst node: ".dev.mst.mt4115_pciconf0", ".dev.mst.mt41692_pciconf0.1",
	// ".dev.mst.mt4103_pci_cr0", ".dev.mst.mt4123_pciconf0_cable_0".
	mstPathArgRe = lazyregexp.New(`^\.dev\.mst\.(mt\d+_(?:pciconf|pci_cr|pci_msix|pciconf_msix)\d+(?:\.\d+)?(?:_cable_\d+)?)`)
	// bdfArgRe is a mangled PCI address: "0000_81_00.0", "b1_00.0", "61_00.0", and the corpus'
	// "16.00.0" for "16:00.0".
	bdfArgRe = lazyregexp.New(`^((?:[0-9a-fA-F]{4}_)?[0-9a-fA-F]{2}[_.][0-9a-fA-F]{2}\.[0-7])(?:_|$)`)
	// rdmaDevArgRe is an RDMA device name, which newer MFT accepts for -d: "mlx5_0".
	rdmaDevArgRe = lazyregexp.New(`^(mlx\d+_\d+)(?:_|$)`)
)

// mstDeviceArg takes the -d argument out of a Mellanox tool's mangled argument string
// ("-d_0000_81_00.0_-e_q", "-d_.dev.mst.mt4115_pciconf1_--port_type_PCIE") and returns it
// unmangled ("0000:81:00.0", "/dev/mst/mt4115_pciconf1", "b1:00.0") with the PCI address it names
// ("0000:b1:00.0"; empty for /dev/mst nodes, which the join resolves through `mst status`).
func mstDeviceArg(args string) (device, pci string) {
	rest := ""
	switch {
	case strings.HasPrefix(args, "-d_"):
		rest = args[len("-d_"):]
	case strings.Contains(args, "_-d_"):
		rest = args[strings.Index(args, "_-d_")+len("_-d_"):]
	case strings.HasPrefix(args, "--device_"):
		rest = args[len("--device_"):]
	default:
		return "", ""
	}
	if m := mstPathArgRe.FindStringSubmatch(rest); m != nil {
		return "/dev/mst/" + m[1], ""
	}
	if m := bdfArgRe.FindStringSubmatch(rest); m != nil {
		dev := m[1]
		if strings.Count(dev, ".") == 2 { // "16.00.0"
			dev = strings.Replace(dev, ".", ":", 1)
		}
		dev = strings.ReplaceAll(dev, "_", ":")
		return dev, NormalizeBDF(dev)
	}
	if m := rdmaDevArgRe.FindStringSubmatch(rest); m != nil {
		return m[1], ""
	}
	dev, _, _ := strings.Cut(rest, "_-")
	return dev, ""
}

// argWords splits a mangled argument string into its words: "-d_x_query_full_BEFORE" ->
// ["-d", "x", "query", "full", "BEFORE"]. Words of a mangled device name split too; callers only
// look for whole words such as "q", "set" or "burn".
func argWords(args string) []string {
	return strings.FieldsFunc(args, func(r rune) bool { return r == '_' })
}

func hasWord(words []string, w ...string) bool {
	for _, x := range words {
		for _, y := range w {
			if x == y {
				return true
			}
		}
	}
	return false
}

// toolOf returns the first of tools that the file's base name starts with, e.g. "mstflint" for
// "mstflint_-d_0000_81_00.0_q"; empty for captures recognised by content.
func toolOf(p string, tools ...string) string {
	base := path.Base(p)
	for _, t := range tools {
		if base == t || strings.HasPrefix(base, t+"_") || strings.HasPrefix(base, t+".") {
			return t
		}
	}
	return ""
}
