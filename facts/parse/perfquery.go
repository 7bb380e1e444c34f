package parse

import (
	"math"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/internal/lazyregexp"
)

// PerfQueryOutput is what `perfquery` printed.
type PerfQueryOutput struct {
	Ports []facts.PerfCounters
	// Refusal is perfquery's own error, e.g. "mad_rpc_open_port: client_register for mgmt 1
	// failed" when the port has no InfiniBand management path (RoCE).
	Refusal *facts.ToolRefusal
}

// perfqueryNames maps perfquery's PortCounters / PortCountersExtended field names to the
// sysfs counters/ file names (kernel drivers/infiniband/core/sysfs.c), so rules can treat
// both sources alike.
var perfqueryNames = map[string]string{
	"SymbolErrorCounter":           "symbol_error",
	"LinkErrorRecoveryCounter":     "link_error_recovery",
	"LinkDownedCounter":            "link_downed",
	"PortRcvErrors":                "port_rcv_errors",
	"PortRcvRemotePhysicalErrors":  "port_rcv_remote_physical_errors",
	"PortRcvSwitchRelayErrors":     "port_rcv_switch_relay_errors",
	"PortXmitDiscards":             "port_xmit_discards",
	"PortXmitConstraintErrors":     "port_xmit_constraint_errors",
	"PortRcvConstraintErrors":      "port_rcv_constraint_errors",
	"LocalLinkIntegrityErrors":     "local_link_integrity_errors",
	"ExcessiveBufferOverrunErrors": "excessive_buffer_overrun_errors",
	"VL15Dropped":                  "VL15_dropped",
	"PortXmitData":                 "port_xmit_data",
	"PortRcvData":                  "port_rcv_data",
	"PortXmitPkts":                 "port_xmit_packets",
	"PortRcvPkts":                  "port_rcv_packets",
	"PortXmitWait":                 "port_xmit_wait",
	"PortUnicastXmitPkts":          "unicast_xmit_packets",
	"PortUnicastRcvPkts":           "unicast_rcv_packets",
	"PortMulticastXmitPkts":        "multicast_xmit_packets",
	"PortMulticastRcvPkts":         "multicast_rcv_packets",
}

var (
	perfqueryHeadRe    = lazyregexp.New(`^# Port (?:extended )?counters: (?:Lid (\d+) )?.*?port (\d+)`)
	perfqueryCounterRe = lazyregexp.New(`^(\w+):\.*\s*(\S+)\s*$`)
)

// PerfQuery parses the output of `perfquery` and `perfquery -x` (rdma-core
// infiniband-diags/perfquery.c):
//
//	# Port counters: Lid 1 port 1 (CapMask: 0x1600)
//	PortSelect:......................1
//	SymbolErrorCounter:..............0
//	...
//	PortXmitWait:....................441
//
// Counters are keyed by sysfs name (symbol_error, port_xmit_packets, ...); select fields and
// counters without a sysfs twin (QP1Dropped) are skipped. Each "# Port ... counters" header
// starts a new record.
func PerfQuery(b []byte) (PerfQueryOutput, error) {
	var out PerfQueryOutput
	var cur *facts.PerfCounters
	for _, l := range Lines(b) {
		t := strings.TrimSpace(l.Text)
		if m := perfqueryHeadRe.FindStringSubmatch(t); m != nil {
			out.Ports = append(out.Ports, facts.PerfCounters{Counters: map[string]int64{}})
			cur = &out.Ports[len(out.Ports)-1]
			if m[1] != "" {
				cur.LID = atoiPtr(m[1])
				cur.Evidence.Set("lid", l.Evidence())
			}
			cur.Port = atoiPtr(m[2])
			cur.Evidence.Set("port", l.Evidence())
			continue
		}
		if r := ibRefusal(l); r != nil {
			if out.Refusal == nil {
				r.Tool = "perfquery"
				out.Refusal = r
			}
			continue
		}
		m := perfqueryCounterRe.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		name, ok := perfqueryNames[m[1]]
		if !ok {
			continue
		}
		if cur == nil {
			// A capture that lost its header still holds one port's counters.
			out.Ports = append(out.Ports, facts.PerfCounters{Counters: map[string]int64{}})
			cur = &out.Ports[len(out.Ports)-1]
		}
		v, err := strconv.ParseUint(m[2], 0, 64)
		if err != nil {
			return out, l.Errorf("%s: %v", m[1], err)
		}
		cur.Counters[name] = int64(min(v, math.MaxInt64))
		cur.Evidence.Set("counters."+name, l.Evidence())
	}
	return out, nil
}
