package ireval

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ir"
)

// TestEarlyExit: an existential scan (its body only sets one local to a constant) may stop at
// its first success; a scan whose body leaves anything else behind may not.
func TestEarlyExit(t *testing.T) {
	str := func(i int) ir.Operand { return ir.Operand{Value: ir.StringIndex(i)} }
	loc := func(l int) ir.Operand { return ir.Operand{Value: ir.Local(l)} }
	scan := func(body ...ir.Stmt) *ir.ScanStmt {
		return &ir.ScanStmt{Source: 3, Key: 4, Value: 5, Block: &ir.Block{Stmts: body}}
	}
	test := []ir.Stmt{
		&ir.DotStmt{Source: loc(5), Key: str(0), Target: 6},
		&ir.NotEqualStmt{A: loc(6), B: str(1)},
	}
	found := &ir.AssignVarOnceStmt{Source: ir.Operand{Value: ir.Bool(true)}, Target: 2}
	for _, tc := range []struct {
		name string
		scan *ir.ScanStmt
		want ir.Local
	}{
		{"existential", scan(append(test, found)...), 2},
		{"nested scan", scan(&ir.ScanStmt{Source: 5, Key: 8, Value: 9, Block: &ir.Block{Stmts: []ir.Stmt{found}}}), 2},
		{"no constant", scan(append(test, &ir.AssignVarOnceStmt{Source: loc(6), Target: 2})...), -1},
		{"two constants", scan(found, &ir.AssignVarOnceStmt{Source: ir.Operand{Value: ir.Bool(false)}, Target: 2}), -1},
		{"adds to an outer set", scan(append(test, &ir.SetAddStmt{Value: loc(6), Set: 7}, found)...), -1},
		{"adds to its own array", scan(append(test, &ir.MakeArrayStmt{Target: 10}, &ir.ArrayAppendStmt{Value: loc(6), Array: 10}, found)...), 2},
		{"writes a local read later", scan(append(test, &ir.AssignVarStmt{Source: loc(6), Target: 11}, found)...), -1},
		{"adds a result", scan(append(test, &ir.ResultSetAddStmt{Value: 6}, found)...), -1},
		{"target reset", scan(append(test, found, &ir.ResetLocalStmt{Target: 2})...), -1},
	} {
		fn := []*ir.Block{
			{Stmts: []ir.Stmt{&ir.MakeSetStmt{Target: 7}, tc.scan}},
			{Stmts: []ir.Stmt{&ir.IsDefinedStmt{Source: 2}, &ir.AssignVarStmt{Source: loc(11), Target: 12}, &ir.ReturnLocalStmt{Source: 7}}},
		}
		if got := earlyExit(tc.scan, localReads(fn)); got != tc.want {
			t.Errorf("%s: earlyExit = %d, want %d", tc.name, got, tc.want)
		}
	}
}
