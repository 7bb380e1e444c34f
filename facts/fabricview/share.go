package fabricview

import (
	"encoding/json"
	"reflect"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// sharer keeps one copy of each distinct list: the hosts of a fleet built from a few node
// images hold equal ports (their evidence names no host), and 10,000 equal lists would be most
// of the fleet document and of its OPA value (docs/performance.md). The lists it returns are
// shared: they must not be modified, nor appended to in place. The zero value is ready to use;
// it is not safe for concurrent use.
type sharer[T any] struct {
	kept map[string][][]T // by listKey
}

// listKey is l's JSON text, "" when l is empty or has none (then it is not shared).
func listKey[T any](l []T) string {
	if len(l) == 0 {
		return ""
	}
	b, err := json.Marshal(l)
	if err != nil { // not expected of fabric facts
		return ""
	}
	return string(b)
}

// share returns the kept list equal to l, or keeps l.
func (s *sharer[T]) share(l []T) []T { return s.shareKey(listKey(l), l) }

// shareKey is share with l's listKey k computed already (outside a lock).
func (s *sharer[T]) shareKey(k string, l []T) []T {
	if k == "" {
		return l
	}
	if s.kept == nil {
		s.kept = map[string][][]T{}
	}
	for _, c := range s.kept[k] {
		if reflect.DeepEqual(c, l) {
			return c
		}
	}
	s.kept[k] = append(s.kept[k], l)
	return l
}

// MarshalJSON writes the port and its names: the listKey of a host's ports.
func (hp hostPort) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Port facts.FabricHostPort `json:"port"`
		Keys []string             `json:"keys"`
	}{hp.port, hp.keys})
}
