package ireval

import "github.com/open-policy-agent/opa/v1/ir"

// A scan can stop at its first successful iteration when all that iteration can do is set one
// local to one constant, as the planner compiles an existential test (`some g in p.gids;
// g.type != ""` in a rule or function that is then true): later iterations could only set it to
// the same value again. OPA's evaluator exits such loops early too; the plan does not say so.
//
// earlyExit returns that local for s, or -1. The body must write no local that is read outside
// it other than that one, mutate no collection it did not make, and neither return, add results
// nor replace input or data.
func earlyExit(s *ir.ScanStmt, reads map[ir.Local]int) ir.Local {
	a := bodyAnalysis{reads: map[ir.Local]int{}, writes: map[ir.Local]bool{}, made: map[ir.Local]bool{}, target: -1}
	a.writes[s.Key], a.writes[s.Value] = true, true
	if !a.block(s.Block) || a.target < 0 {
		return -1
	}
	for l := range a.writes {
		if l != a.target && reads[l] > a.reads[l] {
			return -1 // read after the scan
		}
	}
	for l := range a.mutated {
		if !a.made[l] || reads[l] > a.reads[l] {
			return -1
		}
	}
	if a.writes[a.target] && a.assigned != a.writesOfTarget {
		return -1
	}
	return a.target
}

type bodyAnalysis struct {
	reads          map[ir.Local]int
	writes         map[ir.Local]bool
	made           map[ir.Local]bool // made by a Make*Stmt in the body
	mutated        map[ir.Local]bool
	target         ir.Local
	counting       bool // localReads: count reads, look for no target
	constant       ir.Val
	assigned       int // constant assignments of target
	writesOfTarget int // all writes of target
}

func (a *bodyAnalysis) read(ops ...ir.Operand) {
	for _, o := range ops {
		if l, ok := operandLocal(o); ok {
			a.reads[l]++
		}
	}
}

func (a *bodyAnalysis) readLocal(ls ...ir.Local) {
	for _, l := range ls {
		a.reads[l]++
	}
}

func (a *bodyAnalysis) write(l ir.Local) {
	a.writes[l] = true
	if l == a.target {
		a.writesOfTarget++
	}
}

func (a *bodyAnalysis) mutate(l ir.Local) {
	if a.mutated == nil {
		a.mutated = map[ir.Local]bool{}
	}
	a.mutated[l] = true
	a.reads[l]++
}

// block analyses b; false when it holds a statement that rules the scan out.
func (a *bodyAnalysis) block(b *ir.Block) bool {
	for _, s := range b.Stmts {
		if !a.stmt(s) {
			return false
		}
	}
	return true
}

func (a *bodyAnalysis) stmt(s ir.Stmt) bool {
	switch s := s.(type) {
	case *ir.AssignVarOnceStmt:
		if _, isLocal := operandLocal(s.Source); !isLocal && !a.counting {
			if a.target >= 0 && (a.target != s.Target || a.constant != s.Source.Value) {
				return false // another local or constant
			}
			if a.target < 0 {
				a.target, a.constant = s.Target, s.Source.Value
				a.writesOfTarget = 0
				if a.writes[s.Target] {
					return false // written before in the body
				}
			}
			a.assigned++
		}
		a.read(s.Source)
		a.readLocal(s.Target)
		a.write(s.Target)
	case *ir.AssignVarStmt:
		a.read(s.Source)
		a.write(s.Target)
	case *ir.CallStmt:
		a.read(s.Args...)
		a.write(s.Result)
	case *ir.DotStmt:
		a.read(s.Source, s.Key)
		a.write(s.Target)
	case *ir.LenStmt:
		a.read(s.Source)
		a.write(s.Target)
	case *ir.EqualStmt:
		a.read(s.A, s.B)
	case *ir.NotEqualStmt:
		a.read(s.A, s.B)
	case *ir.IsArrayStmt:
		a.read(s.Source)
	case *ir.IsObjectStmt:
		a.read(s.Source)
	case *ir.IsSetStmt:
		a.read(s.Source)
	case *ir.IsDefinedStmt:
		a.readLocal(s.Source)
	case *ir.IsUndefinedStmt:
		a.readLocal(s.Source)
	case *ir.ArrayAppendStmt:
		a.read(s.Value)
		a.mutate(s.Array)
	case *ir.ObjectInsertStmt:
		a.read(s.Key, s.Value)
		a.mutate(s.Object)
	case *ir.ObjectInsertOnceStmt:
		a.read(s.Key, s.Value)
		a.mutate(s.Object)
	case *ir.SetAddStmt:
		a.read(s.Value)
		a.mutate(s.Set)
	case *ir.ObjectMergeStmt:
		a.readLocal(s.A, s.B)
		a.write(s.Target)
	case *ir.MakeArrayStmt:
		a.write(s.Target)
		a.made[s.Target] = true
	case *ir.MakeObjectStmt:
		a.write(s.Target)
		a.made[s.Target] = true
	case *ir.MakeSetStmt:
		a.write(s.Target)
		a.made[s.Target] = true
	case *ir.MakeNullStmt:
		a.write(s.Target)
	case *ir.MakeNumberIntStmt:
		a.write(s.Target)
	case *ir.MakeNumberRefStmt:
		a.write(s.Target)
	case *ir.AssignIntStmt:
		a.write(s.Target)
	case *ir.ResetLocalStmt:
		a.write(s.Target)
	case *ir.ScanStmt:
		a.readLocal(s.Source)
		a.write(s.Key)
		a.write(s.Value)
		return a.block(s.Block)
	case *ir.NotStmt:
		return a.block(s.Block)
	case *ir.BlockStmt:
		for _, b := range s.Blocks {
			if !a.block(b) {
				return false
			}
		}
	case *ir.BreakStmt, *ir.NopStmt:
	default: // ReturnLocal, ResultSetAdd, With, CallDynamic
		return false
	}
	return true
}

// localReads counts the reads of every local in bs (for earlyExit: reads outside a body are
// these less the body's own).
func localReads(bs []*ir.Block) map[ir.Local]int {
	a := bodyAnalysis{reads: map[ir.Local]int{}, writes: map[ir.Local]bool{}, made: map[ir.Local]bool{}, target: -1, counting: true}
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		for _, s := range b.Stmts {
			a.countReads(s, walk)
		}
	}
	for _, b := range bs {
		walk(b)
	}
	return a.reads
}

// countReads counts the reads of s and walks its nested blocks, whatever the statement.
func (a *bodyAnalysis) countReads(s ir.Stmt, walk func(*ir.Block)) {
	switch s := s.(type) {
	case *ir.ReturnLocalStmt:
		a.readLocal(s.Source)
	case *ir.ResultSetAddStmt:
		a.readLocal(s.Value)
	case *ir.WithStmt:
		a.readLocal(s.Local)
		a.read(s.Value)
		walk(s.Block)
	case *ir.ScanStmt:
		a.readLocal(s.Source)
		walk(s.Block)
	case *ir.NotStmt:
		walk(s.Block)
	case *ir.BlockStmt:
		for _, b := range s.Blocks {
			walk(b)
		}
	case *ir.CallDynamicStmt:
		a.readLocal(s.Args...)
	default:
		a.stmt(s)
	}
}
