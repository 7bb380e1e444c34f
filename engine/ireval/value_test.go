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
	if x.t == nil {
		t.Fatalf("scalar view %v", x.v)
	}
	return x.t
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

// TestOnViewBuiltins: object.get and count on a view answer as OPA's built-ins do on the term.
func TestOnViewBuiltins(t *testing.T) {
	v := &doc{Items: []inner{{Name: "a", Extra: map[string]int64{"x": 3}}}, Count: 2}
	prog, err := Prepare(&ir.Policy{Static: &ir.Static{}, Plans: &ir.Plans{}})
	if err != nil {
		t.Fatal(err)
	}
	e, err := prog.NewEval(context.Background(), v, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	items, _, _ := e.get(e.input, value{t: ast.StringTerm("items")})
	for _, tc := range []struct {
		name string
		args []*ast.Term
		x    value
	}{
		{"object.get", []*ast.Term{ast.StringTerm("count"), ast.IntNumberTerm(0)}, e.input},
		{"object.get", []*ast.Term{ast.StringTerm("missing"), ast.StringTerm("dflt")}, e.input},
		{"object.get", []*ast.Term{ast.ArrayTerm(ast.StringTerm("items"), ast.IntNumberTerm(0), ast.StringTerm("extra"), ast.StringTerm("x")), ast.IntNumberTerm(0)}, e.input},
		{"object.get", []*ast.Term{ast.ArrayTerm(ast.StringTerm("items"), ast.IntNumberTerm(5)), ast.NullTerm()}, e.input},
		{"object.get", []*ast.Term{ast.ArrayTerm(), ast.NullTerm()}, items},
		{"count", nil, e.input},
		{"count", nil, items},
	} {
		args := []value{tc.x}
		for _, a := range tc.args {
			args = append(args, value{t: a})
		}
		got, gotOK, handled, err := e.onView(tc.name, args)
		if !handled && tc.name == "object.get" && kindOf(tc.x) == kindObject {
			t.Errorf("%s%v not handled", tc.name, tc.args)
		}
		xt, _ := e.term(tc.x)
		var want *ast.Term
		werr := topdown.GetBuiltin(tc.name)(topdown.BuiltinContext{}, append([]*ast.Term{xt}, tc.args...), func(r *ast.Term) error { want = r; return nil })
		if !handled {
			continue
		}
		if err != nil || (werr == nil) != gotOK {
			t.Errorf("%s%v: ok %v, err %v; OPA: %v", tc.name, tc.args, gotOK, err, werr)
			continue
		}
		gt, _ := e.term(got)
		if gotOK && gt.Value.Compare(want.Value) != 0 {
			t.Errorf("%s%v = %v, OPA: %v", tc.name, tc.args, gt, want)
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
