package lazyregexp

import (
	"sync"
	"testing"
)

// TestNew: in a test a bad pattern fails when it is declared, as regexp.MustCompile does; the
// expression is compiled once, whoever uses it first, and matches as regexp's does.
func TestNew(t *testing.T) {
	func() {
		defer func() {
			if recover() == nil {
				t.Error("New(`(`) did not panic in a test")
			}
		}()
		New(`(`)
	}()
	r := &Regexp{str: `^port (\d+)$`} // as New makes it outside tests: not compiled yet
	var wg sync.WaitGroup
	got := make([][]string, 8)
	for i := range got {
		wg.Go(func() { got[i] = r.FindStringSubmatch("port 12") })
	}
	wg.Wait()
	for _, m := range got {
		if len(m) != 2 || m[1] != "12" {
			t.Fatalf("FindStringSubmatch: %q", m)
		}
	}
	if !r.MatchString("port 1") || r.MatchString("port x") || r.String() != `^port (\d+)$` {
		t.Errorf("MatchString or String wrong for %s", r)
	}
}
