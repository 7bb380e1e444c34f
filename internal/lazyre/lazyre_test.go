package lazyre

import (
	"strings"
	"sync"
	"testing"
)

func TestNew(t *testing.T) {
	re := New(`^(\d+)Mb/s$`)
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Go(func() { got[i] = re().FindStringSubmatch("25000Mb/s")[1] })
	}
	wg.Wait()
	for _, g := range got {
		if g != "25000" {
			t.Fatalf("got %q, want 25000", g)
		}
	}
	if re() != re() {
		t.Error("New compiled the expression twice")
	}
}

func TestCheck(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatalf("Check: %v", err)
	}
	bad := New(`(unclosed`)
	err := Check()
	if err == nil || !strings.Contains(err.Error(), "(unclosed") {
		t.Errorf("Check = %v, want an error naming (unclosed", err)
	}
	exprs = exprs[:len(exprs)-1]
	defer func() {
		if recover() == nil {
			t.Error("calling New's function with an invalid expression did not panic")
		}
	}()
	bad()
}
