package ireval

import (
	"reflect"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"
)

// arrayBuilder is an array a plan is still appending to (MakeArrayStmt, then ArrayAppendStmt
// in a loop: an array comprehension). OPA's arrays are immutable values, so appending to one
// copies it each time; a builder appends to a Go slice and makes the term once, when the array
// is first read.
type arrayBuilder struct {
	elems []*ast.Term
	term  *ast.Term // the array as a term, made on first read after the last append
}

// builderInfo marks a value that holds an *arrayBuilder in v.
var builderInfo = &typeInfo{kind: reflect.Invalid}

func newBuilder() value {
	return value{v: reflect.ValueOf(&arrayBuilder{}), ti: builderInfo}
}

// builder is the array under construction x holds, or nil.
func (x value) builder() *arrayBuilder {
	if x.ti != builderInfo {
		return nil
	}
	return x.v.Interface().(*arrayBuilder)
}

func (b *arrayBuilder) append(t *ast.Term) {
	b.elems = append(b.elems, t)
	b.term = nil
}

// built is the array as a term. Clipped, so that appending to either never writes into the
// other's elements.
func (b *arrayBuilder) built() *ast.Term {
	if b.term == nil {
		b.term = ast.NewTerm(ast.NewArray(slices.Clip(b.elems)...))
	}
	return b.term
}

// settle is x, with an array under construction turned into its term.
func settle(x value) value {
	if b := x.builder(); b != nil {
		return value{t: b.built()}
	}
	return x
}
