package parse

import (
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// SysctlEntry is one kernel parameter with the line it was read from.
type SysctlEntry struct {
	// Name is the dotted name, e.g. "net.core.rmem_max"; a "." inside an interface name is "/"
	// as sysctl prints it ("net.ipv6.conf.eth0/100.disable_ipv6").
	Name string
	// Value as printed; a multi-line value (dev.cdrom.info) has its lines joined with "\n".
	Value    string
	Evidence facts.Evidence
}

// Sysctl parses `sysctl -a` and `sysctl <name>...` (procps sysctl.c):
//
//	net.core.rmem_max = 212992
//	fs.file-nr = 13856	0	9223372036854775807
//	dev.cdrom.info = CD-ROM information, Id: cdrom.c 3.20 2003/12/17
//	dev.cdrom.info =
//
// A parameter whose value has several lines is printed once per line; the lines are joined and
// the first line is the evidence. Lines without " = " (sysctl's "permission denied on key" and
// "reading key" errors, -n output) are ignored. Entries keep the order of the file.
func Sysctl(b []byte) ([]SysctlEntry, error) {
	var out []SysctlEntry
	index := map[string]int{}
	for _, l := range Lines(b) {
		name, val, ok := strings.Cut(l.Text, " = ")
		if !ok {
			// "kernel.hotplug = " loses its space to editors and capture tools: accept " =" at the end.
			if !strings.HasSuffix(l.Text, " =") {
				continue
			}
			name, val = strings.TrimSuffix(l.Text, " ="), ""
		}
		name = strings.TrimSpace(name)
		if name == "" || strings.ContainsAny(name, " \t") {
			continue
		}
		if i, seen := index[name]; seen {
			out[i].Value += "\n" + val
			continue
		}
		index[name] = len(out)
		out = append(out, SysctlEntry{Name: name, Value: val, Evidence: l.Evidence()})
	}
	return out, nil
}

// SysctlIPv6Disabled reads "net.ipv6.conf.<if>.disable_ipv6": the interface (with "/" turned back
// into ".") and the setting; ok is false for other names, for "all" and "default", and for
// values other than 0 and 1.
func SysctlIPv6Disabled(name, value string) (netdev string, disabled, ok bool) {
	rest, found := strings.CutPrefix(name, "net.ipv6.conf.")
	if !found {
		return "", false, false
	}
	ifname, found := strings.CutSuffix(rest, ".disable_ipv6")
	if !found || ifname == "" || ifname == "all" || ifname == "default" || strings.Contains(ifname, ".") {
		return "", false, false
	}
	switch strings.TrimSpace(value) {
	case "0":
		disabled = false
	case "1":
		disabled = true
	default:
		return "", false, false
	}
	return strings.ReplaceAll(ifname, "/", "."), disabled, true
}
