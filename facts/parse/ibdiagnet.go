package parse

import (
	"strconv"
	"strings"
)

// MaxFabricPorts caps the ports kept from one ibdiagnet2 file (a fabric of 2,000 switches of
// 64 ports); the rest are read and counted, and the file is reported partial.
const MaxFabricPorts = 150000

// ibdiagnetClosed starts the last line ibdiagnet writes to each of its text files
// ("# File closed at : 2025-03-31 23:43:19 UTC +0000"): without it the file was cut.
const ibdiagnetClosed = "# File closed at"

// ibdiagnetStates are net_dump's port states ("Sta") in ibstat's words.
var ibdiagnetStates = map[string]string{"ACT": "Active", "DOWN": "Down", "INI": "Initializing", "ARM": "Armed"}

// ibdiagnetPhysStates are net_dump's physical states ("PhysSta") in ibstat's words.
var ibdiagnetPhysStates = map[string]string{"LINK UP": "LinkUp", "POLL": "Polling", "DISABLED": "Disabled",
	"SLEEP": "Sleep", "TRAINING": "PortConfigurationTraining", "LINK ERROR RECOVERY": "LinkErrorRecovery", "PHY TEST": "PhyTest"}

// ibdiagnetWidths decodes PortInfo LinkWidthSupported/LinkWidthActive bits (IBA 14.2.5.6; 2x
// is bit 4, added for HDR100).
var ibdiagnetWidths = []struct{ bit, lanes int }{{1, 1}, {16, 2}, {2, 4}, {4, 8}, {8, 12}}

func widthsOf(mask int) []int {
	var out []int
	for _, w := range ibdiagnetWidths {
		if mask&w.bit != 0 {
			out = append(out, w.lanes)
		}
	}
	return out
}

// ibdiagnetNodeTypes are db_csv NODES NodeType values (IBA NodeInfo NodeType).
var ibdiagnetNodeTypes = map[string]string{"1": "CA", "2": "Switch", "3": "Router"}

// splitCSV splits one line of ibdiagnet2.db_csv: comma separated, a field may be double-quoted
// (node descriptions and summaries, which can hold commas), "" inside quotes is a quote. ok is
// false when a quote is not closed.
func splitCSV(s string) (fields []string, ok bool) {
	var b strings.Builder
	for {
		if strings.HasPrefix(s, `"`) {
			s = s[1:]
			b.Reset()
			for {
				i := strings.IndexByte(s, '"')
				if i < 0 {
					return fields, false
				}
				b.WriteString(s[:i])
				s = s[i+1:]
				if strings.HasPrefix(s, `"`) {
					b.WriteByte('"')
					s = s[1:]
					continue
				}
				break
			}
			fields = append(fields, b.String())
			if s == "" {
				return fields, true
			}
			if s[0] != ',' {
				return fields, false
			}
			s = s[1:]
			continue
		}
		i := strings.IndexByte(s, ',')
		if i < 0 {
			return append(fields, s), true
		}
		fields = append(fields, s[:i])
		s = s[i+1:]
	}
}

// hexOrDec reads "0x0000ffff" or "54002" as a non-negative number.
func hexOrDec(s string) (int64, bool) {
	v, err := strconv.ParseUint(strings.TrimSpace(s), 0, 64)
	if err != nil || v > 1<<62 {
		return 0, false
	}
	return int64(v), true
}

// ibdiagnetCounterNames maps ibdiagnet2's PortCounters names (ibdiagnet2.pm keys, db_csv PM_*
// columns) to the sysfs counters/ names the host rules use (kernel drivers/infiniband/core/sysfs.c).
// Only the 16/32-bit PortCounters fields are read: the *_extended ones are another counter set
// (PortCountersExtended / AdditionalPortCountersExtended) that a device may keep apart (corpus
// 301: symbol_error_counter=0xffff beside symbol_error_counter_extended=0).
var ibdiagnetCounterNames = map[string]string{
	"link_down_counter":               "link_downed",
	"LinkDownedCounter":               "link_downed",
	"link_error_recovery_counter":     "link_error_recovery",
	"LinkErrorRecoveryCounter":        "link_error_recovery",
	"symbol_error_counter":            "symbol_error",
	"SymbolErrorCounter":              "symbol_error",
	"port_rcv_remote_physical_errors": "port_rcv_remote_physical_errors",
	"PortRcvRemotePhysicalErrors":     "port_rcv_remote_physical_errors",
	"port_rcv_errors":                 "port_rcv_errors",
	"PortRcvErrors":                   "port_rcv_errors",
	"port_xmit_discard":               "port_xmit_discards",
	"PortXmitDiscards":                "port_xmit_discards",
	"port_rcv_switch_relay_errors":    "port_rcv_switch_relay_errors",
	"PortRcvSwitchRelayErrors":        "port_rcv_switch_relay_errors",
	"excessive_buffer_errors":         "excessive_buffer_overrun_errors",
	"ExcessiveBufferOverrunErrors":    "excessive_buffer_overrun_errors",
	"local_link_integrity_errors":     "local_link_integrity_errors",
	"LocalLinkIntegrityErrors":        "local_link_integrity_errors",
	"port_rcv_constraint_errors":      "port_rcv_constraint_errors",
	"PortRcvConstraintErrors":         "port_rcv_constraint_errors",
	"port_xmit_constraint_errors":     "port_xmit_constraint_errors",
	"PortXmitConstraintErrors":        "port_xmit_constraint_errors",
	"vl15_dropped":                    "VL15_dropped",
	"VL15Dropped":                     "VL15_dropped",
	"port_xmit_wait":                  "port_xmit_wait",
	"PortXmitWait":                    "port_xmit_wait",
}
