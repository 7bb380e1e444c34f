// Package rewrite replaces every string of a value, at any depth, copying each slice, map and
// pointer on the way so that nothing shared with the original changes: the renderers use it to
// make control characters visible, the fleet to hold each distinct string once.
package rewrite

import "reflect"

// Strings rewrites the strings reachable from v, which must be settable, with f. Unexported
// fields are left as they are.
func Strings(v reflect.Value, f func(string) string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(f(v.String()))
	case reflect.Struct:
		for i := range v.NumField() {
			if fv := v.Field(i); fv.CanSet() {
				Strings(fv, f)
			}
		}
	case reflect.Pointer:
		if !v.IsNil() {
			c := reflect.New(v.Type().Elem())
			c.Elem().Set(v.Elem())
			Strings(c.Elem(), f)
			v.Set(c)
		}
	case reflect.Slice:
		if !v.IsNil() {
			c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(c, v)
			for i := range c.Len() {
				Strings(c.Index(i), f)
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
				Strings(k, f)
				e := reflect.New(v.Type().Elem()).Elem()
				e.Set(iter.Value())
				Strings(e, f)
				c.SetMapIndex(k, e)
			}
			v.Set(c)
		}
	case reflect.Interface:
		if !v.IsNil() {
			e := reflect.New(v.Elem().Type()).Elem()
			e.Set(v.Elem())
			Strings(e, f)
			v.Set(e)
		}
	}
}
