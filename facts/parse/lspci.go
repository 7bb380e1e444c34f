package parse

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// LSPCI parses `lspci`, `lspci -v`, `lspci -vvv`, `lspci -nnvv` (with or without -D) and grep
// excerpts of them. A block starts with a header
//
//	81:00.0 Infiniband controller [0207]: Mellanox Technologies MT27700 Family [ConnectX-4] [15b3:1013]
//
// followed by indented detail lines, of which these are read: `Flags: ..., NUMA node 1`,
// `NUMA node: 0`, `LnkCap:`, `LnkSta:`, `ACSCtl:`, `Capabilities: <access denied>`, the VPD
// `[PN]`/`[SN]` fields and `Kernel driver in use:` (format: pciutils ls-caps.c, lspci.c;
// https://github.com/pciutils/pciutils). LnkCap/LnkSta lines that come without a header (a
// `lspci -vvv | grep LnkSta` excerpt) are returned as functions with an empty Address, one per
// LnkCap/LnkSta pair, for the caller to name. A `lspci -tv` tree is recognised and parsed by
// LSPCITree.
func LSPCI(b []byte) ([]facts.PCIFunction, error) {
	lines := Lines(b)
	if isPCITree(lines) {
		return LSPCITree(b)
	}
	var out []facts.PCIFunction
	var cur *facts.PCIFunction
	flush := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	for _, l := range lines {
		if m := pciHeaderRe.FindStringSubmatch(l.Text); m != nil {
			flush()
			if key, val, ok := bdfDetail(m); ok {
				// `echo $bdf $(lspci -s $bdf -vvv | grep NUMA)`: "03:00.0 NUMA node: 0"
				f := facts.PCIFunction{Address: strings.ToLower(m[1])}
				f.Evidence.Set("address", l.Evidence())
				pciDetail(&f, key, val, key+": "+val, l)
				out = append(out, f)
				continue
			}
			f := pciHeader(m, l)
			cur = &f
			continue
		}
		t := strings.TrimSpace(l.Text)
		if t == "" {
			continue
		}
		key, val, _ := keyValue(t)
		// A headerless excerpt: start a nameless function, and a new one when a field repeats.
		if cur == nil || (cur.Address == "" && repeatsLink(cur, key)) {
			if !pciDetailKeys[key] {
				continue
			}
			flush()
			cur = &facts.PCIFunction{}
		}
		pciDetail(cur, key, val, t, l)
	}
	flush()
	// Every lspci line is complete only with its newline: a LnkSta cut short ("Width ") loses
	// the width, and a cut before a function loses it all. The functions read are kept.
	var probs problems
	probs.cut(b, lines, true)
	probs.replaced(pciReadLines(lines))
	denied(&probs, out)
	return out, probs.err()
}

// denied names the `Capabilities: <access denied>` line of each Mellanox or InfiniBand function:
// lspci ran without root, so the function's LnkCap, LnkSta and ACS are unknown (the PCIe rules
// cannot judge it) and the source is partial, not a checked "ok".
func denied(probs *problems, fns []facts.PCIFunction) {
	for _, f := range fns {
		if f.CapabilitiesDenied == nil || !*f.CapabilitiesDenied || !(f.VendorID == "15b3" || strings.Contains(f.Name, "Mellanox") || strings.HasPrefix(f.Class, "Infiniband")) {
			continue
		}
		ev := f.Evidence["capabilities_denied"]
		probs.add(Line{N: ev.Line, Text: ev.Text}, "lspci ran without root: %s's link capability and status (LnkCap, LnkSta) and ACS are unknown; run it as root", f.Address)
	}
}

// pciReadLines are the lines LSPCI reads a value from (headers and the detail keys it knows),
// told apart with any U+FFFD removed: a byte that is not UTF-8 in one of them ("Wi\xe9dth x1")
// may have cost its value. Other lines are skipped: VPD vendor fields may hold any byte.
func pciReadLines(lines []Line) []Line {
	var out []Line
	for _, l := range lines {
		if !strings.ContainsRune(l.Text, utf8.RuneError) {
			continue
		}
		t := strings.TrimSpace(strings.ReplaceAll(l.Text, string(utf8.RuneError), ""))
		key, _, _ := keyValue(t)
		if pciHeaderRe.MatchString(t) || pciDetailKeys[key] || key == "Flags" ||
			strings.HasPrefix(t, "[PN]") || strings.HasPrefix(t, "[SN]") {
			out = append(out, l)
		}
	}
	return out
}

