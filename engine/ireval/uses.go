package ireval

import "github.com/open-policy-agent/opa/v1/ir"

// localUse is how one statement uses locals, not counting its nested blocks (listed in blocks):
// the locals it reads, those it sets, the collections it adds to (also read), and the
// collections it makes.
type localUse struct {
	reads, writes, mutates []ir.Local
	makes                  ir.Local // -1 unless a Make{Array,Object,Set}Stmt
	blocks                 []*ir.Block
}

// usesOf returns how s uses locals; ok is false for a statement this package does not evaluate
// (CallDynamicStmt, or a type it does not know).
func usesOf(s ir.Stmt) (u localUse, ok bool) {
	u.makes = -1
	read := func(os ...ir.Operand) {
		for _, o := range os {
			if l, isLocal := operandLocal(o); isLocal {
				u.reads = append(u.reads, l)
			}
		}
	}
	switch s := s.(type) {
	case *ir.AssignVarStmt:
		read(s.Source)
		u.writes = []ir.Local{s.Target}
	case *ir.AssignVarOnceStmt:
		read(s.Source)
		u.reads = append(u.reads, s.Target) // compared with the value it may already hold
		u.writes = []ir.Local{s.Target}
	case *ir.CallStmt:
		read(s.Args...)
		u.writes = []ir.Local{s.Result}
	case *ir.DotStmt:
		read(s.Source, s.Key)
		u.writes = []ir.Local{s.Target}
	case *ir.LenStmt:
		read(s.Source)
		u.writes = []ir.Local{s.Target}
	case *ir.EqualStmt:
		read(s.A, s.B)
	case *ir.NotEqualStmt:
		read(s.A, s.B)
	case *ir.IsArrayStmt:
		read(s.Source)
	case *ir.IsObjectStmt:
		read(s.Source)
	case *ir.IsSetStmt:
		read(s.Source)
	case *ir.IsDefinedStmt:
		u.reads = []ir.Local{s.Source}
	case *ir.IsUndefinedStmt:
		u.reads = []ir.Local{s.Source}
	case *ir.ReturnLocalStmt:
		u.reads = []ir.Local{s.Source}
	case *ir.ResultSetAddStmt:
		u.reads = []ir.Local{s.Value}
	case *ir.ArrayAppendStmt:
		read(s.Value)
		u.mutates = []ir.Local{s.Array}
	case *ir.ObjectInsertStmt:
		read(s.Key, s.Value)
		u.mutates = []ir.Local{s.Object}
	case *ir.ObjectInsertOnceStmt:
		read(s.Key, s.Value)
		u.mutates = []ir.Local{s.Object}
	case *ir.SetAddStmt:
		read(s.Value)
		u.mutates = []ir.Local{s.Set}
	case *ir.ObjectMergeStmt:
		u.reads = []ir.Local{s.A, s.B}
		u.writes = []ir.Local{s.Target}
	case *ir.MakeArrayStmt:
		u.writes, u.makes = []ir.Local{s.Target}, s.Target
	case *ir.MakeObjectStmt:
		u.writes, u.makes = []ir.Local{s.Target}, s.Target
	case *ir.MakeSetStmt:
		u.writes, u.makes = []ir.Local{s.Target}, s.Target
	case *ir.MakeNullStmt:
		u.writes = []ir.Local{s.Target}
	case *ir.MakeNumberIntStmt:
		u.writes = []ir.Local{s.Target}
	case *ir.MakeNumberRefStmt:
		u.writes = []ir.Local{s.Target}
	case *ir.AssignIntStmt:
		u.writes = []ir.Local{s.Target}
	case *ir.ResetLocalStmt:
		u.writes = []ir.Local{s.Target}
	case *ir.ScanStmt:
		u.reads = []ir.Local{s.Source}
		u.writes = []ir.Local{s.Key, s.Value}
		u.blocks = []*ir.Block{s.Block}
	case *ir.NotStmt:
		u.blocks = []*ir.Block{s.Block}
	case *ir.BlockStmt:
		u.blocks = s.Blocks
	case *ir.WithStmt:
		read(s.Value)
		u.reads = append(u.reads, s.Local)
		u.writes = []ir.Local{s.Local}
		u.blocks = []*ir.Block{s.Block}
	case *ir.BreakStmt, *ir.NopStmt:
	default:
		return u, false
	}
	return u, true
}
