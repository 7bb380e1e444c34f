package live_test

import (
	"fmt"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts/build"
	"github.com/rdmadoctor/rdmadoctor/facts/live"
	"github.com/rdmadoctor/rdmadoctor/facts/live/livetest"
	"github.com/rdmadoctor/rdmadoctor/facts/source"
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
		// An archive of the gather output is a sosreport to source.Open (it holds
		// sos_commands/): every file must be read there too, none skipped by its path.
		if d := build.Select(p, false); d != source.Read {
			unread = append(unread, fmt.Sprintf("%s (%v by path)", p, d))
		}
	}
	sort.Strings(unread)
	if diff := cmp.Diff([]string(nil), unread); diff != "" {
		t.Errorf("outputs no spec reads (-want +got):\n%s", diff)
	}
}
