package parse

import (
	"regexp"
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// nvParamRe matches a parameter name: LINK_TYPE_P1, EXP_ROM_UEFI_x86_ENABLE, ESWITCH_HAIRPIN_DESCRIPTORS[3].
var nvParamRe = lazyregexp.New(`^[A-Z][A-Za-z0-9_]*(\[[0-9.]+\])?$`)

// sysfsBDFRe finds the PCI address in mstconfig's "PCI device: /sys/bus/pci/devices/0000:05:00.0/config".
var sysfsBDFRe = lazyregexp.New(`[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]`)

// MstConfig parses `mstconfig -d <dev> [-e] query` and `mlxconfig -d <dev> [-e] q` (mstflint
// mlxconfig/mlxcfg_ui.cpp, MFT mlxconfig). Without -d, every device is printed in turn:
//
//	Device #1:
//	----------
//
//	Device type:    ConnectX3Pro
//	Name:           MCX354A-FCC_Ax
//	Description:    ConnectX-3 Pro VPI adapter card; ...
//	Device:         /dev/mst/mt4103_pci_cr0          (or "PCI device: /sys/bus/pci/devices/0000:05:00.0/config",
//	                                                  which gives both Device and PCIAddress)
//
//	Configurations:                              Next Boot
//	         LINK_TYPE_P1                        ETH(2)
//
// With -e the header reads "Default  Current  Next Boot", each line has three values and a
// leading "*" marks a next-boot value that differs. grep excerpts (parameter lines only) parse
// into one record without a device, whose Filter is the names it holds. A tool error ("-E- Unsupported device", "-E- Failed to query
// device current configuration") is the record's Refusal. Unknown lines are ignored.
func MstConfig(b []byte) ([]facts.NVConfig, error) {
	var out []facts.NVConfig
	cur := -1
	device := func() *facts.NVConfig {
		if cur < 0 {
			out = append(out, facts.NVConfig{})
			cur = len(out) - 1
		}
		return &out[cur]
	}
	var probs problems
	headed := map[int]bool{} // records whose "Configurations:" header was read
	lines := Lines(b)
	for _, l := range lines {
		t := strings.TrimRight(l.Text, " \t")
		trimmed := strings.TrimSpace(t)
		switch {
		case trimmed == "" || strings.Trim(trimmed, "-") == "":
			continue
		case strings.HasPrefix(trimmed, "-E-"):
			d := device()
			if d.Refusal == "" {
				d.Refusal = trimmed
				d.Evidence.Set("refusal", l.Evidence())
			}
			continue
		case strings.HasPrefix(trimmed, "Device #"):
			out = append(out, facts.NVConfig{})
			cur = len(out) - 1
			continue
		}
		if t[0] == ' ' || t[0] == '\t' || t[0] == '*' {
			nvParamLine(device(), trimmed, l)
			continue
		}
		key, val, ok := keyValue(t)
		if !ok {
			continue
		}
		d := device()
		switch key {
		case "Configurations":
			headed[cur] = true
		case "Device type":
			d.DeviceType = val
			d.Evidence.Set("device_type", l.Evidence())
		case "Description":
			d.Description = val
			d.Evidence.Set("description", l.Evidence())
		case "Device":
			d.Device = val
			d.Evidence.Set("device", l.Evidence())
		case "PCI device":
			if d.Device == "" {
				d.Device = val
				d.Evidence.Set("device", l.Evidence())
			}
			if a := sysfsBDFRe.FindString(val); a != "" {
				d.PCIAddress = strings.ToLower(a)
				d.Evidence.Set("pci_address", l.Evidence())
			}
		}
	}
	for i := range out {
		if !headed[i] && len(out[i].Params) > 0 {
			out[i].Filter = NVParamsHeld(out[i].Params) // a grep of the parameter lines
		}
	}
	probs.replaced(lines)
	// Every line is complete only with its newline: a value cut short ("ETH(" for "ETH(2)", "1"
	// for "16") reads as another value, and a cut before the parameters loses them all.
	probs.cut(b, lines, true)
	return out, probs.err()
}

// NVParamsHeld is the Filter of a query excerpt whose filter is not known: the names it holds,
// "^(NUM_OF_VFS|SRIOV_EN)$", the only parameters known to pass it.
func NVParamsHeld(params map[string]facts.NVParam) string {
	names := make([]string, 0, len(params))
	for n := range params {
		names = append(names, regexp.QuoteMeta(n))
	}
	sort.Strings(names)
	return "^(" + strings.Join(names, "|") + ")$"
}

// nvParamLine reads "[*] NAME value" or "[*] NAME default current next".
func nvParamLine(d *facts.NVConfig, s string, l Line) {
	modified := false
	if strings.HasPrefix(s, "*") {
		modified = true
		s = strings.TrimSpace(s[1:])
	}
	f := strings.Fields(s)
	if len(f) < 2 || !nvParamRe.MatchString(f[0]) {
		return
	}
	p := facts.NVParam{Modified: modified, Evidence: l.Evidence()}
	vals := f[1:]
	if len(vals) == 3 {
		p.Default, p.Current, p.NextBoot = vals[0], vals[1], vals[2]
	} else {
		p.NextBoot = strings.Join(vals, " ")
	}
	if d.Params == nil {
		d.Params = map[string]facts.NVParam{}
	}
	d.Params[f[0]] = p
}
