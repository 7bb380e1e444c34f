package schema

import "encoding/json"

// ForRego returns the schema as OPA's type checker should see it: Snapshot with every
// "anyOf: [T, null]" replaced by T. OPA types a "null" alternative as any, which would switch
// off checking below every nullable field; at evaluation time null values still arrive and
// rules treat them as absent.
func ForRego() any { return forRego(Snapshot()) }

// FleetForRego is Fleet as OPA's type checker should see it (the fleet rules' input), the way
// ForRego is Snapshot.
func FleetForRego() any { return forRego(Fleet()) }

func forRego(schema []byte) any {
	var doc any
	if err := json.Unmarshal(schema, &doc); err != nil {
		panic(err) // the schemas are valid JSON by construction.
	}
	return stripNull(doc)
}

func stripNull(v any) any {
	switch v := v.(type) {
	case map[string]any:
		if alts, ok := v["anyOf"].([]any); ok && len(alts) == 2 {
			if t, ok := nonNull(alts); ok {
				for k, x := range t {
					v[k] = x
				}
				delete(v, "anyOf")
			}
		}
		for k, x := range v {
			v[k] = stripNull(x)
		}
		return v
	case []any:
		for i, x := range v {
			v[i] = stripNull(x)
		}
		return v
	}
	return v
}

// nonNull returns the alternative of a two-way anyOf that is not {"type": "null"}.
func nonNull(alts []any) (map[string]any, bool) {
	for i, a := range alts {
		m, ok := a.(map[string]any)
		if ok && len(m) == 1 && m["type"] == "null" {
			other, ok := alts[1-i].(map[string]any)
			return other, ok
		}
	}
	return nil, false
}
