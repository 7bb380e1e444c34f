package engine

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// findingsFrom reads a node rule's findings set as the query returned it (rego's Go values: []any
// of map[string]any, numbers as json.Number) into rawFindings, giving what encoding/json gives for
// the JSON text of v, without writing and parsing that text (a tenth of an evaluation,
// docs/performance.md). ok is false when v holds anything encoding/json might read another way or
// refuse: a key not spelt as the contract spells it (encoding/json matches keys regardless of
// case), a value of another type, a number that is not an int where one is wanted, a string that
// is not valid UTF-8, a null finding. decodeFindings then takes the JSON path, which also words
// the error. TestFindingsFromMatchesJSON holds the two equal.
func findingsFrom(v any) (out []rawFinding, ok bool) {
	set, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out = make([]rawFinding, len(set))
	for i, el := range set {
		m, ok := el.(map[string]any)
		if !ok || !out[i].from(m) {
			return nil, false
		}
	}
	return out, true
}

// from fills f from the finding object m (see findingsFrom).
func (f *rawFinding) from(m map[string]any) bool {
	text := map[string]*string{"message": &f.Message, "severity": &f.Severity, "confidence": &f.Confidence, "scope": &f.Scope, "unknown": &f.Unknown}
	return fields(m, text, func(k string, v any) bool {
		switch k {
		case "subject":
			return subjectFrom(v, &f.Subject)
		case "evidence":
			return evidenceFrom(v, &f.Evidence)
		case "vars":
			return varsFrom(v, &f.Vars)
		}
		return false
	})
}

// fields reads each member of the object m: a string into text[key], any other key with other;
// false when one of them cannot be read directly.
func fields(m map[string]any, text map[string]*string, other func(key string, v any) bool) bool {
	for k, v := range m {
		if p, ok := text[k]; ok {
			if !str(v, p) {
				return false
			}
		} else if !other(k, v) {
			return false
		}
	}
	return true
}

// subjectFrom fills s from a finding's subject object (null leaves it zero).
func subjectFrom(v any, s *report.Subject) bool {
	if v == nil {
		return true
	}
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	text := map[string]*string{"device": &s.Device, "pci": &s.PCI, "netdev": &s.Netdev, "node_guid": &s.NodeGUID, "node_description": &s.NodeDescription}
	return fields(m, text, func(k string, v any) bool {
		if k != "port" {
			return false
		}
		if v == nil {
			s.Port = nil
			return true
		}
		n := 0
		if !integer(v, &n) {
			return false
		}
		s.Port = &n
		return true
	})
}

// evidenceFrom fills evs from a finding's evidence array (null leaves it nil).
func evidenceFrom(v any, evs *[]facts.Evidence) bool {
	if v == nil {
		return true
	}
	arr, ok := v.([]any)
	if !ok {
		return false
	}
	*evs = make([]facts.Evidence, len(arr))
	for i, el := range arr {
		if el == nil {
			continue // null leaves the element zero
		}
		m, ok := el.(map[string]any)
		if !ok {
			return false
		}
		ev := &(*evs)[i]
		text := map[string]*string{"source": &ev.Source, "path": &ev.Path, "text": &ev.Text}
		if !fields(m, text, func(k string, v any) bool { return k == "line" && integer(v, &ev.Line) }) {
			return false
		}
	}
	return true
}

// varsFrom sets *vars to v, a finding's vars object, as encoding/json reads it into a
// map[string]any (null leaves it nil).
func varsFrom(v any, vars *map[string]any) bool {
	if v == nil {
		return true
	}
	if _, ok := v.(map[string]any); !ok {
		return false
	}
	conv, ok := plain(v)
	if ok {
		*vars = conv.(map[string]any)
	}
	return ok
}

// str sets *s to v, a string (null leaves it).
func str(v any, s *string) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		*s = v
		return utf8.ValidString(v) // JSON text would hold U+FFFD instead
	}
	return false
}

// integer sets *n to v, a number written as an integer (null leaves it).
func integer(v any, n *int) bool {
	switch v := v.(type) {
	case nil:
		return true
	case json.Number:
		i, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil || int64(int(i)) != i {
			return false
		}
		*n = int(i)
		return true
	}
	return false
}

// plain converts a value of rego's results to what encoding/json decodes its JSON text to in
// an `any`: numbers become float64.
func plain(v any) (any, bool) {
	switch v := v.(type) {
	case nil, bool:
		return v, true
	case string:
		return v, utf8.ValidString(v)
	case json.Number:
		if !validNumber(string(v)) {
			return nil, false
		}
		f, err := strconv.ParseFloat(string(v), 64)
		return f, err == nil
	case []any:
		out := make([]any, len(v))
		for i, el := range v {
			var ok bool
			if out[i], ok = plain(el); !ok {
				return nil, false
			}
		}
		return out, true
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, el := range v {
			if !utf8.ValidString(k) {
				return nil, false
			}
			c, ok := plain(el)
			if !ok {
				return nil, false
			}
			out[k] = c
		}
		return out, true
	}
	return nil, false
}

// validNumber reports whether s is a JSON number (RFC 8259: -?int frac? exp?), the only numbers
// encoding/json writes and reads.
func validNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i == len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i == len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	return i == len(s)
}
