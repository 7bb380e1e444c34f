package parse_test

import (
	"testing"

	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestIBQueryErrors(t *testing.T) {
	out, err := parse.IBQueryErrors(fixtures.Read(t, "ibqueryerrors/sx6036-ceph-cluster.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Ports) != 14 {
		t.Fatalf("%d ports, want 14 (the summary's count; port ALL is not a port)", len(out.Ports))
	}
	sw5 := out.Ports[8]
	if sw5.NodeGUID != "0x0002c903006e29b0" || sw5.NodeType != "Switch" || sw5.NodeDescription != "MF0;switch01:SX6036/U1" || sw5.Port != 5 ||
		sw5.Counters["symbol_error"] != 65535 || sw5.Counters["link_error_recovery"] != 8 || sw5.Counters["port_xmit_discards"] != 649 || sw5.Counters["port_xmit_wait"] != 84704351 {
		t.Errorf("switch port 5: %+v", sw5)
	}
	if _, ok := sw5.Counters["port_rcv_errors"]; ok {
		t.Error("a counter ibqueryerrors did not print is unknown, not 0")
	}
	ca := out.Ports[0]
	if ca.NodeGUID != "" || ca.PortGUID != "0x7cfe900300179b31" || ca.NodeDescription != "node01 mlx4_0" || ca.Counters["VL15_dropped"] != 14 {
		t.Errorf("CA port: %+v", ca)
	}
}

func TestIBQueryErrorsDamageNamed(t *testing.T) {
	const f = "ibqueryerrors/sx6036-ceph-cluster.txt"
	t.Run("a port line dropped", func(t *testing.T) {
		_, err := parse.IBQueryErrors(damaged(t, f, dropLine(13)))
		wantProblems(t, err, []int{0}, "13 port lines")
	})
	t.Run("cut before the summary", func(t *testing.T) {
		_, err := parse.IBQueryErrors(damaged(t, f, cutAt("## Summary", 0)))
		wantProblems(t, err, []int{0}, "cut")
	})
	t.Run("a value made a word", func(t *testing.T) {
		_, err := parse.IBQueryErrors(damaged(t, f, swap("[SymbolErrorCounter == 65535]", "[SymbolErrorCounter == fifty]")))
		wantProblems(t, err, []int{13}, "do not read")
	})
}

func FuzzIBQueryErrors(f *testing.F) {
	ibSeed(f, "ibqueryerrors")
	f.Fuzz(func(t *testing.T, b []byte) {
		parse.IBQueryErrors(b) //nolint:errcheck // only panics matter here
	})
}
