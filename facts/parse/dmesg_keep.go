package parse

import (
	"sort"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// eventKeeper keeps, of each event kind, the first MaxEventsPerKind events and the last
// MaxEventsPerKind (a ring), and counts those that fall between.
type eventKeeper struct {
	kinds map[string]*keptKind
}

type keptKind struct {
	first   []facts.KernelEvent
	last    []facts.KernelEvent // a ring of MaxEventsPerKind once full; next is its oldest
	next    int
	omitted int
}

func newEventKeeper() *eventKeeper { return &eventKeeper{kinds: map[string]*keptKind{}} }

func (k *eventKeeper) add(ev facts.KernelEvent) {
	kk := k.kinds[ev.Kind]
	if kk == nil {
		kk = &keptKind{}
		k.kinds[ev.Kind] = kk
	}
	switch {
	case len(kk.first) < MaxEventsPerKind:
		kk.first = append(kk.first, ev)
	case len(kk.last) < MaxEventsPerKind:
		kk.last = append(kk.last, ev)
	default:
		kk.last[kk.next] = ev // the oldest of the last ones is now between: omitted
		kk.next = (kk.next + 1) % MaxEventsPerKind
		kk.omitted++
	}
}

// log returns the kept events in line order, and the omitted counts (nil when none).
func (k *eventKeeper) log() DmesgLog {
	var out DmesgLog
	for kind, kk := range k.kinds {
		out.Events = append(out.Events, kk.first...)
		out.Events = append(out.Events, kk.last...)
		if kk.omitted > 0 {
			if out.Omitted == nil {
				out.Omitted = map[string]int{}
			}
			out.Omitted[kind] = kk.omitted
		}
	}
	sort.Slice(out.Events, func(a, b int) bool { return out.Events[a].Evidence.Line < out.Events[b].Evidence.Line })
	return out
}
