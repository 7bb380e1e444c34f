package engine

import (
	"fmt"
	"strconv"

	"github.com/rdmadoctor/rdmadoctor/report"
)

// fill replaces the placeholders of the fix commands and notes ({{device}}, {{port}}, {{pci}},
// {{netdev}} and any key of the finding's vars) with their values. A placeholder without a value
// stays visible as <name>, so the operator sees what to put there.
func fill(fixes []report.Fix, s report.Subject, vars map[string]any) []report.Fix {
	vals := map[string]string{"device": s.Device, "pci": s.PCI, "netdev": s.Netdev}
	if s.Port != nil {
		vals["port"] = strconv.Itoa(*s.Port)
	}
	for k, v := range vars {
		if v != nil {
			vals[k] = fmt.Sprint(v)
		}
	}
	out := make([]report.Fix, len(fixes))
	replace := func(s string) string {
		return placeholderPattern.ReplaceAllStringFunc(s, func(m string) string {
			name := placeholderPattern.FindStringSubmatch(m)[1]
			if v := vals[name]; v != "" {
				return v
			}
			return "<" + name + ">"
		})
	}
	for i, f := range fixes {
		out[i] = report.Fix{Command: replace(f.Command), Note: replace(f.Note)}
	}
	return out
}
