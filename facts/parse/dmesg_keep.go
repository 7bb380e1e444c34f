package parse

import (
	"sort"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// eventKeeper keeps, of each event kind, the first MaxEventsPerKind events and the last
// MaxEventsPerKind (a ring), and counts those that fall between.
type eventKeeper struct {
	kinds map[string]*keptKind
}

type keptKind struct {
	first []facts.KernelEvent
	// last is a ring of MaxEventsPerKind once full, next its oldest; the text of each line is
	// in lastText, a buffer reused as the ring turns, and becomes the evidence text in log.
	last     []facts.KernelEvent
	lastText [][]byte
	next     int
	omitted  int
}

func newEventKeeper() *eventKeeper { return &eventKeeper{kinds: map[string]*keptKind{}} }

// add keeps ev, read from l, if it is among the first or (so far) the last of its kind. l's
// text is copied: it is valid only during the EachLine call.
func (k *eventKeeper) add(ev facts.KernelEvent, l Line) {
	kk := k.kinds[ev.Kind]
	if kk == nil {
		kk = &keptKind{}
		k.kinds[ev.Kind] = kk
	}
	ev.Evidence = facts.Evidence{Line: l.N}
	switch {
	case len(kk.first) < MaxEventsPerKind:
		ev.Evidence.Text = strings.Clone(l.Text)
		kk.first = append(kk.first, ev)
	case len(kk.last) < MaxEventsPerKind:
		kk.last = append(kk.last, ev)
		kk.lastText = append(kk.lastText, []byte(l.Text))
	default:
		// The oldest of the last ones is now between the first and the last: omitted.
		kk.last[kk.next] = ev
		kk.lastText[kk.next] = append(kk.lastText[kk.next][:0], l.Text...)
		kk.next = (kk.next + 1) % MaxEventsPerKind
		kk.omitted++
	}
}

// log returns the kept events in line order, and the omitted counts (nil when none).
func (k *eventKeeper) log() DmesgLog {
	var out DmesgLog
	for kind, kk := range k.kinds {
		out.Events = append(out.Events, kk.first...)
		for i, ev := range kk.last {
			ev.Evidence.Text = string(kk.lastText[i])
			out.Events = append(out.Events, ev)
		}
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
