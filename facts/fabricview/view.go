package fabricview

import (
	"fmt"
	"sort"
	"sync"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// Bounds of a view. MaxPorts is the ibdiagnet2 parsers' cap (parse.MaxFabricPorts): a fabric
// of 2,000 switches of 64 ports and their CAs fits.
const (
	MaxPorts = 150000
	MaxLinks = 150000
	// MaxViews is the number of records kept per port, per link (its evidence lines) and per
	// node (its seen_by): the fabric seen from 10,000 hosts' ibdiagnet2 runs is still one
	// fabric, not 10,000 copies of it.
	MaxViews = 16
)

// View accumulates the fabric records of many snapshots. The zero value is not usable: New.
type View struct {
	mu     sync.Mutex
	names  unionFind
	ports  map[string]*portAcc // by the first key of their records
	links  map[[2]string]*linkAcc
	nodes  map[string]*nodeAcc
	hosts  map[string]*hostAcc
	sms    []smRecord
	nPorts int
	// maxPorts and maxLinks are MaxPorts and MaxLinks (tests lower them).
	maxPorts, maxLinks int

	droppedPorts, droppedLinks int
	// samePorts keeps one list of the equal own ports of many hosts.
	samePorts sharer[hostPort]
}

type portAcc struct {
	recs    []orderedRecord
	dropped int
}

type orderedRecord struct {
	portRecord
	order string
}

type linkAcc struct {
	ev      []facts.FabricEvidence
	dropped int
}

type nodeAcc struct {
	recs []facts.FleetFabricNode // one per host, by host label, at most MaxViews
}

type hostAcc struct {
	inputs  []string
	ports   []hostPort
	refused []facts.FabricEvidence
}

// New returns an empty view.
func New() *View {
	return &View{
		names: unionFind{}, ports: map[string]*portAcc{}, links: map[[2]string]*linkAcc{},
		nodes: map[string]*nodeAcc{}, hosts: map[string]*hostAcc{}, maxPorts: MaxPorts, maxLinks: MaxLinks,
	}
}

// Add copies into the view what snapshot s of the node labelled host holds of the fabric: its
// own InfiniBand ports, iblinkinfo, ibqueryerrors, ibdiagnet2, local perfquery, ibnetdiscover
// and sminfo records. Nothing of s is kept, so s can be dropped. Safe for concurrent use; a nil
// snapshot adds nothing.
func (v *View) Add(host string, s *facts.Snapshot) {
	if s == nil {
		return
	}
	x := newExtract(host, s) // outside the lock: the copying is the work
	portsKey := listKey(x.hostPts)
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, t := range x.ties {
		v.names.union(t[0], t[1])
	}
	for _, hp := range x.hostPts {
		v.names.add(hp.keys...)
	}
	for _, r := range x.ports {
		v.addPort(r)
	}
	for _, l := range x.links {
		v.addLink(l)
	}
	for _, n := range x.nodes {
		v.addNode(n)
	}
	h := v.hosts[x.host]
	if h == nil {
		h = &hostAcc{}
		v.hosts[x.host] = h
	}
	h.inputs = append(h.inputs, x.inputs...)
	if len(h.ports) == 0 {
		h.ports = v.samePorts.shareKey(portsKey, x.hostPts)
	} else { // a copy: h.ports may be shared
		h.ports = append(h.ports[:len(h.ports):len(h.ports)], x.hostPts...)
	}
	h.refused = append(h.refused, x.refused...)
	v.sms = append(v.sms, x.sms...)
}

// recordOrder sorts a port's records by host label, then by their first evidence line.
func recordOrder(r portRecord) string {
	first := ""
	for _, e := range r.view.Evidence {
		k := fmt.Sprintf("%s\x00%010d", e.Path, e.Line)
		if first == "" || k < first {
			first = k
		}
	}
	return r.view.Host + "\x00" + first
}

func (v *View) addPort(r portRecord) {
	v.names.add(r.keys...)
	for _, k := range r.keys[1:] {
		v.names.union(r.keys[0], k)
	}
	acc := v.ports[r.keys[0]]
	if acc == nil {
		if v.nPorts >= v.maxPorts {
			v.droppedPorts++
			return
		}
		v.nPorts++
		acc = &portAcc{}
		v.ports[r.keys[0]] = acc
	}
	o := orderedRecord{portRecord: r, order: recordOrder(r)}
	i := sort.Search(len(acc.recs), func(i int) bool { return acc.recs[i].order > o.order })
	acc.recs = append(acc.recs, orderedRecord{})
	copy(acc.recs[i+1:], acc.recs[i:])
	acc.recs[i] = o
	if len(acc.recs) > MaxViews {
		acc.recs = acc.recs[:MaxViews]
		acc.dropped++
	}
}

func evidenceLess(a, b facts.FabricEvidence) bool {
	if a.Host != b.Host {
		return a.Host < b.Host
	}
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	return a.Line < b.Line
}

// insertEvidence keeps evs sorted and at most MaxViews long; it reports whether one was dropped.
func insertEvidence(evs []facts.FabricEvidence, e facts.FabricEvidence) ([]facts.FabricEvidence, bool) {
	i := sort.Search(len(evs), func(i int) bool { return evidenceLess(e, evs[i]) })
	if i > 0 && evs[i-1] == e {
		return evs, false
	}
	evs = append(evs, facts.FabricEvidence{})
	copy(evs[i+1:], evs[i:])
	evs[i] = e
	if len(evs) > MaxViews {
		return evs[:MaxViews], true
	}
	return evs, false
}

func (v *View) addLink(l linkRecord) {
	k := [2]string{l.a, l.b}
	if k[1] < k[0] {
		k[0], k[1] = k[1], k[0]
	}
	acc := v.links[k]
	if acc == nil {
		if len(v.links) >= v.maxLinks {
			v.droppedLinks++
			return
		}
		acc = &linkAcc{}
		v.links[k] = acc
	}
	var dropped bool
	if acc.ev, dropped = insertEvidence(acc.ev, l.ev); dropped {
		acc.dropped++
	}
}

func (v *View) addNode(n facts.FleetFabricNode) {
	acc := v.nodes[n.GUID]
	if acc == nil {
		acc = &nodeAcc{}
		v.nodes[n.GUID] = acc
	}
	less := func(a, b facts.FleetFabricNode) bool { return evidenceLess(a.SeenBy[0], b.SeenBy[0]) }
	i := sort.Search(len(acc.recs), func(i int) bool { return less(n, acc.recs[i]) })
	if i > 0 && acc.recs[i-1].SeenBy[0].Host == n.SeenBy[0].Host {
		return // one record per host: its first line naming the node
	}
	if i < len(acc.recs) && acc.recs[i].SeenBy[0].Host == n.SeenBy[0].Host {
		acc.recs[i] = n // an earlier line of the same host
		return
	}
	acc.recs = append(acc.recs, facts.FleetFabricNode{})
	copy(acc.recs[i+1:], acc.recs[i:])
	acc.recs[i] = n
	if len(acc.recs) > MaxViews {
		acc.recs = acc.recs[:MaxViews]
	}
}

// unionFind groups the names of one port.
type unionFind map[string]string

func (u unionFind) add(keys ...string) {
	for _, k := range keys {
		if _, ok := u[k]; !ok {
			u[k] = k
		}
	}
}

func (u unionFind) find(k string) string {
	root := k
	for {
		p, ok := u[root]
		if !ok || p == root {
			break
		}
		root = p
	}
	for k != root { // path compression
		next := u[k]
		u[k] = root
		k = next
	}
	return root
}

func (u unionFind) union(a, b string) {
	u.add(a, b)
	ra, rb := u.find(a), u.find(b)
	if ra == rb {
		return
	}
	if rb < ra {
		ra, rb = rb, ra
	}
	u[rb] = ra
}
