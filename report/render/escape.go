package render

import (
	"reflect"

	"github.com/rdmadoctor/rdmadoctor/internal/visible"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// escaped returns a copy of r whose every string, at any depth (messages, subjects, evidence
// paths and lines, fix commands and notes, skipped reasons, source names and errors, the host),
// has its control characters made visible (visible.Escape), for the table and Markdown views:
// a device named "\x1b]0;pwned\a\x1b[2J" prints as \x1b]0;pwned\a\x1b[2J and neither retitles
// nor clears the terminal, and a newline in a file name cannot start a table row, a Markdown
// line or a command. The renderers add their own colours after. JSON and YAML need no copy:
// their encoders escape control characters. Reflection rather than a list of fields, so that a
// field added to the report or to facts is covered without a change here; r is not modified.
func escaped(r *report.Report) *report.Report {
	out := *r // the unexported fields too
	escapeValue(reflect.ValueOf(&out).Elem())
	return &out
}

// escapeValue rewrites the strings reachable from v, which must be settable, copying every
// slice, map and pointer on the way so that nothing shared with the original changes.
func escapeValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(visible.Escape(v.String()))
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				escapeValue(f)
			}
		}
	case reflect.Pointer:
		if !v.IsNil() {
			c := reflect.New(v.Type().Elem())
			c.Elem().Set(v.Elem())
			escapeValue(c.Elem())
			v.Set(c)
		}
	case reflect.Slice:
		if !v.IsNil() {
			c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(c, v)
			for i := range c.Len() {
				escapeValue(c.Index(i))
			}
			v.Set(c)
		}
	case reflect.Map:
		if !v.IsNil() {
			c := reflect.MakeMapWithSize(v.Type(), v.Len())
			iter := v.MapRange()
			for iter.Next() {
				k := reflect.New(v.Type().Key()).Elem()
				k.Set(iter.Key())
				escapeValue(k)
				e := reflect.New(v.Type().Elem()).Elem()
				e.Set(iter.Value())
				escapeValue(e)
				c.SetMapIndex(k, e)
			}
			v.Set(c)
		}
	case reflect.Interface:
		if !v.IsNil() {
			e := reflect.New(v.Elem().Type()).Elem()
			e.Set(v.Elem())
			escapeValue(e)
			v.Set(e)
		}
	}
}
