package parse_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

const ibdiag301 = "corpus/301-ndr-cx7-quantum2-fabric-ibdiagnet2-full-run-switch-fw-mismatch-dup-nodedesc/"

func TestIBDiagnetDB(t *testing.T) {
	out, err := parse.IBDiagnetDB(bytes.NewReader(fixtures.Read(t, ibdiag301+"ibdiagnet2.db_csv")))
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Nodes) != 272 || len(out.Ports) != 542 {
		t.Fatalf("%d nodes, %d ports; want 272 and 542", len(out.Nodes), len(out.Ports))
	}
	byGUID := map[string]facts.FabricNode{}
	switches := 0
	for _, n := range out.Nodes {
		byGUID[n.GUID] = n
		if n.Type == "Switch" {
			switches++
		}
	}
	if switches != 9 {
		t.Errorf("%d switches, want 9", switches)
	}
	for guid, want := range map[string][3]string{
		"0xfc6a1c030091cf00": {"Quantum-2 Mellanox Technologies", "MT_0000000579", "31.2012.1024"},
		"0xb0cf0e0300e5b940": {"Quantum-2 Mellanox Technologies", "MT_0000000579", "31.2012.1068"},
		"0xb0cf0e0300d33fc0": {"MF0;ib-switch-sequoia:MQM9700/U1", "MT_0000000577", "31.2012.1024"},
		"0x5c25730300e6706e": {"node01 mlx5_8", "MT_0000001120", "28.40.1000"},
	} {
		n := byGUID[guid]
		if got := [3]string{n.Description, n.PSID, n.FirmwareVersion}; got != want || n.DeviceID == nil {
			t.Errorf("%s: got %v device %v, want %v", guid, got, n.DeviceID, want)
		}
	}
	if ev := byGUID["0xb0cf0e0300e5b940"].FieldEvidence["firmware_version"]; ev.Line != 5057 || !strings.HasPrefix(ev.Text, "0xb0cf0e0300e5b940,0xd2f2,") {
		t.Errorf("firmware evidence %+v", ev)
	}
	events := map[string]int{}
	for _, d := range out.Diagnostics {
		events[d.Check+" "+d.Event]++
	}
	if events["FW_CHECK NODE_WRONG_FW_VERSION"] != 7 || events["DUPLICATED_NODE_DESCRIPTION_DETECTION NODE_DUPLICATED_NODE_DESC"] != 8 {
		t.Errorf("diagnostics %v", events)
	}
	for _, p := range out.Ports {
		if p.NodeGUID == "" || p.State != "Active" || p.WidthLanes == nil || *p.WidthLanes != 4 || p.CounterDeltas == nil {
			t.Fatalf("port %+v", p)
		}
	}
}

func TestIBDiagnetDBDamageNamed(t *testing.T) {
	const f = ibdiag301 + "ibdiagnet2.db_csv"
	for name, edit := range map[string]func([]byte) []byte{
		"a NODES_INFO row dropped": dropLine(5057),
		"a NODES row repeated": func(b []byte) []byte {
			return bytes.Replace(b, []byte("\"node01 mlx5_8\""), []byte("\"node01 mlx5_8\",1,1,1,1,0x5c25730300e6706e,0x5c25730300e6706e,0x5c25730300e6706e,4129,128,0,713,1\n\"node01 mlx5_8\""), 1)
		},
		"cut before the index": cutAt("START_INDEX_TABLE", 3),
	} {
		_, err := parse.IBDiagnetDB(bytes.NewReader(damaged(t, f, edit)))
		if _, ok := parse.AsProblems(err); !ok {
			t.Errorf("%s: err = %v, want the loss named", name, err)
		}
	}
}

func TestIBDiagnetPM(t *testing.T) {
	ports, err := parse.IBDiagnetPM(bytes.NewReader(fixtures.Read(t, ibdiag301+"ibdiagnet2.pm")))
	if err != nil {
		t.Fatal(err)
	}
	if len(ports) != 542 {
		t.Fatalf("%d ports, want 542", len(ports))
	}
	for _, p := range ports {
		if p.PortGUID != "0xc470bd0300100612" {
			continue
		}
		c := p.Counters
		if p.Port != 1 || *p.LID != 0x49 || c["symbol_error"] != 65535 || c["port_rcv_errors"] != 131 || c["link_downed"] != 0 {
			t.Errorf("node25 mlx5_9: %+v", p)
		}
		if _, ok := c["VL15_dropped"]; !ok {
			t.Error("a zero counter is kept as 0")
		}
		if ev := p.Evidence["counters.symbol_error"]; ev.Line != 18445 || ev.Text != "symbol_error_counter=0x0000ffff" {
			t.Errorf("evidence %+v", ev)
		}
		return
	}
	t.Fatal("node25 mlx5_9 not read")
}

