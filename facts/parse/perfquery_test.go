package parse_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
	"github.com/rdmadoctor/rdmadoctor/fixtures"
)

func TestPerfQuery(t *testing.T) {
	got, err := parse.PerfQuery(fixtures.Read(t, "perfquery/cx4-lab-capmask-0x1600.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Ports) != 1 {
		t.Fatalf("got %d records", len(got.Ports))
	}
	pc := got.Ports[0]
	want := map[string]int64{
		"symbol_error": 0, "link_error_recovery": 0, "link_downed": 0, "port_rcv_errors": 0,
		"port_rcv_remote_physical_errors": 0, "port_rcv_switch_relay_errors": 0, "port_xmit_discards": 0,
		"port_xmit_constraint_errors": 0, "port_rcv_constraint_errors": 0, "local_link_integrity_errors": 0,
		"excessive_buffer_overrun_errors": 0, "VL15_dropped": 0, "port_xmit_data": 16576648, "port_rcv_data": 7669,
		"port_xmit_packets": 32009, "port_rcv_packets": 1012, "port_xmit_wait": 441,
	}
	if diff := cmp.Diff(want, pc.Counters); diff != "" {
		t.Errorf("counters (-want +got):\n%s", diff)
	}
	head := ibEv(1, "# Port counters: Lid 1 port 1 (CapMask: 0x1600)")
	if diff := cmp.Diff([]any{1, 1, head, ibEv(22, "PortXmitWait:....................441")},
		[]any{*pc.LID, *pc.Port, pc.Evidence["lid"], pc.Evidence["counters.port_xmit_wait"]}); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestPerfQueryExtended(t *testing.T) {
	got, err := parse.PerfQuery(fixtures.Read(t, "perfquery/rhel75-extended.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Ports) != 1 || *got.Ports[0].LID != 10 || len(got.Ports[0].Counters) != 21 {
		t.Errorf("got %d records, lid %v, %d counters; want 1, 10, 21", len(got.Ports), got.Ports[0].LID, len(got.Ports[0].Counters))
	}
	if _, ok := got.Ports[0].Counters["unicast_xmit_packets"]; !ok {
		t.Error("unicast_xmit_packets missing")
	}
}

// perfquery on a RoCE port (corpus 114): the tool's own error is a refusal.
func TestPerfQueryRefusal(t *testing.T) {
	got, err := parse.PerfQuery(fixtures.Read(t, "perfquery/client-register-failed.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := parse.PerfQueryOutput{Refusal: &facts.ToolRefusal{Tool: "perfquery",
		Message:  "ibwarn: [299010] mad_rpc_open_port: client_register for mgmt 1 failed",
		Evidence: ibEv(1, "ibwarn: [299010] mad_rpc_open_port: client_register for mgmt 1 failed")}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func FuzzPerfQuery(f *testing.F) {
	ibSeed(f, "perfquery")
	f.Fuzz(func(t *testing.T, b []byte) {
		parse.PerfQuery(b) //nolint:errcheck // only panics matter here
	})
}
