package parse

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rdmadoctor/rdmadoctor/facts"
)

// IBDiagnetDBOutput is what this project reads of an ibdiagnet2.db_csv.
type IBDiagnetDBOutput struct {
	// Nodes from NODES (description, type, device id) and NODES_INFO (PSID, firmware).
	Nodes []facts.FabricNode
	// Ports from PORTS (LID, state, active and supported width) and PM_DELTA (the counters'
	// increase between ibdiagnet's two reads), by port GUID and number; port 0 of a switch (its
	// management port, no link) is left out.
	Ports []facts.FabricPort
	// Diagnostics are the rows of every WARNINGS_* and ERRORS_* section.
	Diagnostics []facts.FabricDiagnostic
}

// dbSection is the section being read.
type dbSection struct {
	name    string
	cols    map[string]int
	ncols   int
	header  int // line of the column header
	rows    int
	indexed bool
}

// dbIndexEntry is one row of INDEX_TABLE: where ibdiagnet wrote a section's header and how many
// rows it wrote.
type dbIndexEntry struct {
	line, rows int
}

// IBDiagnetDB reads ibdiagnet2.db_csv (NVIDIA ibdiagnet 2.x, /var/tmp/ibdiagnet2/), line by line:
//
//	# INDEX_TABLE offset:      965824, line:        6214
//	START_NODES
//	NodeDesc,NumPorts,NodeType,ClassVersion,BaseVersion,SystemImageGUID,NodeGUID,PortGUID,DeviceID,...
//	"Quantum-2 Mellanox Technologies",65,2,1,1,0xfc6a1c030091cf00,0xfc6a1c030091cf00,0xfc6a1c030091cf00,54002,...
//	END_NODES
//	START_WARNINGS_FW_CHECK
//	Scope,NodeGUID,PortGUID,PortNumber,EventName,Summary
//	NODE,0xfc6a1c030091cf00,0x00,0x00,NODE_WRONG_FW_VERSION,"Node with Devid:54002(0xd2f2)-PSID:MT_0000000579 has FW version ..."
//	END_WARNINGS_FW_CHECK
//	START_INDEX_TABLE
//	Name, Offset, Size, Line, Rows
//	NODES,        1392,       30998,          30,         272
//	END_INDEX_TABLE
//
// Columns are found by their header names, so a version with other columns reads the same. The
// sections read are NODES, NODES_INFO, PORTS, PM_DELTA, WARNINGS_* and ERRORS_*; the others are
// skipped. INDEX_TABLE, which ibdiagnet writes last, says on which line each section's header is
// and how many rows it has: a section that disagrees lost or repeated lines, and a file without
// it was cut; both are problems, like a row with the wrong number of fields or a number that does
// not parse. Ports beyond MaxFabricPorts are counted, not kept.
func IBDiagnetDB(r io.Reader) (IBDiagnetDBOutput, error) {
	var out IBDiagnetDBOutput
	var probs problems
	var sec *dbSection
	seen := map[string]dbIndexEntry{} // sections read: header line and rows
	index := map[string]dbIndexEntry{}
	indexDone, dropped := false, 0
	nodeAt := map[string]int{}
	portAt := map[string]int{}
	node := func(guid string) *facts.FabricNode {
		if i, ok := nodeAt[guid]; ok {
			return &out.Nodes[i]
		}
		nodeAt[guid] = len(out.Nodes)
		out.Nodes = append(out.Nodes, facts.FabricNode{GUID: guid})
		return &out.Nodes[len(out.Nodes)-1]
	}
	port := func(portGUID string, n int) *facts.FabricPort {
		k := portGUID + "/" + strconv.Itoa(n)
		if i, ok := portAt[k]; ok {
			return &out.Ports[i]
		}
		if len(out.Ports) >= MaxFabricPorts {
			dropped++
			return nil
		}
		portAt[k] = len(out.Ports)
		out.Ports = append(out.Ports, facts.FabricPort{PortGUID: portGUID, Port: n})
		return &out.Ports[len(out.Ports)-1]
	}
	err := EachLine(r, func(l Line) {
		t := l.Text
		switch {
		case sec == nil && strings.HasPrefix(t, "START_"):
			sec = &dbSection{name: strings.Clone(t[len("START_"):])}
			return
		case sec == nil:
			return // the "# INDEX_TABLE offset" line, blank lines between sections
		case t == "END_"+sec.name:
			seen[sec.name] = dbIndexEntry{sec.header, sec.rows}
			if sec.name == "INDEX_TABLE" {
				indexDone = true
			}
			sec = nil
			return
		case strings.HasPrefix(t, "START_") || strings.HasPrefix(t, "END_"):
			probs.add(Line{N: l.N, Text: strings.Clone(t)}, "section %s has no END_%s before this line: the file lost lines", sec.name, sec.name)
			sec = nil
			if strings.HasPrefix(t, "START_") {
				sec = &dbSection{name: strings.Clone(t[len("START_"):])}
			}
			return
		}
		if sec.cols == nil {
			sec.header = l.N
			sec.cols = map[string]int{}
			names, _ := splitCSV(strings.Clone(t)) // l.Text is only valid during the call
			for i, c := range names {
				sec.cols[strings.TrimSpace(c)] = i
			}
			sec.ncols = len(names)
			return
		}
		sec.rows++
		if !dbRead(sec.name) {
			return
		}
		l.Text = strings.Clone(l.Text) // EachLine's text is only valid during the call
		t = l.Text
		if strings.ContainsRune(t, utf8.RuneError) {
			probs.add(l, "holds a byte that is not UTF-8: the capture was damaged here")
			return
		}
		f, ok := splitCSV(t)
		if !ok || len(f) != sec.ncols {
			probs.add(l, "%s row has %d fields, its header %d", sec.name, len(f), sec.ncols)
			return
		}
		row := dbRow{sec: sec, f: f, l: l, probs: &probs}
		switch {
		case sec.name == "INDEX_TABLE":
			line, ok1 := row.int("Line")
			rows, ok2 := row.int("Rows")
			if ok1 && ok2 {
				index[strings.Clone(strings.TrimSpace(row.str("Name")))] = dbIndexEntry{line, rows}
			}
		case sec.name == "NODES":
			dbNode(node, row)
		case sec.name == "NODES_INFO":
			dbNodeInfo(node, row)
		case sec.name == "PORTS":
			dbPort(port, row)
		case sec.name == "PM_DELTA":
			dbDelta(port, row)
		default:
			out.Diagnostics = append(out.Diagnostics, dbDiagnostic(sec.name, row))
		}
	})
	if err != nil {
		return out, err
	}
	if sec != nil {
		probs.add(Line{}, "section %s has no END_%s: the file was cut", sec.name, sec.name)
	}
	if !indexDone {
		probs.add(Line{}, "no INDEX_TABLE at the end (ibdiagnet writes it last): the file was cut")
	}
	for name, want := range index {
		got, ok := seen[name]
		switch {
		case !ok && dbRead(name):
			probs.add(Line{}, "section %s is in INDEX_TABLE but not in the file: the file lost it", name)
		case ok && (got.line != want.line || got.rows != want.rows):
			probs.add(Line{}, "section %s has its header on line %d and %d rows, INDEX_TABLE says line %d and %d rows: the file lost or repeated lines", name, got.line, got.rows, want.line, want.rows)
		}
	}
	if dropped > 0 {
		probs.add(Line{}, "%d ports beyond the first %d not kept", dropped, MaxFabricPorts)
	}
	descs := map[string]string{}
	for _, n := range out.Nodes {
		descs[n.GUID] = n.Description
	}
	for i := range out.Ports {
		p := &out.Ports[i]
		p.NodeDescription = descs[p.NodeGUID]
		if i, ok := nodeAt[p.NodeGUID]; ok {
			p.NodeType = out.Nodes[i].Type
		}
	}
	return out, probs.err()
}

