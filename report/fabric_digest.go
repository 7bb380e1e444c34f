package report

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/rules"
	"gopkg.in/yaml.v3"
)

// DigestCap is how many subnet managers, links with errors and unmapped host ports a
// FabricDigest lists; the More fields count the rest.
const DigestCap = 10

// FabricDigest is what the human fleet reports (table, Markdown, HTML) show of the fleet's
// fabric (Fleet.Fabric, whole in JSON and YAML): its size; its subnet managers with who saw
// them; the links with an error counter at either end, both ends with the counters and the
// host whose capture counted them; and how many of the hosts' InfiniBand ports are mapped to the
// port at the other end of their cable, naming those that are not. Lists are cut at DigestCap.
type FabricDigest struct {
	// Nodes, Switches, Ports and Links count the merged view.
	Nodes, Switches, Ports, Links int
	// Incomplete says the view dropped ports or links over its limits ("" when it did not).
	Incomplete string
	// SMs are the subnet managers the hosts' sminfo (and ibdiagnet2.sm) answers named: masters
	// first, then by priority, highest first.
	SMs     []DigestSM
	SMsMore int
	// ErrorLinks are the links with receive errors at either end over rdma-core's thresholds
	// (receiveThresholds), each end with its error counters above zero (facts.PortErrorCounters):
	// those whose counters rose during ibdiagnet's sample first, then the most receive errors.
	ErrorLinks     []DigestLink
	ErrorLinksMore int
	// HostPorts counts the hosts' own InfiniBand ports (those whose link layer is not
	// Ethernet); Mapped those tied to the port at the other end of their cable; Unmapped names
	// the others ("node07 mlx5_0/1"), UnmappedMore counts those not named.
	HostPorts, Mapped int
	Unmapped          []string
	UnmappedMore      int
}

// DigestSM is one subnet manager as the hosts saw it.
type DigestSM struct {
	// GUID is its port GUID; LID, Priority (0-15) and State ("MASTER", "STANDBY", sminfo's
	// SMINFO_ left out) as printed, "?" when not.
	GUID, LID, Priority, State string
	// SeenBy are the hosts whose captures named it, sorted; Via the tools ("sminfo",
	// "ibdiagnet2").
	SeenBy []string
	Via    []string
}

// DigestLink is a link with errors: A and B are its ends, the switch end first.
type DigestLink struct {
	A, B DigestEnd
	// Rising is set when a receive-error counter of either end rose over its threshold during
	// ibdiagnet's sample.
	Rising bool
	over   bool  // a receive-error counter of either end is over its threshold
	total  int64 // the receive errors of both ends
}

// receiveThresholds are the counters a port raises for errors in what it received, each with
// its limits [an increase during ibdiagnet's sample, the count since last clear]: the table
// rules/data/receive_thresholds.yaml (rdma-core's error_thresholds), which the fleet rules judge
// links by too (rules/lib/fleet_fabric.rego), read from rules.FS on first use. Link downs and
// retrains count at both ends whatever the cause: they are shown, but make no link one with
// errors. It panics when the embedded table does not parse (rules tests hold it).
var receiveThresholds = sync.OnceValue(func() map[string][2]int64 {
	b, err := rules.FS.ReadFile("data/receive_thresholds.yaml")
	if err != nil {
		panic(err)
	}
	var t struct {
		Thresholds map[string][2]int64 `yaml:"receive_thresholds"`
	}
	if err := yaml.Unmarshal(b, &t); err != nil || len(t.Thresholds) == 0 {
		panic(fmt.Sprintf("rules/data/receive_thresholds.yaml: %v", err))
	}
	return t.Thresholds
})

// DigestEnd is one end of a link with errors.
type DigestEnd struct {
	// Port names it: `switch 0xfc6a1c030091f600 "Quantum-2 Mellanox Technologies" port 1 (1/1/1)`,
	// `CA 0x5c25730300e66b0e "node01 mlx5_3" port 1 (node01 mlx5_3/1)`.
	Port string
	// Counters are the error counters above zero, one entry per host whose capture counted them.
	Counters []DigestCounters
}

// DigestCounters are one host's view of a port's error counters.
type DigestCounters struct {
	Host string
	// Text is "symbol_error 120 (+7 during ibdiagnet's sample), port_rcv_errors 3".
	Text string
}

// Digest returns the digest of fab; nil when fab is nil or holds nothing to show (no port, no
// SM answer, no host with an InfiniBand port).
func Digest(fab *facts.FleetFabric) *FabricDigest {
	if fab == nil {
		return nil
	}
	d := &FabricDigest{Nodes: len(fab.Nodes), Ports: len(fab.Ports), Links: len(fab.Links)}
	for _, n := range fab.Nodes {
		if n.Type == "Switch" {
			d.Switches++
		}
	}
	if fab.DroppedPorts > 0 || fab.DroppedLinks > 0 {
		d.Incomplete = fmt.Sprintf("%d ports and %d links over the view's limits were not kept: the fabric is incomplete", fab.DroppedPorts, fab.DroppedLinks)
	}
	own := map[string]string{} // fabric port ID -> "host device/port"
	for _, h := range fab.Hosts {
		for _, p := range h.Ports {
			name := fmt.Sprintf("%s %s/%d", h.Host, p.Device, p.Port)
			if p.FabricPort != "" {
				own[p.FabricPort] = name
			}
			if p.LinkLayer == "Ethernet" {
				continue
			}
			d.HostPorts++
			if p.Peer != "" {
				d.Mapped++
			} else if len(d.Unmapped) < DigestCap {
				d.Unmapped = append(d.Unmapped, name)
			} else {
				d.UnmappedMore++
			}
		}
	}
	d.SMs, d.SMsMore = digestSMs(fab.SMViews)
	d.ErrorLinks, d.ErrorLinksMore = errorLinks(fab, own)
	if d.Ports == 0 && len(d.SMs) == 0 && d.HostPorts == 0 {
		return nil
	}
	return d
}

