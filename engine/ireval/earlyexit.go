package ireval

import "github.com/open-policy-agent/opa/v1/ir"

// A scan can stop at its first successful iteration when all that iteration can do is set one
// local to one constant, as the planner compiles an existential test (`some g in p.gids;
// g.type != ""` in a rule or function that is then true): later iterations could only set it to
// the same value again. OPA's evaluator exits such loops early too; the plan does not say so.
//
// earlyExit returns that local for s, or -1; reads counts the reads of every local of the
// function (localReads). The body must write no local that is read outside it other than that
// one, add to no collection it did not make, and neither return, add results nor replace input
// or data.
func earlyExit(s *ir.ScanStmt, reads map[ir.Local]int) ir.Local {
	a := bodyAnalysis{reads: map[ir.Local]int{}, writes: map[ir.Local]int{}, made: map[ir.Local]bool{},
		mutated: map[ir.Local]bool{}, target: -1}
	a.writes[s.Key]++
	a.writes[s.Value]++
	if !a.block(s.Block) || a.target < 0 || a.writes[a.target] != a.assigned {
		return -1 // no constant target, or the target is also set otherwise
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
	return a.target
}

// setsConstant reports whether b (or a block nested in it) sets a local to a constant with an
// AssignVarOnceStmt: a quick test before earlyExit, without allocating.
func setsConstant(b *ir.Block) bool {
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *ir.AssignVarOnceStmt:
			if _, isLocal := operandLocal(s.Source); !isLocal {
				return true
			}
		case *ir.ScanStmt:
			if setsConstant(s.Block) {
				return true
			}
		case *ir.NotStmt:
			if setsConstant(s.Block) {
				return true
			}
		case *ir.BlockStmt:
			for _, nb := range s.Blocks {
				if setsConstant(nb) {
					return true
				}
			}
		}
	}
	return false
}

type bodyAnalysis struct {
	reads    map[ir.Local]int
	writes   map[ir.Local]int
	made     map[ir.Local]bool // made by a Make*Stmt in the body
	mutated  map[ir.Local]bool
	target   ir.Local
	constant ir.Val
	assigned int // constant assignments of target
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
	case *ir.ReturnLocalStmt, *ir.ResultSetAddStmt, *ir.WithStmt:
		return false
	case *ir.AssignVarOnceStmt:
		if _, isLocal := operandLocal(s.Source); !isLocal {
			switch {
			case a.target < 0 && a.writes[s.Target] == 0:
				a.target, a.constant = s.Target, s.Source.Value
			case a.target != s.Target || a.constant != s.Source.Value:
				return false // another local or constant
			}
			a.assigned++
		}
	}
	u, ok := usesOf(s)
	if !ok {
		return false
	}
	for _, l := range u.reads {
		a.reads[l]++
	}
	for _, l := range u.writes {
		a.writes[l]++
	}
	for _, l := range u.mutates {
		a.reads[l]++
		a.mutated[l] = true
	}
	if u.makes >= 0 {
		a.made[u.makes] = true
	}
	for _, b := range u.blocks {
		if !a.block(b) {
			return false
		}
	}
	return true
}

// localReads counts the reads of every local in bs, nested blocks included.
func localReads(bs []*ir.Block) map[ir.Local]int {
	reads := map[ir.Local]int{}
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		for _, s := range b.Stmts {
			u, _ := usesOf(s)
			for _, ls := range [][]ir.Local{u.reads, u.mutates} {
				for _, l := range ls {
					reads[l]++
				}
			}
			for _, nb := range u.blocks {
				walk(nb)
			}
		}
	}
	for _, b := range bs {
		walk(b)
	}
	return reads
}
