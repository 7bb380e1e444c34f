package fleet

import (
	"reflect"
	"unique"

	"github.com/rdmadoctor/rdmadoctor/internal/rewrite"
	"github.com/rdmadoctor/rdmadoctor/report"
)

// intern replaces every string reachable from n with its canonical copy (unique.Make). A
// diagnosis' evidence quotes lines of the snapshot's files, and a Go substring keeps its whole
// file alive: without this a fleet would hold every node's inputs to the end. With it, the
// strings many nodes share (rule ids, titles, skip reasons, the same capture's lines) are held
// once, so memory grows with what differs between nodes, not with their number.
func intern(n *report.FleetNode) {
	rewrite.Strings(reflect.ValueOf(n).Elem(), canonical)
}

func canonical(s string) string {
	if s == "" {
		return s
	}
	return unique.Make(s).Value()
}
