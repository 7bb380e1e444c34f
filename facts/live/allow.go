package live

import (
	"fmt"
	"sync"

	"github.com/rdmadoctor/rdmadoctor/facts/build"
)

// The allow-list: the only invocations the gatherer will ever run, the union of the grammars
// the specs declare for their tools (build.Tool.Allow). Every tool here can also change the node,
// so each argv is checked before it reaches exec, and anything not listed is refused.

// allowed is what the specs declare about one tool.
type allowed struct {
	// pkg is the package that installs the tool.
	pkg string
	// grammars are the read-only invocations, from every spec that runs the tool.
	grammars []build.Grammar
}

// allowList maps each tool to its package and grammars, derived once from the specs.
var allowList = sync.OnceValue(func() map[string]allowed {
	m := map[string]allowed{}
	for _, sp := range build.Specs() {
		for _, t := range sp.Tools {
			a := m[t.Name]
			if a.pkg == "" {
				a.pkg = t.Package
			}
			a.grammars = append(a.grammars, t.Allow...)
			m[t.Name] = a
		}
	}
	return m
})

// Check returns an error unless argv is a read-only invocation on the allow-list. argv[0] is
// the bare tool name, not a path.
func Check(argv []string) error {
	if len(argv) == 0 {
		return fmt.Errorf("not allowed: empty command")
	}
	a, ok := allowList()[argv[0]]
	if !ok || len(a.grammars) == 0 {
		return fmt.Errorf("not allowed: %q is not on the read-only allow-list", argv[0])
	}
	var first error
	for _, g := range a.grammars {
		err := g.Accept(argv)
		if err == nil {
			return nil
		}
		if first == nil {
			first = err
		}
	}
	if len(a.grammars) > 1 {
		return fmt.Errorf("%w (nor any other read-only form of %s)", first, argv[0])
	}
	return first
}

// packageOf names the package that installs tool, "" for a tool no spec runs.
func packageOf(tool string) string { return allowList()[tool].pkg }
