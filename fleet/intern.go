package fleet

import (
	"encoding/json"
	"hash/maphash"
	"reflect"
	"sync"
	"unique"

	"github.com/rdmadoctor/rdmadoctor/internal/rewrite"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// interner keeps one copy of what many nodes' reports share. A node's evidence quotes lines of
// its snapshot's files, and a Go substring keeps its whole file alive: without this a fleet
// would hold every node's inputs to the end. Whole lists equal to another node's (the skipped
// rules of nodes whose snapshots hold the same inputs, the diagnoses of identical nodes) are
// shared; the strings of the others are made canonical (unique.Make), so memory grows with
// what differs between nodes, not with their number. Safe for concurrent use.
type interner struct {
	seed      maphash.Seed
	mu        sync.Mutex
	diagnoses map[uint64][][]report.Diagnosis
	skipped   map[uint64][][]report.Skipped
}

func newInterner() *interner {
	return &interner{seed: maphash.MakeSeed(), diagnoses: map[uint64][][]report.Diagnosis{}, skipped: map[uint64][][]report.Skipped{}}
}

// node replaces n's lists and strings with the shared copies. n's lists must be its own (its
// report was made for it); the shared ones must not be modified afterwards.
func (in *interner) node(n *report.FleetNode) {
	n.Diagnoses = share(in, in.diagnoses, n.Diagnoses)
	n.Skipped = share(in, in.skipped, n.Skipped)
	for _, p := range []*string{&n.Host, &n.Hostname, &n.Snapshot, &n.Status, &n.Error, &n.Worst} {
		*p = canonical(*p)
	}
	rewrite.Strings(reflect.ValueOf(&n.Incomplete).Elem(), canonical)
	if n.Summary != nil {
		rewrite.Strings(reflect.ValueOf(n).Elem().FieldByName("Summary"), canonical)
	}
}

// share returns the list equal to v kept in m, or keeps v (its strings made canonical) as that.
func share[T any](in *interner, m map[uint64][][]T, v []T) []T {
	if len(v) == 0 {
		return v
	}
	b, err := json.Marshal(v)
	if err != nil { // not expected of a report; keep the node's own
		rewrite.Strings(reflect.ValueOf(&v).Elem(), canonical)
		return v
	}
	h := maphash.Bytes(in.seed, b)
	in.mu.Lock()
	for _, kept := range m[h] {
		if reflect.DeepEqual(kept, v) {
			in.mu.Unlock()
			return kept
		}
	}
	in.mu.Unlock()
	rewrite.Strings(reflect.ValueOf(&v).Elem(), canonical)
	in.mu.Lock()
	m[h] = append(m[h], v)
	in.mu.Unlock()
	return v
}

func canonical(s string) string {
	if s == "" {
		return s
	}
	return unique.Make(s).Value()
}
