package ireval

import (
	"reflect"

	"github.com/open-policy-agent/opa/v1/ast"
)

// arrayBuilder is an array a plan builds element by element (MakeArrayStmt, then
// ArrayAppendStmt: an array comprehension or literal). OPA's arrays are immutable values, so
// appending to one copies it each time; a builder appends to a Go slice and makes the term once,
// when one is needed. Its elements stay values: `[dev, p]` keeps two views, and reading
// `dp[0].name` converts neither device nor port (with all their GIDs).
type arrayBuilder struct {
	elems []value
	term  *ast.Term // the array as a term, made on first need after the last append
}

// builderInfo marks a value that holds an *arrayBuilder in v.
var builderInfo = &typeInfo{kind: reflect.Invalid}

// newBuilder returns an empty array under construction. Builders are reused by the next
// evaluation (Reset): nothing reads them once the evaluation is over, since results are terms.
func (e *Eval) newBuilder() value {
	var b *arrayBuilder
	if n := len(e.spareBuilders); n > 0 {
		b = e.spareBuilders[n-1]
		e.spareBuilders = e.spareBuilders[:n-1]
		clear(b.elems)
		b.elems, b.term = b.elems[:0], nil
	} else {
		b = &arrayBuilder{}
	}
	e.usedBuilders = append(e.usedBuilders, b)
	return value{v: reflect.ValueOf(b), ti: builderInfo}
}

// builder is the array x holds under construction, or nil.
func (x value) builder() *arrayBuilder {
	if x.ti != builderInfo {
		return nil
	}
	return x.v.Interface().(*arrayBuilder)
}

func (b *arrayBuilder) append(v value) {
	b.elems = append(b.elems, v)
	b.term = nil
}

// built is the array as a term.
func (e *Eval) built(b *arrayBuilder) (*ast.Term, error) {
	if b.term == nil {
		terms := make([]*ast.Term, len(b.elems))
		for i, v := range b.elems {
			t, err := e.term(v)
			if err != nil {
				return nil, err
			}
			terms[i] = t
		}
		b.term = ast.NewTerm(ast.NewArray(terms...))
	}
	return b.term, nil
}

// settle is x, with an array under construction turned into its term.
func (e *Eval) settle(x value) (value, error) {
	if x.ti != builderInfo {
		return x, nil
	}
	t, err := e.built(x.builder())
	return value{t: t}, err
}