var (
	pciHeaderRe = lazyregexp.New(`^\s*((?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])\s+(.+?)(?:\s+\[([0-9a-fA-F]{4})\])?:\s+(.*)$`)
	pciIDsRe    = lazyregexp.New(`\s*\[([0-9a-fA-F]{4}):([0-9a-fA-F]{4})\]\s*$`)
	pciSuffixRe = lazyregexp.New(`\s*\((?:rev [0-9a-fA-F]+|prog-if [^)]*)\)`)
	linkSpeedRe = lazyregexp.New(`Speed ([0-9.]+)GT/s|Speed unknown`)
	linkWidthRe = lazyregexp.New(`Width x(\d+)`)
	numaFlagRe  = lazyregexp.New(`NUMA node (-?\d+)`)
	acsFlagRe   = lazyregexp.New(`(\w+)([+-])`)
)

// bdfDetail reads a header match whose class is a detail key: a line a loop printed after the
// address it read it for ("03:00.0 NUMA node: 0", "81:00.0 LnkSta: Speed 8GT/s, Width x8").
func bdfDetail(m []string) (key, val string, ok bool) {
	if !pciDetailKeys[m[2]] || m[3] != "" {
		return "", "", false
	}
	return m[2], strings.TrimSpace(m[4]), true
}

// LSPCIKinds returns the kinds of lines an lspci capture holds among those LSPCI reads, as a
// regular expression over lspci's line text: header lines (pciHeaderPattern) and each detail key
// followed by ":" ("LnkCap:|LnkSta:"), sorted. whole is true when the capture also holds the
// lines every `lspci -v` block prints (pciBlockKeys): it was not grepped. Lines that are not lspci's (a shell prompt, lspci's
// own "lspci: Unable to load libkmod resources") are left out.
func LSPCIKinds(b []byte) (kinds string, whole bool) {
	seen := map[string]bool{}
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		if t == "" {
			continue
		}
		if m := pciHeaderRe.FindStringSubmatch(l.Text); m != nil {
			if key, _, ok := bdfDetail(m); ok {
				seen[regexp.QuoteMeta(key)+":"] = true
			} else {
				seen[pciHeaderPattern] = true
			}
			continue
		}
		if l.Text[0] != ' ' && l.Text[0] != '\t' {
			continue // not an lspci detail line
		}
		key, _, _ := keyValue(t)
		switch {
		case pciDetailKeys[key] || pciLinkKeys[key]:
			seen[regexp.QuoteMeta(key)+":"] = true
		case strings.HasPrefix(t, "[PN]") || strings.HasPrefix(t, "[SN]"):
			seen[regexp.QuoteMeta(t[:4])] = true
		case pciBlockKeys[key]:
			whole = true
		}
	}
	var ks []string
	for k := range seen {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, "|"), whole
}

// pciHeaderPattern matches lspci's header lines (a PCI address, then the class).
const pciHeaderPattern = `^\s*(?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7] `

// pciBlockKeys are lines every `lspci -v` (Subsystem, Flags, Capabilities) or `-vv` (Control,
// Status) block of a PCIe function prints: a capture holding them was not grepped.
var pciBlockKeys = map[string]bool{"Subsystem": true, "Flags": true, "Capabilities": true, "Control": true, "Status": true}

// pciLinkKeys are lines a grep for the link lines keeps beside LnkCap and LnkSta.
var pciLinkKeys = map[string]bool{"LnkCap2": true, "LnkSta2": true, "LnkCtl": true, "LnkCtl2": true, "LnkCtl3": true}

// pciDetailKeys are the detail keys that make sense without a header.
var pciDetailKeys = map[string]bool{"LnkCap": true, "LnkSta": true, "ACSCtl": true, "NUMA node": true, "Kernel driver in use": true}

func repeatsLink(f *facts.PCIFunction, key string) bool {
	return (key == "LnkCap" && (f.LnkCap != nil || f.LnkSta != nil)) || (key == "LnkSta" && f.LnkSta != nil)
}