func TestIBDiagnetPMDamageNamed(t *testing.T) {
	const f = ibdiag301 + "ibdiagnet2.pm"
	t.Run("a counter line dropped", func(t *testing.T) {
		_, err := parse.IBDiagnetPM(bytes.NewReader(damaged(t, f, dropLine(18445))))
		wantProblems(t, err, []int{18441}, "without symbol_error_counter")
	})
	t.Run("cut", func(t *testing.T) {
		_, err := parse.IBDiagnetPM(bytes.NewReader(damaged(t, f, cutAt("symbol_error_counter=0x0000ffff", 25))))
		ps, ok := parse.AsProblems(err)
		if !ok || !strings.Contains(ps.Error(), "File closed at") && !strings.Contains(ps[len(ps)-1].Why, "File closed at") {
			t.Errorf("err = %v, want the cut named", err)
		}
	})
	t.Run("a value made a word", func(t *testing.T) {
		_, err := parse.IBDiagnetPM(bytes.NewReader(damaged(t, f, swap("symbol_error_counter=0x0000ffff", "symbol_error_counter=fifty"))))
		wantProblems(t, err, []int{18445}, "not a number")
	})
}

func TestIBDiagnetNetDump(t *testing.T) {
	ports, err := parse.IBDiagnetNetDump(bytes.NewReader(fixtures.Read(t, "ibdiagnet2/net-dump-hdr-mqm8700-excerpt.txt")))
	// the excerpt stops after 8 ports: no closing line, named
	wantProblems(t, err, []int{0}, "File closed at")
	if len(ports) != 8 {
		t.Fatalf("%d ports, want 8", len(ports))
	}
	p := ports[0]
	if p.NodeGUID != "0x1070fd03001adeb4" || p.NodeDescription != "MF0;DSM09-0101-0603-40IB1:MQM8700/U1" || *p.LID != 24328 || p.Port != 1 ||
		p.State != "Active" || p.PhysicalState != "LinkUp" || *p.WidthLanes != 4 || *p.LaneSpeedGbps != 50 || p.FEC != "MLNX_RS_271_257_PLR" ||
		p.PeerGUID != "0x0c42a10300dbfb92" || p.PeerLabel != "40" || *p.PeerLID != 25697 || p.PeerDescription != "MF0;dsm09-0101-0602-01ib0:MQM8700/U1" {
		t.Errorf("port 1: %+v", p)
	}

	ports, err = parse.IBDiagnetNetDump(bytes.NewReader(fixtures.Read(t, ibdiag301+"ibdiagnet2.net_dump")))
	if err != nil {
		t.Fatal(err)
	}
	active, down := 0, 0
	for _, p := range ports {
		switch {
		case p.State == "Active" && *p.WidthLanes == 4 && *p.LaneSpeedGbps == 100:
			active++
		case p.State == "Down" && p.PhysicalState == "Polling" && p.WidthLanes == nil:
			down++
		}
	}
	if len(ports) != 585 || active != 279 || down != 306 {
		t.Errorf("%d ports, %d Active 4x100, %d Down/Polling; want 585, 279, 306", len(ports), active, down)
	}
}

func TestIBDiagnetNetDumpDamageNamed(t *testing.T) {
	const f = ibdiag301 + "ibdiagnet2.net_dump"
	_, err := parse.IBDiagnetNetDump(bytes.NewReader(damaged(t, f, swap(": ACT  : LINK UP    : 5   : 4x", ": ACT  : LINK UP    : 5   : fiftyx"))))
	wantProblems(t, err, []int{17}, "width")
	// its _ext sibling (another table) is not read as a net_dump
	ports, err := parse.IBDiagnetNetDump(bytes.NewReader(fixtures.Read(t, ibdiag301+"ibdiagnet2.net_dump_ext")))
	if len(ports) != 0 || err != nil {
		t.Errorf("net_dump_ext: %d ports, %v", len(ports), err)
	}
}
