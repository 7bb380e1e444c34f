package visible

import "reflect"

// Copy returns a copy of *v whose every string, at any depth (struct fields, slices, maps,
// pointers, interfaces), has its control characters made visible by Escape; *v is not modified.
// Reflection rather than a list of fields, so that a field added to a report or to facts is
// covered without a change in the renderers that use it. Unexported fields are copied as they
// are (they cannot be set).
func Copy[T any](v *T) *T {
	out := *v
	escapeValue(reflect.ValueOf(&out).Elem())
	return &out
}

// escapeValue rewrites the strings reachable from v, which must be settable, copying every
// slice, map and pointer on the way so that nothing shared with the original changes.
func escapeValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(Escape(v.String()))
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
