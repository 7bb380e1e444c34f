package build

import (
	"io"
	"reflect"
	"strconv"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

var (
	ibdiagnetDBSniffRe      = mustSniff(`^# INDEX_TABLE offset:`)
	ibdiagnetNetDumpSniffRe = mustSniff(`(?m)^\s+#\s+: IB# : Sta\s+: PhysSta`)
	// a port header and its first counter: ibdiagnet2.cables has the same headers over module data
	ibdiagnetSMSniffRe = mustSniff(`(?m)^ibdiagnet fabric SM report\r?$`)
	ibdiagnetPMSniffRe = mustSniff(`(?m)^Port=\d+ Lid=0x[0-9a-fA-F]+ GUID=0x[0-9a-fA-F]+.*\r?\n-+\r?\n(link_down_counter|symbol_error_counter|link_error_recovery_counter)=`)
)

func init() {
	hint := "run `ibdiagnet` (ibutils2, or MLNX_OFED/DOCA) on a node of the fabric and add its output folder (/var/tmp/ibdiagnet2)"
	notLive := "ibdiagnet sweeps the whole fabric (minutes on a large one) and writes its own folder; run it apart and add /var/tmp/ibdiagnet2"
	// After infiniband-diags (50): its hint comes first for fabric_nodes; among themselves
	// db_csv (which maps port GUIDs to nodes) before net_dump and pm.
	const prio = 60
	register(
		Spec{Name: "ibdiagnet2_db_csv", Commands: []string{"ibdiagnet2.db_csv"},
			Sniff: func(h []byte) bool { return ibdiagnetDBSniffRe.Match(h) }, Stream: applyIBDiagnetDB,
			Priority: prio, MissingHint: hint, Groups: []string{"fabric_nodes", "fabric_ports", "fabric_diagnostics"}, NotLive: notLive, FabricWide: true},
		Spec{Name: "ibdiagnet2_net_dump", Commands: []string{"ibdiagnet2.net_dump"},
			Sniff: func(h []byte) bool { return ibdiagnetNetDumpSniffRe.Match(h) }, Stream: applyIBDiagnetNetDump,
			Priority: prio, MissingHint: hint, Groups: []string{"fabric_ports"}, NotLive: notLive, FabricWide: true},
		Spec{Name: "ibdiagnet2_pm", Commands: []string{"ibdiagnet2.pm"},
			Sniff: func(h []byte) bool { return ibdiagnetPMSniffRe.Match(h) }, Stream: applyIBDiagnetPM,
			Priority: prio, MissingHint: hint, Groups: []string{"fabric_ports", "fabric_counters"}, NotLive: notLive, FabricWide: true},
		Spec{Name: "ibdiagnet2_sm", Commands: []string{"ibdiagnet2.sm"},
			Sniff: func(h []byte) bool { return ibdiagnetSMSniffRe.Match(h) }, Apply: applyIBDiagnetSM,
			Priority: prio, MissingHint: hint, Groups: []string{"sminfo"}, NotLive: notLive, FabricWide: true},
	)
}

func applyIBDiagnetDB(s *facts.Snapshot, _ Input, r io.Reader) error {
	out, err := parse.IBDiagnetDB(r) // parse.Problems: what parsed is kept
	if _, ok := parse.AsProblems(err); err != nil && !ok {
		return err
	}
	for _, n := range out.Nodes {
		addFabricNode(s, n)
	}
	addFabricPorts(s, out.Ports)
	s.Fabric.Diagnostics = append(s.Fabric.Diagnostics, out.Diagnostics...)
	return err
}

func applyIBDiagnetNetDump(s *facts.Snapshot, _ Input, r io.Reader) error {
	ports, err := parse.IBDiagnetNetDump(r)
	if _, ok := parse.AsProblems(err); err != nil && !ok {
		return err
	}
	addFabricPorts(s, ports)
	return err
}

// applyIBDiagnetSM adds the SMs of ibdiagnet2.sm to the snapshot's SM answers, marked as
// ibdiagnet's (sent from no port of this host that the report names).
func applyIBDiagnetSM(s *facts.Snapshot, in Input) error {
	sms, err := parse.IBDiagnetSM(in.Data)
	if _, ok := parse.AsProblems(err); err != nil && !ok {
		return err
	}
	s.Fabric.SMInfo = append(s.Fabric.SMInfo, sms...)
	return err
}

func applyIBDiagnetPM(s *facts.Snapshot, _ Input, r io.Reader) error {
	ports, err := parse.IBDiagnetPM(r)
	if _, ok := parse.AsProblems(err); err != nil && !ok {
		return err
	}
	addFabricPorts(s, ports)
	return err
}

// addFabricPorts merges ports into s.Fabric.Ports: a port already there with the same node GUID
// and number, or the same port GUID and number, is the same port (facts already there win);
// a port GUID the fabric's ports map to a node GUID gives that node GUID.
func addFabricPorts(s *facts.Snapshot, ports []facts.FabricPort) {
	byNode, byPort := map[string]int{}, map[string]int{}
	nodeOf := map[string]string{} // port GUID -> node GUID
	key := func(g string, n int) string { return g + "/" + strconv.Itoa(n) }
	index := func(i int) {
		p := s.Fabric.Ports[i]
		if p.NodeGUID != "" {
			byNode[key(p.NodeGUID, p.Port)] = i
		}
		if p.PortGUID != "" {
			byPort[key(p.PortGUID, p.Port)] = i
			if p.NodeGUID != "" {
				nodeOf[p.PortGUID] = p.NodeGUID
			}
		}
	}
	for i := range s.Fabric.Ports {
		index(i)
	}
	for _, p := range ports {
		if p.NodeGUID == "" && nodeOf[p.PortGUID] != "" {
			p.NodeGUID = nodeOf[p.PortGUID]
		}
		i, ok := byNode[key(p.NodeGUID, p.Port)]
		if !ok || p.NodeGUID == "" {
			i, ok = byPort[key(p.PortGUID, p.Port)]
			ok = ok && p.PortGUID != ""
		}
		if ok {
			fill(reflect.ValueOf(&s.Fabric.Ports[i]).Elem(), reflect.ValueOf(p))
		} else {
			s.Fabric.Ports = append(s.Fabric.Ports, p)
			i = len(s.Fabric.Ports) - 1
		}
		index(i)
	}
	for i := range s.Fabric.Ports {
		p := &s.Fabric.Ports[i]
		if p.NodeDescription == "" || p.NodeType == "" {
			for _, n := range s.Fabric.Nodes {
				if n.GUID == p.NodeGUID && p.NodeGUID != "" {
					fill(reflect.ValueOf(p).Elem(), reflect.ValueOf(facts.FabricPort{NodeDescription: n.Description, NodeType: n.Type}))
					break
				}
			}
		}
	}
}
