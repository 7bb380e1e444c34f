package ireval

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/ir"
	"github.com/open-policy-agent/opa/v1/topdown"
)

type inner struct {
	Name  string            `json:"name"`
	Rate  *float64          `json:"rate_gbps"`
	Tags  []string          `json:"tags,omitempty"`
	Extra map[string]int64  `json:"extra,omitempty"`
	Skip  string            `json:"-"`
	Seen  time.Time         `json:"seen"` // a json.Marshaler
	Attrs map[string]string `json:"attrs"`
}

type doc struct {
	Items   []inner `json:"items"`
	None    []inner `json:"none"`
	Empty   []inner `json:"empty,omitempty"`
	Ptr     *inner  `json:"ptr,omitempty"`
	NilPtr  *inner  `json:"nil_ptr"`
	Count   int     `json:"count,omitempty"`
	Flag    bool    `json:"flag"`
	Any     any     `json:"any"`
	private int
}

// walk rebuilds x through the view operations (each, get), as plans read input.
func walk(t *testing.T, e *Eval, x value) *ast.Term {
	t.Helper()
	switch kindOf(x) {
	case kindObject:
		obj := ast.NewObject()
		err := e.each(x, func(k, v value) (bool, error) {
			got, ok, err := e.get(x, k)
			if err != nil || !ok {
				t.Fatalf("get %v: %v, %v", k.t, ok, err)
			}
			if eq, _ := e.equal(got, v); !eq {
				t.Errorf("get %v differs from each", k.t)
			}
			obj.Insert(k.t, walk(t, e, v))
			return false, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := length(x); n != obj.Len() {
			t.Errorf("length %d, each gave %d keys", n, obj.Len())
		}
		return ast.NewTerm(obj)
	case kindArray:
		var elems []*ast.Term
		if err := e.each(x, func(_, v value) (bool, error) {
			elems = append(elems, walk(t, e, v))
			return false, nil
		}); err != nil {
			t.Fatal(err)
		}
		return ast.ArrayTerm(elems...)
	}
	if x.t == nil && !x.isString() {
		t.Fatalf("scalar view %v", x.v)
	}
	st, err := e.term(x)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestViewMatchesJSON: reading a Go value through views gives the document encoding/json makes
// of it: field names, omitempty, "-", nil pointers and slices as null, Marshalers, map order.
func TestViewMatchesJSON(t *testing.T) {
	rate := 25.78125
	v := &doc{
		Items: []inner{
			{Name: "mlx5_0", Rate: &rate, Tags: []string{"a"}, Extra: map[string]int64{"z": 1, "a": 2}, Skip: "x",
				Seen: time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC), Attrs: map[string]string{}},
			{Name: "mlx5_1"},
		},
		Empty: []inner{},
		Ptr:   &inner{Name: "p"},
		Flag:  true,
		Any:   map[string]any{"k": []any{1.5, "s", nil}},
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ast.ValueFromReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	e, err := (&Program{}).NewEval(context.Background(), v, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e.input.t != nil {
		t.Fatal("the input is not a view")
	}
	got := walk(t, e, e.input)
	if got.Value.Compare(want) != 0 {
		t.Errorf("views give\n%v\nwant\n%v", got, want)
	}
	mat, err := e.term(e.input)
	if err != nil {
		t.Fatal(err)
	}
	if mat.Value.Compare(want) != 0 {
		t.Errorf("the converted view is\n%v\nwant\n%v", mat, want)
	}
}

// TestNativesMatchOPA: the built-in functions evaluated here answer as OPA's implementations
// do on the same values, whether the operands are views or terms, including the type errors
// that make a call undefined.
func TestNativesMatchOPA(t *testing.T) {
	v := &doc{Items: []inner{{Name: "a", Tags: []string{"x", "y"}, Extra: map[string]int64{"x": 3}}}, Count: 2}
	prog, err := Prepare(&ir.Policy{Static: &ir.Static{}, Plans: &ir.Plans{}})
	if err != nil {
		t.Fatal(err)
	}
	e, err := prog.NewEval(context.Background(), v, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	get := func(x value, path ...any) value {
		for _, k := range path {
			kt, err := ast.InterfaceToValue(k)
			if err != nil {
				t.Fatal(err)
			}
			x, _, _ = e.get(x, value{t: ast.NewTerm(kt)})
		}
		return x
	}
	items, item := get(e.input, "items"), get(e.input, "items", 0)
	tags := get(item, "tags")
	name := get(item, "name")
	if !name.isString() {
		t.Fatalf("a string field is %+v, not a string view", name)
	}
	term := func(s string) value { return value{t: ast.MustParseTerm(s)} }
	for _, tc := range []struct {
		name string
		args []value
	}{
		{"object.get", []value{e.input, term(`"count"`), term(`0`)}},
		{"object.get", []value{e.input, term(`"missing"`), term(`"dflt"`)}},
		{"object.get", []value{e.input, term(`["items", 0, "extra", "x"]`), term(`0`)}},
		{"object.get", []value{e.input, term(`["items", 5]`), term(`null`)}},
		{"object.get", []value{items, term(`[]`), term(`null`)}},
		{"object.get", []value{term(`null`), term(`"a"`), term(`1`)}},
		{"object.get", []value{term(`{"a": {"b": 1}}`), term(`["a", "b"]`), term(`0`)}},
		{"object.get", []value{term(`{"a": 1}`), term(`[]`), term(`0`)}},
		{"count", []value{e.input}},
		{"count", []value{items}},
		{"count", []value{term(`"héllo"`)}},
		{"count", []value{term(`null`)}},
		{"count", []value{term(`{1, 2}`)}},
		{"internal.member_2", []value{term(`"y"`), tags}},
		{"internal.member_2", []value{term(`"z"`), tags}},
		{"internal.member_2", []value{term(`3`), get(item, "extra")}},
		{"internal.member_2", []value{term(`1`), term(`{1, 2}`)}},
		{"internal.member_2", []value{term(`1.0`), term(`[1]`)}},
		{"internal.member_2", []value{term(`1`), term(`"1"`)}},
		{"startswith", []value{term(`"fe80::1"`), term(`"fe80:"`)}},
		{"startswith", []value{term(`"fe80::1"`), term(`"ff"`)}},
		{"startswith", []value{term(`null`), term(`"ff"`)}},
		{"neq", []value{term(`1`), term(`1.0`)}},
		{"neq", []value{item, item}},
		{"equal", []value{term(`"a"`), get(item, "name")}},
		{"gt", []value{term(`2`), term(`10`)}},
		{"gt", []value{term(`"b"`), term(`1`)}},
		{"gte", []value{term(`2`), term(`2.0`)}},
		{"lt", []value{term(`null`), term(`false`)}},
		{"lte", []value{term(`[1]`), term(`[1, 0]`)}},
		// string views: a string field read from the input, not yet a term
		{"startswith", []value{name, term(`"a"`)}},
		{"count", []value{name}},
		{"internal.member_2", []value{name, term(`{"a", "b"}`)}},
		{"internal.member_2", []value{name, tags}},
		{"gt", []value{name, term(`"b"`)}},
		{"neq", []value{name, get(get(e.input, "items", 0), "name")}},
		{"equal", []value{name, term(`1`)}},
		{"object.get", []value{term(`{"a": 1}`), name, term(`0`)}},
		{"object.get", []value{item, name, term(`0`)}},
	} {
		if len(tc.args) != nativeArity[tc.name] {
			t.Fatalf("%s: %d operands", tc.name, len(tc.args))
		}
		args := append(append([]value{}, tc.args...), value{}, value{})
		got, gotOK, err := natives[tc.name](e, args[0], args[1], args[2])
		if err != nil {
			t.Fatalf("%s%v: %v", tc.name, tc.args, err)
		}
		terms := make([]*ast.Term, len(tc.args))
		for i, a := range tc.args {
			if terms[i], err = e.term(a); err != nil {
				t.Fatal(err)
			}
		}
		var want *ast.Term
		werr := topdown.GetBuiltin(tc.name)(topdown.BuiltinContext{}, terms, func(r *ast.Term) error { want = r; return nil })
		if gotOK != (werr == nil && want != nil) {
			t.Errorf("%s%v: defined %v; OPA: %v, %v", tc.name, terms, gotOK, want, werr)
			continue
		}
		if !gotOK {
			continue
		}
		gt, err := e.term(got)
		if err != nil {
			t.Fatal(err)
		}
		if gt.Value.Compare(want.Value) != 0 {
			t.Errorf("%s%v = %v, OPA: %v", tc.name, terms, gt, want)
		}
	}
}

// TestPrepareErrors: what the interpreter cannot run is an error, at Prepare or at Check.
func TestPrepareErrors(t *testing.T) {
	static := &ir.Static{Strings: []*ir.StringConst{{Value: "x"}}}
	fn := func(stmts ...ir.Stmt) *ir.Policy {
		return &ir.Policy{Static: static, Plans: &ir.Plans{}, Funcs: &ir.Funcs{Funcs: []*ir.Func{
			{Name: "f", Params: []ir.Local{0, 1}, Return: 2, Blocks: []*ir.Block{{Stmts: stmts}}}}}}
	}
	for name, p := range map[string]*ir.Policy{
		"unknown builtin":     {Static: &ir.Static{BuiltinFuncs: []*ir.BuiltinFunc{{Name: "no.such"}}}, Plans: &ir.Plans{}},
		"no parameters":       {Static: static, Plans: &ir.Plans{}, Funcs: &ir.Funcs{Funcs: []*ir.Func{{Name: "f"}}}},
		"dynamic call":        fn(&ir.CallDynamicStmt{}),
		"unknown function":    fn(&ir.CallStmt{Func: "g", Result: 3}),
		"number out of range": fn(&ir.MakeNumberRefStmt{Index: 5, Target: 3}),
	} {
		prog, err := Prepare(p)
		if err == nil {
			err = prog.Check()
		}
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := Prepare(nil); err == nil {
		t.Error("nil policy: no error")
	}
}