// digestSMs groups the SM answers by SM (GUID, LID, priority, state).
func digestSMs(views []facts.FabricSMView) ([]DigestSM, int) {
	byKey := map[string]*DigestSM{}
	var keys []string
	for _, v := range views {
		sm := DigestSM{GUID: orUnknown(v.SMGUID), LID: intOrUnknown(v.SMLID), Priority: intOrUnknown(v.Priority),
			State: orUnknown(strings.TrimPrefix(v.State, "SMINFO_"))}
		key := sm.GUID + "|" + sm.LID + "|" + sm.Priority + "|" + sm.State
		s, ok := byKey[key]
		if !ok {
			s = &sm
			byKey[key] = s
			keys = append(keys, key)
		}
		s.SeenBy = addSorted(s.SeenBy, v.Host)
		tool := v.Tool
		if tool == "" {
			tool = "sminfo"
		}
		s.Via = addSorted(s.Via, tool)
	}
	out := make([]DigestSM, len(keys))
	for i, k := range keys {
		out[i] = *byKey[k]
	}
	sort.SliceStable(out, func(i, j int) bool {
		if mi, mj := out[i].State == "MASTER", out[j].State == "MASTER"; mi != mj {
			return mi
		}
		pi, _ := strconv.Atoi(out[i].Priority)
		pj, _ := strconv.Atoi(out[j].Priority)
		if pi != pj {
			return pi > pj
		}
		return out[i].GUID < out[j].GUID
	})
	if len(out) > DigestCap {
		return out[:DigestCap], len(out) - DigestCap
	}
	return out, 0
}

// errorLinks are fab's links with an error counter above zero at either end.
func errorLinks(fab *facts.FleetFabric, own map[string]string) ([]DigestLink, int) {
	ports := make(map[string]*facts.FleetFabricPort, len(fab.Ports))
	for i := range fab.Ports {
		ports[fab.Ports[i].ID] = &fab.Ports[i]
	}
	var out []DigestLink
	for _, l := range fab.Links {
		a, b := ports[l.A], ports[l.B]
		if a == nil || b == nil {
			continue
		}
		if b.NodeType == "Switch" && a.NodeType != "Switch" {
			a, b = b, a
		}
		dl := DigestLink{}
		dl.A = digestEnd(a, own, &dl)
		dl.B = digestEnd(b, own, &dl)
		if dl.over {
			out = append(out, dl)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Rising != out[j].Rising {
			return out[i].Rising
		}
		return out[i].total > out[j].total
	})
	if len(out) > DigestCap {
		return out[:DigestCap], len(out) - DigestCap
	}
	return out, 0
}

// digestEnd is port p as an end of link l, its error counters added to l's totals.
func digestEnd(p *facts.FleetFabricPort, own map[string]string, l *DigestLink) DigestEnd {
	e := DigestEnd{Port: portName(p, own[p.ID])}
	for _, v := range p.Views {
		var parts []string
		for _, c := range facts.PortErrorCounters {
			n, delta := v.Counters[c], v.CounterDeltas[c]
			if n <= 0 && delta <= 0 {
				continue
			}
			s := fmt.Sprintf("%s %d", c, n)
			if _, ok := v.Counters[c]; !ok {
				s = c
			}
			if delta > 0 {
				s += fmt.Sprintf(" (+%d during ibdiagnet's sample)", delta)
			}
			if lim, ok := receiveThresholds()[c]; ok {
				l.total += max(n, delta)
				l.Rising = l.Rising || delta > lim[0]
				l.over = l.over || delta > lim[0] || n > lim[1]
			}
			parts = append(parts, s)
		}
		if len(parts) > 0 {
			e.Counters = append(e.Counters, DigestCounters{Host: v.Host, Text: strings.Join(parts, ", ")})
		}
	}
	return e
}

// portName names a fabric port for people: its node's type, GUID and description, the port
// number, the switch's label for it, and the host whose own port it is.
func portName(p *facts.FleetFabricPort, host string) string {
	kind := p.NodeType
	switch kind {
	case "":
		kind = "port of"
	case "Switch", "Router":
		kind = strings.ToLower(kind)
	}
	guid := p.NodeGUID
	if guid == "" {
		guid = p.PortGUID
	}
	s := kind + " " + guid
	if p.NodeDescription != "" {
		s += " " + strconv.Quote(p.NodeDescription)
	}
	s += " port " + strconv.Itoa(p.Port)
	var notes []string
	if p.Label != "" {
		notes = append(notes, p.Label)
	}
	if host != "" {
		notes = append(notes, host)
	}
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, ", ") + ")"
	}
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

func intOrUnknown(n *int) string {
	if n == nil {
		return "?"
	}
	return strconv.Itoa(*n)
}

// addSorted adds s to the sorted list l unless it holds it already.
func addSorted(l []string, s string) []string {
	i := sort.SearchStrings(l, s)
	if i < len(l) && l[i] == s {
		return l
	}
	return append(l[:i], append([]string{s}, l[i:]...)...)
}
