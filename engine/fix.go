package engine

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rdmadoctor/rdmadoctor/internal/visible"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// fill replaces the placeholders of the fix commands and notes ({{device}}, {{port}}, {{pci}},
// {{netdev}} and any key of the finding's vars) with their values. A placeholder without a value
// stays visible as <name>, so the operator sees what to put there.
//
// The values come from the input, so in a command each is shell-quoted for where it stands
// (shellContext.encode): a CA named x;reboot;$(id) gives sminfo -C 'x;reboot;$(id)' -P 1, and
// plain values (mlx5_0, 0000:81:00.0, ib0) print as they are. A var that is a list fills in as
// one quoted word per element ({"modules": ["mlx5_core", "mlx5_ib"]} -> mlx5_core mlx5_ib).
// Notes are text and get the values as they are; the renderers make control characters visible.
func fill(fixes []report.Fix, s report.Subject, vars map[string]any) []report.Fix {
	vals := fixValues(s, vars)
	out := make([]report.Fix, len(fixes))
	for i, f := range fixes {
		out[i] = report.Fix{Command: fillCommand(f.Command, vals), Note: fillNote(f.Note, vals)}
	}
	return out
}

// fixValues are the words each placeholder name fills in: the subject's fields, then the vars
// (fmt.Sprint of a scalar, of each element of a list); empty values and nulls are left out, and
// so are values holding U+FFFD: bytes of the input that were not UTF-8 were replaced there, so
// the word names no real device, and the placeholder stays for the operator to fill.
func fixValues(s report.Subject, vars map[string]any) map[string][]string {
	vals := map[string][]string{}
	add := func(name string, words ...string) {
		var kept []string
		for _, w := range words {
			if w != "" && !strings.ContainsRune(w, utf8.RuneError) {
				kept = append(kept, w)
			}
		}
		if len(kept) > 0 {
			vals[name] = kept
		}
	}
	add("device", s.Device)
	add("pci", s.PCI)
	add("netdev", s.Netdev)
	add("node_guid", s.NodeGUID)
	add("node_description", s.NodeDescription)
	if s.Port != nil {
		add("port", strconv.Itoa(*s.Port))
	}
	for k, v := range vars {
		switch v := v.(type) {
		case nil:
		case []any:
			words := make([]string, 0, len(v))
			for _, e := range v {
				if e != nil {
					words = append(words, fmt.Sprint(e))
				}
			}
			add(k, words...)
		default:
			add(k, fmt.Sprint(v))
		}
	}
	return vals
}

// fillCommand fills the placeholders of one command template, each value encoded for the
// shell context it stands in.
func fillCommand(tmpl string, vals map[string][]string) string {
	matches := placeholderPattern.FindAllStringSubmatchIndex(tmpl, -1)
	contexts := placeholderContexts(tmpl, matches)
	var b strings.Builder
	pos := 0
	for i, m := range matches {
		b.WriteString(tmpl[pos:m[0]])
		name := tmpl[m[2]:m[3]]
		words, ok := vals[name]
		switch {
		case !ok:
			b.WriteString("<" + name + ">")
		case contexts[i] == unquoted:
			for j, w := range words {
				if j > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(visible.ShellQuote(w))
			}
		default:
			b.WriteString(contexts[i].encode(strings.Join(words, " ")))
		}
		pos = m[1]
	}
	b.WriteString(tmpl[pos:])
	return b.String()
}

// fillNote fills the placeholders of a note with the values as they are.
func fillNote(tmpl string, vals map[string][]string) string {
	return placeholderPattern.ReplaceAllStringFunc(tmpl, func(m string) string {
		name := placeholderPattern.FindStringSubmatch(m)[1]
		if words, ok := vals[name]; ok {
			return strings.Join(words, " ")
		}
		return "<" + name + ">"
	})
}