// dbRead reports whether section name is one this parser reads.
func dbRead(name string) bool {
	switch name {
	case "INDEX_TABLE", "NODES", "NODES_INFO", "PORTS", "PM_DELTA":
		return true
	}
	return strings.HasPrefix(name, "WARNINGS_") || strings.HasPrefix(name, "ERRORS_")
}

// dbRow is one row of a section, its fields by column name.
type dbRow struct {
	sec   *dbSection
	f     []string
	l     Line
	probs *problems
}

func (r dbRow) str(col string) string {
	if i, ok := r.sec.cols[col]; ok {
		return r.f[i]
	}
	return ""
}

func (r dbRow) has(col string) bool { _, ok := r.sec.cols[col]; return ok }

// int reads a number column; a missing column is not ok, a value that does not parse is a problem.
func (r dbRow) int(col string) (int, bool) {
	v, ok := r.int64(col)
	return int(v), ok
}

func (r dbRow) int64(col string) (int64, bool) {
	if !r.has(col) {
		return 0, false
	}
	v, ok := hexOrDec(r.str(col))
	if !ok {
		r.probs.add(r.l, "%s %s %q is not a number", r.sec.name, col, r.str(col))
	}
	return v, ok
}

func (r dbRow) guid(col string) (string, bool) {
	g, ok := GUID(r.str(col))
	if !ok && r.has(col) {
		r.probs.add(r.l, "%s %s %q is not a GUID", r.sec.name, col, r.str(col))
	}
	return g, ok
}

func (r dbRow) evidence() facts.Evidence {
	return facts.Evidence{Line: r.l.N, Text: strings.Clone(r.l.Text)}
}

func dbNode(node func(string) *facts.FabricNode, r dbRow) {
	g, ok := r.guid("NodeGUID")
	if !ok {
		return
	}
	n := node(g)
	n.Description = strings.Clone(r.str("NodeDesc"))
	n.Type = ibdiagnetNodeTypes[r.str("NodeType")]
	n.Evidence = r.evidence()
	if v, ok := r.int("NumPorts"); ok {
		n.Ports = &v
	}
	if v, ok := r.int("DeviceID"); ok {
		n.DeviceID = &v
		n.FieldEvidence.Set("device_id", n.Evidence)
	}
}

