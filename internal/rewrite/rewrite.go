// Package rewrite replaces every string of a value, at any depth, copying each slice, map and
// pointer on the way so that nothing shared with the original changes: the renderers use it to
// make control characters visible, the fleet to hold each distinct string once.
package rewrite

import "reflect"

// Strings rewrites the strings reachable from v, which must be settable, with f. Unexported
// fields are left as they are.
func Strings(v reflect.Value, f func(string) string) { StringsBy(v, f, nil) }

// Field names a string field of a struct type, e.g. {reflect.TypeOf(report.Fix{}), "Command"}.
type Field struct {
	Type reflect.Type
	Name string
}

// StringsBy is Strings, rewriting the string fields named in fields with their own function
// instead of f (a fix command is quoted for the terminal, not escaped like prose).
func StringsBy(v reflect.Value, f func(string) string, fields map[Field]func(string) string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(f(v.String()))
	case reflect.Struct:
		for i := range v.NumField() {
			fv := v.Field(i)
			if !fv.CanSet() {
				continue
			}
			if fields != nil && fv.Kind() == reflect.String {
				if g, ok := fields[Field{v.Type(), v.Type().Field(i).Name}]; ok {
					fv.SetString(g(fv.String()))
					continue
				}
			}
			StringsBy(fv, f, fields)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			c := reflect.New(v.Type().Elem())
			c.Elem().Set(v.Elem())
			StringsBy(c.Elem(), f, fields)
			v.Set(c)
		}
	case reflect.Slice:
		if !v.IsNil() {
			c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(c, v)
			for i := range c.Len() {
				StringsBy(c.Index(i), f, fields)
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
				StringsBy(k, f, fields)
				e := reflect.New(v.Type().Elem()).Elem()
				e.Set(iter.Value())
				StringsBy(e, f, fields)
				c.SetMapIndex(k, e)
			}
			v.Set(c)
		}
	case reflect.Interface:
		if !v.IsNil() {
			e := reflect.New(v.Elem().Type()).Elem()
			e.Set(v.Elem())
			StringsBy(e, f, fields)
			v.Set(e)
		}
	}
}
