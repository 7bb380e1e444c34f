package live_test

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/live"
	"github.com/rdmadoctor/rdmadoctor/facts/live/livetest"
)

// TestEveryOutputHasASpec: each file the gatherer writes is read by some spec of the builder,
// so nothing gathered is lost to a naming mismatch.
func TestEveryOutputHasASpec(t *testing.T) {
	e := livetest.New(t, "root-h100.txtar", stubs(""))
	res := gatherEnv(t, e, live.Options{})
	var unread []string
	for p := range res.FS {
		if p != live.MetaFile && build.SpecOf(p) == "" {
			unread = append(unread, p)
		}
	}
	sort.Strings(unread)
	if diff := cmp.Diff([]string(nil), unread); diff != "" {
		t.Errorf("outputs no spec reads (-want +got):\n%s", diff)
	}
}
