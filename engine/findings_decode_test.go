package engine

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
)

// viaJSONText decodes v the way decodeFindings did before findingsFrom: through its JSON text.
func viaJSONText(t *testing.T, v any) ([]rawFinding, error) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out []rawFinding
	err = json.Unmarshal(b, &out)
	return out, err
}

// TestFindingsFromMatchesJSON: on every corpus case, the findings of every rule that runs read
// directly are what their JSON text reads to, and none needs the JSON path.
func TestFindingsFromMatchesJSON(t *testing.T) {
	e, err := New(context.Background(), Options{SkipTypeCheck: true}, Builtin())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for name, s := range corpusSnapshots(t) {
		input, err := inputValue(s)
		if err != nil {
			t.Fatal(err)
		}
		run := map[string]bool{}
		for _, id := range e.set.RunnableWith(s.Available) {
			run[e.set.byID[id].pkg] = true
		}
		results, failed := evalRules(withRunnable(context.Background(), run), e.units[0], input, run, 0)
		if len(failed) > 0 {
			t.Fatalf("%s: %v", name, failed)
		}
		for _, r := range results {
			got, ok := findingsFrom(r.value)
			if !ok {
				t.Errorf("%s: %s: findings not read directly: %v", name, r.pkg, r.value)
				continue
			}
			want, err := viaJSONText(t, r.value)
			if err != nil {
				t.Fatalf("%s: %s: %v", name, r.pkg, err)
			}
			if len(got) == 0 && len(want) == 0 {
				continue
			}
			n += len(got)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %s: read directly\n%+v\nfrom JSON\n%+v", name, r.pkg, got, want)
			}
		}
	}
	if n < 50 {
		t.Errorf("only %d findings compared", n)
	}
}

// TestFindingsFromDefers: values encoding/json would read another way, or refuse, are left to
// the JSON path; those it reads the same way are read.
func TestFindingsFromDefers(t *testing.T) {
	ev := map[string]any{"source": "ibstat", "path": "ibstat", "line": json.Number("3"), "text": "State: Down"}
	finding := func(k string, v any) map[string]any {
		f := map[string]any{"message": "m", "subject": map[string]any{"device": "mlx5_0", "port": json.Number("1")}, "evidence": []any{ev}}
		f[k] = v
		return f
	}
	for name, tc := range map[string]struct {
		v      any
		direct bool
	}{
		"contract":              {[]any{finding("vars", map[string]any{"n": json.Number("2.50"), "l": []any{"a", true, nil}})}, true},
		"nulls":                 {[]any{finding("subject", nil), finding("evidence", []any{nil}), finding("vars", nil), finding("severity", nil)}, true},
		"null port":             {[]any{finding("subject", map[string]any{"port": nil})}, true},
		"key in another case":   {[]any{finding("Message", "x")}, false},
		"unknown key":           {[]any{finding("fix", "x")}, false},
		"evidence key":          {[]any{finding("evidence", []any{map[string]any{"Line": json.Number("1")}})}, false},
		"fractional line":       {[]any{finding("evidence", []any{map[string]any{"line": json.Number("1.5")}})}, false},
		"exponent port":         {[]any{finding("subject", map[string]any{"port": json.Number("1e0")})}, false},
		"port as string":        {[]any{finding("subject", map[string]any{"port": "1"})}, false},
		"message as number":     {[]any{finding("message", json.Number("1"))}, false},
		"invalid UTF-8":         {[]any{finding("message", "a\xffb")}, false},
		"invalid UTF-8 in vars": {[]any{finding("vars", map[string]any{"k": []any{"\xff"}})}, false},
		"odd number in vars":    {[]any{finding("vars", map[string]any{"k": json.Number("0x10")})}, false},
		"null finding":          {[]any{nil}, false},
		"string finding":        {[]any{"x"}, false},
		"not a set":             {map[string]any{}, false},
	} {
		got, ok := findingsFrom(tc.v)
		if ok != tc.direct {
			t.Errorf("%s: read directly %v, want %v", name, ok, tc.direct)
			continue
		}
		if !ok {
			continue
		}
		want, err := viaJSONText(t, tc.v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read directly\n%+v\nfrom JSON\n%+v", name, got, want)
		}
	}
}