func pciHeader(m []string, l Line) facts.PCIFunction {
	f := facts.PCIFunction{Address: strings.ToLower(m[1]), Class: m[2], ClassID: strings.ToLower(m[3])}
	name := pciSuffixRe.ReplaceAllString(m[4], "")
	if ids := pciIDsRe.FindStringSubmatch(name); ids != nil {
		f.VendorID, f.DeviceID = strings.ToLower(ids[1]), strings.ToLower(ids[2])
		name = name[:len(name)-len(ids[0])]
	}
	f.Name = strings.TrimSpace(name)
	f.VF = boolPtr(strings.Contains(f.Name, "Virtual Function"))
	ev := l.Evidence()
	for _, k := range []string{"address", "class", "name", "vf"} {
		f.Evidence.Set(k, ev)
	}
	return f
}

func pciDetail(f *facts.PCIFunction, key, val, text string, l Line) {
	ev := l.Evidence()
	switch {
	case key == "LnkCap":
		f.LnkCap = pcieLink(val)
		f.Evidence.Set("lnkcap", ev)
	case key == "LnkSta":
		f.LnkSta = pcieLink(val)
		f.Evidence.Set("lnksta", ev)
	case key == "NUMA node":
		if n := atoiPtr(val); n != nil {
			f.NUMANode = n
			f.Evidence.Set("numa_node", ev)
		}
	case key == "Flags":
		if m := numaFlagRe.FindStringSubmatch(val); m != nil {
			f.NUMANode = atoiPtr(m[1])
			f.Evidence.Set("numa_node", ev)
		}
	case key == "Kernel driver in use":
		f.KernelDriver = val
		f.Evidence.Set("kernel_driver", ev)
	case key == "ACSCtl":
		f.ACSCtl = map[string]bool{}
		for _, m := range acsFlagRe.FindAllStringSubmatch(val, -1) {
			f.ACSCtl[m[1]] = m[2] == "+"
		}
		f.Evidence.Set("acsctl", ev)
	case key == "Capabilities" && strings.Contains(val, "<access denied>"):
		f.CapabilitiesDenied = boolPtr(true)
		f.Evidence.Set("capabilities_denied", ev)
	case strings.HasPrefix(text, "[PN]"):
		f.PartNumber = strings.TrimSpace(val)
		f.Evidence.Set("part_number", ev)
	case strings.HasPrefix(text, "[SN]"):
		f.SerialNumber = strings.TrimSpace(val)
		f.Evidence.Set("serial_number", ev)
	}
}

// pcieLink reads "Port #0, Speed 8GT/s, Width x16, ..." or "Speed 2.5GT/s (downgraded), Width x4 (downgraded)".
func pcieLink(val string) *facts.PCIeLink {
	var l facts.PCIeLink
	for _, part := range strings.Split(val, ",") {
		part = strings.TrimSpace(part)
		if m := linkSpeedRe.FindStringSubmatch(part); m != nil {
			if m[1] != "" {
				if v, err := strconv.ParseFloat(m[1], 64); err == nil {
					l.SpeedGTs = &v
				}
			}
			l.SpeedDowngraded = strings.Contains(part, "(downgraded)")
		}
		if m := linkWidthRe.FindStringSubmatch(part); m != nil {
			l.Width = atoiPtr(m[1])
			l.WidthDowngraded = strings.Contains(part, "(downgraded)")
		}
	}
	l.BandwidthGbps = PCIeBandwidthGbps(l.SpeedGTs, l.Width)
	return &l
}

// pcieLaneGbps is the usable rate per lane after line encoding, the kernel's PCIE_SPEED2MBS_ENC
// (drivers/pci/pci.h): 8b/10b up to 5 GT/s, 128b/130b from 8 GT/s, 1b/1b (FLIT) at 64 GT/s.
var pcieLaneGbps = map[float64]float64{2.5: 2.0, 5: 4.0, 8: 7.876, 16: 15.753, 32: 31.507, 64: 64.0}

// PCIeBandwidthGbps is the usable link bandwidth, rounded to 1 Mb/s; nil when the speed is
// unknown or not a PCIe generation's.
func PCIeBandwidthGbps(speedGTs *float64, width *int) *float64 {
	if speedGTs == nil || width == nil {
		return nil
	}
	lane, ok := pcieLaneGbps[*speedGTs]
	if !ok {
		return nil
	}
	return float64Ptr(math.Round(lane*float64(*width)*1000) / 1000)
}