func dbNodeInfo(node func(string) *facts.FabricNode, r dbRow) {
	g, ok := r.guid("NodeGUID")
	if !ok {
		return
	}
	n := node(g)
	if psid := r.str("FWInfo_PSID"); psid != "" {
		n.PSID = strings.Clone(psid)
	}
	maj, ok1 := r.int("FWInfo_Extended_Major")
	minor, ok2 := r.int("FWInfo_Extended_Minor")
	sub, ok3 := r.int("FWInfo_Extended_SubMinor")
	if ok1 && ok2 && ok3 {
		// as mlx5 fw_ver and ibdiagnet print it: 31.2012.1024, 28.40.1000
		n.FirmwareVersion = fmt.Sprintf("%d.%d.%04d", maj, minor, sub)
		n.FieldEvidence.Set("firmware_version", r.evidence())
	}
}

// dbPortStates are PortInfo PortState and PortPhysicalState values (IBA 14.2.5.6).
var (
	dbPortStates = map[int]string{1: "Down", 2: "Initializing", 3: "Armed", 4: "Active"}
	dbPhysStates = map[int]string{1: "Sleep", 2: "Polling", 3: "Disabled", 4: "PortConfigurationTraining", 5: "LinkUp", 6: "LinkErrorRecovery", 7: "PhyTest"}
)

func dbPort(port func(string, int) *facts.FabricPort, r dbRow) {
	ng, ok1 := r.guid("NodeGuid")
	pg, ok2 := r.guid("PortGuid")
	n, ok3 := r.int("PortNum")
	if !ok1 || !ok2 || !ok3 || n == 0 {
		return
	}
	p := port(pg, n)
	if p == nil {
		return
	}
	ev := r.evidence()
	p.NodeGUID = ng
	if v, ok := r.int("LID"); ok && v > 0 {
		p.LID = &v
	}
	if v, ok := r.int("PortState"); ok && dbPortStates[v] != "" {
		p.State = dbPortStates[v]
		p.Evidence.Set("state", ev)
	}
	if v, ok := r.int("PortPhyState"); ok && dbPhysStates[v] != "" {
		p.PhysicalState = dbPhysStates[v]
		p.Evidence.Set("physical_state", ev)
	}
	if v, ok := r.int("LinkWidthActv"); ok && p.State == "Active" {
		if w := widthsOf(v); len(w) == 1 {
			p.WidthLanes = &w[0]
			p.Evidence.Set("width_lanes", ev)
		}
	}
	if v, ok := r.int("LinkWidthSup"); ok && v != 0 {
		p.SupportedWidths = widthsOf(v)
		p.Evidence.Set("supported_widths", ev)
	}
	if v, ok := r.int("LinkWidthEn"); ok && v != 0 {
		p.EnabledWidths = widthsOf(v)
		p.Evidence.Set("enabled_widths", ev)
	}
}

func dbDelta(port func(string, int) *facts.FabricPort, r dbRow) {
	pg, ok1 := r.guid("PortGUID")
	n, ok2 := r.int("PortNumber")
	if !ok1 || !ok2 || n == 0 {
		return
	}
	p := port(pg, n)
	if p == nil {
		return
	}
	if ng, ok := GUID(r.str("NodeGUID")); ok && p.NodeGUID == "" {
		p.NodeGUID = ng
	}
	for col, name := range ibdiagnetCounterNames {
		if !r.has(col) || r.str(col) == "N/A" || r.str(col) == "NA" {
			continue
		}
		v, ok := r.int64(col)
		if !ok {
			continue
		}
		if p.CounterDeltas == nil {
			p.CounterDeltas = map[string]int64{}
		}
		p.CounterDeltas[name] = v
		if v != 0 {
			p.Evidence.Set("counter_deltas."+name, r.evidence())
		}
	}
}

func dbDiagnostic(section string, r dbRow) facts.FabricDiagnostic {
	level, check := "warning", strings.TrimPrefix(section, "WARNINGS_")
	if strings.HasPrefix(section, "ERRORS_") {
		level, check = "error", strings.TrimPrefix(section, "ERRORS_")
	}
	d := facts.FabricDiagnostic{Level: level, Check: check, Scope: strings.Clone(r.str("Scope")),
		Event: strings.Clone(r.str("EventName")), Summary: strings.Clone(r.str("Summary")), Evidence: r.evidence()}
	if g, ok := GUID(r.str("NodeGUID")); ok && g != "0x0000000000000000" {
		d.NodeGUID = g
	}
	if g, ok := GUID(r.str("PortGUID")); ok && g != "0x0000000000000000" {
		d.PortGUID = g
	}
	if v, ok := hexOrDec(r.str("PortNumber")); ok && v > 0 {
		n := int(v)
		d.Port = &n
	}
	return d
}
